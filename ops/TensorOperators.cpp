#include "ops/TensorOperators.h"

#include "ops/BinaryOps.h"
#include "ops/api/div.h"
#include "ops/api/mul.h"

namespace mt {

Tensor operator/(const Scalar& a, const Tensor& b) {
  return mt::mul(mt::div(wrapped_scalar_tensor(1, b.device()), b), a);
}

}  // namespace mt
