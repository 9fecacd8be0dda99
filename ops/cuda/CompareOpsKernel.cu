// CUDA loops of the comparisons and logical ops; every one writes bool.
#include "ops/CompareOps.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <typename M, Comparison kOp>
struct CompareOp {
  __device__ bool operator()(M a, M b) const {
    if constexpr (kOp == Comparison::Eq)
      return a == b;
    else if constexpr (kOp == Comparison::Ne)
      return a != b;
    else if constexpr (kOp == Comparison::Lt)
      return a < b;
    else if constexpr (kOp == Comparison::Le)
      return a <= b;
    else if constexpr (kOp == Comparison::Gt)
      return a > b;
    else
      return a >= b;
  }
};

template <typename T, Comparison kOp>
void compare(TensorIterator& iter) {
  cuda::gpu_kernel<bool, T, T>(iter, CompareOp<opmath_t<T>, kOp>{});
}

void compare_kernel(TensorIterator& iter, Comparison op) {
  dispatch_all_types(iter.common_dtype(), "compare", [&]<typename T>() {
    switch (op) {
      case Comparison::Eq:
        return compare<T, Comparison::Eq>(iter);
      case Comparison::Ne:
        return compare<T, Comparison::Ne>(iter);
      case Comparison::Lt:
        return compare<T, Comparison::Lt>(iter);
      case Comparison::Le:
        return compare<T, Comparison::Le>(iter);
      case Comparison::Gt:
        return compare<T, Comparison::Gt>(iter);
      case Comparison::Ge:
        return compare<T, Comparison::Ge>(iter);
    }
  });
}

template <typename M>
struct LogicalNotOp {
  __device__ bool operator()(M a) const { return a == M(0); }
};
template <typename M>
struct LogicalAndOp {
  __device__ bool operator()(M a, M b) const { return a != M(0) && b != M(0); }
};
template <typename M>
struct LogicalOrOp {
  __device__ bool operator()(M a, M b) const { return a != M(0) || b != M(0); }
};

// The input keeps its own dtype (logical_not does not promote).
void logical_not_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.dtype(1), "logical_not",
                     [&]<typename T>() { cuda::gpu_kernel<bool, T>(iter, LogicalNotOp<opmath_t<T>>{}); });
}
void logical_and_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "logical_and",
                     [&]<typename T>() { cuda::gpu_kernel<bool, T, T>(iter, LogicalAndOp<opmath_t<T>>{}); });
}
void logical_or_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "logical_or",
                     [&]<typename T>() { cuda::gpu_kernel<bool, T, T>(iter, LogicalOrOp<opmath_t<T>>{}); });
}

}  // namespace

MT_REGISTER_STUB(compare_stub, kCUDA, compare_kernel);
MT_REGISTER_STUB(logical_not_stub, kCUDA, logical_not_kernel);
MT_REGISTER_STUB(logical_and_stub, kCUDA, logical_and_kernel);
MT_REGISTER_STUB(logical_or_stub, kCUDA, logical_or_kernel);

}  // namespace mt
