#pragma once
// The two nodes that keep the history of views and their bases consistent under in-place ops.
//
// CopySlices: an in-place op `fn` wrote a view of `base`. The base's gradient passes through unchanged
// outside the view's region; inside it, it is the gradient of the view's new value, which `fn` turns
// into gradients of the view's old value (written back into the region) and of fn's other inputs.
//
// AsStridedBackward0: the grad_fn of a view derived from its base's: the view's gradient, summed into
// the view's region of a zero gradient for the base.
#include "autograd/AutogradMeta.h"

namespace mt::autograd {

// The geometry of a tensor: what a gradient buffer for it must reproduce.
struct TensorGeometry {
  std::vector<int64_t> sizes, strides;
  int64_t storage_offset = 0;
  static TensorGeometry of(const Tensor& t);
};

class CopySlices final : public Node {
 public:
  CopySlices(const Tensor& base, const TensorGeometry& view, std::shared_ptr<Node> fn);
  variable_list apply(variable_list&& grads) override;
  void release_variables() override { fn_->release_variables(); }

 private:
  TensorGeometry base_, view_;
  std::shared_ptr<Node> fn_;
};

class AsStridedBackward final : public Node {
 public:
  AsStridedBackward(const Tensor& base, const TensorGeometry& view);
  variable_list apply(variable_list&& grads) override;

 private:
  TensorGeometry base_, view_;
};

}  // namespace mt::autograd
