// Integer and bool tensors never get a grad_fn (PyTorch's isDifferentiableType): a conversion or copy into
// such a dtype records nothing and its result does not require grad; any other op that would record a
// node for one is refused with PyTorch's message (sum(dtype=int64) of a tensor that requires grad).
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "autograd/Node.h"
#include "autograd_test_helpers.h"
#include "ops/api/copy.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::message_of;
using mt_test::values;

Tensor leaf() { return mt::tensor({1.5, -2.5}, mt::kFloat64).requires_grad_(); }

TEST(NonDifferentiableOutputs, ConversionsToIntegerOrBoolDoNotRequireGrad) {
  const Tensor x = leaf();
  const Tensor ints = mt::ones({1}, mt::kInt64);
  for (const Tensor& y : {x.to(mt::kInt64), x.type_as(ints), x.to(ints), x.to(mt::kBool)}) {
    EXPECT_FALSE(y.requires_grad()) << y.dtype();
    EXPECT_EQ(y.grad_fn(), nullptr) << y.dtype();
  }
  EXPECT_EQ(values(x.to(mt::kInt64)), (std::vector<double>{1, -2}));
  const Tensor f = x.to(mt::kFloat32);
  ASSERT_TRUE(f.requires_grad()) << "a floating conversion stays differentiable";
  EXPECT_EQ(f.grad_fn()->name(), "ToCopyBackward0");
}

TEST(NonDifferentiableOutputs, CopyIntoAnIntegerTensorRecordsNothing) {
  const Tensor x = leaf();
  Tensor i = mt::zeros({2}, mt::kInt64);
  i.copy_(x);
  EXPECT_FALSE(i.requires_grad());
  EXPECT_EQ(i.grad_fn(), nullptr);
  EXPECT_EQ(values(i), (std::vector<double>{1, -2}));
  const Tensor c = mt::copy(mt::zeros({2}, mt::kInt64), x);
  EXPECT_FALSE(c.requires_grad());
  EXPECT_EQ(values(c), (std::vector<double>{1, -2}));
  Tensor f = mt::zeros({2}, mt::kFloat64);
  f.copy_(x);
  ASSERT_TRUE(f.requires_grad()) << "a copy into a floating tensor keeps its history";
  EXPECT_EQ(values(mt::autograd::grad({f.sum()}, {x})[0]), (std::vector<double>{1, 1}));
}

TEST(NonDifferentiableOutputs, AnOpThatWouldRecordAnIntegerResultIsRefused) {
  const Tensor x = leaf();
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { x.sum(mt::kInt64); }), "Autograd not support dtype: mt.int64");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { x.sum(std::vector<int64_t>{0}, false, mt::kInt64); }),
            "Autograd not support dtype: mt.int64");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { x.prod(mt::kInt64); }), "Autograd not support dtype: mt.int64");
  // Without grad mode nothing is recorded, and the reduction runs on x.to(int64).
  mt::NoGradGuard no_grad;
  EXPECT_EQ(x.sum(mt::kInt64).item<int64_t>(), -1);
}

}  // namespace
