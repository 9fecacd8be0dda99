// CPU loops of the unary math ops. Contiguous runs use Eigen's array functions, which vectorise exp,
// log, log1p, sin, cos and tanh, or plain loops the compiler vectorises (sqrt, rsqrt); strided runs call
// <cmath>. (exp, log and sigmoid work around Eigen's inexact cases; see OpmathLoops.h.) The other
// exponentials and logarithms, the hyperbolic and inverse trigonometric functions and erf's family are
// plain loops over <cmath> (libm_kernel).
#include <cmath>
#include <type_traits>
#include <limits>

#include "ops/ScalarMath.h"
#include "ops/UnaryOps.h"
#include "ops/cpu/OpmathLoops.h"

namespace mt {
namespace {
// sigmoid from e = exp(-|x|) <= 1, which never overflows: 1 / (1 + e) for x >= 0, e / (1 + e) below,
// so results down to the denormals are kept (PyTorch's 1 / (1 + exp(-x)) flushes them to 0 below -88).
struct Sigmoid {
  template <typename S>
  S operator()(const S& x) const {
    const S e = std::exp(-std::abs(x));
    const S t = S(1) / (S(1) + e);
    return x < S(0) ? e * t : t;
  }
  template <typename Packet>
  Packet packetOp(const Packet& x) const {
    namespace ei = Eigen::internal;
    const Packet e = AccurateExp().packetOp(ei::pnegate(ei::pabs(x)));
    const Packet t = ei::pdiv(ei::pset1<Packet>(1), ei::padd(ei::pset1<Packet>(1), e));
    return ei::pselect(ei::pcmp_lt(x, ei::pzero(x)), ei::pmul(e, t), t);
  }
};
}  // namespace
}  // namespace mt

template <>
struct Eigen::internal::functor_traits<mt::Sigmoid> {
  enum { Cost = 25 * Eigen::NumTraits<float>::MulCost, PacketAccess = true };
};

namespace mt {
namespace {

void neg_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "neg", [&]<typename T>() {
    // Eigen's AVX negation is 0 - x, which gives +0 for +0: multiplying by -1 gives -0 on every ISA.
    unary_kernel_vec<T>(
        iter, [](auto x) { return wrapping_neg(x); }, [](const auto& x) { return x * eigen_scalar_t<decltype(x)>(-1); });
  });
}

void abs_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "abs", [&]<typename T>() {
    // abs(INT64_MIN) wraps to itself, as in PyTorch.
    unary_kernel_vec<T>(
        iter, [](auto x) { return x < decltype(x)(0) ? wrapping_neg(x) : std::abs(x); }, [](const auto& x) { return x.abs(); });
  });
}

// -1, 0 or 1; NaN gives 0, as in PyTorch.
void sign_kernel(TensorIterator& iter) {
  if (iter.common_dtype() == kBool) {
    cpu_kernel(iter, [](bool x) -> bool { return x; });
    return;
  }
  dispatch_numeric_types(iter.common_dtype(), "sign", [&]<typename T>() {
    unary_kernel_vec<T>(
        iter,
        [](auto x) {
          using S = decltype(x);
          return static_cast<S>((S(0) < x) - (x < S(0)));
        },
        [](const auto& x) {
          using S = eigen_scalar_t<decltype(x)>;
          return (x > S(0)).template cast<S>() - (x < S(0)).template cast<S>();
        });
  });
}

void exp_kernel(TensorIterator& iter) {
  floating_unary_kernel(
      iter, "exp", [](auto x) { return std::exp(x); }, [](const auto& x) { return x.unaryExpr(AccurateExp()); });
}
void log_kernel(TensorIterator& iter) {
  dispatch_floating_kernel(iter, "log", [&]<typename T>() {
    using M = opmath_t<T>;
    unary_kernel_vec_fixup<T>(
        iter, [](M x) { return std::log(x); }, [](const auto& x) { return x.log(); },
        [](M x) { return (x > M(0)) & (x < std::numeric_limits<M>::min()); });  // positive denormals
  });
}
void log1p_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "log1p", [](auto x) { return std::log1p(x); }, [](const auto& x) { return x.log1p(); });
}
void sqrt_kernel(TensorIterator& iter) {
  dispatch_floating_kernel(iter, "sqrt", [&]<typename T>() { unary_kernel<T>(iter, [](auto x) { return std::sqrt(x); }); });
}
// 1 / sqrt(x) with both steps rounded, as PyTorch computes it.
void rsqrt_kernel(TensorIterator& iter) {
  dispatch_floating_kernel(iter, "rsqrt", [&]<typename T>() {
    unary_kernel<T>(iter, [](auto x) { return decltype(x)(1) / std::sqrt(x); });
  });
}
void sin_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "sin", [](auto x) { return std::sin(x); }, [](const auto& x) { return x.sin(); });
}
void cos_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "cos", [](auto x) { return std::cos(x); }, [](const auto& x) { return x.cos(); });
}
void tanh_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "tanh", [](auto x) { return std::tanh(x); }, [](const auto& x) { return x.tanh(); });
}
void sigmoid_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "sigmoid", Sigmoid(), [](const auto& x) { return x.unaryExpr(Sigmoid()); });
}

