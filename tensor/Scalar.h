#pragma once
// A number that is not a tensor: the `2` in `a * 2`, the value of `full`. It remembers whether it was a
// bool, an integer or a floating literal, because type promotion treats the three differently.
#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

#include "tensor/ScalarType.h"

namespace mt {

class Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  Scalar(bool v) : tag_(Tag::Bool) { v_.i = v; }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : tag_(Tag::Int) {
    v_.i = static_cast<int64_t>(v);
  }
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : tag_(Tag::Double) {
    v_.d = static_cast<double>(v);
  }
  Scalar(Half v) : Scalar(static_cast<float>(v)) {}
  Scalar(BFloat16 v) : Scalar(static_cast<float>(v)) {}

  bool isFloatingPoint() const { return tag_ == Tag::Double; }
  bool isIntegral(bool include_bool) const { return tag_ == Tag::Int || (include_bool && tag_ == Tag::Bool); }
  bool isBoolean() const { return tag_ == Tag::Bool; }

  // The dtype of a tensor made from this scalar with no other information: float64, int64 or bool.
  ScalarType type() const { return tag_ == Tag::Double ? kFloat64 : tag_ == Tag::Int ? kInt64 : kBool; }

  // A value goes to an integer type only if it fits, as PyTorch's checked conversion: a floating one
  // must be in range (NaN is not; casting it would be undefined behaviour), an integer one too, except
  // that unsigned types take negatives down to -max, which wrap as two's complement (`fill_(-1)` on
  // uint8 gives 255).
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) {
      return tag_ == Tag::Double ? v_.d != 0 : v_.i != 0;
    } else {
      if (!fits<T>()) throw_cannot_convert(toDouble(), scalar_type_of<T>);
      return tag_ == Tag::Double ? static_cast<T>(v_.d) : static_cast<T>(v_.i);
    }
  }
  // Whether to<T>() succeeds.
  template <typename T>
  bool fits() const {
    if constexpr (!std::is_integral_v<T> || std::is_same_v<T, bool>) {
      return true;
    } else if (tag_ == Tag::Double) {
      constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
      constexpr double past_hi = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
      return v_.d >= lo && v_.d < past_hi;
    } else {
      constexpr int64_t max = std::numeric_limits<T>::max();
      constexpr int64_t lo = std::is_signed_v<T> ? std::numeric_limits<T>::min() : -max;
      return v_.i >= lo && v_.i <= max;
    }
  }
  double toDouble() const { return to<double>(); }
  int64_t toLong() const { return to<int64_t>(); }
  bool toBool() const { return to<bool>(); }

  bool operator==(const Scalar& o) const {
    if (isFloatingPoint() || o.isFloatingPoint()) return toDouble() == o.toDouble();
    return v_.i == o.v_.i;
  }

 private:
  [[noreturn]] static void throw_cannot_convert(double value, ScalarType to);

  enum class Tag : uint8_t { Bool, Int, Double };
  Tag tag_;
  union {
    int64_t i;
    double d;
  } v_;
};

// Prints as Python would: 2, 2.5, True.
std::ostream& operator<<(std::ostream& os, const Scalar& s);

// Refuses a value that `dtype` cannot represent, as PyTorch's checked conversion of a Scalar to an element
// type does (fill_, clamp's bounds, pow's exponent, scatter's value): finite values beyond a float type's
// range, and NaN, infinities or out-of-range values for the integer types (as Scalar::to). bool and
// float64 take anything.
void check_value_fits(const Scalar& value, ScalarType dtype);

}  // namespace mt
