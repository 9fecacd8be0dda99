#pragma once
// add, sub, mul, div, remainder, fmod: the shared part of each kernel (broadcasting, promotion, allocation through
// TensorIterator, argument checks) and the per-device stubs that hold the loops.
#include "ops/infra/DispatchStub.h"
#include "ops/infra/TensorIterator.h"

namespace mt {

class Tensor;

MT_DECLARE_STUB(add_stub, void(TensorIterator&, const Scalar& alpha));  // out = self + alpha * other
MT_DECLARE_STUB(mul_stub, void(TensorIterator&));
MT_DECLARE_STUB(div_true_stub, void(TensorIterator&));
MT_DECLARE_STUB(div_trunc_stub, void(TensorIterator&));
MT_DECLARE_STUB(div_floor_stub, void(TensorIterator&));
// Python's modulo: the result has the divisor's sign (a - floor(a / b) * b, computed through fmod).
MT_DECLARE_STUB(remainder_stub, void(TensorIterator&));
MT_DECLARE_STUB(fmod_stub, void(TensorIterator&));

// A 0-dim tensor holding `s` that promotes like a Python number (the 2 in `a * 2`).
Tensor wrapped_scalar_tensor(const Scalar& s, Device device);

}  // namespace mt
