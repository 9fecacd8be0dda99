#include "functorch/VmapInterpreter.h"

namespace mt::functorch {

void VmapInterpreter::process(const OperatorHandle& op, Stack* stack) {
  enable_only(DispatchKeySet(DispatchKey::FuncTorchBatched));
  op.callBoxed(stack);
}

// The batching rules have already unwrapped this level: the op goes on as it is. Leaving the last
// transform, no batched tensor may remain (one that escaped an inner vmap would reach the kernels).
void VmapInterpreter::send_to_next(const OperatorHandle& op, Stack* stack) {
  if (interpreter_stack_depth() == 0) {
    const size_t n = op.schema().arguments.size();
    for (const IValue* v = stack->data() + stack->size() - n; v != stack->data() + stack->size(); ++v) {
      MT_CHECK(!(v->isTensor() && v->toTensorRef().key_set().has(DispatchKey::FuncTorchBatched)),
               "vmap: ", op.schema().op.str(), " got a batched tensor of a vmap that already returned (did it escape, "
               "e.g. through a captured variable?). Return it from the vmapped function instead.");
    }
  }
  op.callBoxed(stack);
}

VmapInterpreter& current_vmap_interpreter() {
  Interpreter* top = current_interpreter();
  MT_CHECK(top != nullptr && top->type() == TransformType::Vmap,
           "vmap: a batched tensor was used outside of the vmap that made it (did it escape, e.g. through a "
           "captured variable?). Return it from the vmapped function instead.");
  return static_cast<VmapInterpreter&>(*top);
}

}  // namespace mt::functorch
