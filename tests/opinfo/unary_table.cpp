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
#include "ops/api/sinh.h"
#include "ops/api/softplus.h"
#include "ops/api/sqrt.h"
#include "ops/api/square.h"
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

// One row, with the op's three forms spelled through their names.
#define MT_UNARY_ROW(op, ref, ...)                                                          \
  UnaryOpInfo {                                                                             \
    #op, [](const Tensor& x) { return mt::op(x); }, [](Tensor& x) -> Tensor& { return mt::op##_(x); }, \
        [](const Tensor& x, Tensor& out) -> Tensor& { return mt::op##_out(out, x); }, ref, __VA_ARGS__ \
  }


}  // namespace

const std::vector<UnaryOpInfo>& unary_ops() {
  static const std::vector<UnaryOpInfo> rows{
      // name, reference, lo, hi, grad_lo, grad_hi, ulps, floor, mirrored, CUDA autocast
      MT_UNARY_ROW(exp, std::exp, -20, 20, -5, 5, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(log, std::log, 0.01, 50, 0.1, 50, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(log1p, std::log1p, -0.9, 50, -0.8, 50, 6, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(sqrt, std::sqrt, 0.001, 50, 0.1, 50, 1, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(rsqrt, rsqrt_ref, 0.001, 50, 0.1, 50, 2, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(sin, std::sin, -10, 10, -10, 10, 4, 1, false, std::nullopt),
      MT_UNARY_ROW(cos, std::cos, -10, 10, -10, 10, 4, 1, false, std::nullopt),
      MT_UNARY_ROW(tanh, std::tanh, -5, 5, -3, 3, 8, 1, false, std::nullopt),
      MT_UNARY_ROW(sigmoid, sigmoid_ref, -10, 10, -5, 5, 8, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(expm1, std::expm1, -5, 5, -3, 3, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(exp2, std::exp2, -10, 10, -5, 5, 4, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(log2, std::log2, 0.01, 50, 0.1, 50, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(log10, std::log10, 0.01, 50, 0.1, 50, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(sinh, std::sinh, -5, 5, -3, 3, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(cosh, std::cosh, -5, 5, -3, 3, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(asin, std::asin, -1, 1, -0.9, 0.9, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(acos, std::acos, -1, 1, -0.9, 0.9, 4, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(atan, std::atan, -10, 10, -5, 5, 4, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(asinh, std::asinh, -10, 10, -5, 5, 4, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(acosh, std::acosh, 1, 50, 1.1, 20, 4, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(atanh, std::atanh, -1, 1, -0.9, 0.9, 4, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(erf, std::erf, -3, 3, -2, 2, 4, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(erfc, std::erfc, -3, 9, -2, 3, 4, 1e-3, false, std::nullopt),
      MT_UNARY_ROW(erfinv, erfinv_ref, -1, 1, -0.9, 0.9, 2, 1e-3, false, CastPolicy::fp32),
      MT_UNARY_ROW(reciprocal, reciprocal_ref, 0.05, 10, 0.2, 10, 1, 1e-3, true, CastPolicy::fp32),
      MT_UNARY_ROW(floor, std::floor, -10, 10, -10, 10, 0, 1e-3, false, std::nullopt, Integers::unchanged, false, true),
      MT_UNARY_ROW(ceil, std::ceil, -10, 10, -10, 10, 0, 1e-3, false, std::nullopt, Integers::unchanged, false, true),
      MT_UNARY_ROW(trunc, std::trunc, -10, 10, -10, 10, 0, 1e-3, false, std::nullopt, Integers::unchanged, false, true),
      MT_UNARY_ROW(round, std::nearbyint, -10, 10, -10, 10, 0, 1e-3, false, std::nullopt, Integers::unchanged, false, true),
      MT_UNARY_ROW(square, square_ref, -10, 10, -5, 5, 1, 1e-3, false, std::nullopt, Integers::kept),
      MT_UNARY_ROW(frac, frac_ref, -10, 10, -10, 10, 0, 1e-3, false, std::nullopt, Integers::refused, false),
      UnaryOpInfo{"round.decimals", [](const Tensor& x) { return mt::round(x, 2); },
                  [](Tensor& x) -> Tensor& { return mt::round_(x, 2); },
                  [](const Tensor& x, Tensor& out) -> Tensor& { return mt::round_out(out, x, 2); }, round2_ref, -10, 10,
                  -10, 10, 1, 1e-3, false, std::nullopt, Integers::refused, false, true},
      // The activations (their kinks, at 0 and +-3, lie off the random samples).
      MT_UNARY_ROW(leaky_relu, leaky_relu_ref, -10, 10, -5, 5, 1, 1e-3, false, std::nullopt, Integers::refused, false),
      MT_UNARY_ROW(elu, elu_ref, -10, 10, -5, 5, 4, 1e-3, false, std::nullopt, Integers::refused, false),
      MT_UNARY_ROW(hardsigmoid, hardsigmoid_ref, -10, 10, -5, 5, 2, 1e-3, false, std::nullopt, Integers::refused,
                   false),
      MT_UNARY_ROW(hardswish, hardswish_ref, -10, 10, -5, 5, 2, 1e-3, false, std::nullopt, Integers::refused, false),
      MT_UNARY_ROW(mish, mish_ref, -10, 10, -5, 5, 8, 1e-3, false, std::nullopt, Integers::refused, false),
      UnaryOpInfo{"selu", [](const Tensor& x) { return mt::selu(x); },
                  [](Tensor& x) -> Tensor& { return mt::selu_(x); }, nullptr, selu_ref, -10, 10, -5, 5, 4, 1e-3, false, std::nullopt, Integers::refused, false},
      UnaryOpInfo{"softplus", [](const Tensor& x) { return mt::softplus(x); }, nullptr,
                  [](const Tensor& x, Tensor& out) -> Tensor& { return mt::softplus_out(out, x); }, softplus_ref, -30,
                  30, -5, 5, 4, 1e-3, false, CastPolicy::fp32, Integers::refused, false},
      UnaryOpInfo{"log_sigmoid", [](const Tensor& x) { return mt::log_sigmoid(x); }, nullptr,
                  [](const Tensor& x, Tensor& out) -> Tensor& { return mt::log_sigmoid_out(out, x); }, log_sigmoid_ref,
                  -30, 30, -5, 5, 4, 1e-3, false, std::nullopt, Integers::refused, false},
  };
  return rows;
}

}  // namespace mt_test
