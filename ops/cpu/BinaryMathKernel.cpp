// CPU loops of atan2, hypot, copysign, logaddexp, logaddexp2 and xlogy: the C library's functions in each
// dtype's opmath type.
#include "ops/BinaryMath.h"
#include "ops/cpu/Loops.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

void binary_math_kernel(TensorIterator& iter, BinaryMath op) {
  with_binary_math_op(op, [&]<BinaryMath kOp>() {
    dispatch_floating_types(iter.common_dtype(), binary_math_name(kOp), [&]<typename T>() {
      using M = opmath_t<T>;
      cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(binary_math_value<kOp>(M(a), M(b))); });
    });
  });
}

}  // namespace

MT_REGISTER_STUB(binary_math_stub, kCPU, binary_math_kernel);

}  // namespace mt
