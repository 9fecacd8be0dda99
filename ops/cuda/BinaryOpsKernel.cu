// CUDA loops of add, mul, div and remainder. A zero integer divisor was refused before the launch
// (ops/BinaryOps.cpp), since a kernel cannot raise.
#include <cmath>

#include "ops/BinaryOps.h"
#include "ops/ScalarMath.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <typename M>
struct AddOp {
  M alpha;
  __device__ M operator()(M x, M y) const { return wrapping_add(x, wrapping_mul(alpha, y)); }
};
struct BoolAddOp {
  bool alpha;
  __device__ bool operator()(bool x, bool y) const { return x || (alpha && y); }
};
template <typename M>
struct MulOp {
  __device__ M operator()(M x, M y) const { return wrapping_mul(x, y); }
};
template <typename M>
struct DivTrueOp {
  __device__ M operator()(M x, M y) const { return x / y; }
};
template <typename M>
struct DivTruncOp {
  __device__ M operator()(M x, M y) const {
    if constexpr (std::is_integral_v<M>)
      return trunc_divide(x, y);
    else
      return std::trunc(x / y);
  }
};
// x * b and x / b with a CPU scalar b read as the caller gave it (TensorIterator::original_scalar_value).
template <typename M>
struct MulScalarOp {
  M b;
  __device__ M operator()(M x) const { return x * b; }
};
template <typename M>
struct DivTrueScalarOp {
  M b;
  __device__ M operator()(M x) const { return x / b; }
};
// Python's floor division (ops/ScalarMath.h).
template <typename M>
struct DivFloorOp {
  __device__ M operator()(M a, M b) const { return floor_divide(a, b); }
};

// Python's modulo (ops/ScalarMath.h).
template <typename M>
struct RemainderOp {
  __device__ M operator()(M a, M b) const { return python_remainder(a, b); }
};
template <typename M>
struct FmodOp {
  __device__ M operator()(M a, M b) const { return truncated_remainder(a, b); }
};

void add_kernel(TensorIterator& iter, const Scalar& alpha) {
  if (iter.common_dtype() == kBool) return cuda::gpu_kernel<bool, bool, bool>(iter, BoolAddOp{alpha.toBool()});
  dispatch_numeric_types(iter.common_dtype(), "add", [&]<typename T>() {
    using M = opmath_t<T>;
    cuda::gpu_kernel_same_type<T>(iter, AddOp<M>{alpha.to<M>()});
  });
}

struct BoolMulOp {
  __device__ bool operator()(bool x, bool y) const { return x && y; }
};

void mul_kernel(TensorIterator& iter) {
  if (iter.common_dtype() == kBool) return cuda::gpu_kernel<bool, bool, bool>(iter, BoolMulOp{});
  dispatch_numeric_types(iter.common_dtype(), "mul", [&]<typename T>() {
    using M = opmath_t<T>;
    if (!std::is_integral_v<T> && iter.is_cpu_scalar(2)) {
      const M b = iter.original_scalar_value<M>(2);
      iter.remove_operand(2);
      return cuda::gpu_kernel_same_type<T>(iter, MulScalarOp<M>{b});
    }
    cuda::gpu_kernel_same_type<T>(iter, MulOp<M>{});
  });
}

void div_true_kernel(TensorIterator& iter) {
  dispatch_floating_types(iter.common_dtype(), "div_true", [&]<typename T>() {
    using M = opmath_t<T>;
    if (iter.is_cpu_scalar(2)) {
      const M b = iter.original_scalar_value<M>(2);
      iter.remove_operand(2);
      return cuda::gpu_kernel_same_type<T>(iter, DivTrueScalarOp<M>{b});
    }
    cuda::gpu_kernel_same_type<T>(iter, DivTrueOp<M>{});
  });
}

void div_trunc_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "div_trunc",
                         [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, DivTruncOp<opmath_t<T>>{}); });
}

void div_floor_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "div_floor",
                         [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, DivFloorOp<opmath_t<T>>{}); });
}

void remainder_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "remainder",
                         [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, RemainderOp<opmath_t<T>>{}); });
}

void fmod_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "fmod",
                         [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, FmodOp<opmath_t<T>>{}); });
}

}  // namespace

MT_REGISTER_STUB(add_stub, kCUDA, add_kernel);
MT_REGISTER_STUB(mul_stub, kCUDA, mul_kernel);
MT_REGISTER_STUB(div_true_stub, kCUDA, div_true_kernel);
MT_REGISTER_STUB(div_trunc_stub, kCUDA, div_trunc_kernel);
MT_REGISTER_STUB(div_floor_stub, kCUDA, div_floor_kernel);
MT_REGISTER_STUB(remainder_stub, kCUDA, remainder_kernel);
MT_REGISTER_STUB(fmod_stub, kCUDA, fmod_kernel);

}  // namespace mt
