#pragma once
// Unary math (neg, abs, sign, the rounding functions, exp, log, log1p, sqrt, rsqrt, sin, cos, tanh, sigmoid, and the exponentials,
// logarithms, hyperbolic and inverse trigonometric functions, erf and its kin, reciprocal): the per-device
// stubs that hold the loops. The shared part (dtype rules, allocation, the three forms) is UnaryOps.cpp.
#include "ops/infra/DispatchStub.h"
#include "ops/infra/TensorIterator.h"
#include "ops/UnaryOpsList.h"

namespace mt {

using UnaryFn = void(TensorIterator&);

// The unary ops whose three forms (functional, in-place, out=) UnaryOps.cpp shares come from their
// declarations' tags (ops/native_functions/README.md) as MT_UNARY_OPS(X), X(name, floating, check) per op:
// `floating` (tag unary_float, else unary): integer and bool inputs arrive converted to the default float,
// else the input's dtype is kept; `check` (tag unary_check=, else any_dtype) rejects input dtypes before
// anything is written. Each gets a stub, name_stub, which the device kernels register (MT_REGISTER_STUB).
// Rounding ops copy an integer input before any loop runs; round is half to even.
#define MT_DECLARE_UNARY_STUB(name, floating, check) MT_DECLARE_STUB(name##_stub, UnaryFn);
MT_UNARY_OPS(MT_DECLARE_UNARY_STUB)
#undef MT_DECLARE_UNARY_STUB

// round(x, decimals) for decimals != 0 (floating only).
using RoundDecimalsFn = void(TensorIterator&, int64_t decimals);
MT_DECLARE_STUB(round_decimals_stub, RoundDecimalsFn);

}  // namespace mt
