// CPU loops of pow, maximum/minimum and clamp.
#include <cmath>
#include <limits>

#include "ops/PointwiseOps.h"
#include "ops/ScalarMath.h"
#include "ops/cpu/OpmathLoops.h"

namespace mt {
namespace {

void pow_tensor_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "pow", [&]<typename T>() {
    if constexpr (std::is_integral_v<T>) {
      cpu_kernel(iter, [](T b, T e) -> T { return integer_pow(b, e); });
    } else {
      using M = opmath_t<T>;
      cpu_kernel(iter, [](T b, T e) -> T { return static_cast<T>(std::pow(static_cast<M>(b), static_cast<M>(e))); });
    }
  });
}

// Common exponents take their cheaper, vectorised forms (x*x, sqrt, ...), as PyTorch's pow does.
void pow_scalar_kernel(TensorIterator& iter, const Scalar& exponent) {
  dispatch_numeric_types(iter.common_dtype(), "pow", [&]<typename T>() {
    if constexpr (std::is_integral_v<T>) {
      const T e = exponent.to<T>();
      cpu_kernel(iter, [e](T b) -> T { return integer_pow(b, e); });
    } else if constexpr (std::is_floating_point_v<opmath_t<T>>) {
      using M = opmath_t<T>;
      const M e = exponent.to<M>();
      if (e == M(2)) {
        unary_kernel_vec<T>(iter, [](M x) { return x * x; }, [](const auto& x) { return x.square(); });
      } else if (e == M(3)) {
        unary_kernel_vec<T>(iter, [](M x) { return x * x * x; }, [](const auto& x) { return x.cube(); });
      } else if (e == M(0.5)) {
        unary_kernel<T>(iter, [](M x) { return std::sqrt(x); });
      } else if (e == M(-0.5)) {
        unary_kernel<T>(iter, [](M x) { return M(1) / std::sqrt(x); });
      } else if (e == M(-1)) {
        unary_kernel<T>(iter, [](M x) { return M(1) / x; });
      } else {
        // Eigen's array pow is slower than the C library's here, so no vectorised form.
        cpu_kernel(iter, [e](T x) -> T { return static_cast<T>(std::pow(static_cast<M>(x), e)); });
      }
    }
  });
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
