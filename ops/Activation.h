#pragma once
// Activations with kernels of their own (relu, gelu, silu, threshold_backward (relu's gradient), and the
// parametric family leaky_relu, elu, softplus, hardtanh, hardsigmoid, hardswish, mish, log_sigmoid): the
// per-device stubs that hold the loops, and the family's values in the opmath type, shared by the CPU
// and CUDA loops. The shared part (dtype rules, allocation, the functional, in-place and out= forms) is
// Activation.cpp.
#include <cmath>
#include <limits>
#include <type_traits>

#include "ops/infra/DispatchStub.h"
#include "ops/ScalarMath.h"
#include "ops/infra/TensorIterator.h"

namespace mt {

enum class GeluApproximation { None, Tanh };

MT_DECLARE_STUB(relu_stub, void(TensorIterator&));
MT_DECLARE_STUB(gelu_stub, void(TensorIterator&, GeluApproximation));
MT_DECLARE_STUB(silu_stub, void(TensorIterator&));
// out = self <= threshold ? 0 : grad_output, over an iterator of (out, grad_output, self) in one dtype.
MT_DECLARE_STUB(threshold_backward_stub, void(TensorIterator&, const Scalar& threshold));

enum class PointwiseActivation { LeakyRelu, Elu, Softplus, Hardtanh, Hardsigmoid, Hardswish, Mish, LogSigmoid };

// Up to three parameters, by op: leaky_relu (negative_slope), elu (alpha, scale, input_scale), softplus
// (beta, threshold), hardtanh (min_val, max_val).
struct ActivationParams {
  double a = 0, b = 0, c = 0;
};

MT_DECLARE_STUB(activation_stub, void(TensorIterator&, PointwiseActivation, const ActivationParams&));

// PyTorch's definitions; NaN propagates through each (its comparisons are false).
template <PointwiseActivation kOp, typename M>
MT_HOST_DEVICE M activation_value(M x, M a, M b, M c) {
  if constexpr (kOp == PointwiseActivation::LeakyRelu) {
    return x > M(0) ? x : x * a;
  } else if constexpr (kOp == PointwiseActivation::Elu) {
    return x > M(0) ? x * b : a * b * std::expm1(x * c);
  } else if constexpr (kOp == PointwiseActivation::Softplus) {
    return x * a > b ? x : std::log1p(std::exp(x * a)) / a;  // above the threshold, linear
  } else if constexpr (kOp == PointwiseActivation::Hardtanh) {
    return x < a ? a : (x > b ? b : x);
  } else if constexpr (kOp == PointwiseActivation::Hardsigmoid || kOp == PointwiseActivation::Hardswish) {
    const M t = x + M(3);
    const M s = t < M(0) ? M(0) : (t > M(6) ? M(1) : t / M(6));
    return kOp == PointwiseActivation::Hardswish ? x * s : s;
  } else if constexpr (kOp == PointwiseActivation::Mish) {
    return x * std::tanh(std::log1p(std::exp(x)));
  } else {
    return (x < M(0) ? x : M(0)) - std::log1p(std::exp(-std::fabs(x)));  // log(sigmoid(x)), stable both ways
  }
}

// A parameter in the opmath type M; for an integer M (hardtanh) saturated to M's range, which keeps the
// clamp's meaning for every value M holds and leaves no out-of-range conversion.
template <typename M>
M activation_param(double p) {
  if constexpr (std::is_integral_v<M>) {
    constexpr double lo = static_cast<double>(std::numeric_limits<M>::lowest());
    constexpr double hi = static_cast<double>(std::numeric_limits<M>::max());
    return p <= lo ? std::numeric_limits<M>::lowest() : p >= hi ? std::numeric_limits<M>::max() : static_cast<M>(p);
  } else {
    return static_cast<M>(p);
  }
}

// Calls f.template operator()<kOp>() for the run-time op.
template <typename F>
void with_activation(PointwiseActivation op, F&& f) {
  using A = PointwiseActivation;
  switch (op) {
    case A::LeakyRelu: return f.template operator()<A::LeakyRelu>();
    case A::Elu: return f.template operator()<A::Elu>();
    case A::Softplus: return f.template operator()<A::Softplus>();
    case A::Hardtanh: return f.template operator()<A::Hardtanh>();
    case A::Hardsigmoid: return f.template operator()<A::Hardsigmoid>();
    case A::Hardswish: return f.template operator()<A::Hardswish>();
    case A::Mish: return f.template operator()<A::Mish>();
    case A::LogSigmoid: return f.template operator()<A::LogSigmoid>();
  }
}

constexpr const char* activation_name(PointwiseActivation op) {
  using A = PointwiseActivation;
  switch (op) {
    case A::LeakyRelu: return "leaky_relu";
    case A::Elu: return "elu";
    case A::Softplus: return "softplus";
    case A::Hardtanh: return "hardtanh";
    case A::Hardsigmoid: return "hardsigmoid";
    case A::Hardswish: return "hardswish";
    case A::Mish: return "mish";
    case A::LogSigmoid: return "log_sigmoid";
  }
  return "";
}

}  // namespace mt