// Plain loops over the C library's functions (reciprocal: the division instruction): the same results on
// every instruction set, where Eigen's packet versions of these differ from it and from one another.
template <typename ScalarOp>
void libm_kernel(TensorIterator& iter, const char* name, ScalarOp scalar_op) {
  dispatch_floating_kernel(iter, name, [&]<typename T>() { unary_kernel<T>(iter, scalar_op); });
}
void expm1_kernel(TensorIterator& iter) {
  libm_kernel(iter, "expm1", [](auto x) { return std::expm1(x); });
}
void exp2_kernel(TensorIterator& iter) {
  libm_kernel(iter, "exp2", [](auto x) { return std::exp2(x); });
}
void log2_kernel(TensorIterator& iter) {
  libm_kernel(iter, "log2", [](auto x) { return std::log2(x); });
}
void log10_kernel(TensorIterator& iter) {
  libm_kernel(iter, "log10", [](auto x) { return std::log10(x); });
}
void sinh_kernel(TensorIterator& iter) {
  libm_kernel(iter, "sinh", [](auto x) { return std::sinh(x); });
}
void cosh_kernel(TensorIterator& iter) {
  libm_kernel(iter, "cosh", [](auto x) { return std::cosh(x); });
}
void tan_kernel(TensorIterator& iter) {
  libm_kernel(iter, "tan", [](auto x) { return std::tan(x); });
}
void sinc_kernel(TensorIterator& iter) {
  libm_kernel(iter, "sinc", [](auto x) { return sinc(x); });
}
void asin_kernel(TensorIterator& iter) {
  libm_kernel(iter, "asin", [](auto x) { return std::asin(x); });
}
void acos_kernel(TensorIterator& iter) {
  libm_kernel(iter, "acos", [](auto x) { return std::acos(x); });
}
void atan_kernel(TensorIterator& iter) {
  libm_kernel(iter, "atan", [](auto x) { return std::atan(x); });
}
void asinh_kernel(TensorIterator& iter) {
  libm_kernel(iter, "asinh", [](auto x) { return std::asinh(x); });
}
void acosh_kernel(TensorIterator& iter) {
  libm_kernel(iter, "acosh", [](auto x) { return std::acosh(x); });
}
void atanh_kernel(TensorIterator& iter) {
  libm_kernel(iter, "atanh", [](auto x) { return std::atanh(x); });
}
void erf_kernel(TensorIterator& iter) {
  libm_kernel(iter, "erf", [](auto x) { return std::erf(x); });
}
void erfc_kernel(TensorIterator& iter) {
  libm_kernel(iter, "erfc", [](auto x) { return std::erfc(x); });
}
void erfinv_kernel(TensorIterator& iter) {
  libm_kernel(iter, "erfinv", [](auto x) { return inverse_erf(x); });
}
void reciprocal_kernel(TensorIterator& iter) {
  libm_kernel(iter, "reciprocal", [](auto x) { return decltype(x)(1) / x; });
}

