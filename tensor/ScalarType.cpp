#include "tensor/ScalarType.h"

namespace mt {

namespace {

// PyTorch's promotion rules for two defined dtypes.
constexpr ScalarType promotion_rule(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == kBool) return b;
  if (b == kBool) return a;
  const bool a_float = is_floating_point(a), b_float = is_floating_point(b);
  if (a_float != b_float) return a_float ? a : b;
  if (a_float) {
    if (a == kFloat64 || b == kFloat64) return kFloat64;
    return kFloat32;  // float32 with a 16-bit float, or float16 with bfloat16
  }
  // Two different integer types. The signed ones are ordered by width; uint8 fits in any wider signed one.
  if (a == kUInt8 || b == kUInt8) {
    const ScalarType other = a == kUInt8 ? b : a;
    return other == kInt8 ? kInt16 : other;
  }
  return element_size(a) > element_size(b) ? a : b;
}

// The rules evaluated at compile time for every pair: every TensorIterator setup asks, and a lookup is
// what the hand-written table cost before the integer types made it 10x10.
struct PromotionTable {
  ScalarType entries[kNumScalarTypes][kNumScalarTypes];
  constexpr PromotionTable() : entries() {
    for (int i = 0; i < kNumScalarTypes; ++i)
      for (int j = 0; j < kNumScalarTypes; ++j)
        entries[i][j] = promotion_rule(static_cast<ScalarType>(i), static_cast<ScalarType>(j));
  }
};
constexpr PromotionTable kPromotion;

}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  MT_CHECK_VALUE(a != ScalarType::Undefined && b != ScalarType::Undefined,
                 "promote_types: expected two defined dtypes but got ", a, " and ", b);
  return kPromotion.entries[static_cast<int>(a)][static_cast<int>(b)];
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
