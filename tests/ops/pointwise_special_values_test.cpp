// isnan, isinf, isposinf, isneginf, isfinite and nan_to_num against hand-worked values in every dtype
// (integers and bool hold no special values), nan_to_num's defaults (the dtype's largest finite value)
// and its in-place and out= forms, gradients and Meta; square. (vmap: tests/functorch/batching_rules_test.cpp.)
#include <cmath>
#include <limits>

#include "reference.h"
#include "ops/api/empty.h"
#include "ops/api/isfinite.h"
#include "ops/api/isinf.h"
#include "ops/api/isnan.h"
#include "ops/api/isneginf.h"
#include "ops/api/isposinf.h"
#include "ops/api/max.h"
#include "ops/api/nan_to_num.h"
#include "ops/api/square.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");
const ScalarType kFloatTypes[] = {kFloat32, kFloat64, kFloat16, kBFloat16};

Tensor specials(ScalarType dt) { return mt::tensor({1.5, kNaN, kInf, -kInf, 0.0, -2.0}).to(dt); }

TEST(PointwiseSpecialValues, ClassifyEveryFloatingDtype) {
  for (ScalarType dt : kFloatTypes) {
    SCOPED_TRACE(scalar_type_name(dt));
    const Tensor x = specials(dt);
    for (const Tensor& r : {mt::isnan(x), x.isinf(), mt::isposinf(x), mt::isneginf(x), x.isfinite()})
      EXPECT_EQ(r.dtype(), kBool);
    EXPECT_EQ(values(mt::isnan(x)), (std::vector<double>{0, 1, 0, 0, 0, 0}));
    EXPECT_EQ(values(mt::isinf(x)), (std::vector<double>{0, 0, 1, 1, 0, 0}));
    EXPECT_EQ(values(mt::isposinf(x)), (std::vector<double>{0, 0, 1, 0, 0, 0}));
    EXPECT_EQ(values(mt::isneginf(x)), (std::vector<double>{0, 0, 0, 1, 0, 0}));
    EXPECT_EQ(values(mt::isfinite(x)), (std::vector<double>{1, 0, 0, 0, 1, 1}));
    // A strided view.
    EXPECT_EQ(values(mt::isfinite(strided_view(x, {3}, {2}))), (std::vector<double>{1, 0, 1}));
  }
}

