#pragma once
// The node at the end of every path to a leaf that requires grad: runs the leaf's hooks and adds the
// gradient into leaf.grad().
#include "autograd/AutogradMeta.h"

namespace mt::autograd {

class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(Tensor variable);
  variable_list apply(variable_list&& grads) override;
  const Tensor& variable() const { return variable_; }

 private:
  Tensor variable_;
};

}  // namespace mt::autograd
