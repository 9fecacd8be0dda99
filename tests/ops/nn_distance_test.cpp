// cosine_similarity, pairwise_distance and cdist against naive double-precision sums written from PyTorch's
// definitions (norms clamped to eps; x1 - x2 + eps along the last dim; every row against every row),
// broadcasting, integer inputs, zero vectors; gradcheck, vmap against the loop, Meta shapes, the autocast
// policies and PyTorch's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "autograd/Gradcheck.h"
#include "functorch/autocast/AutocastMode.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/cdist.h"
#include "ops/api/cosine_similarity.h"
#include "ops/api/empty.h"
#include "ops/api/pairwise_distance.h"
#include "ops/api/zeros.h"
#include "reference.h"

namespace {

using namespace mt;
using namespace mt::testing;
using Ints = std::vector<int64_t>;

// Row r of a (rows x cols) and of b (or b's only row): sum(a b) / (max(|a|, eps) max(|b|, eps)).
std::vector<double> naive_cosine(const std::vector<double>& a, const std::vector<double>& b, int64_t rows,
                                 int64_t cols, bool b_one_row, double eps) {
  std::vector<double> out;
  for (int64_t r = 0; r < rows; ++r) {
    const double* x = &a[r * cols];
    const double* y = &b[(b_one_row ? 0 : r) * cols];
    double xy = 0, xx = 0, yy = 0;
    for (int64_t c = 0; c < cols; ++c) {
      xy += x[c] * y[c];
      xx += x[c] * x[c];
      yy += y[c] * y[c];
    }
    out.push_back(xy / (std::max(std::sqrt(xx), eps) * std::max(std::sqrt(yy), eps)));
  }
  return out;
}

TEST(NnDistance, CosineSimilarityIsTheProductOfTheNormalizedVectors) {
  const Tensor a = random_tensor({3, 4}, kFloat64, 1), b = random_tensor({3, 4}, kFloat64, 2);
  expect_values_near(mt::cosine_similarity(a, b), naive_cosine(values(a), values(b), 3, 4, false, 1e-8), 1e-12);
  const Tensor row = random_tensor({1, 4}, kFloat64, 3);
  expect_values_near(mt::cosine_similarity(a, row, -1), naive_cosine(values(a), values(row), 3, 4, true, 1e-8),
                     1e-12);
  // Along dim 0: the columns.
  expect_values_near(mt::cosine_similarity(a.t(), b.t(), 0), naive_cosine(values(a), values(b), 3, 4, false, 1e-8),
                     1e-12);
  // A zero vector's norm is clamped to eps: the similarity is 0, not NaN.
  EXPECT_EQ(values(mt::cosine_similarity(mt::zeros({2, 3}), random_tensor({2, 3}, kFloat32, 4))),
            (std::vector<double>{0, 0}));
  // Integers meet the other operand's floating dtype.
  const Tensor ints = mt::tensor({{1L, 2L}, {3L, 0L}});
  const Tensor r = mt::cosine_similarity(ints, mt::tensor({{2.0f, 4.0f}, {0.0f, 1.0f}}));
  EXPECT_EQ(r.dtype(), kFloat32);
  expect_values_near(r, {1, 0}, 1e-6);
  expect_error<RuntimeError>([&] { mt::cosine_similarity(ints, ints); },
                             "expected common dtype to be floating point, yet common dtype is mt.int64");
  expect_error<RuntimeError>([&] { mt::cosine_similarity(a, random_tensor({2, 4}, kFloat64, 5)); },
                             "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0");
}

TEST(NnDistance, PairwiseDistanceIsThePNormOfTheDifferencePlusEps) {
  const Tensor a = random_tensor({3, 4}, kFloat64, 6), b = random_tensor({4}, kFloat64, 7);
  const std::vector<double> x = values(a), y = values(b);
  for (double p : {1.0, 2.0, 3.0}) {
    std::vector<double> expected;
    for (int64_t r = 0; r < 3; ++r) {
      double sum = 0;
      for (int64_t c = 0; c < 4; ++c) sum += std::pow(std::abs(x[r * 4 + c] - y[c] + 1e-6), p);
      expected.push_back(std::pow(sum, 1 / p));
    }
    expect_values_near(mt::pairwise_distance(a, b, p), expected, 1e-12);
  }
  EXPECT_EQ(mt::pairwise_distance(a, b, 2, 1e-6, /*keepdim=*/true).sizes().vec(), (Ints{3, 1}));
  EXPECT_EQ(mt::pairwise_distance(b, b).dim(), 0);
  EXPECT_NEAR(mt::pairwise_distance(b, b).item<double>(), 2e-6, 1e-15);  // eps in each of the 4 elements
}

TEST(NnDistance, GradcheckVmapMetaAndAutocast) {
  using mt::autograd::variable_list;
  const Tensor a = seeded_randn({3, 4}, 1, kFloat64).requires_grad_(), b = seeded_randn({3, 4}, 2, kFloat64).requires_grad_();
  const std::vector<std::function<Tensor(const variable_list&)>> fns{
      [](const variable_list& v) { return mt::cosine_similarity(v[0], v[1]); },
      [](const variable_list& v) { return mt::pairwise_distance(v[0], v[1], 3); },
  };
  for (const auto& f : fns) {
    EXPECT_TRUE(mt::autograd::gradcheck(f, {a, b}));
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {a, b}));
    mt_test::expect_vmap_matches_loop([&](const std::vector<Tensor>& v) { return f({v[0], v[1]}); },
                                      {seeded_randn({2, 3, 4}, 3), seeded_randn({3, 4}, 4)}, {0, std::nullopt});
  }
  const TensorOptions meta = TensorOptions(Device("meta")).dtype(kFloat32);
  EXPECT_EQ(mt::cosine_similarity(mt::empty({5, 3, 2}, meta), mt::empty({3, 1}, meta)).sizes().vec(), (Ints{5, 2}));
  EXPECT_EQ(mt::pairwise_distance(mt::empty({5, 3}, meta), mt::empty({3}, meta)).sizes().vec(), Ints{5});
  EXPECT_EQ(mt::autocast::policy_for(kCUDA, "cosine_similarity"), mt::autocast::CastPolicy::fp32);
  EXPECT_EQ(mt::autocast::policy_for(kCUDA, "pairwise_distance"), std::nullopt);
}

