#pragma once
// Turns a run-time dtype into a compile-time element type: `dispatch_all_types(t, "add", [&]<typename T>() {...})`
// calls the lambda with T = float for kFloat32, and so on. A dtype the family does not cover is a
// NotImplementedError naming the operation, as PyTorch's AT_DISPATCH macros do.
#include "tensor/Error.h"
#include "tensor/ScalarType.h"

namespace mt {

namespace detail {
// Families are template parameters so that a kernel is only instantiated for the types it supports.
template <bool kBoolOk, bool kIntOk, bool kFloatOk, typename F>
decltype(auto) call_with_type(ScalarType t, const char* name, F&& f) {
  if constexpr (kBoolOk) {
    if (t == kBool) return f.template operator()<bool>();
  }
  if constexpr (kIntOk) {
    switch (t) {
      case kUInt8:
        return f.template operator()<uint8_t>();
      case kInt8:
        return f.template operator()<int8_t>();
      case kInt16:
        return f.template operator()<int16_t>();
      case kInt32:
        return f.template operator()<int32_t>();
      case kInt64:
        return f.template operator()<int64_t>();
      default:
        break;
    }
  }
  if constexpr (kFloatOk) {
    switch (t) {
      case kFloat32:
        return f.template operator()<float>();
      case kFloat64:
        return f.template operator()<double>();
      case kFloat16:
        return f.template operator()<Half>();
      case kBFloat16:
        return f.template operator()<BFloat16>();
      default:
        break;
    }
  }
  detail::throw_error<NotImplementedError>('"', name, "\" not implemented for '", t, "'");
}
}  // namespace detail

// bool, the five integer types and the four floating types.
template <typename F>
decltype(auto) dispatch_all_types(ScalarType t, const char* name, F&& f) {
  return detail::call_with_type<true, true, true>(t, name, std::forward<F>(f));
}
// The integer and floating types (arithmetic that PyTorch refuses on bool).
template <typename F>
decltype(auto) dispatch_numeric_types(ScalarType t, const char* name, F&& f) {
  return detail::call_with_type<false, true, true>(t, name, std::forward<F>(f));
}
// The five integer types (the bitwise shifts), and those with bool (bitwise and, or, xor and not).
template <typename F>
decltype(auto) dispatch_integral_types(ScalarType t, const char* name, F&& f) {
  return detail::call_with_type<false, true, false>(t, name, std::forward<F>(f));
}
template <typename F>
decltype(auto) dispatch_integral_types_and_bool(ScalarType t, const char* name, F&& f) {
  return detail::call_with_type<true, true, false>(t, name, std::forward<F>(f));
}
template <typename F>
decltype(auto) dispatch_floating_types(ScalarType t, const char* name, F&& f) {
  return detail::call_with_type<false, false, true>(t, name, std::forward<F>(f));
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
