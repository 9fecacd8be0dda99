// nansum, nanmean, count_nonzero, trace, var_mean, std_mean and aminmax as compositions of masked_fill,
// comparisons, diagonal, sum, var, std, mean, amin and amax, as PyTorch's are or could be: every layer
// (autograd, vmap, Meta, CUDA) handles them through their parts.
#include <optional>
#include <tuple>
#include <vector>

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/amax.h"
#include "ops/api/amin.h"
#include "ops/api/isnan.h"
#include "ops/api/mean.h"
#include "ops/api/std.h"
#include "ops/api/sum.h"
#include "ops/api/var.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

// NaN counts as 0; integers and bool hold none, and sum as sum does (to int64).
Tensor nansum(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  const Tensor values = self.is_floating_point() ? self.masked_fill(mt::isnan(self), 0) : self;
  return mt::sum(values, dim, keepdim, dtype);
}

// The mean of the elements that are not NaN (NaN where every one is).
Tensor nanmean(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  MT_CHECK(self.is_floating_point(), "nanmean(): expected input to have floating point or complex dtype but got ",
           self.dtype());
  const Tensor counted = mt::sum(mt::isnan(self).logical_not(), dim, keepdim);
  return nansum(self, dim, keepdim, dtype).div(counted);
}

Tensor count_nonzero_dims(const Tensor& self, IntArrayRef dim) {
  return mt::sum(self != 0, dim);  // an empty list counts over every dim, as sum reduces
}

Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim) {
  if (!dim) return mt::sum(self != 0);
  const int64_t d[] = {*dim};
  return count_nonzero_dims(self, d);
}

// The sum of the main diagonal of a matrix, in sum's dtype (int64 for integers).
Tensor trace(const Tensor& self) {
  MT_CHECK(self.dim() == 2, "trace: expected a matrix, but got tensor with dim ", self.dim());
  MT_CHECK_NOT_IMPLEMENTED(self.dtype() != kBool, "\"trace\" not implemented for '", self.dtype(), "'");
  return mt::sum(self.diagonal());
}

// The variance (or standard deviation) and the mean over the same dims, in that order.
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, std::optional<IntArrayRef> dim,
                                    const std::optional<Scalar>& correction, bool keepdim) {
  return {mt::var(self, dim, correction, keepdim), mt::mean(self, dim, keepdim)};
}

std::tuple<Tensor, Tensor> std_mean(const Tensor& self, std::optional<IntArrayRef> dim,
                                    const std::optional<Scalar>& correction, bool keepdim) {
  return {mt::std(self, dim, correction, keepdim), mt::mean(self, dim, keepdim)};
}

// The smallest and the largest element along dim, or of every element (kept as size-1 dims with keepdim).
std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  std::vector<int64_t> dims;
  if (dim) {
    dims.push_back(maybe_wrap_dim(*dim, self.dim()));
    MT_CHECK(self.dim() == 0 || self.size(dims[0]) != 0, "aminmax(): Expected reduction dim ", dims[0],
             " to have non-zero size.");
  } else {
    MT_CHECK(self.numel() > 0, "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
             "identity.");
  }
  return {mt::amin(self, dims, keepdim), mt::amax(self, dims, keepdim)};
}

void register_composites(Library& m) {
  m.impl("nansum", MT_FN(nansum));
  m.impl("nanmean", MT_FN(nanmean));
  m.impl("count_nonzero.dim_IntList", MT_FN(count_nonzero_dims));
  m.impl("count_nonzero", MT_FN(count_nonzero));
  m.impl("trace", MT_FN(trace));
  m.impl("var_mean.correction", MT_FN(var_mean));
  m.impl("std_mean.correction", MT_FN(std_mean));
  m.impl("aminmax", MT_FN(aminmax));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
