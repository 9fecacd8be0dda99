// CUDA loops of relu, gelu, silu and threshold_backward (relu's gradient); 16-bit floats compute in float.
#include <cmath>

#include "ops/Activation.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

// NaN stays NaN (x < 0 is false for it); an unsigned x is its own relu.
template <typename M>
struct ReluOp {
  __device__ M operator()(M x) const {
    if constexpr (std::is_unsigned_v<M>)
      return x;
    else
      return x < M(0) ? M(0) : x;
  }
};
// x * Phi(x), with the normal CDF written through erf.
template <typename M>
struct GeluErfOp {
  __device__ M operator()(M x) const { return x * M(0.5) * (M(1) + std::erf(x * M(0.70710678118654752440))); }
};
template <typename M>
struct GeluTanhOp {
  __device__ M operator()(M x) const {
    return x * M(0.5) * (M(1) + std::tanh(M(0.79788456080286535588) * (x + M(0.044715) * x * x * x)));
  }
};
template <typename M>
struct SiluOp {
  __device__ M operator()(M x) const { return x / (M(1) + std::exp(-x)); }
};

// Where self <= threshold the gradient is 0; elsewhere, a NaN self included, it passes.
template <typename M>
struct ThresholdBackwardOp {
  M threshold;
  __device__ M operator()(M grad, M self) const { return self <= threshold ? M(0) : grad; }
};

void relu_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "relu",
                         [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, ReluOp<opmath_t<T>>{}); });
}

void gelu_kernel(TensorIterator& iter, GeluApproximation approximation) {
  dispatch_floating_types(iter.common_dtype(), "gelu", [&]<typename T>() {
    if (approximation == GeluApproximation::None)
      cuda::gpu_kernel_same_type<T>(iter, GeluErfOp<opmath_t<T>>{});
    else
      cuda::gpu_kernel_same_type<T>(iter, GeluTanhOp<opmath_t<T>>{});
  });
}

void silu_kernel(TensorIterator& iter) {
  dispatch_floating_types(iter.common_dtype(), "silu",
                          [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, SiluOp<opmath_t<T>>{}); });
}

void threshold_backward_kernel(TensorIterator& iter, const Scalar& threshold) {
  dispatch_numeric_types(iter.common_dtype(), "threshold_backward", [&]<typename T>() {
    using M = opmath_t<T>;
    cuda::gpu_kernel_same_type<T>(iter, ThresholdBackwardOp<M>{threshold.to<M>()});
  });
}

template <PointwiseActivation kOp, typename M>
struct ActivationOp {
  M a, b, c;
  __device__ M operator()(M x) const { return activation_value<kOp>(x, a, b, c); }
};

void activation_kernel(TensorIterator& iter, PointwiseActivation op, const ActivationParams& p) {
  with_activation(op, [&]<PointwiseActivation kOp>() {
    const auto launch = [&]<typename T>() {
      using M = opmath_t<T>;
      const ActivationOp<kOp, M> f{activation_param<M>(p.a), activation_param<M>(p.b), activation_param<M>(p.c)};
      cuda::gpu_kernel_same_type<T>(iter, f);
    };
    if constexpr (kOp == PointwiseActivation::Hardtanh) {
      dispatch_numeric_types(iter.common_dtype(), activation_name(kOp), launch);
    } else {
      dispatch_floating_types(iter.common_dtype(), activation_name(kOp), launch);
    }
  });
}

}  // namespace

MT_REGISTER_STUB(relu_stub, kCUDA, relu_kernel);
MT_REGISTER_STUB(threshold_backward_stub, kCUDA, threshold_backward_kernel);
MT_REGISTER_STUB(gelu_stub, kCUDA, gelu_kernel);
MT_REGISTER_STUB(silu_stub, kCUDA, silu_kernel);
MT_REGISTER_STUB(activation_stub, kCUDA, activation_kernel);

}  // namespace mt
