#pragma once
// Binary floating math (atan2, hypot, copysign, logaddexp, logaddexp2, xlogy): the per-device stub that
// holds the loops, and each op's value in its opmath type, shared by the CPU and CUDA loops. Inputs
// arrive in their promoted floating dtype.
#include <cmath>

#include "ops/infra/DispatchStub.h"
#include "ops/ScalarMath.h"
#include "ops/infra/TensorIterator.h"

namespace mt {

enum class BinaryMath { Atan2, Hypot, Copysign, Logaddexp, Logaddexp2, Xlogy };

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
  if constexpr (kOp == BinaryMath::Atan2)
    return std::atan2(a, b);
  else if constexpr (kOp == BinaryMath::Hypot)
    return std::hypot(a, b);
  else if constexpr (kOp == BinaryMath::Copysign)
    return std::copysign(a, b);
  else if constexpr (kOp == BinaryMath::Logaddexp)
    return log_add_exp(a, b, false);
  else if constexpr (kOp == BinaryMath::Logaddexp2)
    return log_add_exp(a, b, true);
  else
    return x_log_y(a, b);
}

// Calls f.template operator()<kOp>() for the run-time op.
template <typename F>
void with_binary_math_op(BinaryMath op, F&& f) {
  switch (op) {
    case BinaryMath::Atan2: return f.template operator()<BinaryMath::Atan2>();
    case BinaryMath::Hypot: return f.template operator()<BinaryMath::Hypot>();
    case BinaryMath::Copysign: return f.template operator()<BinaryMath::Copysign>();
    case BinaryMath::Logaddexp: return f.template operator()<BinaryMath::Logaddexp>();
    case BinaryMath::Logaddexp2: return f.template operator()<BinaryMath::Logaddexp2>();
    case BinaryMath::Xlogy: return f.template operator()<BinaryMath::Xlogy>();
  }
}

constexpr const char* binary_math_name(BinaryMath op) {
  switch (op) {
    case BinaryMath::Atan2: return "atan2";
    case BinaryMath::Hypot: return "hypot";
    case BinaryMath::Copysign: return "copysign";
    case BinaryMath::Logaddexp: return "logaddexp";
    case BinaryMath::Logaddexp2: return "logaddexp2";
    case BinaryMath::Xlogy: return "xlogy";
  }
  return "";
}

}  // namespace mt
