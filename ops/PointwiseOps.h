#pragma once
// pow, maximum/minimum and clamp: the per-device stubs that hold the loops. The shared part (dtype
// rules, argument checks, the functional, in-place and out= forms) is PointwiseOps.cpp.
#include <optional>

#include "ops/infra/DispatchStub.h"
#include "ops/infra/TensorIterator.h"

namespace mt {

// out = self ** exponent, both tensors, in their promoted dtype (never bool).
MT_DECLARE_STUB(pow_tensor_stub, void(TensorIterator&));
// out = self ** exponent; for int64 the exponent is a non-negative integer.
MT_DECLARE_STUB(pow_scalar_stub, void(TensorIterator&, const Scalar& exponent));
// NaN in either input gives NaN.
MT_DECLARE_STUB(maximum_stub, void(TensorIterator&));
MT_DECLARE_STUB(minimum_stub, void(TensorIterator&));
// out = min(max(self, min), max) over three inputs, NaN-propagating like maximum/minimum.
MT_DECLARE_STUB(clamp_stub, void(TensorIterator&));
// The same with scalar bounds, at least one of them present.
MT_DECLARE_STUB(clamp_scalar_stub,
                void(TensorIterator&, const std::optional<Scalar>& min, const std::optional<Scalar>& max));

}  // namespace mt
