#pragma once
// The CPU loops pointwise kernels are written with. cpu_kernel(iter, op) applies a scalar function to
// every element; when all operands are contiguous the inner loop is a plain indexed loop the compiler
// vectorises. cpu_kernel_vec additionally takes a generic op that works on Eigen arrays, used for whole
// contiguous runs (Eigen vectorises exp, tanh, ... which the scalar library calls do not).
#include <tuple>
#include <type_traits>

#include <Eigen/Core>

#include "ops/infra/TensorIterator.h"

namespace mt {

namespace detail {
template <typename F>
struct function_traits : function_traits<decltype(&F::operator())> {};
template <typename C, typename R, typename... A>
struct function_traits<R (C::*)(A...) const> {
  using result = R;
  using args = std::tuple<A...>;
  static constexpr int arity = sizeof...(A);
};

template <typename Op, size_t... I>
inline void strided_loop(Op& op, char** data, const int64_t* strides, int64_t n, std::index_sequence<I...>) {
  using traits = function_traits<Op>;
  using R = typename traits::result;
  char* out = data[0];
  // Contiguous runs index arrays directly, which the compiler vectorises.
  if (((strides[0] == sizeof(R)) && ... &&
       (strides[I + 1] == sizeof(std::tuple_element_t<I, typename traits::args>)))) {
    R* o = reinterpret_cast<R*>(out);
    for (int64_t k = 0; k < n; ++k)
      o[k] = op(reinterpret_cast<const std::tuple_element_t<I, typename traits::args>*>(data[I + 1])[k]...);
    return;
  }
  for (int64_t k = 0; k < n; ++k) {
    *reinterpret_cast<R*>(out + k * strides[0]) =
        op(*reinterpret_cast<const std::tuple_element_t<I, typename traits::args>*>(data[I + 1] + k * strides[I + 1])...);
  }
}
}  // namespace detail

// `op` takes one argument per input, by value, and returns the output element.
template <typename Op>
void cpu_kernel(TensorIterator& iter, Op op) {
  constexpr int arity = detail::function_traits<Op>::arity;
  MT_INTERNAL_ASSERT(iter.ntensors() == arity + 1);
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    detail::strided_loop(op, data, strides, n, std::make_index_sequence<arity>());
  });
}

// As cpu_kernel, plus `vec_op`, a generic lambda applied to Eigen array maps of whole contiguous runs.
// Integers and bools take `op` everywhere: it wraps on overflow (the compiler vectorises its loop),
// where an Eigen expression that does not vectorise overflows as signed arithmetic, which is undefined.
template <typename T, typename Op, typename VecOp>
void cpu_kernel_vec(TensorIterator& iter, Op op, VecOp vec_op) {
  if constexpr (std::is_integral_v<T>) {
    cpu_kernel(iter, op);
    return;
  }
  constexpr int arity = detail::function_traits<Op>::arity;
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    bool contiguous = true;
    for (int i = 0; i <= arity; ++i) contiguous = contiguous && strides[i] == sizeof(T);
    if (!contiguous) {
      detail::strided_loop(op, data, strides, n, std::make_index_sequence<arity>());
      return;
    }
    Eigen::Map<Array> out(reinterpret_cast<T*>(data[0]), n);
    [&]<size_t... I>(std::index_sequence<I...>) {
      out = vec_op(Eigen::Map<const Array>(reinterpret_cast<const T*>(data[I + 1]), n)...);
    }(std::make_index_sequence<arity>());
  });
}

}  // namespace mt
