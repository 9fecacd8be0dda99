#pragma once
// Activations with kernels of their own (relu, gelu, silu, and threshold_backward, relu's gradient): the
// per-device stubs that hold the loops.
// The shared part (dtype rules, allocation, the functional, in-place and out= forms) is Activation.cpp.
#include "ops/DispatchStub.h"
#include "ops/TensorIterator.h"

namespace mt {

enum class GeluApproximation { None, Tanh };

MT_DECLARE_STUB(relu_stub, void(TensorIterator&));
MT_DECLARE_STUB(gelu_stub, void(TensorIterator&, GeluApproximation));
MT_DECLARE_STUB(silu_stub, void(TensorIterator&));
// out = self <= threshold ? 0 : grad_output, over an iterator of (out, grad_output, self) in one dtype.
MT_DECLARE_STUB(threshold_backward_stub, void(TensorIterator&, const Scalar& threshold));

}  // namespace mt
