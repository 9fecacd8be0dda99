#include "functorch/TensorWrapper.h"

#include "dispatch/Library.h"
#include "dispatch/MapTensors.h"

namespace mt::functorch {

namespace {

DispatchKeySet wrapper_key_set(const Tensor& value) {
  return compute_tensor_key_set(value.device(), value.dtype(), /*inference=*/false).add(DispatchKey::FuncTorchGradWrapper);
}

}  // namespace

TensorWrapper::TensorWrapper(Tensor value, int64_t level, bool immutable, std::shared_ptr<const bool> alive)
    : TensorImpl(value.unsafeGetTensorImpl()->storage(), value.dtype(), wrapper_key_set(value)),
      value_(std::move(value)),
      level_(level),
      immutable_(immutable),
      alive_(std::move(alive)) {
  refresh_metadata();
}

void TensorWrapper::refresh_metadata() {
  set_sizes_and_strides(value_.sizes(), value_.strides(), value_.storage_offset());
}

TensorWrapper* maybe_get_wrapper(const Tensor& t) {
  if (!t.defined() || !t.key_set().has(DispatchKey::FuncTorchGradWrapper)) return nullptr;
  return static_cast<TensorWrapper*>(t.unsafeGetTensorImpl());
}

Tensor make_tensor_wrapper(Tensor value, int64_t level, bool immutable, std::shared_ptr<const bool> alive) {
  if (const TensorWrapper* inner = maybe_get_wrapper(value)) {
    MT_INTERNAL_ASSERT(!inner->is_alive() || inner->level() < level, "grad wrappers nest from the outer level inwards");
  }
  return Tensor(make_intrusive<TensorWrapper>(std::move(value), level, immutable, std::move(alive)));
}

Tensor unwrap_at_grad_level(const Tensor& t, int64_t level) {
  const TensorWrapper* w = maybe_get_wrapper(t);
  return w != nullptr && w->is_alive() && w->level() == level ? w->value() : t;
}

Tensor unwrap_dead_wrappers(const Tensor& t) {
  const TensorWrapper* w = maybe_get_wrapper(t);
  if (w == nullptr || w->is_alive()) return t;
  return unwrap_dead_wrappers(w->value());
}

void unwrap_dead_wrappers(Stack* stack, size_t n) {
  map_tensors(stack, n, [](const Tensor& t) { return unwrap_dead_wrappers(t); });
}

namespace {

// Reached only by wrappers used outside any transform, i.e. after theirs returned (an alive wrapper's
// level is on the stack, whose Front key comes first): they act as their values.
void escaped_wrapper_fallback(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const size_t n = op.schema().arguments.size();
  for (const IValue* v = stack->data() + stack->size() - n; v != stack->data() + stack->size(); ++v) {
    if (!v->isTensor()) continue;
    const TensorWrapper* w = maybe_get_wrapper(v->toTensorRef());
    MT_INTERNAL_ASSERT(w == nullptr || !w->is_alive(), "a live grad wrapper reached ", op.schema().op.str(),
                       " outside its transform");
  }
  unwrap_dead_wrappers(stack, n);
  op.callBoxed(stack);
}

}  // namespace

MT_LIBRARY_IMPL(_, FuncTorchGradWrapper, m) {
  m.fallback(CppFunction::makeFromBoxedFunction<&escaped_wrapper_fallback>());
}

}  // namespace mt::functorch
