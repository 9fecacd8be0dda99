// The rows of the unary pointwise ops. References are the C library's functions in double (erfinv, which
// it lacks, by bisection in long double).
#include <algorithm>
#include <cmath>
#include <limits>

#include "opinfo/OpInfo.h"
#include "ops/api/acos.h"
#include "ops/api/acosh.h"
#include "ops/api/asin.h"
#include "ops/api/asinh.h"
#include "ops/api/atan.h"
#include "ops/api/atanh.h"
#include "ops/api/ceil.h"
#include "ops/api/cos.h"
#include "ops/api/cosh.h"
#include "ops/api/elu.h"
#include "ops/api/erf.h"
#include "ops/api/erfc.h"
#include "ops/api/erfinv.h"
#include "ops/api/exp.h"
#include "ops/api/exp2.h"
#include "ops/api/expm1.h"
#include "ops/api/floor.h"
#include "ops/api/frac.h"
#include "ops/api/hardsigmoid.h"
#include "ops/api/hardswish.h"
#include "ops/api/leaky_relu.h"
#include "ops/api/log.h"
#include "ops/api/log10.h"
#include "ops/api/log1p.h"
#include "ops/api/log2.h"
#include "ops/api/log_sigmoid.h"
#include "ops/api/mish.h"
#include "ops/api/reciprocal.h"
#include "ops/api/round.h"
#include "ops/api/rsqrt.h"
#include "ops/api/selu.h"
#include "ops/api/sigmoid.h"
#include "ops/api/sin.h"
#include "ops/api/sinc.h"
#include "ops/api/sinh.h"
#include "ops/api/softplus.h"
#include "ops/api/sqrt.h"
#include "ops/api/square.h"
#include "ops/api/tan.h"
#include "ops/api/tanh.h"
#include "ops/api/trunc.h"

