#pragma once
// C++ operators on tensors, as Python's: a + b, 3 - a, a * 2, -a, a / b, a % 2, a < b, ~mask ...
#include "ops/Functions.h"

namespace mt {

inline Tensor operator+(const Tensor& a, const Tensor& b) { return mt::add(a, b); }
inline Tensor operator+(const Tensor& a, const Scalar& b) { return mt::add(a, b); }
inline Tensor operator+(const Scalar& a, const Tensor& b) { return mt::add(b, a); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return mt::sub(a, b); }
inline Tensor operator-(const Tensor& a, const Scalar& b) { return mt::sub(a, b); }
inline Tensor operator-(const Scalar& a, const Tensor& b) { return mt::rsub(b, a); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mt::mul(a, b); }
inline Tensor operator*(const Tensor& a, const Scalar& b) { return mt::mul(a, b); }
inline Tensor operator*(const Scalar& a, const Tensor& b) { return mt::mul(b, a); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return mt::div(a, b); }
inline Tensor operator/(const Tensor& a, const Scalar& b) { return mt::div(a, b); }
// As Python's 2 / x: the reciprocal of b times a (floating, as 1 / b is, even for an integer b).
Tensor operator/(const Scalar& a, const Tensor& b);
inline Tensor operator%(const Tensor& a, const Tensor& b) { return mt::remainder(a, b); }
inline Tensor operator%(const Tensor& a, const Scalar& b) { return mt::remainder(a, b); }
inline Tensor operator%(const Scalar& a, const Tensor& b) { return mt::remainder(a, b); }
inline Tensor& operator+=(Tensor& a, const Tensor& b) { return a.add_(b); }
inline Tensor& operator+=(Tensor& a, const Scalar& b) { return a.add_(b); }
inline Tensor& operator-=(Tensor& a, const Tensor& b) { return a.sub_(b); }
inline Tensor& operator-=(Tensor& a, const Scalar& b) { return a.sub_(b); }
inline Tensor& operator*=(Tensor& a, const Tensor& b) { return a.mul_(b); }
inline Tensor& operator*=(Tensor& a, const Scalar& b) { return a.mul_(b); }
inline Tensor& operator/=(Tensor& a, const Tensor& b) { return a.div_(b); }
inline Tensor& operator/=(Tensor& a, const Scalar& b) { return a.div_(b); }
inline Tensor& operator%=(Tensor& a, const Tensor& b) { return a.remainder_(b); }
inline Tensor& operator%=(Tensor& a, const Scalar& b) { return a.remainder_(b); }

inline Tensor operator-(const Tensor& a) { return mt::neg(a); }

// Comparisons give bool tensors, as in PyTorch; a scalar on the left compares the other way round.
inline Tensor operator==(const Tensor& a, const Tensor& b) { return mt::eq(a, b); }
inline Tensor operator==(const Tensor& a, const Scalar& b) { return mt::eq(a, b); }
inline Tensor operator==(const Scalar& a, const Tensor& b) { return mt::eq(b, a); }
inline Tensor operator!=(const Tensor& a, const Tensor& b) { return mt::ne(a, b); }
inline Tensor operator!=(const Tensor& a, const Scalar& b) { return mt::ne(a, b); }
inline Tensor operator!=(const Scalar& a, const Tensor& b) { return mt::ne(b, a); }
inline Tensor operator<(const Tensor& a, const Tensor& b) { return mt::lt(a, b); }
inline Tensor operator<(const Tensor& a, const Scalar& b) { return mt::lt(a, b); }
inline Tensor operator<(const Scalar& a, const Tensor& b) { return mt::gt(b, a); }
inline Tensor operator<=(const Tensor& a, const Tensor& b) { return mt::le(a, b); }
inline Tensor operator<=(const Tensor& a, const Scalar& b) { return mt::le(a, b); }
inline Tensor operator<=(const Scalar& a, const Tensor& b) { return mt::ge(b, a); }
inline Tensor operator>(const Tensor& a, const Tensor& b) { return mt::gt(a, b); }
inline Tensor operator>(const Tensor& a, const Scalar& b) { return mt::gt(a, b); }
inline Tensor operator>(const Scalar& a, const Tensor& b) { return mt::lt(b, a); }
inline Tensor operator>=(const Tensor& a, const Tensor& b) { return mt::ge(a, b); }
inline Tensor operator>=(const Tensor& a, const Scalar& b) { return mt::ge(a, b); }
inline Tensor operator>=(const Scalar& a, const Tensor& b) { return mt::le(b, a); }

// ~, & and | are PyTorch's bitwise operators; on bool tensors they are logical_not/and/or, and those
// are the only dtypes microtorch gives them (it has no bitwise ops on integers).
namespace detail {
inline void check_bool_operand(const Tensor& t, const char* op) {
  MT_CHECK_TYPE(t.dtype() == kBool, "the ", op, " operator is only implemented for bool tensors, but got a tensor "
                "with dtype ", t.dtype(), "; use logical_not, logical_and or logical_or");
}
}  // namespace detail
inline Tensor operator~(const Tensor& a) {
  detail::check_bool_operand(a, "~");
  return mt::logical_not(a);
}
inline Tensor operator&(const Tensor& a, const Tensor& b) {
  detail::check_bool_operand(a, "&");
  detail::check_bool_operand(b, "&");
  return mt::logical_and(a, b);
}
inline Tensor operator|(const Tensor& a, const Tensor& b) {
  detail::check_bool_operand(a, "|");
  detail::check_bool_operand(b, "|");
  return mt::logical_or(a, b);
}

}  // namespace mt
