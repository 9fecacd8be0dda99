#pragma once
// C++ operators on tensors, as Python's: a + b, a * 2, -a, a / b ...
#include "ops/Functions.h"

namespace mt {

inline Tensor operator+(const Tensor& a, const Tensor& b) { return mt::add(a, b); }
inline Tensor operator+(const Tensor& a, const Scalar& b) { return mt::add(a, b); }
inline Tensor operator+(const Scalar& a, const Tensor& b) { return mt::add(b, a); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return mt::sub(a, b); }
inline Tensor operator-(const Tensor& a, const Scalar& b) { return mt::sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mt::mul(a, b); }
inline Tensor operator*(const Tensor& a, const Scalar& b) { return mt::mul(a, b); }
inline Tensor operator*(const Scalar& a, const Tensor& b) { return mt::mul(b, a); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return mt::div(a, b); }
inline Tensor operator/(const Tensor& a, const Scalar& b) { return mt::div(a, b); }
inline Tensor& operator+=(Tensor& a, const Tensor& b) { return a.add_(b); }
inline Tensor& operator+=(Tensor& a, const Scalar& b) { return a.add_(b); }
inline Tensor& operator-=(Tensor& a, const Tensor& b) { return a.sub_(b); }
inline Tensor& operator-=(Tensor& a, const Scalar& b) { return a.sub_(b); }
inline Tensor& operator*=(Tensor& a, const Tensor& b) { return a.mul_(b); }
inline Tensor& operator*=(Tensor& a, const Scalar& b) { return a.mul_(b); }
inline Tensor& operator/=(Tensor& a, const Tensor& b) { return a.div_(b); }
inline Tensor& operator/=(Tensor& a, const Scalar& b) { return a.div_(b); }

}  // namespace mt
