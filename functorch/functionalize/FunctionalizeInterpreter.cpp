#include "functorch/functionalize/FunctionalizeInterpreter.h"

#include "dispatch/MapTensors.h"
#include "functorch/functionalize/FunctionalTensorWrapper.h"

namespace mt::functorch {

Tensor FunctionalizeInterpreter::wrap(Tensor value) const {
  return make_functional_tensor(std::move(value), level(), reapply_views_, alive_);
}

void FunctionalizeInterpreter::wrap_results(Stack* stack, size_t n) const {
  map_tensors(stack, n, [&](const Tensor& t) { return wrap(t); });
}

void FunctionalizeInterpreter::process(const OperatorHandle& op, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const bool factory = schema.num_tensor_like_args() == 0;
  enable_only(DispatchKeySet(DispatchKey::Functionalize));
  op.callBoxed(stack);
  // A tensor made inside the function is functional too, so that its later mutations are removed.
  if (factory) wrap_results(stack, schema.returns.size());
}

// The fallback has already unwrapped this level: the op goes on as it is.
void FunctionalizeInterpreter::send_to_next(const OperatorHandle& op, Stack* stack) { op.callBoxed(stack); }

}  // namespace mt::functorch
