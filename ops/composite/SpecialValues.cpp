// isnan, isinf, isposinf, isneginf, isfinite and nan_to_num as compositions of comparisons and where, so
// every layer (autograd, vmap, Meta, CUDA, functionalize) handles them through their parts. Integers and
// bool hold no special values: the tests are constant and nan_to_num copies.
#include <limits>

#include "dispatch/Library.h"
#include "ops/BinaryOps.h"
#include "ops/Factories.h"
#include "ops/api/isfinite.h"
#include "ops/api/isinf.h"
#include "ops/api/isnan.h"
#include "ops/api/isneginf.h"
#include "ops/api/isposinf.h"
#include "ops/api/max.h"
#include "ops/api/nan_to_num.h"
#include "ops/api/ones_like.h"
#include "ops/api/where.h"
#include "ops/api/zeros_like.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor constant_mask(const Tensor& self, bool value) {
  return value ? mt::ones_like(self, TensorOptions(kBool)) : mt::zeros_like(self, TensorOptions(kBool));
}

// NaN alone differs from itself (integers never do).
Tensor isnan(const Tensor& self) { return self != self; }
Tensor isposinf(const Tensor& self) {
  return is_floating_point(self.dtype()) ? self == kInf : constant_mask(self, false);
}
Tensor isneginf(const Tensor& self) {
  return is_floating_point(self.dtype()) ? self == -kInf : constant_mask(self, false);
}
Tensor isinf(const Tensor& self) {
  return is_floating_point(self.dtype()) ? self.abs() == kInf : constant_mask(self, false);
}
Tensor isfinite(const Tensor& self) {
  return is_floating_point(self.dtype()) ? (self == self) & (self.abs() != kInf) : constant_mask(self, true);
}

// nan_to_num's default for an infinity: the dtype's largest finite value (PyTorch's finfo.max).
double largest_finite(ScalarType t) {
  switch (t) {
    case kFloat16: return 65504.0;
    case kBFloat16: return 3.3895313892515355e38;
    case kFloat32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

// self with its infinities replaced; the replacements are wrapped numbers, so the result keeps self's dtype.
Tensor infinities_replaced(const Tensor& self, std::optional<double> posinf, std::optional<double> neginf) {
  const double big = largest_finite(self.dtype());
  const Tensor r = mt::where(self == kInf, posinf.value_or(big), self);
  return mt::where(self == -kInf, neginf.value_or(-big), r);
}

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  if (!is_floating_point(self.dtype())) return self.clone();
  return mt::where(self != self, nan.value_or(0.0), infinities_replaced(self, posinf, neginf));
}

// Each fill leaves finite values, so the next mask sees only the values it replaces.
Tensor& nan_to_num_(Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                    std::optional<double> neginf) {
  if (!is_floating_point(self.dtype())) return self;
  const double big = largest_finite(self.dtype());
  self.masked_fill_(self != self, nan.value_or(0.0));
  self.masked_fill_(self == kInf, posinf.value_or(big));
  return self.masked_fill_(self == -kInf, neginf.value_or(-big));
}

// where's out= form resizes and writes `out` as every out= op does.
Tensor& nan_to_num_out(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf, Tensor& out) {
  MT_CHECK_TYPE(out.dtype() == self.dtype(), "nan_to_num: dtype of out: ", out.dtype(), " should be same as input: ",
                self.dtype());
  if (!is_floating_point(self.dtype())) return mt::where_out(out, constant_mask(self, false), self, self);
  return mt::where_out(out, self != self, wrapped_scalar_tensor(nan.value_or(0.0), self.device()),
                       infinities_replaced(self, posinf, neginf));
}

void register_composites(Library& m) {
  m.impl("isnan", MT_FN(isnan));
  m.impl("isinf", MT_FN(isinf));
  m.impl("isposinf", MT_FN(isposinf));
  m.impl("isneginf", MT_FN(isneginf));
  m.impl("isfinite", MT_FN(isfinite));
  m.impl("nan_to_num", MT_FN(nan_to_num));
  m.impl("nan_to_num_", MT_FN(nan_to_num_));
  m.impl("nan_to_num.out", MT_FN(nan_to_num_out));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
