#pragma once
// Reductions: the shared part of every reduction kernel (the dim list with negative dims and the
// duplicates check, keepdim, the output's shape and dtype, the argument checks) and the per-device
// stubs that hold the loops. A stub receives a contiguous output whose elements are the kept dims in
// order (with or without keepdim, the data is the same) and an input already in the dtype it computes in.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "ops/infra/DispatchStub.h"
#include "tensor/TensorBase.h"

namespace mt {

// The reduced dims of a tensor: bit d is set when dim d is reduced.
using DimMask = uint64_t;
constexpr int64_t kMaxReduceDims = 64;

// The dims as PyTorch reads them: negative dims wrap, a dim listed twice is an error, and no list means
// every dim; so does an empty one, except for all and any (`empty_means_all` false), where it means none.
// A 0-dim tensor accepts dim 0 and -1.
DimMask make_dim_mask(std::optional<IntArrayRef> dims, int64_t ndim, bool empty_means_all = true);
DimMask make_dim_mask(int64_t dim, int64_t ndim);
// The shape of the result: reduced dims dropped, or kept with size 1.
std::vector<int64_t> reduced_shape(IntArrayRef sizes, DimMask mask, bool keepdim);

using ReduceFn = void(const TensorBase& out, const TensorBase& self, DimMask mask);
MT_DECLARE_STUB(sum_stub, ReduceFn);
MT_DECLARE_STUB(mean_stub, ReduceFn);
MT_DECLARE_STUB(prod_stub, ReduceFn);
MT_DECLARE_STUB(amax_stub, ReduceFn);  // NaN wins, as in PyTorch
MT_DECLARE_STUB(amin_stub, ReduceFn);
MT_DECLARE_STUB(all_stub, ReduceFn);  // out is bool; self of any dtype
MT_DECLARE_STUB(any_stub, ReduceFn);
MT_DECLARE_STUB(logsumexp_stub, ReduceFn);
// The value and the index (first occurrence; a NaN wins) along the reduced dims, in logical order.
// `values` may be undefined (argmax).
using ArgReduceFn = void(const TensorBase& values, const TensorBase& indices, const TensorBase& self, DimMask mask);
MT_DECLARE_STUB(max_with_indices_stub, ArgReduceFn);
MT_DECLARE_STUB(min_with_indices_stub, ArgReduceFn);
// Variance with divisor max(0, N - correction), or its square root.
MT_DECLARE_STUB(var_stub, void(const TensorBase& out, const TensorBase& self, DimMask mask, double correction, bool take_sqrt));
// The vector p-norm (p = 0 counts non-zeros, +-inf is the largest/smallest magnitude).
MT_DECLARE_STUB(norm_stub, void(const TensorBase& out, const TensorBase& self, DimMask mask, double p));
// The p values the norm loops treat apart; any other p is General.
enum class NormKind { Zero, One, Two, Inf, NegInf, General };
inline NormKind norm_kind(double p) {
  if (p == 0) return NormKind::Zero;
  if (p == 1) return NormKind::One;
  if (p == 2) return NormKind::Two;
  if (p == std::numeric_limits<double>::infinity()) return NormKind::Inf;
  if (p == -std::numeric_limits<double>::infinity()) return NormKind::NegInf;
  return NormKind::General;
}

}  // namespace mt
