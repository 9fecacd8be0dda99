// The rows of the binary pointwise ops of two tensors. References are the C library's functions in double.
#include <algorithm>
#include <cmath>
#include <limits>

#include "opinfo/OpInfo.h"
#include "ops/api/add.h"
#include "ops/api/atan2.h"
#include "ops/api/copysign.h"
#include "ops/api/div.h"
#include "ops/api/fmod.h"
#include "ops/api/hypot.h"
#include "ops/api/logaddexp.h"
#include "ops/api/logaddexp2.h"
#include "ops/api/maximum.h"
#include "ops/api/minimum.h"
#include "ops/api/mul.h"
#include "ops/api/pow.h"
#include "ops/api/remainder.h"
#include "ops/api/sub.h"
#include "ops/api/xlogy.h"

namespace mt_test {

namespace {

using mt::autocast::CastPolicy;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double add_ref(double x, double y) { return x + y; }
double sub_ref(double x, double y) { return x - y; }
double mul_ref(double x, double y) { return x * y; }
double div_ref(double x, double y) { return x / y; }
// Python's modulo, as PyTorch computes it: fmod, moved to the divisor's sign (so 1 % inf is 1, not NaN).
double remainder_ref(double x, double y) {
  const double m = std::fmod(x, y);
  return m != 0 && (m < 0) != (y < 0) ? m + y : m;
}
double fmod_ref(double x, double y) { return std::fmod(x, y); }
double atan2_ref(double x, double y) { return std::atan2(x, y); }
double hypot_ref(double x, double y) { return std::hypot(x, y); }
double copysign_ref(double x, double y) { return std::copysign(x, y); }
double logaddexp_ref(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return kNaN;
  if (x == y && std::isinf(x)) return x;
  return std::max(x, y) + std::log1p(std::exp(-std::fabs(x - y)));
}
double logaddexp2_ref(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return kNaN;
  if (x == y && std::isinf(x)) return x;
  return std::max(x, y) + std::log2(1 + std::exp2(-std::fabs(x - y)));
}
// 0 * log(y) is 0 for any y but NaN (PyTorch's xlogy).
double xlogy_ref(double x, double y) { return std::isnan(y) ? kNaN : x == 0 ? 0 : x * std::log(y); }
double pow_ref(double x, double y) { return std::pow(x, y); }
// NaN in either operand propagates (std::fmax would drop it).
double maximum_ref(double x, double y) { return std::isnan(x) || std::isnan(y) ? kNaN : std::max(x, y); }
double minimum_ref(double x, double y) { return std::isnan(x) || std::isnan(y) ? kNaN : std::min(x, y); }

// One row: the op's three forms spelled through its name (the C++ function's, and the registered overload's
// for the row's name), then the row's facts as designated initializers (BinaryOpInfo's order).
#define MT_BINARY_ROW(fn, overload, ...)                                                                     \
  BinaryOpInfo {                                                                                             \
    .name = overload, .op = [](const Tensor& x, const Tensor& y) { return mt::fn(x, y); },                   \
    .inplace = [](Tensor& x, const Tensor& y) -> Tensor& { return x.fn##_(y); },                             \
    .out = [](const Tensor& x, const Tensor& y, Tensor& out) -> Tensor& { return mt::fn##_out(out, x, y); }, \
    __VA_ARGS__                                                                                              \
  }

}  // namespace

const std::vector<BinaryOpInfo>& binary_ops() {
  static const std::vector<BinaryOpInfo> rows{
      MT_BINARY_ROW(add, "add.Tensor", .reference = add_ref, .ulps = 1, .integers = Integers::kept, .bools = mt::kBool),
      MT_BINARY_ROW(sub, "sub.Tensor", .reference = sub_ref, .ulps = 1, .integers = Integers::kept,
                    .bools = std::nullopt),
      MT_BINARY_ROW(mul, "mul.Tensor", .reference = mul_ref, .ulps = 1, .integers = Integers::kept, .bools = mt::kBool),
      MT_BINARY_ROW(div, "div.Tensor", .reference = div_ref, .other_lo = 0.1, .other_hi = 10, .mirrored = true,
                    .ulps = 1),
      MT_BINARY_ROW(remainder, "remainder.Tensor", .reference = remainder_ref, .other_lo = 0.5, .other_hi = 5,
                    .mirrored = true, .ulps = 2, .floor = 1, .integers = Integers::kept, .bools = std::nullopt),
      MT_BINARY_ROW(fmod, "fmod.Tensor", .reference = fmod_ref, .other_lo = 0.5, .other_hi = 5, .mirrored = true,
                    .ulps = 2, .floor = 1, .integers = Integers::kept, .bools = std::nullopt),
      MT_BINARY_ROW(atan2, "atan2", .reference = atan2_ref, .cuda_autocast = CastPolicy::promote),
      MT_BINARY_ROW(hypot, "hypot", .reference = hypot_ref),
      MT_BINARY_ROW(copysign, "copysign", .reference = copysign_ref, .ulps = 0),
      // PyTorch has no in-place logaddexp. max(x, y) + log1p(exp(-|x - y|)) cancels where the result is near 0:
      // its error is relative to the operands (up to 10 here), not to the result.
      BinaryOpInfo{
          .name = "logaddexp",
          .op = [](const Tensor& x, const Tensor& y) { return mt::logaddexp(x, y); },
          .out = [](const Tensor& x, const Tensor& y, Tensor& out) -> Tensor& { return mt::logaddexp_out(out, x, y); },
          .reference = logaddexp_ref,
          .floor = 10},
      BinaryOpInfo{
          .name = "logaddexp2",
          .op = [](const Tensor& x, const Tensor& y) { return mt::logaddexp2(x, y); },
          .out = [](const Tensor& x, const Tensor& y, Tensor& out) -> Tensor& { return mt::logaddexp2_out(out, x, y); },
          .reference = logaddexp2_ref,
          .floor = 10},
      MT_BINARY_ROW(xlogy, "xlogy", .reference = xlogy_ref, .other_lo = 0.1, .other_hi = 10),
      // Positive bases (a negative one to a fractional power is NaN, and has no gradient in the exponent);
      // the cases of IEEE pow's special values are pointwise_pow_test.cpp's.
      MT_BINARY_ROW(pow, "pow.Tensor_Tensor", .reference = pow_ref, .lo = 0.5, .hi = 3, .other_lo = 0.1, .other_hi = 3,
                    .specials = false, .integers = Integers::kept, .bools = std::nullopt,
                    .cuda_autocast = CastPolicy::fp32),
      // Samples never tie, where the gradient's split between the operands is a convention.
      BinaryOpInfo{
          .name = "maximum",
          .op = [](const Tensor& x, const Tensor& y) { return mt::maximum(x, y); },
          .out = [](const Tensor& x, const Tensor& y, Tensor& out) -> Tensor& { return mt::maximum_out(out, x, y); },
          .reference = maximum_ref,
          .ulps = 0,
          .signed_zeros = false,
          .integers = Integers::kept,
          .bools = mt::kBool},
      BinaryOpInfo{
          .name = "minimum",
          .op = [](const Tensor& x, const Tensor& y) { return mt::minimum(x, y); },
          .out = [](const Tensor& x, const Tensor& y, Tensor& out) -> Tensor& { return mt::minimum_out(out, x, y); },
          .reference = minimum_ref,
          .ulps = 0,
          .signed_zeros = false,
          .integers = Integers::kept,
          .bools = mt::kBool},
  };
  return rows;
}

}  // namespace mt_test
