// CUDA loops of atan2, hypot, copysign, logaddexp, logaddexp2 and xlogy, with the CPU's formulas
// (ops/BinaryMath.h).
#include "ops/BinaryMath.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <BinaryMath kOp, typename M>
struct BinaryMathOp {
  __device__ M operator()(M a, M b) const { return binary_math_value<kOp>(a, b); }
};

void binary_math_kernel(TensorIterator& iter, BinaryMath op) {
  with_binary_math_op(op, [&]<BinaryMath kOp>() {
    dispatch_floating_types(iter.common_dtype(), binary_math_name(kOp), [&]<typename T>() {
      cuda::gpu_kernel_same_type<T>(iter, BinaryMathOp<kOp, opmath_t<T>>{});
    });
  });
}

}  // namespace

MT_REGISTER_STUB(binary_math_stub, kCUDA, binary_math_kernel);

}  // namespace mt
