#pragma once
// C++ operators on tensors, as Python's: a + b, 3 - a, a * 2, -a, a / b, a % 2, a < b, ~mask, x << 3 ...
#include "ops/api/add.h"
#include "ops/api/bitwise_and.h"
#include "ops/api/bitwise_left_shift.h"
#include "ops/api/bitwise_not.h"
#include "ops/api/bitwise_or.h"
#include "ops/api/bitwise_right_shift.h"
#include "ops/api/bitwise_xor.h"
#include "ops/api/div.h"
#include "ops/api/eq.h"
#include "ops/api/ge.h"
#include "ops/api/gt.h"
#include "ops/api/le.h"
#include "ops/api/lt.h"
#include "ops/api/mul.h"
#include "ops/api/ne.h"
#include "ops/api/neg.h"
#include "ops/api/remainder.h"
#include "ops/api/rsub.h"
#include "ops/api/sub.h"

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

// ~, &, |, ^, << and >> are the bitwise ops, on integers and bool as in PyTorch (on bool, ~ & | are
// logical not, and, or).
inline Tensor operator~(const Tensor& a) { return mt::bitwise_not(a); }
inline Tensor operator&(const Tensor& a, const Tensor& b) { return mt::bitwise_and(a, b); }
inline Tensor operator&(const Tensor& a, const Scalar& b) { return mt::bitwise_and(a, b); }
inline Tensor operator&(const Scalar& a, const Tensor& b) { return mt::bitwise_and(b, a); }
inline Tensor operator|(const Tensor& a, const Tensor& b) { return mt::bitwise_or(a, b); }
inline Tensor operator|(const Tensor& a, const Scalar& b) { return mt::bitwise_or(a, b); }
inline Tensor operator|(const Scalar& a, const Tensor& b) { return mt::bitwise_or(b, a); }
inline Tensor operator^(const Tensor& a, const Tensor& b) { return mt::bitwise_xor(a, b); }
inline Tensor operator^(const Tensor& a, const Scalar& b) { return mt::bitwise_xor(a, b); }
inline Tensor operator^(const Scalar& a, const Tensor& b) { return mt::bitwise_xor(b, a); }
inline Tensor operator<<(const Tensor& a, const Tensor& b) { return mt::bitwise_left_shift(a, b); }
inline Tensor operator<<(const Tensor& a, const Scalar& b) { return mt::bitwise_left_shift(a, b); }
inline Tensor operator<<(const Scalar& a, const Tensor& b) { return mt::bitwise_left_shift(a, b); }
inline Tensor operator>>(const Tensor& a, const Tensor& b) { return mt::bitwise_right_shift(a, b); }
inline Tensor operator>>(const Tensor& a, const Scalar& b) { return mt::bitwise_right_shift(a, b); }
inline Tensor operator>>(const Scalar& a, const Tensor& b) { return mt::bitwise_right_shift(a, b); }
inline Tensor& operator&=(Tensor& a, const Tensor& b) { return a.bitwise_and_(b); }
inline Tensor& operator&=(Tensor& a, const Scalar& b) { return a.bitwise_and_(b); }
inline Tensor& operator|=(Tensor& a, const Tensor& b) { return a.bitwise_or_(b); }
inline Tensor& operator|=(Tensor& a, const Scalar& b) { return a.bitwise_or_(b); }
inline Tensor& operator^=(Tensor& a, const Tensor& b) { return a.bitwise_xor_(b); }
inline Tensor& operator^=(Tensor& a, const Scalar& b) { return a.bitwise_xor_(b); }
inline Tensor& operator<<=(Tensor& a, const Tensor& b) { return a.bitwise_left_shift_(b); }
inline Tensor& operator<<=(Tensor& a, const Scalar& b) { return a.bitwise_left_shift_(b); }
inline Tensor& operator>>=(Tensor& a, const Tensor& b) { return a.bitwise_right_shift_(b); }
inline Tensor& operator>>=(Tensor& a, const Scalar& b) { return a.bitwise_right_shift_(b); }

}  // namespace mt
