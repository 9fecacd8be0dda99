#pragma once
// Turns a run-time dtype into a compile-time element type: `dispatch_all_types(t, "add", [&]<typename T>() {...})`
// calls the lambda with T = float for kFloat32, and so on. A dtype the family does not cover is a
// NotImplementedError naming the operation, as PyTorch's AT_DISPATCH macros do.
#include "tensor/Error.h"
#include "tensor/ScalarType.h"

namespace mt {

namespace detail {
template <typename F>
decltype(auto) call_with_type(ScalarType t, const char* name, bool allow_bool, bool allow_int, bool allow_float,
                              F&& f) {
  switch (t) {
    case kBool:
      if (allow_bool) return f.template operator()<bool>();
      break;
    case kInt64:
      if (allow_int) return f.template operator()<int64_t>();
      break;
    case kFloat32:
      if (allow_float) return f.template operator()<float>();
      break;
    case kFloat64:
      if (allow_float) return f.template operator()<double>();
      break;
    case kFloat16:
      if (allow_float) return f.template operator()<Half>();
      break;
    case kBFloat16:
      if (allow_float) return f.template operator()<BFloat16>();
      break;
    default:
      break;
  }
  detail::throw_error<NotImplementedError>('"', name, "\" not implemented for '", t, "'");
}
}  // namespace detail

// bool, int64 and the four floating types.
template <typename F>
decltype(auto) dispatch_all_types(ScalarType t, const char* name, F&& f) {
  return detail::call_with_type(t, name, true, true, true, std::forward<F>(f));
}
// int64 and the floating types (arithmetic that PyTorch refuses on bool).
template <typename F>
decltype(auto) dispatch_numeric_types(ScalarType t, const char* name, F&& f) {
  return detail::call_with_type(t, name, false, true, true, std::forward<F>(f));
}
template <typename F>
decltype(auto) dispatch_floating_types(ScalarType t, const char* name, F&& f) {
  return detail::call_with_type(t, name, false, false, true, std::forward<F>(f));
}

// The type kernels compute in for element type T: 16-bit floats compute in float, as PyTorch's opmath.
template <typename T>
struct OpMath {
  using type = T;
};
template <>
struct OpMath<Half> {
  using type = float;
};
template <>
struct OpMath<BFloat16> {
  using type = float;
};
template <typename T>
using opmath_t = typename OpMath<T>::type;

}  // namespace mt
