#include "ops/TensorOperators.h"

#include "ops/BinaryOps.h"

namespace mt {

Tensor operator/(const Scalar& a, const Tensor& b) {
  return mt::mul(mt::div(wrapped_scalar_tensor(1, b.device()), b), a);
}

}  // namespace mt
