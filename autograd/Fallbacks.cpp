// The autograd layer's defaults for operators that register nothing at its keys. Until an operator has
// a derivative formula (an Autograd kernel) or in-place/view bookkeeping (an ADInplaceOrView kernel),
// these keys are skipped for it.
#include "dispatch/Library.h"

MT_LIBRARY_IMPL(_, Autograd, m) { m.fallback(mt::CppFunction::makeFallthrough()); }

MT_LIBRARY_IMPL(_, ADInplaceOrView, m) { m.fallback(mt::CppFunction::makeFallthrough()); }
