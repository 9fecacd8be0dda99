#pragma once
// InferenceMode: no_grad plus skipping the autograd layers entirely. Inside it, the Autograd keys are
// excluded in TLS and ADInplaceOrView is no longer included by default, and new tensors are inference
// tensors: their key sets lack Autograd and ADInplaceOrView and they have no version counter, so
// every later op on them skips those layers too. Normal tensors keep their ADInplaceOrView key, so
// in-place ops on them still bump their version counters.
#include "dispatch/LocalDispatchKeySet.h"
#include "autograd/GradMode.h"

namespace mt {

class InferenceMode {
 public:
  explicit InferenceMode(bool enabled = true);
  ~InferenceMode();
  InferenceMode(const InferenceMode&) = delete;
  InferenceMode& operator=(const InferenceMode&) = delete;

  static bool is_enabled();

 private:
  bool prev_grad_mode_;
  bool prev_inference_;
  LocalDispatchKeySet prev_keys_;
};

}  // namespace mt
