// nansum, nanmean, count_nonzero and trace as compositions of masked_fill, comparisons, diagonal and sum,
// as PyTorch's are or could be: every layer (autograd, vmap, Meta, CUDA) handles them through their parts.
#include <optional>

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/isnan.h"
#include "ops/api/sum.h"
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

void register_composites(Library& m) {
  m.impl("nansum", MT_FN(nansum));
  m.impl("nanmean", MT_FN(nanmean));
  m.impl("count_nonzero.dim_IntList", MT_FN(count_nonzero_dims));
  m.impl("count_nonzero", MT_FN(count_nonzero));
  m.impl("trace", MT_FN(trace));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
