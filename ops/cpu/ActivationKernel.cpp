// CPU loops of relu, gelu, silu, threshold_backward (relu's gradient) and the parametric activations. Contiguous runs are Eigen array expressions (vectorised erf, tanh
// and exp: silu's is AccurateExp, see OpmathLoops.h); 16-bit floats compute in float.
#include <cmath>

#include <unsupported/Eigen/SpecialFunctions>

#include "ops/Activation.h"
#include "ops/cpu/OpmathLoops.h"

namespace mt {
namespace {

// NaN stays NaN (x < 0 is false for it).
void relu_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "relu", [&]<typename T>() {
    unary_kernel_vec<T>(
        iter, [](auto x) { return x < decltype(x)(0) ? decltype(x)(0) : x; },
        [](const auto& x) {
          using S = eigen_scalar_t<decltype(x)>;
          return (x < S(0)).select(S(0), x);
        });
  });
}

// Where self <= threshold the gradient is 0; elsewhere, a NaN self included, it passes.
void threshold_backward_kernel(TensorIterator& iter, const Scalar& threshold) {
  dispatch_numeric_types(iter.common_dtype(), "threshold_backward", [&]<typename T>() {
    using M = opmath_t<T>;
    const M t = threshold.to<M>();
    const auto op = [t](T g, T x) -> T { return static_cast<M>(x) <= t ? T(0) : g; };
    if constexpr (std::is_same_v<T, M>) {
      cpu_kernel_vec<T>(iter, op, [t](const auto& g, const auto& x) { return (x <= t).select(T(0), g); });
    } else {
      cpu_kernel(iter, op);
    }
  });
}

constexpr double kSqrt1_2 = 0.70710678118654752440;    // 1 / sqrt(2)
constexpr double kSqrt2OverPi = 0.79788456080286535588;  // sqrt(2 / pi)
constexpr double kGeluCubic = 0.044715;

void gelu_kernel(TensorIterator& iter, GeluApproximation approximation) {
  if (approximation == GeluApproximation::None) {
    // x * Phi(x), with the normal CDF written through erf.
    floating_unary_kernel(
        iter, "gelu",
        [](auto x) {
          using S = decltype(x);
          return x * S(0.5) * (S(1) + std::erf(x * S(kSqrt1_2)));
        },
        [](const auto& x) {
          using S = eigen_scalar_t<decltype(x)>;
          return x * S(0.5) * ((x * S(kSqrt1_2)).erf() + S(1));
        });
  } else {
    floating_unary_kernel(
        iter, "gelu",
        [](auto x) {
          using S = decltype(x);
          return x * S(0.5) * (S(1) + std::tanh(S(kSqrt2OverPi) * (x + S(kGeluCubic) * x * x * x)));
        },
        [](const auto& x) {
          using S = eigen_scalar_t<decltype(x)>;
          return x * S(0.5) * ((S(kSqrt2OverPi) * (x + S(kGeluCubic) * x.cube())).tanh() + S(1));
        });
  }
}

void silu_kernel(TensorIterator& iter) {
  floating_unary_kernel(
      iter, "silu",
      [](auto x) {
        using S = decltype(x);
        return x / (S(1) + std::exp(-x));
      },
      [](const auto& x) {
        using S = eigen_scalar_t<decltype(x)>;
        return x / ((-x).unaryExpr(AccurateExp()) + S(1));
      });
}

// The parametric family, in scalar loops (the compiler vectorises the piecewise-linear ones).
void activation_kernel(TensorIterator& iter, PointwiseActivation op, const ActivationParams& p) {
  with_activation(op, [&]<PointwiseActivation kOp>() {
    const auto loop = [&]<typename T>() {
      using M = opmath_t<T>;
      const M a = activation_param<M>(p.a), b = activation_param<M>(p.b), c = activation_param<M>(p.c);
      cpu_kernel(iter, [a, b, c](T x) -> T { return static_cast<T>(activation_value<kOp>(M(x), a, b, c)); });
    };
    if constexpr (kOp == PointwiseActivation::Hardtanh) {
      dispatch_numeric_types(iter.common_dtype(), activation_name(kOp), loop);
    } else {
      dispatch_floating_types(iter.common_dtype(), activation_name(kOp), loop);
    }
  });
}

}  // namespace

MT_REGISTER_STUB(relu_stub, kCPU, relu_kernel);
MT_REGISTER_STUB(gelu_stub, kCPU, gelu_kernel);
MT_REGISTER_STUB(silu_stub, kCPU, silu_kernel);
MT_REGISTER_STUB(threshold_backward_stub, kCPU, threshold_backward_kernel);
MT_REGISTER_STUB(activation_stub, kCPU, activation_kernel);

}  // namespace mt
