// Derivatives of the unary pointwise ops and activations (and their in-place forms) and of pow: the
// input's gradient is the output's gradient times f'(self). Where PyTorch saves the result (exp, tanh,
// sigmoid, sqrt...), these save the input and recompute it (see autograd/SavedVariable.h).
#include <numbers>

#include "autograd/derivatives/Formulas.h"
#include "ops/api/abs_ops.h"
#include "ops/api/acos_ops.h"
#include "ops/api/acosh_ops.h"
#include "ops/api/asin_ops.h"
#include "ops/api/asinh_ops.h"
#include "ops/api/atan_ops.h"
#include "ops/api/atanh_ops.h"
#include "ops/api/ceil_ops.h"
#include "ops/api/cos_ops.h"
#include "ops/api/cosh_ops.h"
#include "ops/api/erf_ops.h"
#include "ops/api/erfc_ops.h"
#include "ops/api/erfinv_ops.h"
#include "ops/api/exp_ops.h"
#include "ops/api/exp2_ops.h"
#include "ops/api/expm1_ops.h"
#include "ops/api/floor_ops.h"
#include "ops/api/frac_ops.h"
#include "ops/api/gelu.h"
#include "ops/api/log_ops.h"
#include "ops/api/log10_ops.h"
#include "ops/api/log1p_ops.h"
#include "ops/api/log2_ops.h"
#include "ops/api/neg_ops.h"
#include "ops/api/ones_like.h"
#include "ops/api/pow_ops.h"
#include "ops/api/reciprocal_ops.h"
#include "ops/api/relu.h"
#include "ops/api/round_ops.h"
#include "ops/api/rsqrt_ops.h"
#include "ops/api/sigmoid_ops.h"
#include "ops/api/sign_ops.h"
#include "ops/api/silu_ops.h"
#include "ops/api/sin_ops.h"
#include "ops/api/sinc_ops.h"
#include "ops/api/sinh_ops.h"
#include "ops/api/sqrt_ops.h"
#include "ops/api/tan_ops.h"
#include "ops/api/tanh_ops.h"
#include "ops/api/threshold_backward.h"
#include "ops/api/trunc_ops.h"
#include "ops/api/where.h"
#include "ops/api/zeros_like.h"

