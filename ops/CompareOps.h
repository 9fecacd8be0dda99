#pragma once
// Comparisons (eq, ne, lt, le, gt, ge) and logical ops (logical_not/and/or): the per-device stubs that
// hold the loops. Inputs arrive in their promoted dtype; the loop's output is bool.
#include "ops/infra/DispatchStub.h"
#include "ops/infra/TensorIterator.h"

namespace mt {

enum class Comparison { Eq, Ne, Lt, Le, Gt, Ge };

MT_DECLARE_STUB(compare_stub, void(TensorIterator&, Comparison));
MT_DECLARE_STUB(logical_not_stub, void(TensorIterator&));
MT_DECLARE_STUB(logical_and_stub, void(TensorIterator&));
MT_DECLARE_STUB(logical_or_stub, void(TensorIterator&));

}  // namespace mt
