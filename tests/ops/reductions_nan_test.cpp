// nansum and nanmean with NaN in the slices (their rows in tests/opinfo/reduction_table.cpp sample none),
// count_nonzero and trace: hand-worked values, dtypes, gradients against finite differences, and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "autograd/Gradcheck.h"
#include "ops/Factories.h"
#include "ops/api/count_nonzero.h"
#include "ops/api/nanmean.h"
#include "ops/api/nansum.h"
#include "ops/api/randn.h"
#include "ops/api/trace.h"
#include "reference.h"

namespace {

using mt::Tensor;
using mt::testing::expect_error;
using mt::testing::expect_values_near;
using Ints = std::vector<int64_t>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor with_nan() {
  // [[1, NaN, 3], [NaN, NaN, NaN]]
  return mt::tensor({1.0, kNaN, 3.0, kNaN, kNaN, kNaN}).view({2, 3});
}

TEST(ReductionsNan, NansumCountsNanAsZero) {
  const Tensor x = with_nan();
  expect_values_near(mt::nansum(x), {4}, 0);
  expect_values_near(mt::nansum(x, Ints{1}), {4, 0}, 0);
  expect_values_near(mt::nansum(x, Ints{0}, true), {1, 0, 3}, 0);
  EXPECT_EQ(mt::nansum(x, Ints{0}, true).sizes(), mt::IntArrayRef({1, 3}));
  const Tensor ints = mt::tensor({1, 2, 3}, mt::TensorOptions(mt::kInt32));
  const Tensor s = mt::nansum(ints);
  EXPECT_EQ(s.dtype(), mt::kInt64);
  expect_values_near(s, {6}, 0);
}

TEST(ReductionsNan, NanmeanAveragesTheNumbersAndIsNanWhereThereAreNone) {
  const Tensor x = with_nan();
  expect_values_near(mt::nanmean(x), {2}, 0);
  const Tensor rows = mt::nanmean(x, Ints{1});
  EXPECT_EQ(mt::testing::values(rows)[0], 2);
  EXPECT_TRUE(std::isnan(mt::testing::values(rows)[1]));
  expect_error<mt::RuntimeError>([] { mt::nanmean(mt::tensor({1, 2}, mt::TensorOptions(mt::kInt64))); },
                                 "nanmean(): expected input to have floating point or complex dtype but got");
}

TEST(ReductionsNan, NansumAndNanmeanGradientsSkipTheNan) {
  const Tensor x = with_nan().requires_grad_(true);
  mt::nansum(x).backward();
  expect_values_near(x.grad(), {1, 0, 1, 0, 0, 0}, 0);
  const Tensor y = with_nan().requires_grad_(true);
  mt::nanmean(y).backward();
  expect_values_near(y.grad(), {0.5, 0, 0.5, 0, 0, 0}, 0);
  const Tensor z = mt::randn({3, 4}, mt::TensorOptions(mt::kFloat64)).requires_grad_(true);
  EXPECT_TRUE(mt::autograd::gradcheck([](const std::vector<Tensor>& v) { return mt::nanmean(v[0], Ints{1}); }, {z}));
}

TEST(ReductionsNan, CountNonzeroCountsInInt64ForEveryDtype) {
  const Tensor x = mt::tensor({0.0, 1.5, 0.0, -2.0, kNaN, 0.0}).view({2, 3});
  const Tensor all = mt::count_nonzero(x);
  EXPECT_EQ(all.dtype(), mt::kInt64);
  expect_values_near(all, {3}, 0);
  expect_values_near(mt::count_nonzero(x, std::optional<int64_t>(0)), {1, 2, 0}, 0);
  expect_values_near(mt::count_nonzero(x, Ints{-1}), {1, 2}, 0);
  expect_values_near(mt::count_nonzero(x, Ints{0, 1}), {3}, 0);
  expect_values_near(mt::count_nonzero(mt::tensor({true, false, true})), {2}, 0);
  expect_error<mt::IndexError>([&] { mt::count_nonzero(x, std::optional<int64_t>(2)); }, "Dimension out of range");
}

TEST(ReductionsNan, TraceSumsTheMainDiagonal) {
  const Tensor m = mt::tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}).view({2, 3});
  expect_values_near(mt::trace(m), {6}, 0);
  const Tensor ints = mt::tensor({1, 2, 3, 4}, mt::TensorOptions(mt::kInt32)).view({2, 2});
  EXPECT_EQ(mt::trace(ints).dtype(), mt::kInt64);
  expect_values_near(mt::trace(ints), {5}, 0);
  const Tensor w = mt::randn({3, 3}, mt::TensorOptions(mt::kFloat64)).requires_grad_(true);
  mt::trace(w).backward();
  expect_values_near(w.grad(), {1, 0, 0, 0, 1, 0, 0, 0, 1}, 0);
  expect_error<mt::RuntimeError>([] { mt::trace(mt::randn({2, 2, 2})); },
                                 "trace: expected a matrix, but got tensor with dim 3");
  expect_error<mt::NotImplementedError>([] { mt::trace(mt::tensor({true, false, false, true}).view({2, 2})); },
                                        "\"trace\" not implemented for");
}

}  // namespace
