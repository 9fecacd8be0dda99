// ScalarType: element sizes, names, categories, the default dtype and the promotion lattice.
#include <gtest/gtest.h>

#include <microtorch/framework.h>
#include <sstream>

#include "ops/api/zeros.h"

namespace {

using mt::ScalarType;

TEST(ScalarType, ElementSizes) {
  EXPECT_EQ(mt::element_size(mt::kBool), 1u);
  EXPECT_EQ(mt::element_size(mt::kUInt8), 1u);
  EXPECT_EQ(mt::element_size(mt::kInt8), 1u);
  EXPECT_EQ(mt::element_size(mt::kInt16), 2u);
  EXPECT_EQ(mt::element_size(mt::kInt32), 4u);
  EXPECT_EQ(mt::element_size(mt::kInt64), 8u);
  EXPECT_EQ(mt::element_size(mt::kFloat32), 4u);
  EXPECT_EQ(mt::element_size(mt::kFloat64), 8u);
  EXPECT_EQ(mt::element_size(mt::kFloat16), 2u);
  EXPECT_EQ(mt::element_size(mt::kBFloat16), 2u);
}

TEST(ScalarType, PrintsWithTheMtPrefix) {
  std::ostringstream ss;
  ss << mt::kBool << " " << mt::kInt64 << " " << mt::kFloat32 << " " << mt::kFloat64 << " " << mt::kFloat16 << " "
     << mt::kBFloat16;
  EXPECT_EQ(ss.str(), "mt.bool mt.int64 mt.float32 mt.float64 mt.float16 mt.bfloat16");
  EXPECT_EQ(mt::scalar_type_name(mt::kFloat32), "float32");
  std::ostringstream ints;
  ints << mt::kUInt8 << " " << mt::kInt8 << " " << mt::kInt16 << " " << mt::kInt32;
  EXPECT_EQ(ints.str(), "mt.uint8 mt.int8 mt.int16 mt.int32");
}

TEST(ScalarType, PyTorchSpellingsAreAliases) {
  EXPECT_EQ(mt::kLong, mt::kInt64);
  EXPECT_EQ(mt::kFloat, mt::kFloat32);
  EXPECT_EQ(mt::kDouble, mt::kFloat64);
  EXPECT_EQ(mt::kHalf, mt::kFloat16);
  EXPECT_EQ(mt::kByte, mt::kUInt8);
  EXPECT_EQ(mt::kChar, mt::kInt8);
  EXPECT_EQ(mt::kShort, mt::kInt16);
  EXPECT_EQ(mt::kInt, mt::kInt32);
}

TEST(ScalarType, Categories) {
  for (ScalarType t : {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16}) {
    EXPECT_TRUE(mt::is_floating_point(t)) << t;
    EXPECT_FALSE(mt::is_integral(t, true)) << t;
  }
  for (ScalarType t : {mt::kUInt8, mt::kInt8, mt::kInt16, mt::kInt32, mt::kInt64}) {
    EXPECT_FALSE(mt::is_floating_point(t)) << t;
    EXPECT_TRUE(mt::is_integral(t, false)) << t;
    EXPECT_FALSE(mt::is_reduced_floating_point(t)) << t;
  }
  EXPECT_TRUE(mt::is_integral(mt::kBool, true));
  EXPECT_FALSE(mt::is_integral(mt::kBool, false));
  EXPECT_TRUE(mt::is_reduced_floating_point(mt::kFloat16));
  EXPECT_TRUE(mt::is_reduced_floating_point(mt::kBFloat16));
  EXPECT_FALSE(mt::is_reduced_floating_point(mt::kFloat32));
}

TEST(ScalarType, ScalarTypeOfCppTypes) {
  static_assert(mt::scalar_type_of<bool> == mt::kBool);
  static_assert(mt::scalar_type_of<uint8_t> == mt::kUInt8);
  static_assert(mt::scalar_type_of<int8_t> == mt::kInt8);
  static_assert(mt::scalar_type_of<int16_t> == mt::kInt16);
  static_assert(mt::scalar_type_of<int32_t> == mt::kInt32);
  static_assert(mt::scalar_type_of<int64_t> == mt::kInt64);
  static_assert(mt::scalar_type_of<float> == mt::kFloat32);
  static_assert(mt::scalar_type_of<double> == mt::kFloat64);
  static_assert(mt::scalar_type_of<mt::Half> == mt::kFloat16);
  static_assert(mt::scalar_type_of<mt::BFloat16> == mt::kBFloat16);
}

// PyTorch 2.x's torch.promote_types for every pair, written out by hand.
TEST(ScalarType, PromotionTableAllPairs) {
  const ScalarType b = mt::kBool, u1 = mt::kUInt8, i1 = mt::kInt8, i2 = mt::kInt16, i4 = mt::kInt32, i8 = mt::kInt64,
                   f = mt::kFloat32, d = mt::kFloat64, h = mt::kFloat16, bf = mt::kBFloat16;
  const ScalarType types[10] = {b, u1, i1, i2, i4, i8, f, d, h, bf};
  const ScalarType expected[10][10] = {
      //          bool u8  i8  i16 i32 i64 f32 f64 f16 bf16
      /* bool */ {b, u1, i1, i2, i4, i8, f, d, h, bf},
      /* u8   */ {u1, u1, i2, i2, i4, i8, f, d, h, bf},
      /* i8   */ {i1, i2, i1, i2, i4, i8, f, d, h, bf},
      /* i16  */ {i2, i2, i2, i2, i4, i8, f, d, h, bf},
      /* i32  */ {i4, i4, i4, i4, i4, i8, f, d, h, bf},
      /* i64  */ {i8, i8, i8, i8, i8, i8, f, d, h, bf},
      /* f32  */ {f, f, f, f, f, f, f, d, f, f},
      /* f64  */ {d, d, d, d, d, d, d, d, d, d},
      /* f16  */ {h, h, h, h, h, h, f, d, h, f},
      /* bf16 */ {bf, bf, bf, bf, bf, bf, f, d, f, bf},
  };
  for (int r = 0; r < 10; ++r) {
    for (int c = 0; c < 10; ++c) {
      EXPECT_EQ(mt::promote_types(types[r], types[c]), expected[r][c]) << types[r] << " with " << types[c];
    }
  }
}

TEST(ScalarType, PromotingUndefinedIsAValueError) {
  try {
    mt::promote_types(ScalarType::Undefined, mt::kFloat32);
    FAIL() << "expected mt::ValueError";
  } catch (const mt::ValueError& e) {
    EXPECT_STREQ(e.what(), "promote_types: expected two defined dtypes but got mt.undefined and mt.float32");
  }
}

TEST(ScalarType, DefaultDtypeIsFloat32AndOnlyFloatsCanReplaceIt) {
  EXPECT_EQ(mt::get_default_dtype(), mt::kFloat32);
  mt::set_default_dtype(mt::kFloat64);
  EXPECT_EQ(mt::get_default_dtype(), mt::kFloat64);
  EXPECT_EQ(mt::zeros({1}).dtype(), mt::kFloat64);
  mt::set_default_dtype(mt::kFloat32);
  try {
    mt::set_default_dtype(mt::kInt64);
    FAIL() << "expected mt::TypeError";
  } catch (const mt::TypeError& e) {
    EXPECT_STREQ(e.what(), "only floating-point types are supported as the default type, got mt.int64");
  }
  EXPECT_EQ(mt::get_default_dtype(), mt::kFloat32);
}

}  // namespace
