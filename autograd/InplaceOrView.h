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

// For a user's operator that has no ADInplaceOrView kernel of its own (PyTorch's function of the same
// name), registered per operator at DispatchKey::ADInplaceOrView: from the schema, it bumps the versions
// of the tensors written (Tensor(a!)) and records the views returned (Tensor(a) or Tensor(a)[]). Views
// must alias the first argument and be the first return; another schema is refused when called.
CppFunction autogradNotImplementedInplaceOrViewFallback();

}  // namespace mt::autograd
