// mt::nn::init (bounds, means and spreads of large draws against the formulas of torch.nn.init, the
// fans of linear and conv-shaped weights, the gains, orthogonality, seeding, no autograd record) and
// mt::nn::utils's gradient clipping (hand-worked norms of order 2, 1 and inf, scaling only above the
// maximum, non-finite norms, value clipping), and their errors.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/mm.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;
namespace init = mt::nn::init;

struct Stats {
  double min, max, mean, std;
};
Stats stats(const Tensor& t) {
  const std::vector<double> v = values(t);
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  double sq = 0;
  for (double x : v) sq += (x - mean) * (x - mean);
  return {*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()), mean,
          std::sqrt(sq / static_cast<double>(v.size()))};
}

TEST(NNInit, GainsAreTorchs) {
  EXPECT_EQ(init::calculate_gain("linear"), 1);
  EXPECT_EQ(init::calculate_gain("conv2d"), 1);
  EXPECT_EQ(init::calculate_gain("sigmoid"), 1);
  EXPECT_DOUBLE_EQ(init::calculate_gain("tanh"), 5.0 / 3);
  EXPECT_DOUBLE_EQ(init::calculate_gain("relu"), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(init::calculate_gain("leaky_relu"), std::sqrt(2.0 / (1 + 0.01 * 0.01)));
  EXPECT_DOUBLE_EQ(init::calculate_gain("leaky_relu", 0.2), std::sqrt(2.0 / 1.04));
  EXPECT_EQ(init::calculate_gain("selu"), 0.75);
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { init::calculate_gain("swish"); }), "Unsupported nonlinearity swish"));
}

// 250,000 draws: the mean and spread are within 1% of the distribution's.
TEST(NNInit, DrawsFollowTheirDistributions) {
  mt::Generator g(1);
  const Tensor w = mt::empty({500, 500});
  Stats s = stats(init::uniform_(w, -2, 3, &g));
  EXPECT_GE(s.min, -2);
  EXPECT_LT(s.max, 3);
  EXPECT_NEAR(s.mean, 0.5, 0.02);
  EXPECT_NEAR(s.std, 5 / std::sqrt(12.0), 0.01);
  s = stats(init::normal_(w, 1, 0.5, &g));
  EXPECT_NEAR(s.mean, 1, 0.005);
  EXPECT_NEAR(s.std, 0.5, 0.005);
  // Xavier on [500, 500]: fans 500 and 500.
  s = stats(init::xavier_uniform_(w, 2, &g));
  const double a = 2 * std::sqrt(6.0 / 1000);
  EXPECT_GE(s.min, -a);
  EXPECT_LE(s.max, a);
  EXPECT_GT(s.max, 0.99 * a);
  EXPECT_NEAR(s.std, a / std::sqrt(3.0), 0.01 * a);
  EXPECT_NEAR(stats(init::xavier_normal_(w, 1, &g)).std, std::sqrt(2.0 / 1000), 0.01 * std::sqrt(2.0 / 1000));
  // Kaiming on a conv weight [50, 20, 5, 5]: fan_in 500, fan_out 1250.
  const Tensor conv = mt::empty({50, 20, 5, 5});
  s = stats(init::kaiming_uniform_(conv, 0, "fan_in", "relu", &g));
  const double bound = std::sqrt(3.0) * std::sqrt(2.0) / std::sqrt(500.0);
  EXPECT_GE(s.min, -bound);
  EXPECT_LE(s.max, bound);
  EXPECT_GT(s.max, 0.99 * bound);
  s = stats(init::kaiming_normal_(conv, 0, "fan_out", "relu", &g));
  EXPECT_NEAR(s.std, std::sqrt(2.0) / std::sqrt(1250.0), 0.02 * std::sqrt(2.0) / std::sqrt(1250.0));
  // The default (leaky_relu with a = 0) is relu's gain.
  EXPECT_NEAR(stats(init::kaiming_normal_(conv, 0, "fan_in", "leaky_relu", &g)).std, std::sqrt(2.0 / 500), 0.02 * std::sqrt(2.0 / 500));
}

TEST(NNInit, ConstantsSeedsAndNoAutogradRecord) {
  const Tensor w = mt::empty({3, 4}).requires_grad_();
  EXPECT_EQ(values(init::constant_(w, 0.25)), std::vector<double>(12, 0.25));
  EXPECT_EQ(values(init::zeros_(w)), std::vector<double>(12, 0));
  EXPECT_EQ(values(init::ones_(w)), std::vector<double>(12, 1));
  EXPECT_FALSE(w.grad_fn()) << "a leaf stays a leaf";
  mt::Generator a(9), b(9);
  EXPECT_EQ(values(init::xavier_uniform_(mt::empty({3, 4}), 1, &a)), values(init::xavier_uniform_(w, 1, &b)));
  EXPECT_TRUE(w.requires_grad());
  EXPECT_FALSE(w.grad_fn());
  // float64 and float32 parameters alike.
  EXPECT_EQ(init::normal_(mt::empty({2}, mt::kFloat64), 0, 1, &a).dtype(), mt::kFloat64);
}

