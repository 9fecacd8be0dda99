#pragma once
// BatchedTensorImpl{value, bdim, level}: a tensor inside vmap. It shows the logical (per-sample) shape,
// i.e. `value` without dim `bdim`, and carries the FuncTorchBatched key, whose batching rules see
// `value` and `bdim` instead. Nested vmaps nest these wrappers, one per level: a tensor batched at an
// outer level is, to an inner level, an ordinary (unbatched) tensor.
#include <cstdint>
#include <optional>
#include <utility>

#include "tensor/Tensor.h"

namespace mt::functorch {

class BatchedTensorImpl : public TensorImpl {
 public:
  BatchedTensorImpl(Tensor value, int64_t bdim, int64_t level);

  const Tensor& value() const { return value_; }
  int64_t bdim() const { return bdim_; }
  int64_t level() const { return level_; }

  // Its memory holds the whole batch, not one sample: reading elements (item()) is refused as in
  // PyTorch, and printing shows the wrapper and the batch it holds.
  const TensorImpl& data_holder() override;
  std::optional<WrapperRepr> wrapper_repr() const override;

 private:
  Tensor value_;
  int64_t bdim_;
  int64_t level_;
};

// The BatchedTensorImpl behind `t`, or nullptr when `t` is not batched at any level.
BatchedTensorImpl* maybe_get_batched(const Tensor& t);
bool is_batched_at_level(const Tensor& t, int64_t level);

// Wraps `value` as batched along `bdim` at `level`; a nullopt bdim returns `value` unchanged.
Tensor make_batched(Tensor value, std::optional<int64_t> bdim, int64_t level);
// (value, bdim) when `t` is batched at `level`, else (t, nullopt): the pair a batching rule sees.
std::pair<Tensor, std::optional<int64_t>> unwrap_at_level(const Tensor& t, int64_t level);

// The batch dim moved to the front (a view), or `t` itself when there is none or it is already there.
Tensor move_bdim_to_front(const Tensor& t, std::optional<int64_t> bdim);
// `t` (batch dim at the front) with size-1 dims inserted after it, so that its logical rank is
// `logical_rank` and broadcasting lines its logical dims up with the other arguments'.
Tensor pad_to_logical_rank(const Tensor& t, int64_t logical_rank);

}  // namespace mt::functorch
