#pragma once
// The ADInplaceOrView layer: an operator that writes to a tensor argument (add_, copy_, the out=
// forms...) bumps that tensor's version counter, shared with its views, so that a backward that saved
// the old value can tell it changed. Registered for every such operator by the generated
// RegisterInplaceOrView.cpp; every other operator falls through this key.
#include "dispatch/Library.h"

namespace mt::autograd {

CppFunction bump_versions_of_written_tensors();

}  // namespace mt::autograd
