#include "functorch/GradInterpreter.h"

#include <optional>

#include "autograd/GradMode.h"
#include "dispatch/MapTensors.h"
#include "functorch/TensorWrapper.h"
#include "tensor/SmallVector.h"

namespace mt::functorch {

namespace {

bool is_live_at(const Tensor& t, int64_t level) {
  const TensorWrapper* w = maybe_get_wrapper(t);
  return w != nullptr && w->is_alive() && w->level() == level;
}

// In-place ops may only write tensors made at this level: a captured tensor is a constant here, and
// writing it would change it for every level outside too.
void check_no_mutation_of_captures(const FunctionSchema& schema, const IValue* args, int64_t level) {
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const auto& alias = schema.arguments[i].alias;
    if (!alias || !alias->is_write || !args[i].isTensor()) continue;
    const TensorWrapper* w = maybe_get_wrapper(args[i].toTensorRef());
    MT_CHECK(is_live_at(args[i].toTensorRef(), level) && !w->is_immutable(),
             "During a grad (vjp, jvp, grad, etc) transform, the function provided attempted to call in-place "
             "operation (", schema.op.str(), ") that would mutate a captured Tensor. This is not supported; please "
             "rewrite the function being transformed to explicitly accept the mutated Tensor(s) as inputs.");
  }
}

}  // namespace

Tensor GradInterpreter::wrap(Tensor t, bool immutable) const {
  return make_tensor_wrapper(std::move(t), level(), immutable, alive_);
}

void GradInterpreter::process(const OperatorHandle& op, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  IValue* args = stack->data() + stack->size() - n;
  check_no_mutation_of_captures(schema, args, level());
  map_tensors(stack, n, [&](const Tensor& t) { return is_live_at(t, level()) ? t : wrap(t, /*immutable=*/true); });
  enable_only(DispatchKeySet({DispatchKey::ADInplaceOrView, DispatchKey::AutogradFunctionality}));
  op.callBoxed(stack);
}

void GradInterpreter::send_to_next(const OperatorHandle& op, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  IValue* args = stack->data() + stack->size() - n;
  SmallVector<IValue, 8> wrapped_args;
  for (size_t i = 0; i < n; ++i) wrapped_args.push_back(args[i]);
  map_tensors(stack, n, [&](const Tensor& t) { return unwrap_at_grad_level(t, level()); });
  {
    // Under no_grad outside the transform, the outer levels record nothing (the grad mode inside is
    // the transform's own).
    std::optional<AutoGradMode> outer_grad_mode;
    if (!prev_grad_mode_) outer_grad_mode.emplace(false);
    op.callBoxed(stack);
  }

  const auto immutable_arg = [&](size_t i) {
    if (!wrapped_args[i].isTensor()) return false;
    const TensorWrapper* w = maybe_get_wrapper(wrapped_args[i].toTensorRef());
    return w != nullptr && w->is_immutable();
  };
  IValue* results = stack->data() + stack->size() - schema.returns.size();
  for (size_t r = 0; r < schema.returns.size(); ++r) {
    const Argument& ret = schema.returns[r];
    const std::optional<size_t> source = schema.aliased_argument(ret);
    // An in-place or out= op returns the wrapper it wrote into, whose geometry may have changed.
    if (ret.alias && ret.alias->is_write && source && wrapped_args[*source].isTensor()) {
      if (TensorWrapper* w = maybe_get_wrapper(wrapped_args[*source].toTensorRef())) w->refresh_metadata();
      results[r] = wrapped_args[*source];
      continue;
    }
    // A view of a captured tensor is as immutable as the tensor.
    const bool immutable = source && immutable_arg(*source);
    results[r] = map_tensors(results[r], [&](const Tensor& t) { return wrap(t, immutable); });
  }
}

}  // namespace mt::functorch
