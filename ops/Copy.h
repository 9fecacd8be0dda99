#pragma once
// Element-wise copy with broadcasting and dtype conversion, used by copy_ and by TensorIterator to
// convert inputs; each backend registers its loop for copy_stub.
#include "ops/DispatchStub.h"
#include "tensor/Tensor.h"

namespace mt {

class TensorIterator;
MT_DECLARE_STUB(copy_stub, void(TensorIterator&));

// Writes src (broadcast to dst's shape, converted to dst's dtype) into dst.
void copy_into(const Tensor& dst, const Tensor& src);
// A new contiguous tensor holding src converted to `dtype`.
Tensor converted_copy(const Tensor& src, ScalarType dtype);

}  // namespace mt
