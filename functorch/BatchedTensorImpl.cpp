#include "functorch/BatchedTensorImpl.h"

#include <string>

#include "ops/api/movedim.h"
#include "tensor/SmallVector.h"

namespace mt::functorch {

namespace {

// The wrapper keeps its value's backend bits (so device-dependent code sees the right backend) and
// adds only FuncTorchBatched: no autograd keys, since the ops reach autograd on the unwrapped values.
DispatchKeySet batched_key_set(const Tensor& value) {
  const uint64_t backend_bits = value.key_set().raw_repr() & DispatchKeySet::full_backend_mask;
  return DispatchKeySet(DispatchKeySet::RAW, backend_bits) | DispatchKeySet(DispatchKey::FuncTorchBatched);
}

}  // namespace

BatchedTensorImpl::BatchedTensorImpl(Tensor value, int64_t bdim, int64_t level)
    : TensorImpl(value.unsafeGetTensorImpl()->storage(), value.dtype(), batched_key_set(value)),
      value_(std::move(value)),
      bdim_(bdim),
      level_(level) {
  SmallVector<int64_t, 6> sizes, strides;
  for (int64_t d = 0; d < value_.dim(); ++d) {
    if (d == bdim_) continue;
    sizes.push_back(value_.size(d));
    strides.push_back(value_.stride(d));
  }
  set_sizes_and_strides(sizes, strides, value_.storage_offset());
}

const TensorImpl& BatchedTensorImpl::data_holder() {
  detail::throw_error<RuntimeError>(
      "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() on a "
      "Tensor, please try to rewrite what you're doing with other operations. If error is occurring somewhere inside "
      "microtorch internals, please file a bug report.");
}

std::optional<TensorImpl::WrapperRepr> BatchedTensorImpl::wrapper_repr() const {
  return WrapperRepr{"BatchedTensor(lvl=" + std::to_string(level_) + ", bdim=" + std::to_string(bdim_),
                     value_.getIntrusivePtr()};
}

BatchedTensorImpl* maybe_get_batched(const Tensor& t) {
  if (!t.defined() || !t.key_set().has(DispatchKey::FuncTorchBatched)) return nullptr;
  return static_cast<BatchedTensorImpl*>(t.unsafeGetTensorImpl());
}

bool is_batched_at_level(const Tensor& t, int64_t level) {
  const BatchedTensorImpl* b = maybe_get_batched(t);
  return b != nullptr && b->level() == level;
}

Tensor make_batched(Tensor value, std::optional<int64_t> bdim, int64_t level) {
  if (!bdim) return value;
  if (const BatchedTensorImpl* inner = maybe_get_batched(value)) {
    MT_INTERNAL_ASSERT(inner->level() < level, "batched tensors nest from the outer level inwards");
  }
  const int64_t dim = maybe_wrap_dim(*bdim, value.dim());
  return Tensor(make_intrusive<BatchedTensorImpl>(std::move(value), dim, level));
}

std::pair<Tensor, std::optional<int64_t>> unwrap_at_level(const Tensor& t, int64_t level) {
  const BatchedTensorImpl* b = maybe_get_batched(t);
  if (b == nullptr || b->level() != level) return {t, std::nullopt};
  return {b->value(), b->bdim()};
}

Tensor move_bdim_to_front(const Tensor& t, std::optional<int64_t> bdim) {
  if (!bdim || *bdim == 0) return t;
  return mt::movedim(t, *bdim, 0);
}

Tensor pad_to_logical_rank(const Tensor& t, int64_t logical_rank) {
  Tensor out = t;
  for (int64_t r = t.dim() - 1; r < logical_rank; ++r) out = out.unsqueeze(1);
  return out;
}

}  // namespace mt::functorch
