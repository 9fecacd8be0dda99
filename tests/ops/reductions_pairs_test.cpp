// Reductions giving two results: var_mean and std_mean against a naive double-precision variance and mean
// (every correction, dims, keepdim), aminmax on hand-worked values (dims, keepdim, integers, bool) and
// PyTorch's errors on empty inputs; gradcheck, vmap against the loop and Meta shapes for each.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <tuple>
#include <vector>

#include "autograd/Gradcheck.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/aminmax.h"
#include "ops/api/empty.h"
#include "ops/api/std_mean.h"
#include "ops/api/var_mean.h"
#include "reference.h"

namespace {

using namespace mt;
using namespace mt::testing;
using Ints = std::vector<int64_t>;

// The variance of each row of a rows x cols matrix, with `correction`, and its mean.
std::pair<std::vector<double>, std::vector<double>> row_var_mean(const std::vector<double>& x, int64_t rows,
                                                                 int64_t cols, double correction) {
  std::vector<double> var, mean;
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += x[r * cols + c];
    const double m = sum / static_cast<double>(cols);
    double squares = 0;
    for (int64_t c = 0; c < cols; ++c) squares += (x[r * cols + c] - m) * (x[r * cols + c] - m);
    var.push_back(squares / (static_cast<double>(cols) - correction));
    mean.push_back(m);
  }
  return {var, mean};
}

TEST(ReductionPairs, VarMeanAndStdMeanAreTheVarianceAndTheMean) {
  const Tensor x = random_tensor({3, 5}, kFloat64, 1);
  const std::vector<double> v = values(x);
  for (double correction : {1.0, 0.0, 2.0}) {
    const auto [var, mean] = row_var_mean(v, 3, 5, correction);
    const auto [got_var, got_mean] = mt::var_mean(x, Ints{1}, correction);
    expect_values_near(got_var, var, 1e-12);
    expect_values_near(got_mean, mean, 1e-12);
    const auto [got_std, got_mean2] = mt::std_mean(x, Ints{-1}, correction, /*keepdim=*/true);
    EXPECT_EQ(got_std.sizes().vec(), (Ints{3, 1}));
    std::vector<double> std_dev;
    for (double s : var) std_dev.push_back(std::sqrt(s));
    expect_values_near(got_std, std_dev, 1e-12);
    expect_values_near(got_mean2, mean, 1e-12);
  }
  // Over every element, with the default (Bessel's) correction.
  const auto [all_var, all_mean] = mt::var_mean(x);
  const auto [var, mean] = row_var_mean(v, 1, 15, 1);
  EXPECT_EQ(all_var.dim(), 0);
  EXPECT_NEAR(all_var.item<double>(), var[0], 1e-12);
  EXPECT_NEAR(all_mean.item<double>(), mean[0], 1e-12);
  expect_error<RuntimeError>([&] { mt::var_mean(x.to(kInt64)); }, "std and var only support floating point and complex dtypes");
}

TEST(ReductionPairs, AminmaxGivesTheSmallestAndTheLargest) {
  const Tensor x = mt::tensor({{3.0, -1.0, 2.0}, {0.5, 7.0, -4.0}});
  const auto [lo, hi] = mt::aminmax(x);
  EXPECT_EQ(lo.item<double>(), -4);
  EXPECT_EQ(hi.item<double>(), 7);
  const auto [row_lo, row_hi] = mt::aminmax(x, 1);
  EXPECT_EQ(values(row_lo), (std::vector<double>{-1, -4}));
  EXPECT_EQ(values(row_hi), (std::vector<double>{3, 7}));
  const auto [col_lo, col_hi] = mt::aminmax(x, -2, /*keepdim=*/true);
  EXPECT_EQ(col_lo.sizes().vec(), (Ints{1, 3}));
  EXPECT_EQ(values(col_hi), (std::vector<double>{3, 7, 2}));
  const auto [all_lo, all_hi] = mt::aminmax(x, std::nullopt, /*keepdim=*/true);
  EXPECT_EQ(all_lo.sizes().vec(), (Ints{1, 1}));
  const auto [int_lo, int_hi] = mt::aminmax(mt::tensor({5L, -3L, 9L}).to(kInt16));
  EXPECT_EQ(int_lo.dtype(), kInt16);
  EXPECT_EQ(int_lo.item<int64_t>(), -3);
  EXPECT_EQ(int_hi.item<int64_t>(), 9);
  const auto [bool_lo, bool_hi] = mt::aminmax(mt::tensor({true, false}));
  EXPECT_FALSE(bool_lo.item<bool>());
  EXPECT_TRUE(bool_hi.item<bool>());
  const auto [method_lo, method_hi] = x.aminmax(1);
  EXPECT_EQ(values(method_lo), values(row_lo));
  const auto [scalar_lo, scalar_hi] = mt::aminmax(mt::tensor(2.5), 0);
  EXPECT_EQ(scalar_lo.item<double>(), 2.5);
  expect_error<RuntimeError>([&] { mt::aminmax(mt::empty({0, 3})); },
                             "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                             "identity.");
  expect_error<RuntimeError>([&] { mt::aminmax(mt::empty({2, 0}), 1); },
                             "aminmax(): Expected reduction dim 1 to have non-zero size.");
  const auto [empty_lo, empty_hi] = mt::aminmax(mt::empty({0, 3}), 1);  // reduces a non-empty dim
  EXPECT_EQ(empty_lo.sizes().vec(), Ints{0});
  expect_error<IndexError>([&] { mt::aminmax(x, 2); }, "Dimension out of range");
}

TEST(ReductionPairs, GradcheckVmapAndMeta) {
  using mt::autograd::variable_list;
  const Tensor x = seeded_randn({3, 4}, 1, kFloat64).requires_grad_();
  const auto first = [](auto pair) { return std::get<0>(pair); };
  const auto second = [](auto pair) { return std::get<1>(pair); };
  const std::vector<std::function<Tensor(const variable_list&)>> fns{
      [&](const variable_list& v) { return first(mt::var_mean(v[0], Ints{1}, 0)); },
      [&](const variable_list& v) { return second(mt::var_mean(v[0], Ints{0}, 1, true)); },
      [&](const variable_list& v) { return first(mt::std_mean(v[0], Ints{1})); },
      [&](const variable_list& v) { return first(mt::aminmax(v[0], 1)); },
      [&](const variable_list& v) { return second(mt::aminmax(v[0])); },
  };
  for (const auto& f : fns) {
    EXPECT_TRUE(mt::autograd::gradcheck(f, {x}));
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x}));
    mt_test::expect_vmap_matches_loop([&](const std::vector<Tensor>& v) { return f({v[0]}); },
                                      {seeded_randn({2, 3, 4}, 2)}, {0});
  }
  const Tensor meta = mt::empty({3, 4}, TensorOptions(Device("meta")).dtype(kFloat32));
  EXPECT_EQ(std::get<1>(mt::var_mean(meta, Ints{0})).sizes().vec(), Ints{4});
  EXPECT_EQ(std::get<0>(mt::aminmax(meta, 1, true)).sizes().vec(), (Ints{3, 1}));
  EXPECT_TRUE(std::get<1>(mt::std_mean(meta)).is_meta());
}

}  // namespace
