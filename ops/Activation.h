#pragma once
// Activations with kernels of their own (relu, gelu, silu): the per-device stubs that hold the loops.
// The shared part (dtype rules, allocation, the functional, in-place and out= forms) is Activation.cpp.
#include "ops/DispatchStub.h"
#include "ops/TensorIterator.h"

namespace mt {

enum class GeluApproximation { None, Tanh };

MT_DECLARE_STUB(relu_stub, void(TensorIterator&));
MT_DECLARE_STUB(gelu_stub, void(TensorIterator&, GeluApproximation));
MT_DECLARE_STUB(silu_stub, void(TensorIterator&));

}  // namespace mt