// Integers round to themselves; floating values go through <cmath>'s rounding, which the compiler
// vectorises (roundps from SSE4.1).
template <typename FloatOp>
void rounding_kernel(TensorIterator& iter, const char* name, FloatOp op) {
  dispatch_numeric_types(iter.common_dtype(), name, [&]<typename T>() {
    if constexpr (std::is_floating_point_v<opmath_t<T>>) unary_kernel<T>(iter, op);
    else cpu_kernel(iter, [](T x) -> T { return x; });
  });
}
void floor_kernel(TensorIterator& iter) {
  rounding_kernel(iter, "floor", [](auto x) { return std::floor(x); });
}
void ceil_kernel(TensorIterator& iter) {
  rounding_kernel(iter, "ceil", [](auto x) { return std::ceil(x); });
}
void trunc_kernel(TensorIterator& iter) {
  rounding_kernel(iter, "trunc", [](auto x) { return std::trunc(x); });
}
// Half to even, as PyTorch (the default rounding mode).
void round_kernel(TensorIterator& iter) {
  rounding_kernel(iter, "round", [](auto x) { return std::nearbyint(x); });
}
void frac_kernel(TensorIterator& iter) {
  libm_kernel(iter, "frac", [](auto x) { return x - std::trunc(x); });
}
// PyTorch's scheme: for decimals < 0 divide by 10^-decimals first, so the scale stays exact.
void round_decimals_kernel(TensorIterator& iter, int64_t decimals) {
  dispatch_floating_kernel(iter, "round", [&]<typename T>() {
    using M = opmath_t<T>;
    const M scale = static_cast<M>(std::pow(10.0, static_cast<double>(decimals < 0 ? -decimals : decimals)));
    if (decimals < 0) unary_kernel<T>(iter, [scale](M x) { return std::nearbyint(x / scale) * scale; });
    else unary_kernel<T>(iter, [scale](M x) { return std::nearbyint(x * scale) / scale; });
  });
}

}  // namespace

MT_REGISTER_STUB(neg_stub, kCPU, neg_kernel);
MT_REGISTER_STUB(abs_stub, kCPU, abs_kernel);
MT_REGISTER_STUB(sign_stub, kCPU, sign_kernel);
MT_REGISTER_STUB(floor_stub, kCPU, floor_kernel);
MT_REGISTER_STUB(ceil_stub, kCPU, ceil_kernel);
MT_REGISTER_STUB(trunc_stub, kCPU, trunc_kernel);
MT_REGISTER_STUB(round_stub, kCPU, round_kernel);
MT_REGISTER_STUB(frac_stub, kCPU, frac_kernel);
MT_REGISTER_STUB(round_decimals_stub, kCPU, round_decimals_kernel);
MT_REGISTER_STUB(exp_stub, kCPU, exp_kernel);
MT_REGISTER_STUB(log_stub, kCPU, log_kernel);
MT_REGISTER_STUB(log1p_stub, kCPU, log1p_kernel);
MT_REGISTER_STUB(sqrt_stub, kCPU, sqrt_kernel);
MT_REGISTER_STUB(rsqrt_stub, kCPU, rsqrt_kernel);
MT_REGISTER_STUB(sin_stub, kCPU, sin_kernel);
MT_REGISTER_STUB(cos_stub, kCPU, cos_kernel);
MT_REGISTER_STUB(tanh_stub, kCPU, tanh_kernel);
MT_REGISTER_STUB(sigmoid_stub, kCPU, sigmoid_kernel);
MT_REGISTER_STUB(expm1_stub, kCPU, expm1_kernel);
MT_REGISTER_STUB(exp2_stub, kCPU, exp2_kernel);
MT_REGISTER_STUB(log2_stub, kCPU, log2_kernel);
MT_REGISTER_STUB(log10_stub, kCPU, log10_kernel);
MT_REGISTER_STUB(sinh_stub, kCPU, sinh_kernel);
MT_REGISTER_STUB(cosh_stub, kCPU, cosh_kernel);
MT_REGISTER_STUB(tan_stub, kCPU, tan_kernel);
MT_REGISTER_STUB(sinc_stub, kCPU, sinc_kernel);
MT_REGISTER_STUB(asin_stub, kCPU, asin_kernel);
MT_REGISTER_STUB(acos_stub, kCPU, acos_kernel);
MT_REGISTER_STUB(atan_stub, kCPU, atan_kernel);
MT_REGISTER_STUB(asinh_stub, kCPU, asinh_kernel);
MT_REGISTER_STUB(acosh_stub, kCPU, acosh_kernel);
MT_REGISTER_STUB(atanh_stub, kCPU, atanh_kernel);
MT_REGISTER_STUB(erf_stub, kCPU, erf_kernel);
MT_REGISTER_STUB(erfc_stub, kCPU, erfc_kernel);
MT_REGISTER_STUB(erfinv_stub, kCPU, erfinv_kernel);
MT_REGISTER_STUB(reciprocal_stub, kCPU, reciprocal_kernel);

}  // namespace mt
