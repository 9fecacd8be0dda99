#pragma once
// Unary CPU loops written once for every element type, computing in opmath_t<T> as PyTorch does:
// 16-bit floats are widened to float, computed, and rounded once at the end, so composite formulas
// (sigmoid, gelu, ...) do not round after every step.
//
// Results must not depend on the CPU: the vectorised paths give the same answers on SSE2, AVX2 and
// AVX-512 (tests/isa runs the special-value suite compiled for each level). Eigen 3.4's packet math is
// right only in part of the range, and differently per instruction set, so:
// - sqrt and rsqrt are plain loops (unary_kernel), which the compiler vectorises into the correctly
//   rounded instructions (the library builds with -fno-math-errno for it). Eigen's are reciprocal-
//   square-root estimates under its default EIGEN_FAST_MATH: sqrt(inf) is NaN, denormals give 0 or NaN,
//   on AVX-512 even in float64. (Eigen's division is the exact instruction.)
// - exp is Eigen's generic algorithm, and only where it is accurate (AccurateExp): below about -87
//   (float) Eigen clamps, so exp(-inf) is 3.9e-39, not 0, and there are no denormal results; those lanes
//   take the C library's exp. (AVX-512's own float exp is 3.5 ulp off and overflows from 88.38, before
//   the true limit 88.72.) sigmoid, silu and softmax are written through AccurateExp: Eigen's own float
//   logistic is off by 1e-4 relative near -9.
// - log recomputes positive denormal inputs, which Eigen clamps to the smallest normal number.
// Accuracy (tests/isa/special_values_test.cpp checks it on every level): exact for sqrt, rsqrt's two
// roundings and division; at most 2 ulp for exp, log, sin and cos, and for log1p in double (3 in
// float); tanh 6 ulp in float (Eigen's rational approximation), 2 in double; sigmoid 6 in float, 3 in
// double.
#include <algorithm>
#include <cmath>
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

// A plain loop in opmath_t<T>: on contiguous runs the compiler vectorises it with the instruction the
// scalar op compiles to (sqrt, division), so every instruction set rounds the same way.
template <typename T, typename ScalarOp>
void unary_kernel(TensorIterator& iter, ScalarOp scalar_op) {
  using M = opmath_t<T>;
  cpu_kernel(iter, [&](T x) -> T { return static_cast<T>(scalar_op(static_cast<M>(x))); });
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

// exp(x) for float and double in Eigen expressions (`x.unaryExpr(AccurateExp())`): Eigen's vectorised
// exp where it is accurate, [kExpMin, kExpMax], whose results are normal numbers; the C library's for
// the lanes outside it.
struct AccurateExp {
  template <typename S>
  static constexpr S kExpMin = std::is_same_v<S, float> ? S(-87) : S(-708);
  template <typename S>
  static constexpr S kExpMax = std::is_same_v<S, float> ? S(88) : S(709);

  template <typename S>
  S operator()(const S& x) const {
    return std::exp(x);
  }
  template <typename Packet>
  Packet packetOp(const Packet& x) const {
    namespace ei = Eigen::internal;
    using S = typename ei::unpacket_traits<Packet>::type;
    constexpr int kLanes = ei::unpacket_traits<Packet>::size;
    // Eigen's generic algorithms: AVX-512's own float exp is up to 3.5 ulp off and overflows early.
    Packet r;
    if constexpr (std::is_same_v<S, float>) {
      r = ei::pexp_float(x);
    } else {
      r = ei::pexp_double(x);
    }
    // |x - middle| > half width: outside the range. NaN is not (Eigen's exp keeps it).
    const Packet middle = ei::pset1<Packet>((kExpMin<S> + kExpMax<S>) / 2);
    const Packet outside = ei::pcmp_lt(ei::pset1<Packet>((kExpMax<S> - kExpMin<S>) / 2), ei::pabs(ei::psub(x, middle)));
    if (!ei::predux_any(outside)) return r;
    alignas(64) S xs[kLanes], rs[kLanes];
    ei::pstore(xs, x);
    ei::pstore(rs, r);
    for (int i = 0; i < kLanes; ++i) {
      if (xs[i] < kExpMin<S> || xs[i] > kExpMax<S>) rs[i] = std::exp(xs[i]);
    }
    return ei::pload<Packet>(rs);
  }
};

// The common case: a floating op vectorised by Eigen for every floating type.
template <typename ScalarOp, typename VecOp>
void floating_unary_kernel(TensorIterator& iter, const char* name, ScalarOp scalar_op, VecOp vec_op) {
  dispatch_floating_kernel(iter, name, [&]<typename T>() { unary_kernel_vec<T>(iter, scalar_op, vec_op); });
}

}  // namespace mt

template <>
struct Eigen::internal::functor_traits<mt::AccurateExp> {
  enum { Cost = 20 * Eigen::NumTraits<float>::MulCost, PacketAccess = true };
};
