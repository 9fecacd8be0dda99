#pragma once
// Element-wise copy with broadcasting and dtype conversion, used by copy_ and by TensorIterator to
// convert inputs; each backend registers its loop for copy_stub.
#include "ops/infra/DispatchStub.h"
#include "tensor/TensorBase.h"

namespace mt {

class Tensor;
class TensorIterator;
MT_DECLARE_STUB(copy_stub, void(TensorIterator&));

// Writes src (broadcast to dst's shape, converted to dst's dtype) into dst.
void copy_into(const TensorBase& dst, const TensorBase& src);
// A new contiguous tensor holding src converted to `dtype`.
TensorBase converted_copy(const TensorBase& src, ScalarType dtype);
// `t` in `dtype`: t itself where it already has it, else converted_copy.
Tensor as_dtype(const Tensor& t, ScalarType dtype);

}  // namespace mt
