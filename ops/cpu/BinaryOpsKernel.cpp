// CPU loops of add, mul, div, remainder and fmod.
#include <cmath>

#include "ops/BinaryOps.h"
#include "ops/ScalarMath.h"
#include "ops/cpu/Loops.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

void add_kernel(TensorIterator& iter, const Scalar& alpha) {
  if (iter.common_dtype() == kBool) {
    const bool a = alpha.toBool();
    cpu_kernel(iter, [a](bool x, bool y) -> bool { return x || (a && y); });
    return;
  }
  dispatch_numeric_types(iter.common_dtype(), "add", [&]<typename T>() {
    using M = opmath_t<T>;
    const M a = alpha.to<M>();
    if (a == M(1)) {
      cpu_kernel_vec<T>(iter, [](T x, T y) -> T { return static_cast<T>(wrapping_add(M(x), M(y))); },
                        [](const auto& x, const auto& y) { return x + y; });
    } else {
      // 16-bit floats compute x + a * y in float and round once, on both paths.
      cpu_kernel_vec<T>(iter, [a](T x, T y) -> T { return static_cast<T>(wrapping_add(M(x), wrapping_mul(a, M(y)))); },
                        [a](const auto& x, const auto& y) {
                          return (x.template cast<M>() + a * y.template cast<M>()).template cast<T>();
                        });
    }
  });
}

// A floating tensor times or over a scalar second operand: the scalar is read as the caller gave it, in
// the op's math type (TensorIterator::original_scalar_value), and the loop runs over the tensor alone,
// so a contiguous one takes the vectorised path.
template <typename T, typename ScalarOp>
bool floating_scalar_kernel(TensorIterator& iter, ScalarOp op) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    if (!iter.is_scalar(2)) return false;
    using M = opmath_t<T>;
    const M b = iter.original_scalar_value<M>(2);
    iter.remove_operand(2);
    cpu_kernel_vec<T>(iter, [op, b](T x) -> T { return static_cast<T>(op(M(x), b)); },
                      [op, b](const auto& x) { return op(x.template cast<M>(), b).template cast<T>(); });
    return true;
  }
}

void mul_kernel(TensorIterator& iter) {
  if (iter.common_dtype() == kBool) {
    cpu_kernel(iter, [](bool x, bool y) -> bool { return x && y; });
    return;
  }
  dispatch_numeric_types(iter.common_dtype(), "mul", [&]<typename T>() {
    using M = opmath_t<T>;
    if (floating_scalar_kernel<T>(iter, [](const auto& x, M b) { return x * b; })) return;
    cpu_kernel_vec<T>(iter, [](T x, T y) -> T { return static_cast<T>(wrapping_mul(M(x), M(y))); },
                      [](const auto& x, const auto& y) { return x * y; });
  });
}

void div_true_kernel(TensorIterator& iter) {
  dispatch_floating_types(iter.common_dtype(), "div_true", [&]<typename T>() {
    using M = opmath_t<T>;
    if (floating_scalar_kernel<T>(iter, [](const auto& x, M b) { return x / b; })) return;
    cpu_kernel_vec<T>(iter, [](T x, T y) -> T { return static_cast<T>(M(x) / M(y)); },
                      [](const auto& x, const auto& y) { return x / y; });
  });
}

// A zero integer divisor was refused before the loops below (ops/BinaryOps.cpp).
void div_trunc_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "div_trunc", [&]<typename T>() {
    if constexpr (std::is_integral_v<T>) {
      cpu_kernel(iter, [](T x, T y) -> T { return trunc_divide(x, y); });
    } else {
      using M = opmath_t<T>;
      cpu_kernel(iter, [](T x, T y) -> T { return static_cast<T>(std::trunc(M(x) / M(y))); });
    }
  });
}

void div_floor_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "div_floor", [&]<typename T>() {
    using M = opmath_t<T>;
    cpu_kernel(iter, [](T x, T y) -> T { return static_cast<T>(floor_divide<M>(M(x), M(y))); });
  });
}

void remainder_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "remainder", [&]<typename T>() {
    using M = opmath_t<T>;
    cpu_kernel(iter, [](T x, T y) -> T { return static_cast<T>(python_remainder(M(x), M(y))); });
  });
}

void fmod_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "fmod", [&]<typename T>() {
    using M = opmath_t<T>;
    cpu_kernel(iter, [](T x, T y) -> T { return static_cast<T>(truncated_remainder(M(x), M(y))); });
  });
}

}  // namespace

MT_REGISTER_STUB(add_stub, kCPU, add_kernel);
MT_REGISTER_STUB(mul_stub, kCPU, mul_kernel);
MT_REGISTER_STUB(div_true_stub, kCPU, div_true_kernel);
MT_REGISTER_STUB(div_trunc_stub, kCPU, div_trunc_kernel);
MT_REGISTER_STUB(div_floor_stub, kCPU, div_floor_kernel);
MT_REGISTER_STUB(remainder_stub, kCPU, remainder_kernel);
MT_REGISTER_STUB(fmod_stub, kCPU, fmod_kernel);

}  // namespace mt
