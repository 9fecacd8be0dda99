#pragma once
// Unary math (neg, abs, sign, the rounding functions, exp, log, log1p, sqrt, rsqrt, sin, cos, tanh, sigmoid, and the exponentials,
// logarithms, hyperbolic and inverse trigonometric functions, erf and its kin, reciprocal): the per-device
// stubs that hold the loops. The shared part (dtype rules, allocation, the three forms) is UnaryOps.cpp.
#include "ops/DispatchStub.h"
#include "ops/TensorIterator.h"

namespace mt {

using UnaryFn = void(TensorIterator&);

// Keep the input's dtype (bool excluded where PyTorch excludes it).
MT_DECLARE_STUB(neg_stub, UnaryFn);
MT_DECLARE_STUB(abs_stub, UnaryFn);
MT_DECLARE_STUB(sign_stub, UnaryFn);
// Rounding: floating inputs only (an integer input is returned as a copy before any loop runs).
MT_DECLARE_STUB(floor_stub, UnaryFn);
MT_DECLARE_STUB(ceil_stub, UnaryFn);
MT_DECLARE_STUB(trunc_stub, UnaryFn);
MT_DECLARE_STUB(round_stub, UnaryFn);  // half to even
MT_DECLARE_STUB(frac_stub, UnaryFn);
using RoundDecimalsFn = void(TensorIterator&, int64_t decimals);
MT_DECLARE_STUB(round_decimals_stub, RoundDecimalsFn);
// Floating: integer and bool inputs arrive converted to the default float.
MT_DECLARE_STUB(exp_stub, UnaryFn);
MT_DECLARE_STUB(log_stub, UnaryFn);
MT_DECLARE_STUB(log1p_stub, UnaryFn);
MT_DECLARE_STUB(sqrt_stub, UnaryFn);
MT_DECLARE_STUB(rsqrt_stub, UnaryFn);
MT_DECLARE_STUB(sin_stub, UnaryFn);
MT_DECLARE_STUB(cos_stub, UnaryFn);
MT_DECLARE_STUB(tanh_stub, UnaryFn);
MT_DECLARE_STUB(sigmoid_stub, UnaryFn);
MT_DECLARE_STUB(expm1_stub, UnaryFn);
MT_DECLARE_STUB(exp2_stub, UnaryFn);
MT_DECLARE_STUB(log2_stub, UnaryFn);
MT_DECLARE_STUB(log10_stub, UnaryFn);
MT_DECLARE_STUB(sinh_stub, UnaryFn);
MT_DECLARE_STUB(cosh_stub, UnaryFn);
MT_DECLARE_STUB(asin_stub, UnaryFn);
MT_DECLARE_STUB(acos_stub, UnaryFn);
MT_DECLARE_STUB(atan_stub, UnaryFn);
MT_DECLARE_STUB(asinh_stub, UnaryFn);
MT_DECLARE_STUB(acosh_stub, UnaryFn);
MT_DECLARE_STUB(atanh_stub, UnaryFn);
MT_DECLARE_STUB(erf_stub, UnaryFn);
MT_DECLARE_STUB(erfc_stub, UnaryFn);
MT_DECLARE_STUB(erfinv_stub, UnaryFn);
MT_DECLARE_STUB(reciprocal_stub, UnaryFn);

}  // namespace mt
