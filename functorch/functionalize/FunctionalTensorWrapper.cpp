#include "functorch/functionalize/FunctionalTensorWrapper.h"

#include <algorithm>

#include "dispatch/LocalDispatchKeySet.h"
#include "ops/Factories.h"
#include "ops/api/arange.h"
#include "ops/api/put.h"
#include "ops/api/take.h"
#include "ops/Views.h"

namespace mt::functorch {

namespace {

// Every functionality from DispatchMode up: excluding them leaves only the backend kernels.
constexpr DispatchKeySet above_backend_keys =
    DispatchKeySet(DispatchKeySet::FULL) - DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::DispatchMode);

DispatchKeySet functional_key_set(const Tensor& value) {
  return compute_tensor_key_set(value.device(), value.dtype(), /*inference=*/false).add(DispatchKey::Functionalize);
}

// A base's positions count its elements in row-major order, laid out in memory as its value is, so
// that views of it get the strides they would have in eager mode.
Tensor base_positions(const Tensor& value) {
  ExcludeDispatchKeyGuard backend_only(above_backend_keys);
  const TensorOptions options = TensorOptions().dtype(kInt64).device(value.device());
  const Tensor row_major = arange(value.numel(), options).view(value.sizes());
  if (value.is_contiguous()) return row_major;
  if (is_non_overlapping_and_dense(value.sizes(), value.strides()))
    return Tensor(TensorImpl::empty_strided(value.sizes(), value.strides(), kInt64, value.device())).copy_(row_major);
  // Overlapping or with gaps (an expanded or stepped input): over a buffer that spans the value's
  // memory. Elements that share memory share the position of the first of them, so that a write
  // through one is read through all, as in eager mode; memory no element covers holds numel, which
  // take refuses.
  const int64_t n = value.numel(), dims = value.dim();
  int64_t span = n == 0 ? 0 : 1;
  for (int64_t d = 0; d < dims && n > 0; ++d) span += (value.size(d) - 1) * value.stride(d);
  Tensor cells(TensorImpl::empty({span}, kInt64, Device(kCPU)));
  int64_t* cell = cells.data_ptr<int64_t>();
  std::fill(cell, cell + span, n);
  DimVector index;
  index.resize(dims);
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int64_t d = 0; d < dims; ++d) offset += index[d] * value.stride(d);
    if (cell[offset] == n) cell[offset] = k;
    for (int64_t d = dims - 1; d >= 0 && ++index[d] == value.size(d); --d) index[d] = 0;
  }
  return cells.to(value.device()).as_strided(value.sizes(), value.strides(), 0);
}

}  // namespace

FunctionalTensorWrapper::FunctionalTensorWrapper(Tensor value, int64_t level, bool reapply_views,
                                                 std::shared_ptr<const bool> alive)
    : TensorImpl(value.unsafeGetTensorImpl()->storage(), value.dtype(), functional_key_set(value)),
      level_(level),
      reapply_views_(reapply_views),
      alive_(std::move(alive)),
      storage_(std::make_shared<FunctionalStorage>(value)),
      positions_(base_positions(value)),
      reads_through_positions_(!is_non_overlapping_and_dense(value.sizes(), value.strides())),
      generation_(0) {
  set_value(std::move(value));
}

FunctionalTensorWrapper::FunctionalTensorWrapper(const FunctionalTensorWrapper& parent, Tensor value, ViewStep step,
                                                 Tensor positions)
    : TensorImpl(value.unsafeGetTensorImpl()->storage(), value.dtype(), functional_key_set(value)),
      level_(parent.level_),
      reapply_views_(parent.reapply_views_),
      alive_(parent.alive_),
      storage_(parent.storage_),
      view_steps_(parent.view_steps_),
      positions_(std::move(positions)),
      generation_(parent.storage_->generation) {
  view_steps_.push_back(std::move(step));
  set_value(std::move(value));
}

void FunctionalTensorWrapper::sync() {
  if (is_up_to_date()) return;
  const Tensor& base = storage_->base;
  if (!is_view()) {
    set_value(reads_through_positions_ ? mt::take(base, positions()) : base);
  } else if (reapply_views_) {
    Tensor t = base;
    for (const ViewStep& step : view_steps_) t = replay_view(step, t);
    set_value(std::move(t));
  } else {
    set_value(mt::take(base, positions()));
  }
  generation_ = storage_->generation;
}

const TensorImpl& FunctionalTensorWrapper::data_holder() {
  sync();
  return value_.unsafeGetTensorImpl()->data_holder();
}

std::optional<TensorImpl::WrapperRepr> FunctionalTensorWrapper::wrapper_repr() const {
  // Printing reads the up-to-date value, as data_holder() does: sync() only refreshes a cached value.
  const_cast<FunctionalTensorWrapper*>(this)->sync();
  return value_.unsafeGetTensorImpl()->wrapper_repr();
}

void FunctionalTensorWrapper::commit(Tensor new_value) {
  storage_->base = is_view() ? mt::put(storage_->base, positions(), new_value) : new_value;
  ++storage_->generation;
  // Like every other alias, the writer regenerates from the base on its next use, so that under
  // remove=mutations a view stays a view of the base.
  set_value(std::move(new_value));
}

void FunctionalTensorWrapper::replace_storage(Tensor new_value) {
  MT_INTERNAL_ASSERT(!is_view(), "only a base can move to new memory");
  storage_ = std::make_shared<FunctionalStorage>(new_value);
  positions_ = base_positions(new_value);
  reads_through_positions_ = !is_non_overlapping_and_dense(new_value.sizes(), new_value.strides());
  generation_ = 0;
  set_value(std::move(new_value));
}

// The wrapper shows the geometry the tensor has in eager mode (its positions'), whatever its value's
// is: autograd above places a view's gradient in its base by these strides and offsets.
void FunctionalTensorWrapper::set_value(Tensor value) {
  MT_INTERNAL_ASSERT(value.dtype() == dtype(), "a functional tensor keeps its dtype");
  set_storage_and_geometry(value.unsafeGetTensorImpl()->storage(), positions_.sizes(), positions_.strides(),
                           positions_.storage_offset());
  value_ = std::move(value);
}

FunctionalTensorWrapper* maybe_get_functional(const Tensor& t) {
  if (!t.defined() || !t.key_set().has(DispatchKey::Functionalize)) return nullptr;
  return static_cast<FunctionalTensorWrapper*>(t.unsafeGetTensorImpl());
}

FunctionalTensorWrapper* functional_at_level(const Tensor& t, int64_t level) {
  FunctionalTensorWrapper* w = maybe_get_functional(t);
  return w != nullptr && w->is_alive() && w->level() == level ? w : nullptr;
}

Tensor make_functional_tensor(Tensor value, int64_t level, bool reapply_views, std::shared_ptr<const bool> alive) {
  return Tensor(make_intrusive<FunctionalTensorWrapper>(std::move(value), level, reapply_views, std::move(alive)));
}

Tensor replay_view(const ViewStep& step, const Tensor& self, bool backend_only) {
  Stack stack = step.args;
  stack[0] = IValue(self);
  if (backend_only) {
    ExcludeDispatchKeyGuard guard(above_backend_keys);
    step.op.callBoxed(stack);
  } else {
    step.op.callBoxed(stack);
  }
  return stack[0].toTensor();
}

}  // namespace mt::functorch
