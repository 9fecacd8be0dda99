// BackendSelect only matters for factories, which have no tensor argument to take the backend from;
// every other operator skips it.
#include "dispatch/Library.h"

MT_LIBRARY_IMPL(_, BackendSelect, m) { m.fallback(mt::CppFunction::makeFallthrough()); }