namespace mt_test {

namespace {

using mt::autocast::CastPolicy;

double sigmoid_ref(double x) { return 1 / (1 + std::exp(-x)); }
double rsqrt_ref(double x) { return 1 / std::sqrt(x); }
double reciprocal_ref(double x) { return 1 / x; }
double frac_ref(double x) { return x - std::trunc(x); }
double round2_ref(double x) { return std::nearbyint(x * 100) / 100; }
double square_ref(double x) { return x * x; }
double leaky_relu_ref(double x) { return x > 0 ? x : 0.01 * x; }
double elu_ref(double x) { return x > 0 ? x : std::expm1(x); }
double selu_ref(double x) {
  return 1.0507009873554804934193349852946 * (x > 0 ? x : 1.6732632423543772848170429916717 * std::expm1(x));
}
double softplus_ref(double x) { return x > 20 ? x : std::log1p(std::exp(x)); }
double hardsigmoid_ref(double x) { return std::min(std::max(x + 3, 0.0), 6.0) / 6; }
double hardswish_ref(double x) { return x * hardsigmoid_ref(x); }
double mish_ref(double x) { return x * std::tanh(std::log1p(std::exp(x))); }
double log_sigmoid_ref(double x) { return x < 0 ? x - std::log1p(std::exp(x)) : -std::log1p(std::exp(-x)); }
// In long double: sin(pi x)'s error near its zeros is absolute (pi x is rounded), so the rows compare it
// against 1 (.floor = 1), as sin's.
double sinc_ref(double x) {
  if (x == 0) return 1;
  const long double product = 3.14159265358979323846264338327950288L * x;
  return static_cast<double>(std::sin(product) / product);
}
double erfinv_ref(double y) {
  if (std::isnan(y) || std::fabs(y) > 1) return std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(y) == 1) return std::copysign(std::numeric_limits<double>::infinity(), y);
  if (y == 0) return y;
  long double lo = 0, hi = 30, target = std::fabs(y);
  for (int i = 0; i < 200; ++i) {
    const long double mid = (lo + hi) / 2;
    // erfc is accurate in the tail where erf rounds to 1.
    const bool below = target < 0.5L ? std::erf(mid) < target : std::erfc(mid) > 1 - target;
    (below ? lo : hi) = mid;
  }
  return std::copysign(static_cast<double>((lo + hi) / 2), y);
}

// One row: the op's three forms spelled through its name, then the row's facts as designated initializers
// (.reference = ..., .lo = ...; UnaryOpInfo's order, defaults omitted).
#define MT_UNARY_ROW(fn, ...)                                                                        \
  UnaryOpInfo {                                                                                      \
    .name = #fn, .op = [](const Tensor& x) { return mt::fn(x); },                                    \
    .inplace = [](Tensor& x) -> Tensor& { return mt::fn##_(x); },                                    \
    .out = [](const Tensor& x, Tensor& out) -> Tensor& { return mt::fn##_out(out, x); }, __VA_ARGS__ \
  }

}  // namespace

const std::vector<UnaryOpInfo>& unary_ops() {
  static const std::vector<UnaryOpInfo> rows{
      MT_UNARY_ROW(exp, .reference = std::exp, .lo = -20, .hi = 20, .grad_lo = -5, .grad_hi = 5,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(log, .reference = std::log, .lo = 0.01, .hi = 50, .grad_lo = 0.1, .grad_hi = 50,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(log1p, .reference = std::log1p, .lo = -0.9, .hi = 50, .grad_lo = -0.8, .grad_hi = 50, .ulps = 6,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(sqrt, .reference = std::sqrt, .lo = 0.001, .hi = 50, .grad_lo = 0.1, .grad_hi = 50, .ulps = 1),
      MT_UNARY_ROW(rsqrt, .reference = rsqrt_ref, .lo = 0.001, .hi = 50, .grad_lo = 0.1, .grad_hi = 50, .ulps = 2,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(sin, .reference = std::sin, .lo = -10, .hi = 10, .grad_lo = -10, .grad_hi = 10, .floor = 1),
      MT_UNARY_ROW(cos, .reference = std::cos, .lo = -10, .hi = 10, .grad_lo = -10, .grad_hi = 10, .floor = 1),
      MT_UNARY_ROW(tan, .reference = std::tan, .lo = -1.4, .hi = 1.4, .grad_lo = -1.2, .grad_hi = 1.2,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(sinc, .reference = sinc_ref, .lo = -5, .hi = 5, .grad_lo = -3, .grad_hi = 3, .floor = 1),
      MT_UNARY_ROW(tanh, .reference = std::tanh, .lo = -5, .hi = 5, .grad_lo = -3, .grad_hi = 3, .ulps = 8, .floor = 1),
      MT_UNARY_ROW(sigmoid, .reference = sigmoid_ref, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5, .ulps = 8),
      MT_UNARY_ROW(expm1, .reference = std::expm1, .lo = -5, .hi = 5, .grad_lo = -3, .grad_hi = 3,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(exp2, .reference = std::exp2, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5),
      MT_UNARY_ROW(log2, .reference = std::log2, .lo = 0.01, .hi = 50, .grad_lo = 0.1, .grad_hi = 50,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(log10, .reference = std::log10, .lo = 0.01, .hi = 50, .grad_lo = 0.1, .grad_hi = 50,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(sinh, .reference = std::sinh, .lo = -5, .hi = 5, .grad_lo = -3, .grad_hi = 3,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(cosh, .reference = std::cosh, .lo = -5, .hi = 5, .grad_lo = -3, .grad_hi = 3,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(asin, .reference = std::asin, .lo = -1, .hi = 1, .grad_lo = -0.9, .grad_hi = 0.9,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(acos, .reference = std::acos, .lo = -1, .hi = 1, .grad_lo = -0.9, .grad_hi = 0.9,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(atan, .reference = std::atan, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5),
      MT_UNARY_ROW(asinh, .reference = std::asinh, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5),
      MT_UNARY_ROW(acosh, .reference = std::acosh, .lo = 1, .hi = 50, .grad_lo = 1.1, .grad_hi = 20),
      MT_UNARY_ROW(atanh, .reference = std::atanh, .lo = -1, .hi = 1, .grad_lo = -0.9, .grad_hi = 0.9),
      MT_UNARY_ROW(erf, .reference = std::erf, .lo = -3, .hi = 3, .grad_lo = -2, .grad_hi = 2),
      MT_UNARY_ROW(erfc, .reference = std::erfc, .lo = -3, .hi = 9, .grad_lo = -2, .grad_hi = 3),
      MT_UNARY_ROW(erfinv, .reference = erfinv_ref, .lo = -1, .hi = 1, .grad_lo = -0.9, .grad_hi = 0.9, .ulps = 2,
                   .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(reciprocal, .reference = reciprocal_ref, .lo = 0.05, .hi = 10, .grad_lo = 0.2, .grad_hi = 10,
                   .ulps = 1, .mirrored = true, .cuda_autocast = CastPolicy::fp32),
      MT_UNARY_ROW(floor, .reference = std::floor, .lo = -10, .hi = 10, .grad_lo = -10, .grad_hi = 10, .ulps = 0,
                   .integers = Integers::unchanged, .bools = false, .zero_gradient = true),
      MT_UNARY_ROW(ceil, .reference = std::ceil, .lo = -10, .hi = 10, .grad_lo = -10, .grad_hi = 10, .ulps = 0,
                   .integers = Integers::unchanged, .bools = false, .zero_gradient = true),
      MT_UNARY_ROW(trunc, .reference = std::trunc, .lo = -10, .hi = 10, .grad_lo = -10, .grad_hi = 10, .ulps = 0,
                   .integers = Integers::unchanged, .bools = false, .zero_gradient = true),
      MT_UNARY_ROW(round, .reference = std::nearbyint, .lo = -10, .hi = 10, .grad_lo = -10, .grad_hi = 10, .ulps = 0,
                   .integers = Integers::unchanged, .bools = false, .zero_gradient = true),
      MT_UNARY_ROW(square, .reference = square_ref, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5, .ulps = 1,
                   .integers = Integers::kept),
      MT_UNARY_ROW(frac, .reference = frac_ref, .lo = -10, .hi = 10, .grad_lo = -10, .grad_hi = 10, .ulps = 0,
                   .integers = Integers::refused, .bools = false),
      UnaryOpInfo{.name = "round.decimals",
                  .op = [](const Tensor& x) { return mt::round(x, 2); },
                  .inplace = [](Tensor& x) -> Tensor& { return mt::round_(x, 2); },
                  .out = [](const Tensor& x, Tensor& out) -> Tensor& { return mt::round_out(out, x, 2); },
                  .reference = round2_ref,
                  .lo = -10,
                  .hi = 10,
                  .grad_lo = -10,
                  .grad_hi = 10,
                  .ulps = 1,
                  .integers = Integers::refused,
                  .bools = false,
                  .zero_gradient = true},
      // The activations (their kinks, at 0 and +-3, lie off the random samples).
      MT_UNARY_ROW(leaky_relu, .reference = leaky_relu_ref, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5, .ulps = 1,
                   .integers = Integers::refused, .bools = false),
      MT_UNARY_ROW(elu, .reference = elu_ref, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5,
                   .integers = Integers::refused, .bools = false),
      MT_UNARY_ROW(hardsigmoid, .reference = hardsigmoid_ref, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5,
                   .ulps = 2, .integers = Integers::refused, .bools = false),
      MT_UNARY_ROW(hardswish, .reference = hardswish_ref, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5, .ulps = 2,
                   .integers = Integers::refused, .bools = false),
      MT_UNARY_ROW(mish, .reference = mish_ref, .lo = -10, .hi = 10, .grad_lo = -5, .grad_hi = 5, .ulps = 8,
                   .integers = Integers::refused, .bools = false),
      UnaryOpInfo{.name = "selu",
                  .op = [](const Tensor& x) { return mt::selu(x); },
                  .inplace = [](Tensor& x) -> Tensor& { return mt::selu_(x); },
                  .reference = selu_ref,
                  .lo = -10,
                  .hi = 10,
                  .grad_lo = -5,
                  .grad_hi = 5,
                  .integers = Integers::refused,
                  .bools = false},
      UnaryOpInfo{.name = "softplus",
                  .op = [](const Tensor& x) { return mt::softplus(x); },
                  .out = [](const Tensor& x, Tensor& out) -> Tensor& { return mt::softplus_out(out, x); },
                  .reference = softplus_ref,
                  .lo = -30,
                  .hi = 30,
                  .grad_lo = -5,
                  .grad_hi = 5,
                  .cuda_autocast = CastPolicy::fp32,
                  .integers = Integers::refused,
                  .bools = false},
      UnaryOpInfo{.name = "log_sigmoid",
                  .op = [](const Tensor& x) { return mt::log_sigmoid(x); },
                  .out = [](const Tensor& x, Tensor& out) -> Tensor& { return mt::log_sigmoid_out(out, x); },
                  .reference = log_sigmoid_ref,
                  .lo = -30,
                  .hi = 30,
                  .grad_lo = -5,
                  .grad_hi = 5,
                  .integers = Integers::refused,
                  .bools = false},
  };
  return rows;
}

}  // namespace mt_test
