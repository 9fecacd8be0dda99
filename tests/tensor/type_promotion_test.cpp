// result_type: PyTorch's rules for tensors with dims, 0-dim tensors and wrapped numbers. Every
// expected dtype was checked with torch.result_type in PyTorch 1.13.
#include <gtest/gtest.h>

#include <microtorch/framework.h>

#include "ops/api/zeros.h"

namespace {

mt::Tensor vec(mt::ScalarType t) { return mt::zeros({2}, t); }
mt::Tensor zero_dim(mt::ScalarType t) { return mt::zeros({}, t); }
// A tensor made from a C++ number, as an op's Scalar argument becomes.
mt::Tensor wrapped(mt::ScalarType t) {
  mt::Tensor w = mt::zeros({}, t);
  w.unsafeGetTensorImpl()->set_wrapped_number(true);
  return w;
}

struct DefaultDtypeGuard {
  explicit DefaultDtypeGuard(mt::ScalarType t) { mt::set_default_dtype(t); }
  ~DefaultDtypeGuard() { mt::set_default_dtype(mt::kFloat32); }
};

TEST(TypePromotion, TensorsOfTheSameGroupPromoteNormally) {
  EXPECT_EQ(mt::result_type(vec(mt::kInt64), vec(mt::kFloat16)), mt::kFloat16);
  EXPECT_EQ(mt::result_type(vec(mt::kBFloat16), vec(mt::kFloat16)), mt::kFloat32);
  EXPECT_EQ(mt::result_type(vec(mt::kFloat32), vec(mt::kFloat64)), mt::kFloat64);
  EXPECT_EQ(mt::result_type(zero_dim(mt::kFloat32), zero_dim(mt::kFloat64)), mt::kFloat64);
  EXPECT_EQ(mt::result_type(zero_dim(mt::kInt64), zero_dim(mt::kFloat16)), mt::kFloat16);
}

TEST(TypePromotion, ZeroDimTensorsOnlyMatterInAHigherCategory) {
  EXPECT_EQ(mt::result_type(vec(mt::kFloat16), zero_dim(mt::kFloat64)), mt::kFloat16);
  EXPECT_EQ(mt::result_type(vec(mt::kBFloat16), zero_dim(mt::kFloat16)), mt::kBFloat16);
  EXPECT_EQ(mt::result_type(vec(mt::kInt64), zero_dim(mt::kFloat64)), mt::kFloat64);
  EXPECT_EQ(mt::result_type(zero_dim(mt::kFloat64), vec(mt::kInt64)), mt::kFloat64);
  EXPECT_EQ(mt::result_type(vec(mt::kInt64), zero_dim(mt::kFloat16)), mt::kFloat16);
  EXPECT_EQ(mt::result_type(vec(mt::kBool), zero_dim(mt::kInt64)), mt::kInt64);
  EXPECT_EQ(mt::result_type(vec(mt::kBool), zero_dim(mt::kFloat64)), mt::kFloat64);
  EXPECT_EQ(mt::result_type(vec(mt::kBool), zero_dim(mt::kBool)), mt::kBool);
}

TEST(TypePromotion, ScalarsCountAsTheirCategorysDefault) {
  EXPECT_EQ(mt::result_type(vec(mt::kInt64), 2.5), mt::kFloat32);
  EXPECT_EQ(mt::result_type(vec(mt::kFloat16), 2.5), mt::kFloat16);
  EXPECT_EQ(mt::result_type(vec(mt::kFloat64), 2), mt::kFloat64);
  EXPECT_EQ(mt::result_type(vec(mt::kBool), 5), mt::kInt64);
  EXPECT_EQ(mt::result_type(vec(mt::kBool), true), mt::kBool);
  EXPECT_EQ(mt::result_type(vec(mt::kInt64), true), mt::kInt64);
  EXPECT_EQ(mt::result_type(zero_dim(mt::kInt64), 2.5), mt::kFloat32);
  EXPECT_EQ(mt::result_type(zero_dim(mt::kBool), 2), mt::kInt64);
  EXPECT_EQ(mt::result_type(zero_dim(mt::kBool), 2.5), mt::kFloat32);
  EXPECT_EQ(mt::result_type(2.5, vec(mt::kInt64)), mt::kFloat32);
  EXPECT_EQ(mt::result_type(2.5f, vec(mt::kInt64)), mt::kFloat32);
}

TEST(TypePromotion, TwoScalars) {
  EXPECT_EQ(mt::result_type(mt::Scalar(2), mt::Scalar(3.5)), mt::kFloat32);
  EXPECT_EQ(mt::result_type(mt::Scalar(true), mt::Scalar(2)), mt::kInt64);
  EXPECT_EQ(mt::result_type(mt::Scalar(true), mt::Scalar(false)), mt::kBool);
  EXPECT_EQ(mt::result_type(mt::Scalar(2), mt::Scalar(3)), mt::kInt64);
  EXPECT_EQ(mt::result_type(mt::Scalar(1.5), mt::Scalar(2.5)), mt::kFloat32);
}

TEST(TypePromotion, WrappedNumberTensorsActLikeScalars) {
  // A float64 wrapped number is a Python float: it counts as the default dtype.
  EXPECT_EQ(mt::result_type(vec(mt::kInt64), wrapped(mt::kFloat64)), mt::kFloat32);
  EXPECT_EQ(mt::result_type(vec(mt::kFloat16), wrapped(mt::kFloat64)), mt::kFloat16);
  EXPECT_EQ(mt::result_type(vec(mt::kBool), wrapped(mt::kInt64)), mt::kInt64);
  // ... and ranks below 0-dim tensors.
  EXPECT_EQ(mt::result_type(zero_dim(mt::kInt64), wrapped(mt::kFloat64)), mt::kFloat32);
  EXPECT_EQ(mt::result_type(zero_dim(mt::kFloat16), wrapped(mt::kFloat64)), mt::kFloat16);
  EXPECT_EQ(mt::result_type(zero_dim(mt::kFloat64), wrapped(mt::kFloat64)), mt::kFloat64);
}

TEST(TypePromotion, FloatScalarsFollowTheDefaultDtype) {
  DefaultDtypeGuard guard(mt::kFloat64);
  EXPECT_EQ(mt::result_type(vec(mt::kInt64), 2.5), mt::kFloat64);
  EXPECT_EQ(mt::result_type(vec(mt::kInt64), wrapped(mt::kFloat32)), mt::kFloat64);
  EXPECT_EQ(mt::result_type(vec(mt::kFloat32), 2.5), mt::kFloat32);
}

TEST(TypePromotion, StateAccumulatesManyArguments) {
  mt::ResultTypeState state;
  EXPECT_EQ(state.dim_result, mt::ScalarType::Undefined);
  state = mt::update_result_type_state(vec(mt::kBool), state);
  state = mt::update_result_type_state(zero_dim(mt::kInt64), state);
  state = mt::update_result_type_state(mt::Scalar(1.5), state);
  EXPECT_EQ(state.dim_result, mt::kBool);
  EXPECT_EQ(state.zero_result, mt::kInt64);
  EXPECT_EQ(state.wrapped_result, mt::kFloat32);
  EXPECT_EQ(mt::result_type(state), mt::kFloat32);
  state = mt::update_result_type_state(vec(mt::kFloat16), state);
  EXPECT_EQ(mt::result_type(state), mt::kFloat16);
  // An undefined tensor (an absent optional argument) changes nothing.
  EXPECT_EQ(mt::result_type(mt::update_result_type_state(mt::Tensor(), state)), mt::kFloat16);
}

}  // namespace
