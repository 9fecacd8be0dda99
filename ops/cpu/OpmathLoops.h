#pragma once
// Unary CPU loops written once for every element type, computing in opmath_t<T> as PyTorch does:
// 16-bit floats are widened to float, computed, and rounded once at the end, so composite formulas
// (sigmoid, gelu, ...) do not round after every step.
//
// Contiguous runs use Eigen's vectorised functions where they are right. Two kinds are not, in Eigen
// 3.4: float sqrt and rsqrt (EIGEN_FAST_MATH) are not correctly rounded (sqrt(49) is 6.9999995) and
// sqrt(+inf) is NaN, so only double vectorises them (unary_kernel_vec_double_only); log clamps
// denormal inputs to the smallest normal number, so those elements are recomputed
// (unary_kernel_vec_fixup). Left as Eigen has it: float exp and logistic give about 3e-39 where the
// true result is a denormal (exp(-100)), an absolute error below 1.2e-38, like flushing denormals.
#include <algorithm>
#include <type_traits>

#include "ops/cpu/Loops.h"
#include "tensor/DtypeDispatch.h"

namespace mt {

// The scalar type of an Eigen expression, for constants inside generic vectorised lambdas.
template <typename Expr>
using eigen_scalar_t = typename std::decay_t<Expr>::Scalar;

// `scalar_op` maps one opmath_t<T> value (strided runs); `vec_op` maps an Eigen array expression of
// opmath_t<T> values (contiguous runs, which Eigen vectorises).
template <typename T, typename ScalarOp, typename VecOp>
void unary_kernel_vec(TensorIterator& iter, ScalarOp scalar_op, VecOp vec_op) {
  using M = opmath_t<T>;
  cpu_kernel_vec<T>(
      iter, [&](T x) -> T { return static_cast<T>(scalar_op(static_cast<M>(x))); },
      [&](const auto& x) {
        if constexpr (std::is_same_v<T, M>) {
          return vec_op(x);
        } else {
          return vec_op(x.template cast<M>()).template cast<T>();
        }
      });
}

// unary_kernel_vec for double; every other type runs scalar_op element by element.
template <typename T, typename ScalarOp, typename VecOp>
void unary_kernel_vec_double_only(TensorIterator& iter, ScalarOp scalar_op, VecOp vec_op) {
  if constexpr (std::is_same_v<T, double>) {
    unary_kernel_vec<T>(iter, scalar_op, vec_op);
  } else {
    using M = opmath_t<T>;
    cpu_kernel(iter, [&](T x) -> T { return static_cast<T>(scalar_op(static_cast<M>(x))); });
  }
}

// unary_kernel_vec, except that in each block of a contiguous run the elements x with needs_scalar(x)
// get scalar_op's result. Those are computed before the block is written, so in-place works.
template <typename T, typename ScalarOp, typename VecOp, typename Pred>
void unary_kernel_vec_fixup(TensorIterator& iter, ScalarOp scalar_op, VecOp vec_op, Pred needs_scalar) {
  using M = opmath_t<T>;
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  auto scalar = [&](T x) -> T { return static_cast<T>(scalar_op(static_cast<M>(x))); };
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    if (strides[0] != sizeof(T) || strides[1] != sizeof(T)) {
      for (int64_t k = 0; k < n; ++k) {
        *reinterpret_cast<T*>(data[0] + k * strides[0]) = scalar(*reinterpret_cast<const T*>(data[1] + k * strides[1]));
      }
      return;
    }
    T* out = reinterpret_cast<T*>(data[0]);
    const T* in = reinterpret_cast<const T*>(data[1]);
    constexpr int64_t kBlock = 512;
    int64_t fix_index[kBlock];
    T fix_value[kBlock];
    for (int64_t begin = 0; begin < n; begin += kBlock) {
      const int64_t m = std::min(kBlock, n - begin);
      // A branch-free pass first, which the compiler vectorises; the rare block that needs fixes is
      // scanned again to collect them.
      int any = 0;
      for (int64_t k = begin; k < begin + m; ++k) any |= static_cast<int>(needs_scalar(static_cast<M>(in[k])));
      int64_t fixes = 0;
      for (int64_t k = begin; any && k < begin + m; ++k) {
        if (needs_scalar(static_cast<M>(in[k]))) {
          fix_index[fixes] = k;
          fix_value[fixes++] = scalar(in[k]);
        }
      }
      Eigen::Map<Array> o(out + begin, m);
      const Eigen::Map<const Array> x(in + begin, m);
      if constexpr (std::is_same_v<T, M>) {
        o = vec_op(x);
      } else {
        o = vec_op(x.template cast<M>()).template cast<T>();
      }
      for (int64_t j = 0; j < fixes; ++j) out[fix_index[j]] = fix_value[j];
    }
  });
}

// Calls f.template operator()<T>() with the element type of the iterator's floating dtype.
template <typename F>
void dispatch_floating_kernel(TensorIterator& iter, const char* name, F f) {
  dispatch_floating_types(iter.common_dtype(), name, [&]<typename T>() {
    // The dispatch instantiates the bool and int64 branches too, though it never takes them.
    if constexpr (std::is_floating_point_v<opmath_t<T>>) f.template operator()<T>();
  });
}

// The common case: a floating op vectorised by Eigen for every floating type.
template <typename ScalarOp, typename VecOp>
void floating_unary_kernel(TensorIterator& iter, const char* name, ScalarOp scalar_op, VecOp vec_op) {
  dispatch_floating_kernel(iter, name, [&]<typename T>() { unary_kernel_vec<T>(iter, scalar_op, vec_op); });
}

}  // namespace mt