TEST(PointwiseSpecialValues, IntegersAndBoolAreAlwaysFinite) {
  for (ScalarType dt : {kUInt8, kInt8, kInt16, kInt32, kInt64, kBool}) {
    SCOPED_TRACE(scalar_type_name(dt));
    const Tensor x = mt::tensor({0, 1, 1}, TensorOptions(dt));
    EXPECT_EQ(values(mt::isnan(x)), (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(values(mt::isinf(x)), (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(values(mt::isposinf(x)), (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(values(mt::isneginf(x)), (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(values(mt::isfinite(x)), (std::vector<double>{1, 1, 1}));
    EXPECT_EQ(mt::isfinite(x).dtype(), kBool);
    const Tensor copied = mt::nan_to_num(x);
    EXPECT_EQ(copied.dtype(), dt);
    EXPECT_FALSE(copied.is_same(x));
    EXPECT_EQ(values(copied), values(x));
  }
}

TEST(PointwiseSpecialValues, NanToNumReplacesWithTheGivenValuesOrTheDtypesLimits) {
  EXPECT_EQ(values(mt::nan_to_num(specials(kFloat64), 7.0, 100.0, -100.0)),
            (std::vector<double>{1.5, 7, 100, -100, 0, -2}));
  const double f32_max = std::numeric_limits<float>::max();
  EXPECT_EQ(values(mt::nan_to_num(specials(kFloat32))), (std::vector<double>{1.5, 0, f32_max, -f32_max, 0, -2}));
  const double f64_max = std::numeric_limits<double>::max();
  EXPECT_EQ(values(specials(kFloat64).nan_to_num()), (std::vector<double>{1.5, 0, f64_max, -f64_max, 0, -2}));
  EXPECT_EQ(values(mt::nan_to_num(specials(kFloat16))), (std::vector<double>{1.5, 0, 65504, -65504, 0, -2}));
  // bfloat16's largest finite value: (2 - 2^-7) * 2^127.
  const double bf16_max = (2 - std::ldexp(1.0, -7)) * std::ldexp(1.0, 127);
  EXPECT_EQ(values(mt::nan_to_num(specials(kBFloat16))), (std::vector<double>{1.5, 0, bf16_max, -bf16_max, 0, -2}));
  // Only posinf given: NaN still becomes 0 and -inf the lowest value.
  EXPECT_EQ(values(mt::nan_to_num(specials(kFloat16), std::nullopt, 9.0)),
            (std::vector<double>{1.5, 0, 9, -65504, 0, -2}));
  EXPECT_EQ(mt::nan_to_num(specials(kBFloat16)).dtype(), kBFloat16);
}

TEST(PointwiseSpecialValues, NanToNumInPlaceAndOut) {
  Tensor x = specials(kFloat32);
  Tensor& same = mt::nan_to_num_(x, 1.0, 2.0, 3.0);
  EXPECT_TRUE(same.is_same(x));
  EXPECT_EQ(values(x), (std::vector<double>{1.5, 1, 2, 3, 0, -2}));
  Tensor base = specials(kFloat64);
  base.slice(0, 1, 6, 2).nan_to_num_(-1.0);  // NaN, -inf and -2 of a strided view
  const double f64_max = std::numeric_limits<double>::max();
  EXPECT_EQ(values(base), (std::vector<double>{1.5, -1, kInf, -f64_max, 0, -2}));

  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  Tensor& written = mt::nan_to_num_out(out, specials(kFloat64), 5.0, 6.0, 7.0);
  EXPECT_TRUE(written.is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{1.5, 5, 6, 7, 0, -2}));
  Tensor int_out = mt::empty({3}, TensorOptions(kInt32));
  mt::nan_to_num_out(int_out, mt::tensor({4, 5, 6}, TensorOptions(kInt32)));
  EXPECT_EQ(values(int_out), (std::vector<double>{4, 5, 6}));
  Tensor wrong = mt::zeros({6}, TensorOptions(kFloat32));
  expect_error<TypeError>([&] { mt::nan_to_num_out(wrong, specials(kFloat64)); },
                          "nan_to_num: dtype of out: mt.float32 should be same as input: mt.float64");
  EXPECT_EQ(values(wrong), (std::vector<double>(6, 0.0)));
}

// The gradient flows where the value was kept and is 0 where it was replaced, as PyTorch's.
TEST(PointwiseSpecialValues, NanToNumGradientIsZeroWhereItReplaced) {
  const Tensor x = specials(kFloat64).requires_grad_();
  mt::nan_to_num(x).mul(mt::tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0})).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, 0, 0, 5, 6}));
  EXPECT_FALSE(mt::isnan(x).requires_grad());
}

TEST(PointwiseSpecialValues, MetaGivesShapesAndDtypes) {
  const Tensor x = mt::empty({2, 3}, TensorOptions(kBFloat16).device(kMeta));
  for (const Tensor& r : {mt::isnan(x), mt::isinf(x), mt::isfinite(x), mt::isposinf(x)}) {
    EXPECT_TRUE(r.is_meta());
    EXPECT_EQ(r.dtype(), kBool);
    EXPECT_EQ(r.sizes(), (std::vector<int64_t>{2, 3}));
  }
  EXPECT_EQ(mt::nan_to_num(x).dtype(), kBFloat16);
  EXPECT_TRUE(mt::nan_to_num(x).is_meta());
}

TEST(PointwiseSpecialValues, SquareIsPowOfTwo) {
  EXPECT_EQ(values(mt::square(mt::tensor({-3.0, 0.5, kInf}))), (std::vector<double>{9, 0.25, kInf}));
  const Tensor i8 = mt::tensor({12, -12}, TensorOptions(kInt8));
  EXPECT_EQ(mt::square(i8).dtype(), kInt8);
  EXPECT_EQ(values(i8.square()), (std::vector<double>{-112, -112}));  // 144 wraps in int8
  const Tensor b = mt::tensor({true, false});
  EXPECT_EQ(mt::square(b).dtype(), kInt64);
  EXPECT_EQ(values(mt::square(b)), (std::vector<double>{1, 0}));
  Tensor x = mt::tensor({2.0, -4.0});
  EXPECT_TRUE(mt::square_(x).is_same(x));
  EXPECT_EQ(values(x), (std::vector<double>{4, 16}));
  Tensor out = mt::empty({0});
  mt::square_out(out, mt::tensor({3.0f}));
  EXPECT_EQ(values(out), std::vector<double>{9});
}

}  // namespace
