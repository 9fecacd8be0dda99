#pragma once
// mm, bmm, addmm, dot: the shared part of each kernel (argument checks, output allocation and resizing)
// and the per-device stubs that hold the loops.
#include "ops/infra/DispatchStub.h"
#include "tensor/TensorBase.h"

namespace mt {

// out = beta * self + alpha * (a @ b) for matrices (2-D) or batches of them (3-D), every tensor of one
// dtype and shaped alike. `self` is undefined for a plain product (mm, bmm), else it has out's shape
// (possibly an expanded view) or is out itself; beta == 0 ignores it, NaN included. out shares no memory
// with a or b. A dtype the loop does not support throws before anything is written.
MT_DECLARE_STUB(gemm_stub, void(const TensorBase& out, const TensorBase& self, const TensorBase& a, const TensorBase& b,
                                const Scalar& beta, const Scalar& alpha));
// out (0-dim) = sum(a * b) for vectors of one dtype and length.
MT_DECLARE_STUB(dot_stub, void(const TensorBase& out, const TensorBase& a, const TensorBase& b));

// The out= rules of the linear algebra ops: `out` must have `dtype` and either `sizes` or no elements (it
// is then resized). Checks only, so that nothing changes before every argument of a call is checked.
void check_linalg_out(const TensorBase& out, IntArrayRef sizes, ScalarType dtype, const char* op);
// Resizes an out= tensor that passed check_linalg_out.
void resize_linalg_out(const TensorBase& out, IntArrayRef sizes);

}  // namespace mt
