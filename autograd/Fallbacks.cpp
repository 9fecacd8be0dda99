// The autograd layer's defaults for operators that register nothing at its keys.
//
// Autograd: PyTorch's autogradNotImplementedFallback. An operator without a derivative formula runs below
// autograd; when grad mode is on and a tensor input requires grad, its floating-point outputs (and the
// tensors it wrote in place) get a "NotImplemented" node whose backward raises
// `the derivative for '<op>' is not implemented.` so a missing formula is never a silently missing
// gradient. Calls where nothing requires grad only pay for the scan of the arguments. Ops with out=
// arguments refuse inputs that require grad, as in PyTorch. Non-differentiable ops (comparisons,
// argmax, *_like...) register a fallthrough instead (autograd/derivatives/NonDifferentiable.cpp).
//
// ADInplaceOrView: skipped by operators that neither write to nor view their inputs. A user's operator
// that does either registers autogradNotImplementedInplaceOrViewFallback() there (autograd/InplaceOrView.h).
#include "autograd/derivatives/Formulas.h"
#include "dispatch/Dispatcher.h"
#include "dispatch/MapTensors.h"

namespace mt::autograd {

namespace {

void redispatch_below_autograd(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  ExcludeDispatchKeyGuard guard(autograd_dispatch_keyset_with_ADInplaceOrView);
  op.redispatchBoxed(ks & after_autograd_keyset, stack);
}

void autograd_not_implemented_fallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n_args = schema.arguments.size();
  bool any_requires_grad = false;
  if (GradMode::is_enabled()) {
    for_each_tensor(stack->data() + stack->size() - n_args, n_args,
                    [&](const Tensor& t, size_t) { any_requires_grad = any_requires_grad || requires_grad(t); });
  }
  if (!any_requires_grad) return redispatch_below_autograd(op, ks, stack);

  // The inputs become the node's edges; the tensors written in place (not out=) its outputs as well.
  std::vector<Tensor> inputs, written;
  bool has_out = false;
  for_each_tensor(stack->data() + stack->size() - n_args, n_args, [&](const Tensor& t, size_t i) {
    const Argument& arg = schema.arguments[i];
    if (arg.is_out()) {
      has_out = true;
      return;
    }
    inputs.push_back(t);
    if (arg.alias && arg.alias->is_write) written.push_back(t);
  });
  MT_CHECK(!has_out, schema.op.name, "(): functions with out=... arguments don't support automatic differentiation, "
           "but one of the arguments requires grad.");
  for (const Tensor& t : written) check_inplace(t, /*any_requires_grad=*/true);

  redispatch_below_autograd(op, ks, stack);

  std::vector<Tensor> outputs;
  auto add_output = [&](const Tensor& t) {
    if (!t.defined() || !t.is_floating_point()) return;
    for (const Tensor& o : outputs)
      if (o.is_same(t)) return;
    outputs.push_back(t);
  };
  const size_t n_returns = schema.returns.size();
  for_each_tensor(stack->data() + stack->size() - n_returns, n_returns, [&](const Tensor& t, size_t) { add_output(t); });
  for (const Tensor& t : written) add_output(t);
  if (outputs.empty()) return;

  const std::string name = schema.op.str();
  auto node = std::make_shared<BackwardFunction>("NotImplemented", collect_next_edges(inputs), [name](const variable_list&) -> variable_list {
    MT_CHECK_NOT_IMPLEMENTED(false, "the derivative for '", name, "' is not implemented.");
    return {};
  });
  for (const Tensor& out : outputs) {
    bool in_place = false;
    for (const Tensor& w : written) in_place = in_place || w.is_same(out);
    if (in_place) {
      rebase_history(out, node);
    } else {
      set_history(out, node);
    }
  }
}

}  // namespace

}  // namespace mt::autograd

MT_LIBRARY_IMPL(_, Autograd, m) {
  m.fallback(mt::CppFunction::makeFromBoxedFunction<&mt::autograd::autograd_not_implemented_fallback>());
}

MT_LIBRARY_IMPL(_, ADInplaceOrView, m) { m.fallback(mt::CppFunction::makeFallthrough()); }
