// CPU loops of pow, maximum/minimum and clamp.
#include <cmath>
#include <limits>

#include "ops/PointwiseOps.h"
#include "ops/cpu/OpmathLoops.h"

namespace mt {
namespace {

// Integer power by squaring. Overflow wraps (computed unsigned, as two's complement would); negative
// exponents give the integer part of 1 / base**-exp: 1 and -1 stay on the unit circle, all else is 0.
int64_t integer_pow(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 1) return 1;
    if (base == -1) return (exp & 1) ? -1 : 1;
    return 0;
  }
  uint64_t result = 1, b = static_cast<uint64_t>(base);
  for (; exp > 0; exp >>= 1) {
    if (exp & 1) result *= b;
    b *= b;
  }
  return static_cast<int64_t>(result);
}

void pow_tensor_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "pow", [&]<typename T>() {
    if constexpr (std::is_same_v<T, int64_t>) {
      cpu_kernel(iter, [](int64_t b, int64_t e) -> int64_t { return integer_pow(b, e); });
    } else {
      using M = opmath_t<T>;
      cpu_kernel(iter, [](T b, T e) -> T { return static_cast<T>(std::pow(static_cast<M>(b), static_cast<M>(e))); });
    }
  });
}

// Common exponents take their cheaper, vectorised forms (x*x, sqrt, ...), as PyTorch's pow does.
void pow_scalar_kernel(TensorIterator& iter, const Scalar& exponent) {
  dispatch_numeric_types(iter.common_dtype(), "pow", [&]<typename T>() {
    if constexpr (std::is_same_v<T, int64_t>) {
      const int64_t e = exponent.toLong();
      cpu_kernel(iter, [e](int64_t b) -> int64_t { return integer_pow(b, e); });
    } else if constexpr (std::is_floating_point_v<opmath_t<T>>) {
      using M = opmath_t<T>;
      const M e = exponent.to<M>();
      if (e == M(2)) {
        unary_kernel_vec<T>(iter, [](M x) { return x * x; }, [](const auto& x) { return x.square(); });
      } else if (e == M(3)) {
        unary_kernel_vec<T>(iter, [](M x) { return x * x * x; }, [](const auto& x) { return x.cube(); });
      } else if (e == M(0.5)) {
        unary_kernel_vec_double_only<T>(iter, [](M x) { return std::sqrt(x); }, [](const auto& x) { return x.sqrt(); });
      } else if (e == M(-0.5)) {
        unary_kernel_vec_double_only<T>(
            iter, [](M x) { return M(1) / std::sqrt(x); }, [](const auto& x) { return x.rsqrt(); });
      } else if (e == M(-1)) {
        unary_kernel_vec<T>(iter, [](M x) { return M(1) / x; }, [](const auto& x) { return x.inverse(); });
      } else {
        // Eigen's array pow is slower than the C library's here, so no vectorised form.
        cpu_kernel(iter, [e](T x) -> T { return static_cast<T>(std::pow(static_cast<M>(x), e)); });
      }
    }
  });
}

// max/min that return NaN when either side is NaN (a plain comparison would drop it on one side).
template <typename T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<opmath_t<T>>) return std::isnan(static_cast<opmath_t<T>>(x));
  else return false;
}
template <typename T>
T max_nan(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return a < b ? b : a;
}
template <typename T>
T min_nan(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return b < a ? b : a;
}

void maximum_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "maximum",
                     [&]<typename T>() { cpu_kernel(iter, [](T a, T b) -> T { return max_nan(a, b); }); });
}
void minimum_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "minimum",
                     [&]<typename T>() { cpu_kernel(iter, [](T a, T b) -> T { return min_nan(a, b); }); });
}
void clamp_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "clamp", [&]<typename T>() {
    cpu_kernel(iter, [](T x, T lo, T hi) -> T { return min_nan(max_nan(x, lo), hi); });
  });
}

// An absent bound is the type's extreme; a NaN bound makes every element NaN.
void clamp_scalar_kernel(TensorIterator& iter, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  dispatch_numeric_types(iter.common_dtype(), "clamp", [&]<typename T>() {
    using M = opmath_t<T>;
    using limits = std::numeric_limits<M>;
    const M lo = min ? min->to<M>() : (limits::has_infinity ? -limits::infinity() : limits::lowest());
    const M hi = max ? max->to<M>() : (limits::has_infinity ? limits::infinity() : limits::max());
    if (is_nan(lo) || is_nan(hi)) {
      cpu_kernel(iter, [](T) -> T { return static_cast<T>(limits::quiet_NaN()); });
      return;
    }
    // x < lo is false for a NaN x, so NaN passes through both selects.
    unary_kernel_vec<T>(
        iter,
        [lo, hi](M x) {
          const M t = x < lo ? lo : x;
          return t > hi ? hi : t;
        },
        [lo, hi](const auto& x) {
          const auto t = (x < lo).select(lo, x);
          return (t > hi).select(hi, t);
        });
  });
}

}  // namespace

MT_REGISTER_STUB(pow_tensor_stub, kCPU, pow_tensor_kernel);
MT_REGISTER_STUB(pow_scalar_stub, kCPU, pow_scalar_kernel);
MT_REGISTER_STUB(maximum_stub, kCPU, maximum_kernel);
MT_REGISTER_STUB(minimum_stub, kCPU, minimum_kernel);
MT_REGISTER_STUB(clamp_stub, kCPU, clamp_kernel);
MT_REGISTER_STUB(clamp_scalar_stub, kCPU, clamp_scalar_kernel);

}  // namespace mt
