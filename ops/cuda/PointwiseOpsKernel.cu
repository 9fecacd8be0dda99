// CUDA loops of pow, maximum/minimum and clamp, with the CPU loops' rules for integers and NaN.
#include <cmath>
#include <limits>

#include "ops/PointwiseOps.h"
#include "ops/ScalarMath.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <typename M>
struct PowOp {
  __device__ M operator()(M b, M e) const {
    if constexpr (std::is_integral_v<M>)
      return integer_pow(b, e);
    else
      return std::pow(b, e);
  }
};
// Common exponents take their cheaper forms (x*x, sqrt, ...), as PyTorch's pow does; the CPU loop
// computes the same forms, so the results agree to the last place.
template <typename M>
struct PowScalarOp {
  M e;
  __device__ M operator()(M x) const {
    if constexpr (std::is_integral_v<M>) {
      return integer_pow(x, e);
    } else {
      if (e == M(2)) return x * x;
      if (e == M(3)) return x * x * x;
      if (e == M(0.5)) return std::sqrt(x);
      if (e == M(-0.5)) return M(1) / std::sqrt(x);
      if (e == M(-1)) return M(1) / x;
      return std::pow(x, e);
    }
  }
};

template <typename M>
struct MaximumOp {
  __device__ M operator()(M a, M b) const { return max_nan(a, b); }
};
template <typename M>
struct MinimumOp {
  __device__ M operator()(M a, M b) const { return min_nan(a, b); }
};
template <typename M>
struct ClampOp {
  __device__ M operator()(M x, M lo, M hi) const { return min_nan(max_nan(x, lo), hi); }
};
// x < lo is false for a NaN x, so NaN passes through both selects.
template <typename M>
struct ClampScalarOp {
  M lo, hi;
  __device__ M operator()(M x) const {
    const M t = x < lo ? lo : x;
    return t > hi ? hi : t;
  }
};
template <typename M>
struct NanOp {
  __device__ M operator()(M) const { return std::numeric_limits<M>::quiet_NaN(); }
};

void pow_tensor_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "pow",
                         [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, PowOp<opmath_t<T>>{}); });
}

void pow_scalar_kernel(TensorIterator& iter, const Scalar& exponent) {
  dispatch_numeric_types(iter.common_dtype(), "pow", [&]<typename T>() {
    using M = opmath_t<T>;
    cuda::gpu_kernel_same_type<T>(iter, PowScalarOp<M>{exponent.to<M>()});
  });
}

void maximum_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "maximum",
                     [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, MaximumOp<opmath_t<T>>{}); });
}
void minimum_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "minimum",
                     [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, MinimumOp<opmath_t<T>>{}); });
}
void clamp_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "clamp",
                     [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, ClampOp<opmath_t<T>>{}); });
}

// An absent bound is the type's extreme; a NaN bound makes every element NaN.
void clamp_scalar_kernel(TensorIterator& iter, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  dispatch_numeric_types(iter.common_dtype(), "clamp", [&]<typename T>() {
    using M = opmath_t<T>;
    using limits = std::numeric_limits<M>;
    const M lo = min ? min->to<M>() : (limits::has_infinity ? -limits::infinity() : limits::lowest());
    const M hi = max ? max->to<M>() : (limits::has_infinity ? limits::infinity() : limits::max());
    if (is_nan(lo) || is_nan(hi)) return cuda::gpu_kernel_same_type<T>(iter, NanOp<M>{});
    cuda::gpu_kernel_same_type<T>(iter, ClampScalarOp<M>{lo, hi});
  });
}

}  // namespace

MT_REGISTER_STUB(pow_tensor_stub, kCUDA, pow_tensor_kernel);
MT_REGISTER_STUB(pow_scalar_stub, kCUDA, pow_scalar_kernel);
MT_REGISTER_STUB(maximum_stub, kCUDA, maximum_kernel);
MT_REGISTER_STUB(minimum_stub, kCUDA, minimum_kernel);
MT_REGISTER_STUB(clamp_stub, kCUDA, clamp_kernel);
MT_REGISTER_STUB(clamp_scalar_stub, kCUDA, clamp_scalar_kernel);

}  // namespace mt
