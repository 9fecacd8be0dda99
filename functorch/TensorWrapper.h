#pragma once
// TensorWrapper{value, level, immutable, alive}: a tensor inside a grad transform (grad, vjp, jvp and
// the Jacobians built on them). Each grad level wraps its tensors once more, so each level's wrapper
// carries its own AutogradMeta and records its own graph with the ordinary Autograd kernels:
// grad(grad(f)) differentiates two separate graphs, and a tensor captured from outside a level is
// lifted into it as an immutable constant (nothing at that level requires its gradient).
//
// A wrapper shows its value's shape, dtype and storage. Its key set is FuncTorchGradWrapper plus
// what a plain tensor on that device has (autograd, ADInplaceOrView, the backend), so that while its
// level processes an op the op reaches the Autograd kernels.
#include <cstdint>
#include <memory>

#include "dispatch/IValue.h"
#include "tensor/Tensor.h"

namespace mt::functorch {

class TensorWrapper : public TensorImpl {
 public:
  TensorWrapper(Tensor value, int64_t level, bool immutable, std::shared_ptr<const bool> alive);

  const Tensor& value() const { return value_; }
  int64_t level() const { return level_; }
  // A captured tensor lifted into a level: in-place ops on it (or on its views) are refused.
  bool is_immutable() const { return immutable_; }
  // False once the transform that made it returned: the wrapper then acts as its value.
  bool is_alive() const { return *alive_; }
  // Takes the value's geometry again (after an in-place op that changed it, e.g. unsqueeze_).
  void refresh_metadata();

  const TensorImpl& data_holder() override { return value_.unsafeGetTensorImpl()->data_holder(); }
  std::optional<WrapperRepr> wrapper_repr() const override { return value_.unsafeGetTensorImpl()->wrapper_repr(); }
  const void* alias_group() const override { return value_.unsafeGetTensorImpl()->alias_group(); }

 private:
  Tensor value_;
  int64_t level_;
  bool immutable_;
  std::shared_ptr<const bool> alive_;
};

// The TensorWrapper behind `t`, or nullptr when `t` is not one.
TensorWrapper* maybe_get_wrapper(const Tensor& t);

Tensor make_tensor_wrapper(Tensor value, int64_t level, bool immutable, std::shared_ptr<const bool> alive);
// `t` without its wrapper when that wrapper is alive at `level`; anything else unchanged.
Tensor unwrap_at_grad_level(const Tensor& t, int64_t level);
// `t` without every wrapper whose transform already returned (an escaped wrapper acts as its value).
Tensor unwrap_dead_wrappers(const Tensor& t);
// The same for every tensor (and tensor list) among the top `n` values of the stack.
void unwrap_dead_wrappers(Stack* stack, size_t n);

}  // namespace mt::functorch