namespace mt::autograd {

namespace {

using Derivative = Tensor (*)(const Tensor& self);

// g * f'(x), with x saved.
BackwardFunction::Formula times_derivative(Derivative derivative, const Tensor& x) {
  return [s = SavedVariable(x), derivative](const variable_list& g) {
    return variable_list{g[0] * derivative(s.unpack())};
  };
}

template <typename Op>
Tensor unary(const char* name, Derivative derivative, DispatchKeySet ks, const Tensor& self) {
  return differentiable<Op>(
      name, {self}, [&] { return times_derivative(derivative, self); }, ks, self);
}
template <typename Op>
Tensor& unary_(const char* name, Derivative derivative, DispatchKeySet ks, Tensor& self) {
  return differentiable_<Op>(
      name, {self}, [&](const Tensor& original) { return times_derivative(derivative, original); }, ks, self);
}

using std::numbers::ln2, std::numbers::ln10, std::numbers::pi;
constexpr double kTwoOverSqrtPi = 2 * std::numbers::inv_sqrtpi;

// Phi, the standard normal CDF, as gelu(x) / x. At 0 it is its Taylor polynomial
// 1/2 + phi(0) (x - x^3 / 6), so that its derivatives there (a Hessian of gelu) are right to the third.
Tensor normal_cdf(const Tensor& x) {
  constexpr double kInvSqrt2Pi = 0.3989422804014327;
  const Tensor at_zero = x.eq(0);
  const Tensor safe = mt::where(at_zero, 1.0, x);
  return mt::where(at_zero, (x - x * x * x / 6) * kInvSqrt2Pi + 0.5, mt::gelu(safe) / safe);
}
// gelu(x) = x Phi(x): Phi(x) + x phi(x).
Tensor d_gelu(const Tensor& x) {
  constexpr double kInvSqrt2Pi = 0.3989422804014327;
  return normal_cdf(x) + x * (x * x * -0.5).exp() * kInvSqrt2Pi;
}
// gelu(x) = x (1 + tanh(u)) / 2, u = sqrt(2/pi) (x + 0.044715 x^3).
Tensor d_gelu_tanh(const Tensor& x) {
  constexpr double kSqrt2OverPi = 0.7978845608028654, kCoeff = 0.044715;
  const Tensor x2 = x * x;
  const Tensor t = ((x + x2 * x * kCoeff) * kSqrt2OverPi).tanh();
  return (t + 1) * 0.5 + x * (-(t * t) + 1) * (x2 * (3 * kCoeff) + 1) * (0.5 * kSqrt2OverPi);
}

Derivative gelu_derivative(std::string_view approximate) { return approximate == "tanh" ? d_gelu_tanh : d_gelu; }

// A unary op's derivative in one line: the op, PyTorch's node name and f'(x) as an expression in x. It
// defines and registers the Autograd kernels of op and op_.
#define MT_UNARY_FORMULA(op, node, derivative)                                                          \
  Tensor d_##op(const Tensor& x) { return derivative; }                                                 \
  Tensor op(DispatchKeySet ks, const Tensor& self) { return unary<ops::op>(node, d_##op, ks, self); }   \
  Tensor& op##_(DispatchKeySet ks, Tensor& self) { return unary_<ops::op##_>(node, d_##op, ks, self); } \
  MT_LIBRARY_IMPL(mt, Autograd, m) {                                                                    \
    m.impl(#op, MT_FN(op));                                                                             \
    m.impl(#op "_", MT_FN(op##_));                                                                      \
  }

MT_UNARY_FORMULA(exp, "ExpBackward0", x.exp())
MT_UNARY_FORMULA(log, "LogBackward0", x.pow(-1))
MT_UNARY_FORMULA(log1p, "Log1PBackward0", (x + 1).pow(-1))
MT_UNARY_FORMULA(sqrt, "SqrtBackward0", x.rsqrt() * 0.5)
MT_UNARY_FORMULA(rsqrt, "RsqrtBackward0", x.pow(-1.5) * -0.5)
MT_UNARY_FORMULA(sin, "SinBackward0", x.cos())
MT_UNARY_FORMULA(cos, "CosBackward0", -x.sin())
MT_UNARY_FORMULA(tanh, "TanhBackward0", [&] { const Tensor t = x.tanh(); return -(t * t) + 1; }())
MT_UNARY_FORMULA(sigmoid, "SigmoidBackward0", [&] { const Tensor s = x.sigmoid(); return s * (-s + 1); }())
MT_UNARY_FORMULA(silu, "SiluBackward0", [&] { const Tensor s = x.sigmoid(); return s * (x * (-s + 1) + 1); }())
// abs: grad * sign(self), 0 at 0 (PyTorch's grad * self.sgn()).
MT_UNARY_FORMULA(abs, "AbsBackward0", x.sign())
// The exponentials, logarithms, hyperbolic and inverse trigonometric functions, erf and its kin.
MT_UNARY_FORMULA(expm1, "Expm1Backward0", x.exp())
MT_UNARY_FORMULA(exp2, "Exp2Backward0", x.exp2() * ln2)
MT_UNARY_FORMULA(log2, "Log2Backward0", (x * ln2).reciprocal())
MT_UNARY_FORMULA(log10, "Log10Backward0", (x * ln10).reciprocal())
MT_UNARY_FORMULA(sinh, "SinhBackward0", x.cosh())
MT_UNARY_FORMULA(cosh, "CoshBackward0", x.sinh())
MT_UNARY_FORMULA(asin, "AsinBackward0", (-(x * x) + 1).rsqrt())
MT_UNARY_FORMULA(acos, "AcosBackward0", -(-(x * x) + 1).rsqrt())
MT_UNARY_FORMULA(atan, "AtanBackward0", (x * x + 1).reciprocal())
MT_UNARY_FORMULA(tan, "TanBackward0", [&] { const Tensor t = x.tan(); return t * t + 1; }())
// sinc'(x) = (cos(pi x) - sinc(x)) / x, and 0 at 0, as PyTorch (whose second derivative at 0 is NaN too).
MT_UNARY_FORMULA(sinc, "SincBackward0", (((x * pi).cos() - x.sinc()) / x).masked_fill(x == 0, 0))
MT_UNARY_FORMULA(asinh, "AsinhBackward0", (x * x + 1).rsqrt())
MT_UNARY_FORMULA(acosh, "AcoshBackward0", (x * x - 1).rsqrt())
MT_UNARY_FORMULA(atanh, "AtanhBackward0", (-(x * x) + 1).reciprocal())
MT_UNARY_FORMULA(erf, "ErfBackward0", (-(x * x)).exp() * kTwoOverSqrtPi)
MT_UNARY_FORMULA(erfc, "ErfcBackward0", (-(x * x)).exp() * -kTwoOverSqrtPi)
// erfinv(x) = y: dy/dx = 1 / erf'(y) = sqrt(pi) / 2 exp(y^2).
MT_UNARY_FORMULA(erfinv, "ErfinvBackward0",
                 [&] { const Tensor y = x.erfinv(); return (y * y).exp() / kTwoOverSqrtPi; }())
MT_UNARY_FORMULA(reciprocal, "ReciprocalBackward0", -(x * x).reciprocal())
MT_UNARY_FORMULA(frac, "FracBackward0", mt::ones_like(x))  // frac(x) = x - trunc(x)
#undef MT_UNARY_FORMULA

// sign's gradient is 0 (PyTorch's zeros_like(grad)): it saves nothing, so changing self in place afterwards is no
// error, and an inf or NaN gradient still gives 0.
variable_list zero_gradient(const variable_list& g) { return {mt::zeros_like(g[0])}; }

// sign and the rounding functions: piecewise constant, so their gradient is 0.
template <typename Op>
Tensor piecewise_constant(const char* name, DispatchKeySet ks, const Tensor& self, const auto&... args) {
  return differentiable<Op>(name, {self}, [] { return BackwardFunction::Formula(zero_gradient); }, ks, self, args...);
}
template <typename Op>
Tensor& piecewise_constant_(const char* name, DispatchKeySet ks, Tensor& self, const auto&... args) {
  return differentiable_<Op>(name, {self}, [] { return BackwardFunction::Formula(zero_gradient); }, ks, self, args...);
}

#define MT_ZERO_GRAD_FORMULA(op, node)                                                                        \
  Tensor op(DispatchKeySet ks, const Tensor& self) { return piecewise_constant<ops::op>(node, ks, self); }     \
  Tensor& op##_(DispatchKeySet ks, Tensor& self) { return piecewise_constant_<ops::op##_>(node, ks, self); }

MT_ZERO_GRAD_FORMULA(sign, "SignBackward0")
MT_ZERO_GRAD_FORMULA(floor, "FloorBackward0")
MT_ZERO_GRAD_FORMULA(ceil, "CeilBackward0")
MT_ZERO_GRAD_FORMULA(trunc, "TruncBackward0")
MT_ZERO_GRAD_FORMULA(round, "RoundBackward0")
#undef MT_ZERO_GRAD_FORMULA

Tensor round_decimals(DispatchKeySet ks, const Tensor& self, int64_t decimals) {
  return piecewise_constant<ops::round_decimals>("RoundBackward1", ks, self, decimals);
}
Tensor& round_decimals_(DispatchKeySet ks, Tensor& self, int64_t decimals) {
  return piecewise_constant_<ops::round__decimals>("RoundBackward1", ks, self, decimals);
}

// relu, as PyTorch's threshold_backward(grad, result, 0): the gradient is dropped where the result is <= 0, which is
// where self is, and passes elsewhere, at a NaN too (relu(NaN) is NaN, which is not <= 0).
Tensor relu(DispatchKeySet ks, const Tensor& self) {
  return differentiable<ops::relu>("ReluBackward0", {self}, [&] {
    return BackwardFunction::Formula([s = SavedVariable(self)](const variable_list& g) {
      return variable_list{mt::threshold_backward(g[0], s.unpack(), 0)};
    });
  }, ks, self);
}

// threshold_backward is linear in grad_output, with the same mask for the gradient's gradient, and
// piecewise constant in self.
Tensor threshold_backward(DispatchKeySet ks, const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  return differentiable<ops::threshold_backward>("ThresholdBackwardBackward0", {grad_output, self}, [&] {
    return BackwardFunction::Formula(
        [s = SavedVariable(self), threshold, go_sizes = grad_output.sizes().vec()](const variable_list& g) {
          const Tensor self_v = s.unpack();
          return variable_list{sum_to(mt::threshold_backward(g[0], self_v, threshold), go_sizes),
                               mt::zeros_like(self_v)};
        });
  }, ks, grad_output, self, threshold);
}

// relu_ saves where the result is <= 0 instead of a copy of self.
Tensor& relu_(DispatchKeySet ks, Tensor& self) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self});
  below_autograd([&]() -> Tensor& { return ops::relu_::redispatch(ks & after_autograd_keyset, self); });
  if (rg) {
    record("ReluBackward0", {self}, {self},
           [m = SavedVariable(below_autograd([&] { return self.le(0); }))](const variable_list& g) {
             return variable_list{grad_where_not(m.unpack(), g[0])};
           });
  }
  return self;
}

Tensor gelu(DispatchKeySet ks, const Tensor& self, std::string_view approximate) {
  return differentiable<ops::gelu>(
      "GeluBackward0", {self}, [&] { return times_derivative(gelu_derivative(approximate), self); }, ks, self,
      approximate);
}

Tensor& gelu_(DispatchKeySet ks, Tensor& self, std::string_view approximate) {
  return differentiable_<ops::gelu_>(
      "GeluBackward0", {self},
      [&](const Tensor& original) { return times_derivative(gelu_derivative(approximate), original); }, ks, self,
      approximate);
}

Tensor& neg__(DispatchKeySet ks, Tensor& self) {
  return differentiable_<ops::neg_>("NegBackward0", {self}, [] {
    return BackwardFunction::Formula([](const variable_list& g) { return variable_list{-g[0]}; });
  }, ks, self);
}

// d/dself self^e = e self^(e-1); an exponent of 0 gives 0 (not 0 * inf at self = 0).
Tensor pow_self_grad(const Tensor& g, const Tensor& self, double e) {
  if (e == 0) return mt::zeros_like(g);
  return g * self.pow(e - 1) * e;
}

BackwardFunction::Formula pow_scalar_formula(const Tensor& self, const Scalar& exponent) {
  return [s = SavedVariable(self), e = exponent.toDouble()](const variable_list& g) {
    return variable_list{pow_self_grad(g[0], s.unpack(), e)};
  };
}

Tensor pow_Tensor_Scalar(DispatchKeySet ks, const Tensor& self, const Scalar& exponent) {
  return differentiable<ops::pow_Tensor_Scalar>(
      "PowBackward0", {self}, [&] { return pow_scalar_formula(self, exponent); }, ks, self, exponent);
}

Tensor& pow__Scalar(DispatchKeySet ks, Tensor& self, const Scalar& exponent) {
  return differentiable_<ops::pow__Scalar>(
      "PowBackward0", {self}, [&](const Tensor& original) { return pow_scalar_formula(original, exponent); }, ks,
      self, exponent);
}

// pow(self, exponent) with both tensors (PyTorch's pow_backward_self / pow_backward_exponent): self's gradient is 0
// where the exponent is 0; the exponent's is result * log(self), 0 where self = 0 and exponent >= 0, a mask that
// multiplies the gradient there as in PyTorch. log(self) is taken in the result's dtype, as PyTorch does: in self's,
// an integer base (pow(2, x) wraps 2 as an int64) would take it in float32 for a float64 exponent.
BackwardFunction::Formula pow_tensor_formula(const Tensor& self, const Tensor& exponent, ScalarType result_dtype) {
  return [s = SavedVariable(self), e = SavedVariable(exponent), self_sizes = self.sizes().vec(),
          exponent_sizes = exponent.sizes().vec(), result_dtype](const variable_list& g) {
    const Tensor self_v = s.unpack(), exponent_v = e.unpack();
    const Tensor grad_self = grad_where_not(exponent_v.eq(0), g[0] * exponent_v * self_v.pow(exponent_v - 1));
    const Tensor grad_exponent = g[0] * mt::where(self_v.eq(0).logical_and(exponent_v.ge(0)), 0.0,
                                                  self_v.pow(exponent_v) * self_v.to(result_dtype).log());
    return variable_list{sum_to(grad_self, self_sizes), sum_to(grad_exponent, exponent_sizes)};
  };
}

Tensor pow_Tensor_Tensor(DispatchKeySet ks, const Tensor& self, const Tensor& exponent) {
  return differentiable<ops::pow_Tensor_Tensor>(
      "PowBackward1", {self, exponent},
      [&](const Tensor& out) { return pow_tensor_formula(self, exponent, out.scalar_type()); }, ks, self, exponent);
}

// The exponent is saved before the op: the op's write shows if it shares self's memory (mul_'s note).
Tensor& pow__Tensor(DispatchKeySet ks, Tensor& self, const Tensor& exponent) {
  return differentiable_<ops::pow__Tensor>(
      "PowBackward1", {self, exponent},
      [&](const Tensor& original) {
        return pow_tensor_formula(original, operand_to_save_inplace(self, exponent), self.scalar_type());
      },
      ks, self, exponent);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("sign", MT_FN(sign));
  m.impl("sign_", MT_FN(sign_));
  m.impl("floor", MT_FN(floor));
  m.impl("floor_", MT_FN(floor_));
  m.impl("ceil", MT_FN(ceil));
  m.impl("ceil_", MT_FN(ceil_));
  m.impl("trunc", MT_FN(trunc));
  m.impl("trunc_", MT_FN(trunc_));
  m.impl("round", MT_FN(round));
  m.impl("round_", MT_FN(round_));
  m.impl("round.decimals", MT_FN(round_decimals));
  m.impl("round_.decimals", MT_FN(round_decimals_));
  m.impl("relu", MT_FN(relu));
  m.impl("threshold_backward", MT_FN(threshold_backward));
  m.impl("relu_", MT_FN(relu_));
  m.impl("gelu", MT_FN(gelu));
  m.impl("gelu_", MT_FN(gelu_));
  m.impl("neg_", MT_FN(neg__));
  m.impl("pow.Tensor_Scalar", MT_FN(pow_Tensor_Scalar));
  m.impl("pow_.Scalar", MT_FN(pow__Scalar));
  m.impl("pow.Tensor_Tensor", MT_FN(pow_Tensor_Tensor));
  m.impl("pow_.Tensor", MT_FN(pow__Tensor));
}

}  // namespace mt::autograd
