#pragma once
// The ADInplaceOrView layer: an operator that writes to a tensor argument (add_, copy_, the out=
// forms...) bumps that tensor's version counter, shared with its views, so that a backward that saved
// the old value can tell it changed. Registered for every such operator by the generated
// RegisterInplaceOrView.cpp. View ops (whose result aliases self, or whose results do: unbind, split)
// record the results' base and how they were made (CreationMeta) there, for the autograd layer to rebase
// history when a view is written in place. Every other operator falls through this key.
#include "dispatch/Library.h"

namespace mt::autograd {

CppFunction bump_versions_of_written_tensors();
CppFunction track_view_bases();

}  // namespace mt::autograd
