#pragma once
// FakeTensorMode: a dispatch mode that computes nothing. Every op that reaches it runs its Meta kernel
// on shape-only twins of its arguments, and returns fake tensors: they report the real device, dtype,
// shape and strides, carry no data, and allocate no memory for it. A whole MLP forward and backward
// can be shape-checked this way, autograd included (the mode sits below it).
//
//   mt::DispatchModeGuard guard(std::make_shared<mt::FakeTensorMode>());
//   mt::Tensor x = mt::randn({64, 784});               // fake: reports cpu, has no data
//   mt::Tensor y = model->forward(x);                  // shapes only
//
// Real tensors may be read by ops under the mode (a model's parameters), but not written: an in-place
// op on one is an error. A fake tensor used after its mode has exited is an error too; item() and
// printing say it has no data.
#include "dispatch/modes/DispatchMode.h"

namespace mt {

// A Meta tensor with `t`'s geometry: what the Meta kernels compute with (also functionalize's check
// that a mutation is valid before it is removed).
Tensor meta_twin(const Tensor& t);
// Redispatching with these keys runs an op's Meta kernel.
constexpr DispatchKeySet meta_kernel_keys =
    DispatchKeySet(DispatchKey::Dense) | DispatchKeySet(BackendComponent::MetaBit);

class FakeTensorMode : public DispatchMode {
 public:
  void dispatch(const OperatorHandle& op, DispatchKeySet ks, Stack& stack) override;

  // A fake tensor like `real`: same device, dtype, shape, strides and offset.
  static Tensor from_tensor(const Tensor& real);
};

inline bool is_fake(const Tensor& t) { return t.defined() && t.unsafeGetTensorImpl()->is_fake(); }

}  // namespace mt
