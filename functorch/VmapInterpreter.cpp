#include "functorch/VmapInterpreter.h"

#include "functorch/BatchedTensorImpl.h"

namespace mt::functorch {

namespace {

// The `size` argument of a random factory (randn({3}), randint(10, {3}), ...): an op with a generator
// and no tensor argument, which no batching rule sees. Most ops start with a tensor, so this is quick.
std::optional<size_t> random_factory_size(const FunctionSchema& schema, const IValue* args) {
  std::optional<size_t> size, generator;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    if (args[i].isTensor() || args[i].isTensorList()) return std::nullopt;
    if (schema.arguments[i].name == "size") size = i;
    if (schema.arguments[i].name == "generator") generator = i;
  }
  return generator ? size : std::nullopt;
}

}  // namespace

void VmapInterpreter::process(const OperatorHandle& op, Stack* stack) {
  enable_only(DispatchKeySet(DispatchKey::FuncTorchBatched));
  IValue* args = stack->data() + stack->size() - op.schema().arguments.size();
  const std::optional<size_t> size = random_factory_size(op.schema(), args);
  if (!size || randomness_ == Randomness::Same) return op.callBoxed(stack);
  // Different: one draw per batch entry, batched at dim 0.
  MT_CHECK(randomness_ != Randomness::Error,
           "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
           "'different' randomness flags on vmap or perform the randomness operation out of vmap");
  std::vector<int64_t> batched_size{batch_size_};
  const std::vector<int64_t>& sample_size = args[*size].toIntList();
  batched_size.insert(batched_size.end(), sample_size.begin(), sample_size.end());
  args[*size] = IValue(std::move(batched_size));
  op.callBoxed(stack);
  stack->back() = IValue(make_batched(stack->back().toTensor(), 0, level()));
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
