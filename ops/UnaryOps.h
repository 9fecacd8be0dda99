#pragma once
// Unary math (neg, abs, sign, the rounding functions, exp, log, log1p, sqrt, rsqrt, sin, cos, tanh, sigmoid, and the exponentials,
// logarithms, hyperbolic and inverse trigonometric functions, erf and its kin, reciprocal): the per-device
// stubs that hold the loops. The shared part (dtype rules, allocation, the three forms) is UnaryOps.cpp.
#include "ops/DispatchStub.h"
#include "ops/TensorIterator.h"

namespace mt {

using UnaryFn = void(TensorIterator&);

// The unary ops whose three forms (functional, in-place, out=) UnaryOps.cpp shares, one line each:
// X(name, floating, check). `floating`: integer and bool inputs arrive converted to the default float,
// else the input's dtype is kept; `check` rejects input dtypes before anything is written. Each gets a
// stub, name_stub, which the device kernels register (MT_REGISTER_STUB).
#define MT_UNARY_OPS(X)                                                                                   \
  X(neg, false, check_neg)                                                                                \
  X(abs, false, not_bool)                                                                                 \
  X(sign, false, any_dtype)                                                                               \
  /* Rounding: an integer input is returned as a copy before any loop runs; round is half to even. */    \
  X(floor, false, not_bool)                                                                               \
  X(ceil, false, not_bool)                                                                                \
  X(trunc, false, not_bool)                                                                               \
  X(round, false, not_bool)                                                                               \
  X(frac, false, floating_only)                                                                           \
  X(exp, true, any_dtype)                                                                                 \
  X(log, true, any_dtype)                                                                                 \
  X(log1p, true, any_dtype)                                                                               \
  X(sqrt, true, any_dtype)                                                                                \
  X(rsqrt, true, any_dtype)                                                                               \
  X(sin, true, any_dtype)                                                                                 \
  X(cos, true, any_dtype)                                                                                 \
  X(tanh, true, any_dtype)                                                                                \
  X(sigmoid, true, any_dtype)                                                                             \
  X(expm1, true, any_dtype)                                                                               \
  X(exp2, true, any_dtype)                                                                                \
  X(log2, true, any_dtype)                                                                                \
  X(log10, true, any_dtype)                                                                               \
  X(sinh, true, any_dtype)                                                                                \
  X(cosh, true, any_dtype)                                                                                \
  X(asin, true, any_dtype)                                                                                \
  X(acos, true, any_dtype)                                                                                \
  X(atan, true, any_dtype)                                                                                \
  X(asinh, true, any_dtype)                                                                               \
  X(acosh, true, any_dtype)                                                                               \
  X(atanh, true, any_dtype)                                                                               \
  X(erf, true, any_dtype)                                                                                 \
  X(erfc, true, any_dtype)                                                                                \
  X(erfinv, true, any_dtype)                                                                              \
  X(reciprocal, true, any_dtype)

#define MT_DECLARE_UNARY_STUB(name, floating, check) MT_DECLARE_STUB(name##_stub, UnaryFn);
MT_UNARY_OPS(MT_DECLARE_UNARY_STUB)
#undef MT_DECLARE_UNARY_STUB

// round(x, decimals) for decimals != 0 (floating only).
using RoundDecimalsFn = void(TensorIterator&, int64_t decimals);
MT_DECLARE_STUB(round_decimals_stub, RoundDecimalsFn);

}  // namespace mt
