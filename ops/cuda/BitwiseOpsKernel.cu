// CUDA loops of the bitwise ops, with the CPU's semantics (ops/ScalarMath.h holds the shifts).
#include <type_traits>

#include "ops/BitwiseOps.h"
#include "ops/ScalarMath.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <typename T>
struct BitwiseNotOp {
  __device__ T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>) {
      return !a;
    } else {
      return static_cast<T>(~a);
    }
  }
};

template <typename T, Bitwise kOp>
struct BitwiseOp {
  __device__ T operator()(T a, T b) const {
    if constexpr (kOp == Bitwise::And)
      return static_cast<T>(a & b);
    else if constexpr (kOp == Bitwise::Or)
      return static_cast<T>(a | b);
    else if constexpr (kOp == Bitwise::Xor)
      return static_cast<T>(a ^ b);
    else if constexpr (kOp == Bitwise::LeftShift)
      return shift_left(a, b);
    else
      return shift_right(a, b);
  }
};

void bitwise_not_kernel(TensorIterator& iter) {
  dispatch_integral_types_and_bool(iter.common_dtype(), "bitwise_not",
                                   [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, BitwiseNotOp<T>{}); });
}

template <Bitwise kOp>
void launch(TensorIterator& iter) {
  const auto body = [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, BitwiseOp<T, kOp>{}); };
  if constexpr (kOp == Bitwise::LeftShift || kOp == Bitwise::RightShift) {
    dispatch_integral_types(iter.common_dtype(), bitwise_name(kOp), body);
  } else {
    dispatch_integral_types_and_bool(iter.common_dtype(), bitwise_name(kOp), body);
  }
}

void bitwise_kernel(TensorIterator& iter, Bitwise op) {
  switch (op) {
    case Bitwise::And: return launch<Bitwise::And>(iter);
    case Bitwise::Or: return launch<Bitwise::Or>(iter);
    case Bitwise::Xor: return launch<Bitwise::Xor>(iter);
    case Bitwise::LeftShift: return launch<Bitwise::LeftShift>(iter);
    case Bitwise::RightShift: return launch<Bitwise::RightShift>(iter);
  }
}

}  // namespace

MT_REGISTER_STUB(bitwise_stub, kCUDA, bitwise_kernel);
MT_REGISTER_STUB(bitwise_not_stub, kCUDA, bitwise_not_kernel);

}  // namespace mt
