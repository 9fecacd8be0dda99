#pragma once
// The node of a differentiable op: its name (as PyTorch names them, e.g. "MulBackward0") and its
// derivative formula, a function from the output gradients to the input gradients whose captures are
// the op's SavedVariables. Autograd kernels make one with record() when an input requires grad.
#include <functional>
#include <initializer_list>
#include <iterator>
#include <vector>

#include "autograd/AutogradMeta.h"
#include "autograd/SavedVariable.h"

namespace mt::autograd {

class BackwardFunction final : public Node {
 public:
  // Undefined output gradients arrive as zeros of the output's shape.
  using Formula = std::function<variable_list(const variable_list& grads)>;
  BackwardFunction(std::string name, std::vector<Edge> next_edges, Formula formula);

  variable_list apply(variable_list&& grads) override;
  // Frees the saved tensors (they live in the formula's captures).
  void release_variables() override { formula_ = nullptr; }

 private:
  Formula formula_;
};

// Whether an op on these inputs records a node: grad mode is on and one of them requires grad.
bool compute_requires_grad(std::initializer_list<std::reference_wrapper<const Tensor>> inputs);

// One next edge per input, in order; an undefined input gets an empty edge.
template <typename Tensors>
std::vector<Edge> collect_next_edges(const Tensors& inputs) {
  std::vector<Edge> edges;
  edges.reserve(std::size(inputs));
  for (const Tensor& t : inputs) edges.push_back(t.defined() ? gradient_edge(t) : Edge{});
  return edges;
}

// Only floating outputs can have a grad_fn (PyTorch's isDifferentiableType): an op that makes an integer or
// bool tensor from one that requires grad either declares that output non-differentiable (to, copy_) or
// is refused, as sum(dtype=int64) is: "Autograd not support dtype: mt.int64".
void check_differentiable_output(const Tensor& output);

// Records `formula` as the backward of an op: one next edge per input (in order; the formula returns
// one gradient per input), and the node becomes the grad_fn of each output.
std::shared_ptr<Node> record(std::string name, std::initializer_list<std::reference_wrapper<const Tensor>> inputs,
                             std::initializer_list<std::reference_wrapper<const Tensor>> outputs,
                             BackwardFunction::Formula formula);

}  // namespace mt::autograd
