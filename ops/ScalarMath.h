#pragma once
// Element functions whose rules are microtorch's (or Python's) rather than the C library's, written
// once for the CPU loops and the CUDA kernels: integer powers, floor division and modulo, and max/min that
// propagate NaN, the inverse error function. In a .cu file they are host and device functions.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tensor/DtypeDispatch.h"

#ifdef __CUDACC__
#define MT_HOST_DEVICE __host__ __device__
#else
#define MT_HOST_DEVICE
#endif

namespace mt {

// The unsigned type an integer T wraps in: uint64 for 8 bytes, uint32 below, since a narrower unsigned type
// would promote to (signed) int, and 65535 * 65535 overflows int, which is undefined behaviour.
template <typename T>
using wrap_t = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

// Integer power by squaring. Overflow wraps (computed unsigned, as two's complement would); negative
// exponents give the integer part of 1 / base**-exp: 1 and -1 stay on the unit circle, all else is 0.
template <typename I, typename E>
MT_HOST_DEVICE I integer_pow(I base, E exp) {
  if constexpr (std::is_signed_v<E>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if constexpr (std::is_signed_v<I>) {
        if (base == -1) return (exp & 1) ? -1 : 1;
      }
      return 0;
    }
  }
  wrap_t<I> result = 1, b = static_cast<wrap_t<I>>(base);
  for (; exp > 0; exp >>= 1) {
    if (exp & 1) result *= b;
    b *= b;
  }
  return static_cast<I>(result);
}

// C's truncating division of integers (the divisor is not zero). MIN / -1 wraps to MIN, as a GPU computes
// it, instead of the hardware trap (SIGFPE) the x86 division instruction raises.
template <typename I>
MT_HOST_DEVICE I trunc_divide(I a, I b) {
  if constexpr (std::is_signed_v<I>) {
    if (b == -1) return static_cast<I>(wrap_t<I>{0} - static_cast<wrap_t<I>>(a));
  }
  return static_cast<I>(a / b);
}

// Python's floor division: of floats, with its sign conventions for zero and negative operands; of
// integers (the divisor is not zero), with MIN // -1 wrapping as in trunc_divide.
template <typename M>
MT_HOST_DEVICE M floor_divide(M a, M b) {
  if constexpr (std::is_integral_v<M>) {
    if constexpr (std::is_signed_v<M>) {
      if (b == -1) return trunc_divide(a, b);
      const M q = static_cast<M>(a / b);
      return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<M>(q - 1) : q;
    } else {
      return static_cast<M>(a / b);
    }
  } else {
    if (b == 0) return a / b;
    const M mod = std::fmod(a, b);
    M div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
    if (div == 0) return std::copysign(M(0), a / b);
    M floored = std::floor(div);
    if (div - floored > M(0.5)) floored += 1;
    return floored;
  }
}

// +, * and unary - that wrap on integer overflow, as PyTorch's do (INT64_MAX + 1 is INT64_MIN, 255 + 1 in
// uint8 is 0); computed unsigned, since signed overflow is undefined behaviour in C++. Other types compute
// as written.
template <typename T>
MT_HOST_DEVICE T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
  } else {
    return a + b;
  }
}
template <typename T>
MT_HOST_DEVICE T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
  } else {
    return a * b;
  }
}
template <typename T>
MT_HOST_DEVICE T wrapping_neg(T a) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(wrap_t<T>{0} - static_cast<wrap_t<T>>(a));
  } else {
    return -a;
  }
}

// Shifts as PyTorch defines them past the type's width, where C++ leaves them undefined: a left shift by
// a negative amount or by the width or more gives 0 (computed unsigned, so bits shifted out of a signed
// value wrap); a right shift by a negative amount or by every bit but the sign gives 0, or -1 for a
// negative value.
template <typename T>
MT_HOST_DEVICE T shift_left(T a, T b) {
  constexpr int bits = sizeof(T) * 8;
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) return 0;
  }
  if (b >= bits) return 0;
  return static_cast<T>(static_cast<wrap_t<T>>(a) << b);
}
template <typename T>
MT_HOST_DEVICE T shift_right(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    constexpr int max_shift = sizeof(T) * 8 - 1;
    if (b < 0 || b >= max_shift) return static_cast<T>(a >> max_shift);
  } else {
    if (b >= sizeof(T) * 8) return 0;
  }
  return static_cast<T>(a >> b);
}

// C's fmod: the remainder of truncated division, with the dividend's sign. Of integers (the divisor is not
// zero), MIN % -1 is 0 instead of the x86 trap.
template <typename M>
MT_HOST_DEVICE M truncated_remainder(M a, M b) {
  if constexpr (std::is_integral_v<M>) {
    if constexpr (std::is_signed_v<M>) {
      if (b == -1) return 0;
    }
    return static_cast<M>(a % b);
  } else {
    return std::fmod(a, b);
  }
}

// Python's modulo, so the result has the divisor's sign. Of floats, as PyTorch computes it: fmod, then the
// divisor added when the signs differ (x % 0 and inf % y are NaN, -1 % inf is inf). Of integers (the
// divisor is not zero), MIN % -1 is 0 instead of the x86 trap.
template <typename M>
MT_HOST_DEVICE M python_remainder(M a, M b) {
  if constexpr (std::is_integral_v<M>) {
    if constexpr (std::is_signed_v<M>) {
      if (b == -1) return 0;
      const M r = static_cast<M>(a % b);
      return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<M>(r + b) : r;
    } else {
      return static_cast<M>(a % b);
    }
  } else {
    M mod = std::fmod(a, b);
    if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
    return mod;
  }
}

template <typename T>
MT_HOST_DEVICE bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<opmath_t<T>>) {
    const auto v = static_cast<opmath_t<T>>(x);
    return v != v;
  } else {
    return false;
  }
}

// max/min that return NaN when either side is NaN (a plain comparison would drop it on one side).
template <typename T>
MT_HOST_DEVICE T max_nan(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return a < b ? b : a;
}
template <typename T>
MT_HOST_DEVICE T min_nan(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return b < a ? b : a;
}

// sin(pi x) / (pi x), 1 at 0, as PyTorch computes it (pi x rounded in M).
template <typename M>
MT_HOST_DEVICE M sinc(M x) {
  if (x == M(0)) return M(1);
  const M product = static_cast<M>(3.14159265358979323846) * x;
  return std::sin(product) / product;
}

// erf^-1(y), computed in double whatever M is: Giles' single-precision approximation ("Approximating the
// erfinv function", 2010), then two Newton steps. From |y| = 0.5 on, a step measures erf(x) - |y| as
// (1 - |y|) - erfc(x), both sides exact enough, so the tails (down to 1 - |y| = 1e-300) keep full
// precision. erfinv(+-1) = +-inf; NaN or |y| > 1 give NaN.
template <typename M>
MT_HOST_DEVICE M inverse_erf(M y) {
  const double a = std::fabs(static_cast<double>(y));
  if (!(a <= 1)) return static_cast<M>(NAN);
  if (a == 1) return static_cast<M>(std::copysign(INFINITY, static_cast<double>(y)));
  double w = -std::log((1 - a) * (1 + a)), p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double x = p * a;
  constexpr double kTwoOverSqrtPi = 1.1283791670955126;
  for (int step = 0; step < 2; ++step) {
    const double error = a < 0.5 ? std::erf(x) - a : (1 - a) - std::erfc(x);
    x -= error / (kTwoOverSqrtPi * std::exp(-x * x));
  }
  return static_cast<M>(std::copysign(x, static_cast<double>(y)));
}

}  // namespace mt
