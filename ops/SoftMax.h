#pragma once
// softmax and log_softmax along one dim: the shared part of the _softmax/_log_softmax kernels (dim
// wrapping, dtype checks, output allocation; ops/SoftMax.cpp) and the per-device stub that holds the
// loops (ops/cpu/SoftMaxKernel.cpp).
#include "ops/infra/DispatchStub.h"
#include "tensor/TensorBase.h"

namespace mt {

// out = softmax(self) along the wrapped dim `dim`, or log_softmax with `log`. self is a floating tensor
// of any layout with at least one element (a 0-dim self is one row of one element); out is a new
// contiguous tensor of self's sizes, of self's dtype or, for half_to_float, float32.
MT_DECLARE_STUB(softmax_stub, void(const TensorBase& out, const TensorBase& self, int64_t dim, bool log));

}  // namespace mt
