#pragma once
// The element types a tensor can hold, their sizes and names, and PyTorch's type promotion.
#include <cstdint>
#include <ostream>
#include <string_view>

#include <Eigen/Core>

#include "tensor/Error.h"

namespace mt {

using Half = Eigen::half;
using BFloat16 = Eigen::bfloat16;

// X-macro: C++ type, enum name, printed name. The order is the enum order.
#define MT_FORALL_SCALAR_TYPES(_) \
  _(bool, Bool, bool)             \
  _(uint8_t, UInt8, uint8)        \
  _(int8_t, Int8, int8)           \
  _(int16_t, Int16, int16)        \
  _(int32_t, Int32, int32)        \
  _(int64_t, Int64, int64)        \
  _(float, Float32, float32)      \
  _(double, Float64, float64)     \
  _(Half, Float16, float16)       \
  _(BFloat16, BFloat16, bfloat16)

enum class ScalarType : int8_t {
#define MT_DEFINE_ENUM(cpp, name, str) name,
  MT_FORALL_SCALAR_TYPES(MT_DEFINE_ENUM)
#undef MT_DEFINE_ENUM
  Undefined,
};
constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);

constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kUInt8 = ScalarType::UInt8;
constexpr ScalarType kInt8 = ScalarType::Int8;
constexpr ScalarType kInt16 = ScalarType::Int16;
constexpr ScalarType kInt32 = ScalarType::Int32;
constexpr ScalarType kInt64 = ScalarType::Int64;
constexpr ScalarType kFloat32 = ScalarType::Float32;
constexpr ScalarType kFloat64 = ScalarType::Float64;
constexpr ScalarType kFloat16 = ScalarType::Float16;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
// PyTorch's C++ spellings.
constexpr ScalarType kByte = kUInt8;
constexpr ScalarType kChar = kInt8;
constexpr ScalarType kShort = kInt16;
constexpr ScalarType kInt = kInt32;
constexpr ScalarType kLong = kInt64;
constexpr ScalarType kFloat = kFloat32;
constexpr ScalarType kDouble = kFloat64;
constexpr ScalarType kHalf = kFloat16;

constexpr size_t element_size(ScalarType t) {
  switch (t) {
#define MT_CASE(cpp, name, str) \
  case ScalarType::name:        \
    return sizeof(cpp);
    MT_FORALL_SCALAR_TYPES(MT_CASE)
#undef MT_CASE
    default:
      return 0;
  }
}

// "float32", as PyTorch prints after "torch.".
constexpr std::string_view scalar_type_name(ScalarType t) {
  switch (t) {
#define MT_CASE(cpp, name, str) \
  case ScalarType::name:        \
    return #str;
    MT_FORALL_SCALAR_TYPES(MT_CASE)
#undef MT_CASE
    default:
      return "undefined";
  }
}

// Prints "mt.float32".
inline std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << "mt." << scalar_type_name(t); }

constexpr bool is_floating_point(ScalarType t) {
  return t == kFloat32 || t == kFloat64 || t == kFloat16 || t == kBFloat16;
}
constexpr bool is_integral(ScalarType t, bool include_bool) {
  // The integer types are contiguous in the enum, uint8 first.
  return (t >= kUInt8 && t <= kInt64) || (include_bool && t == kBool);
}
constexpr bool is_reduced_floating_point(ScalarType t) { return t == kFloat16 || t == kBFloat16; }

// The ScalarType of a C++ element type: scalar_type_of<float> == kFloat32.
template <typename T>
struct CppTypeToScalarType;
#define MT_SPECIALIZE(cpp, name, str)                              \
  template <>                                                      \
  struct CppTypeToScalarType<cpp> {                                \
    static constexpr ScalarType value = ScalarType::name;          \
  };
MT_FORALL_SCALAR_TYPES(MT_SPECIALIZE)
#undef MT_SPECIALIZE
template <typename T>
constexpr ScalarType scalar_type_of = CppTypeToScalarType<T>::value;

// PyTorch's promotion lattice: bool < integers < {float16, bfloat16} < float32 < float64. Integers
// promote to the wider one, except that uint8 with int8 gives int16 (the smallest type holding both);
// the two 16-bit floats meet at float32.
ScalarType promote_types(ScalarType a, ScalarType b);

// Defaults, as in PyTorch: floating literals and factories give float32, integer literals int64.
ScalarType get_default_dtype();
void set_default_dtype(ScalarType t);  // float types only

}  // namespace mt
