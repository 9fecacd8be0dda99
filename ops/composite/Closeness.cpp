// isclose, allclose and equal as compositions of comparisons, as PyTorch defines them: a is close to b
// when |a - b| <= atol + rtol |b|, or when they are equal (infinities of one sign included), or, with
// equal_nan, both NaN. Integer inputs measure their error in the default float.
#include "dispatch/Library.h"
#include "ops/api/allclose.h"
#include "ops/api/equal.h"
#include "ops/api/isclose.h"
#include "ops/api/isfinite.h"
#include "ops/infra/PointwiseIterators.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  MT_CHECK(self.dtype() == other.dtype(), self.dtype(), " did not match ", other.dtype());
  MT_CHECK(rtol >= 0, "rtol must be greater than or equal to zero, but got ", rtol);
  MT_CHECK(atol >= 0, "atol must be greater than or equal to zero, but got ", atol);
  Tensor close = self == other;
  if (equal_nan && self.is_floating_point()) close = close | ((self != self) & (other != other));
  if (rtol == 0 && atol == 0) return close;
  const ScalarType dtype = float_op_dtype(self.dtype());
  const Tensor a = self.to(dtype), b = other.to(dtype);
  const Tensor error = (a - b).abs();
  // An infinite error (inf against a finite value, or inf - inf of opposite signs) is never close.
  return close | (mt::isfinite(error) & (error <= (b * rtol).abs() + atol));
}

bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  return mt::isclose(self, other, rtol, atol, equal_nan).all().item<bool>();
}

// The same shape and the same values after promotion (NaN equals nothing).
bool equal(const Tensor& self, const Tensor& other) {
  MT_CHECK(self.device() == other.device(), "Cannot compare two tensors on different devices. Got: ", self.device(),
           " and ", other.device());
  if (!(self.sizes() == other.sizes())) return false;
  return (self == other).all().item<bool>();
}

void register_composites(Library& m) {
  m.impl("isclose", MT_FN(isclose));
  m.impl("allclose", MT_FN(allclose));
  m.impl("equal", MT_FN(equal));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
