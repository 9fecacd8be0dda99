#include "autograd/BackwardFunction.h"

#include <algorithm>

#include "autograd/GradMode.h"
#include "ops/Factories.h"

namespace mt::autograd {

BackwardFunction::BackwardFunction(std::string name, std::vector<Edge> next_edges, Formula formula)
    : Node(std::move(name), std::move(next_edges)), formula_(std::move(formula)) {}

variable_list BackwardFunction::apply(variable_list&& grads) {
  MT_CHECK(formula_ != nullptr,
           "Trying to backward through the graph a second time (or directly access saved tensors after they have "
           "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
           "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
           "if you need to access saved tensors after calling backward.");
  bool any_defined = false;
  for (const Tensor& g : grads) any_defined |= g.defined();
  if (!any_defined) return variable_list(next_edges().size());
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) continue;
    const InputMetadata& m = input_metadata()[i];
    grads[i] = zeros(m.sizes, TensorOptions(m.dtype).device(m.device));
  }
  return formula_(grads);
}

bool compute_requires_grad(std::initializer_list<std::reference_wrapper<const Tensor>> inputs) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor& t : inputs)
    if (requires_grad(t)) return true;
  return false;
}

void check_differentiable_output(const Tensor& output) {
  MT_CHECK(is_floating_point(output.dtype()), "Autograd not support dtype: ", output.dtype());
}

std::shared_ptr<Node> record(std::string name, std::initializer_list<std::reference_wrapper<const Tensor>> inputs,
                             std::initializer_list<std::reference_wrapper<const Tensor>> outputs,
                             BackwardFunction::Formula formula) {
  for (const Tensor& out : outputs) check_differentiable_output(out);
  auto node = std::make_shared<BackwardFunction>(std::move(name), collect_next_edges(inputs), std::move(formula));
  for (const Tensor& out : outputs) {
    const bool in_place = std::any_of(inputs.begin(), inputs.end(), [&](const Tensor& in) { return in.is_same(out); });
    if (in_place) {
      rebase_history(out, node);
    } else {
      set_history(out, node);
    }
  }
  return node;
}

}  // namespace mt::autograd
