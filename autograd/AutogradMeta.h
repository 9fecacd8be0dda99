#pragma once
// What autograd keeps on a tensor (PyTorch's AutogradMeta): its .grad, the node that produced it
// (grad_fn, with the output number), or for a leaf that requires grad, the AccumulateGrad node its
// gradients flow into. Tensors that never touch autograd carry none: the slot in TensorImpl stays empty.
#include <memory>
#include <vector>

#include "autograd/Node.h"
#include "tensor/TensorImpl.h"

namespace mt::autograd {

struct AutogradMeta final : AutogradMetaInterface {
  Tensor grad;
  std::shared_ptr<Node> grad_fn;
  std::weak_ptr<Node> grad_accumulator;  // owned by the graphs that use it
  std::vector<Node::GradHook> leaf_hooks;  // hooks of a leaf, run by its AccumulateGrad
  bool requires_grad = false;            // set on leaves by requires_grad_()
  bool retains_grad = false;
  std::shared_ptr<Tensor> retained_grad;  // .grad of a non-leaf after retain_grad()
  uint32_t output_nr = 0;
};

// nullptr for a tensor autograd has never touched.
inline AutogradMeta* get_autograd_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.unsafeGetTensorImpl()->autograd_meta());
}
AutogradMeta& materialize_autograd_meta(const Tensor& t);

inline bool requires_grad(const Tensor& t) {
  const AutogradMeta* meta = t.defined() ? get_autograd_meta(t) : nullptr;
  return meta && (meta->requires_grad || meta->grad_fn);
}

// Where the gradient of `t` goes: its grad_fn's input, its AccumulateGrad, or nowhere.
Edge gradient_edge(const Tensor& t);
std::shared_ptr<Node> grad_accumulator(const Tensor& t);

// A tensor over the same storage and geometry (sharing the version counter), without history.
Tensor alias_without_history(const Tensor& t);

// Makes `fn` the grad_fn of `output`, as its next output.
void set_history(const Tensor& output, const std::shared_ptr<Node>& fn);

}  // namespace mt::autograd
