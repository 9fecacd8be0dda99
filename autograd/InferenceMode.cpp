#include "autograd/InferenceMode.h"

#include "tensor/TensorImpl.h"

namespace mt {

InferenceMode::InferenceMode(bool enabled)
    : prev_grad_mode_(GradMode::is_enabled()),
      prev_inference_(is_inference_mode_enabled()),
      prev_keys_(tls_local_dispatch_key_set()) {
  GradMode::set_enabled(!enabled);
  detail::set_inference_mode_enabled(enabled);
  LocalDispatchKeySet keys = prev_keys_;
  if (enabled) {
    keys.included_ = keys.included_.remove(DispatchKey::ADInplaceOrView);
    keys.excluded_ = keys.excluded_ | autograd_dispatch_keyset;
  } else {
    keys.included_ = keys.included_.add(DispatchKey::ADInplaceOrView);
    keys.excluded_ = keys.excluded_ - autograd_dispatch_keyset;
  }
  tls_set_local_dispatch_key_set(keys);
}

InferenceMode::~InferenceMode() {
  GradMode::set_enabled(prev_grad_mode_);
  detail::set_inference_mode_enabled(prev_inference_);
  tls_set_local_dispatch_key_set(prev_keys_);
}

bool InferenceMode::is_enabled() { return is_inference_mode_enabled(); }

}  // namespace mt
