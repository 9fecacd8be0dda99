#pragma once
// where, masked_fill, fill_ and zero_: the per-device stubs that hold the loops. The shared part
// (condition and mask checks, value conversion, the functional, in-place and out= forms) is
// WhereFill.cpp.
#include "ops/infra/DispatchStub.h"
#include "ops/infra/TensorIterator.h"

namespace mt {

// out = condition ? self : other. Operands: out, condition (bool), self and other (both in out's dtype).
MT_DECLARE_STUB(where_stub, void(TensorIterator&));
// Every element of the iterator's one output becomes `value` (already checked to fit its dtype).
MT_DECLARE_STUB(fill_stub, void(TensorIterator&, const Scalar& value));

}  // namespace mt
