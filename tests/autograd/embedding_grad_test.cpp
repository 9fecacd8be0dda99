// embedding's gradient options: padding_idx rows receive no gradient and scale_grad_by_freq divides each
// lookup's gradient by its index's count, while the forward value stays the plain lookup. Expected
// gradients are summed by hand from the upstream gradient.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/arange.h"
#include "ops/api/embedding.h"

namespace {

using mt::Tensor;
using mt_test::values;

const std::vector<int64_t> kIndices{0, 2, 0, 1, 2, 2};

// Upstream gradient: row i of the output (lookup i) gets (i + 1) * [1, 10, 100].
Tensor upstream() {
  std::vector<double> g;
  for (int64_t i = 0; i < 6; ++i)
    for (double scale : {1.0, 10.0, 100.0}) g.push_back(static_cast<double>(i + 1) * scale);
  return mt::tensor(g, mt::kFloat64).view({2, 3, 3});
}

// Sum over lookups of weight row r of (i + 1) * factor(r), per embedding column.
std::vector<double> expected_grad(const std::vector<double>& factor) {
  std::vector<double> grad(4 * 3, 0.0);
  for (size_t i = 0; i < kIndices.size(); ++i)
    for (int c = 0; c < 3; ++c) grad[kIndices[i] * 3 + c] += static_cast<double>(i + 1) * factor[kIndices[i]] * (c == 0 ? 1 : c == 1 ? 10 : 100);
  return grad;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-12) << i;
}

Tensor weight() { return mt::arange(12, mt::kFloat64).view({4, 3}).requires_grad_(); }
Tensor indices() { return mt::tensor(kIndices).view({2, 3}); }

TEST(EmbeddingGrad, PlainLookupSumsGradientsPerRow) {
  const Tensor w = weight();
  const Tensor out = mt::embedding(w, indices());
  out.backward(upstream());
  EXPECT_EQ(values(w.grad()), expected_grad({1, 1, 1, 1}));
}

TEST(EmbeddingGrad, PaddingRowGetsNoGradientButKeepsItsValue) {
  const Tensor w = weight();
  const Tensor out = mt::embedding(w, indices(), /*padding_idx=*/2);
  EXPECT_EQ(values(out), values(mt::embedding(w.detach(), indices())));
  out.backward(upstream());
  EXPECT_EQ(values(w.grad()), expected_grad({1, 1, 0, 1}));
}

TEST(EmbeddingGrad, ScaleGradByFrequencyDividesByIndexCount) {
  const Tensor w = weight();
  const Tensor out = mt::embedding(w, indices(), /*padding_idx=*/0, /*scale_grad_by_freq=*/true);
  EXPECT_EQ(values(out), values(mt::embedding(w.detach(), indices())));
  out.backward(upstream());
  // Counts: index 0 twice (padding), 1 once, 2 three times, 3 never.
  expect_near(values(w.grad()), expected_grad({0, 1, 1.0 / 3.0, 1}));
}

// int32 indices, which PyTorch takes too, give the same values and gradients with every option.
TEST(EmbeddingGrad, Int32IndicesGiveTheSameGradients) {
  const Tensor w = weight();
  const Tensor int32 = indices().to(mt::kInt32);
  const Tensor out = mt::embedding(w, int32, /*padding_idx=*/0, /*scale_grad_by_freq=*/true);
  EXPECT_EQ(values(out), values(mt::embedding(w.detach(), indices())));
  out.backward(upstream());
  expect_near(values(w.grad()), expected_grad({0, 1, 1.0 / 3.0, 1}));
  const Tensor plain = weight();
  mt::embedding(plain, int32).backward(upstream());
  EXPECT_EQ(values(plain.grad()), expected_grad({1, 1, 1, 1}));
}

TEST(EmbeddingGrad, SparseGradientsAreRefused) {
  EXPECT_THROW(mt::embedding(weight(), indices(), -1, false, /*sparse=*/true), mt::Error);
}

}  // namespace
