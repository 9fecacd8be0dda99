#pragma once
// Binary floating math (atan2, hypot, copysign, logaddexp, logaddexp2, xlogy): the per-device stub that
// holds the loops, and each op's value in its opmath type, shared by the CPU and CUDA loops. Inputs
// arrive in their promoted floating dtype.
#include <cmath>

#include "ops/infra/DispatchStub.h"
#include "ops/ScalarMath.h"
#include "ops/infra/TensorIterator.h"
#include "ops/families/binary_math.h"

namespace mt {

// The ops tagged family=binary_math in their declarations (ops/native_functions/binary_math.txt).
enum class BinaryMath {
#define MT_BINARY_MATH_ENUM(name, functional, inplace, out) name,
  MT_BINARY_MATH_OPS(MT_BINARY_MATH_ENUM)
#undef MT_BINARY_MATH_ENUM
};

MT_DECLARE_STUB(binary_math_stub, void(TensorIterator&, BinaryMath));

// log(exp(a) + exp(b)) without overflow: the larger plus the log1p of the smaller's share. Equal
// infinities give themselves (their difference would be NaN).
template <typename M>
MT_HOST_DEVICE M log_add_exp(M a, M b, bool base2) {
  if (a == b && (a == M(INFINITY) || a == M(-INFINITY))) return a;
  const M larger = a > b ? a : b;  // b when either is NaN, which the difference carries anyway
  const M d = -std::fabs(a - b);
  return base2 ? larger + std::log1p(std::exp2(d)) / M(0.6931471805599453) : larger + std::log1p(std::exp(d));
}

// x * log(y), with 0 * log(0) = 0 as in the entropy; a NaN y stays NaN.
template <typename M>
MT_HOST_DEVICE M x_log_y(M x, M y) {
  if (y != y) return y;
  if (x == M(0)) return M(0);
  return x * std::log(y);
}

template <BinaryMath kOp, typename M>
MT_HOST_DEVICE M binary_math_value(M a, M b) {
  using enum BinaryMath;
  if constexpr (kOp == atan2)
    return std::atan2(a, b);
  else if constexpr (kOp == hypot)
    return std::hypot(a, b);
  else if constexpr (kOp == copysign)
    return std::copysign(a, b);
  else if constexpr (kOp == logaddexp)
    return log_add_exp(a, b, false);
  else if constexpr (kOp == logaddexp2)
    return log_add_exp(a, b, true);
  else if constexpr (kOp == xlogy)
    return x_log_y(a, b);
  else
    static_assert(sizeof(M) == 0, "each op tagged family=binary_math needs its value here");
}

// Calls f.template operator()<kOp>() for the run-time op.
template <typename F>
void with_binary_math_op(BinaryMath op, F&& f) {
  switch (op) {
#define MT_BINARY_MATH_CASE(name, functional, inplace, out) \
  case BinaryMath::name: return f.template operator()<BinaryMath::name>();
    MT_BINARY_MATH_OPS(MT_BINARY_MATH_CASE)
#undef MT_BINARY_MATH_CASE
  }
}

constexpr const char* binary_math_name(BinaryMath op) {
  switch (op) {
#define MT_BINARY_MATH_NAME(name, functional, inplace, out) \
  case BinaryMath::name: return #name;
    MT_BINARY_MATH_OPS(MT_BINARY_MATH_NAME)
#undef MT_BINARY_MATH_NAME
  }
  return "";
}

}  // namespace mt