TEST(NnDistance, CdistIsTheDistanceOfEveryRowToEveryRow) {
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor a = random_tensor({2, 3, 4}, kFloat64, 8), b = random_tensor({5, 4}, kFloat64, 9);
  const std::vector<double> x = values(a), y = values(b);
  for (double p : {0.0, 1.0, 2.0, 3.0, inf}) {
    std::vector<double> expected;
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 5; ++j) {
          double acc = 0;
          for (int64_t c = 0; c < 4; ++c) {
            const double d = std::abs(x[(n * 3 + i) * 4 + c] - y[j * 4 + c]);
            acc = p == inf ? std::max(acc, d) : p == 0 ? acc + (d != 0) : acc + std::pow(d, p);
          }
          expected.push_back(p == inf || p == 0 ? acc : std::pow(acc, 1 / p));
        }
    const Tensor r = mt::cdist(a, b, p);
    EXPECT_EQ(r.sizes().vec(), (Ints{2, 3, 5})) << p;
    expect_values_near(r, expected, 1e-12);
  }
  EXPECT_EQ(mt::cdist(a, a).select(0, 1).diagonal().abs().max().item<double>(), 0);
  const TensorOptions meta = TensorOptions(Device("meta")).dtype(kFloat32);
  EXPECT_EQ(mt::cdist(mt::empty({7, 1, 3, 2}, meta), mt::empty({4, 6, 2}, meta)).sizes().vec(), (Ints{7, 4, 3, 6}));
  using mt::autograd::variable_list;
  const auto f = [](const variable_list& v) { return mt::cdist(v[0], v[1], 1.5); };
  const variable_list inputs{seeded_randn({3, 2}, 10, kFloat64).requires_grad_(),
                             seeded_randn({4, 2}, 11, kFloat64).requires_grad_()};
  EXPECT_TRUE(mt::autograd::gradcheck(f, inputs));
  EXPECT_TRUE(mt::autograd::gradgradcheck(f, inputs));
  mt_test::expect_vmap_matches_loop([](const std::vector<Tensor>& v) { return mt::cdist(v[0], v[1]); },
                                    {seeded_randn({3, 2, 4}, 12), seeded_randn({5, 4}, 13)}, {0, std::nullopt});
  EXPECT_EQ(mt::autocast::policy_for(kCPU, "cdist"), mt::autocast::CastPolicy::fp32);
  EXPECT_EQ(mt::autocast::policy_for(kCUDA, "cdist"), mt::autocast::CastPolicy::fp32);
  expect_error<RuntimeError>([&] { mt::cdist(b.select(0, 0), b); }, "cdist only supports at least 2D tensors, X1 got: 1D");
  expect_error<RuntimeError>([&] { mt::cdist(b, random_tensor({2, 3}, kFloat64, 14)); },
                             "X1 and X2 must have the same number of columns. X1: 4 X2: 3");
  expect_error<RuntimeError>([&] { mt::cdist(b, b, -1); }, "cdist only supports non-negative p values");
  expect_error<RuntimeError>([&] { mt::cdist(b.to(kInt64), b); },
                             "cdist only supports floating-point dtypes, X1 got: mt.int64");
  expect_error<RuntimeError>([&] { mt::cdist(b, b, 2, 3); }, "possible modes: 0, 1, 2, but was: 3");
}

}  // namespace
