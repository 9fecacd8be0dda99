#include "tensor/ScalarType.h"

namespace mt {

ScalarType promote_types(ScalarType a, ScalarType b) {
  MT_CHECK_VALUE(a != ScalarType::Undefined && b != ScalarType::Undefined,
                 "promote_types: expected two defined dtypes but got ", a, " and ", b);
  if (a == b) return a;
  constexpr auto b1 = kBool, i8 = kInt64, f4 = kFloat32, f8 = kFloat64, f2 = kFloat16, bf = kBFloat16;
  // Rows and columns in enum order: bool, int64, float32, float64, float16, bfloat16.
  static constexpr ScalarType table[kNumScalarTypes][kNumScalarTypes] = {
      /* bool    */ {b1, i8, f4, f8, f2, bf},
      /* int64   */ {i8, i8, f4, f8, f2, bf},
      /* float32 */ {f4, f4, f4, f8, f4, f4},
      /* float64 */ {f8, f8, f8, f8, f8, f8},
      /* float16 */ {f2, f2, f4, f8, f2, f4},
      /* bfloat16*/ {bf, bf, f4, f8, f4, bf},
  };
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

namespace {
ScalarType default_dtype = kFloat32;
}

ScalarType get_default_dtype() { return default_dtype; }

void set_default_dtype(ScalarType t) {
  MT_CHECK_TYPE(is_floating_point(t), "only floating-point types are supported as the default type, got ", t);
  default_dtype = t;
}

}  // namespace mt