TEST(NNInit, OrthogonalGivesOrthonormalRowsOrColumnsTimesTheGain) {
  mt::Generator g(4);
  for (const auto& shape : {std::vector<int64_t>{6, 3}, std::vector<int64_t>{3, 6}, std::vector<int64_t>{4, 2, 2}}) {
    const Tensor w = init::orthogonal_(mt::empty(shape, mt::kFloat64), 2, &g);
    const Tensor m = w.reshape({shape[0], -1});
    // The smaller side is orthonormal: Q^T Q (tall) or Q Q^T (wide) is 4 I (gain 2).
    const bool tall = m.size(0) >= m.size(1);
    const Tensor gram = tall ? mt::mm(m.t(), m) : mt::mm(m, m.t());
    const int64_t n = gram.size(0);
    const std::vector<double> v = values(gram);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) EXPECT_NEAR(v[i * n + j], i == j ? 4 : 0, 1e-12) << i << "," << j;
  }
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { init::orthogonal_(mt::empty({3})); }),
                       "Only tensors with 2 or more dimensions are supported"));
}

TEST(NNInit, Errors) {
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { init::xavier_uniform_(mt::empty({5})); }),
                       "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { init::kaiming_uniform_(mt::empty({2, 2}), 0, "fan_avg"); }),
                       "Mode fan_avg not supported, please use one of fan_in, fan_out"));
  EXPECT_THROW(init::kaiming_normal_(mt::empty({2, 2}), 0, "fan_in", "swish"), mt::ValueError);
}

// Parameters with gradients [3, 4] and [-12] (norms 5 and 12; together sqrt(25 + 144) = 13) and one without.
std::vector<Tensor> params_with_grads() {
  std::vector<Tensor> ps = {mt::zeros({2}).requires_grad_(), mt::zeros({1}).requires_grad_(),
                            mt::zeros({1}).requires_grad_()};
  ps[0].mutable_grad() = mt::tensor(std::vector<double>{3, 4}).to(mt::kFloat32);
  ps[1].mutable_grad() = mt::tensor(std::vector<double>{-12}).to(mt::kFloat32);
  return ps;
}

TEST(NNClipGrad, NormClippingScalesOnlyAboveTheMaximum) {
  std::vector<Tensor> ps = params_with_grads();
  const double total = 13;
  EXPECT_NEAR(mt::nn::utils::clip_grad_norm_(ps, 100), total, 1e-5);
  EXPECT_EQ(values(ps[0].grad()), (std::vector<double>{3, 4})) << "below the maximum: unchanged";
  EXPECT_NEAR(mt::nn::utils::clip_grad_norm_(ps, 1), total, 1e-5);
  const double c = 1 / (total + 1e-6);
  EXPECT_NEAR(values(ps[0].grad())[0], 3 * c, 1e-6);
  EXPECT_NEAR(values(ps[1].grad())[0], -12 * c, 1e-6);
  EXPECT_FALSE(ps[2].grad().defined());
  // Order 1 (|3| + |4| + |-12| = 19) and inf (12).
  ps = params_with_grads();
  EXPECT_NEAR(mt::nn::utils::clip_grad_norm_(ps, 38, 1), 19, 1e-5);
  EXPECT_NEAR(mt::nn::utils::clip_grad_norm_(ps, 6, std::numeric_limits<double>::infinity()), 12, 1e-5);
  EXPECT_NEAR(values(ps[1].grad())[0], -12 * 6 / (12 + 1e-6), 1e-5);
  EXPECT_EQ(mt::nn::utils::clip_grad_norm_({mt::zeros({2})}, 1), 0) << "no gradients: norm 0";
}

TEST(NNClipGrad, NonFiniteNormsAreAnErrorOnlyWhenAskedFor) {
  std::vector<Tensor> ps = params_with_grads();
  ps[0].mutable_grad() = mt::tensor(std::vector<double>{std::numeric_limits<double>::infinity(), 0}).to(mt::kFloat32);
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { mt::nn::utils::clip_grad_norm_(ps, 1, 2, true); }),
                       "The total norm of order 2 for gradients from `parameters` is non-finite, so it cannot be clipped."));
  EXPECT_TRUE(std::isinf(values(ps[0].grad())[0])) << "nothing scaled on the error";
  EXPECT_TRUE(std::isinf(mt::nn::utils::clip_grad_norm_(ps, 1)));
}

TEST(NNClipGrad, ValueClippingClampsEveryElement) {
  std::vector<Tensor> ps = params_with_grads();
  mt::nn::utils::clip_grad_value_(ps, 3.5);
  EXPECT_EQ(values(ps[0].grad()), (std::vector<double>{3, 3.5}));
  EXPECT_EQ(values(ps[1].grad()), (std::vector<double>{-3.5}));
}

}  // namespace
