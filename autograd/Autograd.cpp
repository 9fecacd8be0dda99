#include "autograd/Autograd.h"

#include "autograd/AutogradMeta.h"
#include "autograd/Engine.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "ops/Factories.h"

namespace mt::autograd {

namespace {

// The roots and their gradients, checked as PyTorch checks them.
std::pair<std::vector<Edge>, variable_list> make_roots(const variable_list& outputs, const variable_list& grads) {
  MT_CHECK(grads.empty() || grads.size() == outputs.size(), "grad can be implicitly created only for scalar outputs");
  std::vector<Edge> roots;
  variable_list root_grads;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    MT_CHECK(requires_grad(out), "element ", i, " of tensors does not require grad and does not have a grad_fn");
    Tensor g = grads.empty() ? Tensor() : grads[i];
    if (!g.defined()) {
      MT_CHECK(out.numel() == 1, "grad can be implicitly created only for scalar outputs");
      g = ones_like(out);
    } else {
      MT_CHECK(g.sizes() == out.sizes(), "Mismatch in shape: grad_output[", i, "] has a shape of ", g.sizes(),
               " and output[", i, "] has a shape of ", out.sizes(), ".");
    }
    roots.push_back(gradient_edge(out));
    root_grads.push_back(std::move(g));
  }
  return {std::move(roots), std::move(root_grads)};
}

}  // namespace

void backward(const variable_list& tensors, const variable_list& grad_tensors, std::optional<bool> retain_graph,
              bool create_graph) {
  // Inside a transform (mt::grad, vjp, vmap...) the outputs are its wrappers, whose gradients are the
  // transform's to compute: .grad of the inputs is not where they would go.
  if (tls_is_dispatch_key_included(DispatchKey::FuncTorchDynamicLayerFrontMode)) {
    constexpr DispatchKeySet wrappers(
        DispatchKeySet(DispatchKey::FuncTorchGradWrapper).add(DispatchKey::FuncTorchBatched));
    for (const Tensor& t : tensors) {
      MT_CHECK(!t.defined() || (t.key_set() & wrappers).empty(),
               "backward() called inside a functorch transform. This is not supported, please use functorch.grad or "
               "functorch.vjp instead or call backward() outside of functorch transforms.");
    }
  }
  auto [roots, root_grads] = make_roots(tensors, grad_tensors);
  run_backward(roots, std::move(root_grads), {retain_graph.value_or(create_graph), create_graph, {}});
}

variable_list grad(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs,
                   std::optional<bool> retain_graph, bool create_graph, bool allow_unused) {
  auto [roots, root_grads] = make_roots(outputs, grad_outputs);
  std::vector<Edge> capture;
  for (size_t i = 0; i < inputs.size(); ++i) {
    MT_CHECK(requires_grad(inputs[i]), "element ", i, " of the input tensors does not require grad");
    capture.push_back(gradient_edge(inputs[i]));
  }
  MT_CHECK_VALUE(!capture.empty(), "grad requires non-empty inputs.");
  variable_list result =
      run_backward(roots, std::move(root_grads), {retain_graph.value_or(create_graph), create_graph, capture});
  for (const Tensor& g : result) {
    MT_CHECK(allow_unused || g.defined(), "One of the differentiated Tensors appears to not have been used in the "
                                          "graph. Set allow_unused=True if this is the desired behavior.");
  }
  return result;
}

}  // namespace mt::autograd
