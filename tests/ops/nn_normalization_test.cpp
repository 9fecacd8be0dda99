// batch_norm against a naive double-precision normalisation per channel (2-, 3- and 4-D inputs, float32,
// float64 and bfloat16), the running statistics' update (momentum, unbiased variance, no autograd),
// evaluation with the running statistics, first and second derivatives in input, weight and bias, vmap
// against the loop, Meta, the errors; nn::BatchNorm1d/2d: buffers, training and evaluation, printing.
// group_norm and nn::GroupNorm likewise, per sample and group of channels.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "autograd/Gradcheck.h"
#include "functorch/Vmap.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/batch_norm.h"
#include "ops/api/empty.h"
#include "ops/api/group_norm.h"
#include "ops/api/ones.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"
#include "reference.h"

namespace {

using mt::Tensor;
using mt::testing::expect_error;
using mt::testing::values;
using Ints = std::vector<int64_t>;

Tensor randn(Ints sizes, uint64_t seed, mt::ScalarType dtype = mt::kFloat32) {
  mt::Generator g(seed);
  return mt::randn(sizes, &g, mt::TensorOptions(mt::kFloat64)).to(dtype);
}

struct Stats {
  std::vector<double> mean, var;  // per channel, the variance biased
  int64_t count;
};

Stats channel_stats(const Tensor& x) {
  const int64_t n = x.size(0), c = x.size(1), inner = x.numel() / (n * c);
  const std::vector<double> v = values(x);
  Stats s{std::vector<double>(c, 0.0), std::vector<double>(c, 0.0), n * inner};
  for (int64_t ch = 0; ch < c; ++ch) {
    for (int64_t b = 0; b < n; ++b)
      for (int64_t i = 0; i < inner; ++i) s.mean[ch] += v[(b * c + ch) * inner + i];
    s.mean[ch] /= static_cast<double>(s.count);
    for (int64_t b = 0; b < n; ++b)
      for (int64_t i = 0; i < inner; ++i) s.var[ch] += std::pow(v[(b * c + ch) * inner + i] - s.mean[ch], 2);
    s.var[ch] /= static_cast<double>(s.count);
  }
  return s;
}

// (x - mean) / sqrt(var + eps) * w + b per channel.
std::vector<double> normalised(const Tensor& x, const std::vector<double>& mean, const std::vector<double>& var,
                               const std::vector<double>& w, const std::vector<double>& b, double eps) {
  const int64_t n = x.size(0), c = x.size(1), inner = x.numel() / (n * c);
  const std::vector<double> v = values(x);
  std::vector<double> out(v.size());
  for (int64_t bi = 0; bi < n; ++bi)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t k = (bi * c + ch) * inner + i;
        out[k] = (v[k] - mean[ch]) / std::sqrt(var[ch] + eps) * w[ch] + b[ch];
      }
  return out;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << i;
}

TEST(BatchNorm, TrainingNormalisesEachChannelWithTheBatchsStatistics) {
  uint64_t seed = 1;
  for (const Ints& shape : {Ints{8, 3}, Ints{4, 3, 5}, Ints{2, 3, 4, 5}})
    for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kBFloat16}) {
      const Tensor x = randn(shape, seed++, dtype) * 2 + 1, w = randn({3}, seed++), b = randn({3}, seed++);
      const Tensor y = mt::batch_norm(x, w, b, std::nullopt, std::nullopt, true, 0.1, 1e-5, false);
      EXPECT_EQ(y.dtype(), dtype);
      const Stats s = channel_stats(x);
      const double tol = dtype == mt::kFloat64 ? 1e-10 : dtype == mt::kFloat32 ? 1e-5 : 2e-2;
      expect_near(values(y), normalised(x, s.mean, s.var, values(w), values(b), 1e-5), tol);
    }
}

TEST(BatchNorm, RunningStatisticsMoveByMomentumWithTheUnbiasedVariance) {
  const Tensor x = randn({4, 3, 2, 2}, 10);
  Tensor mean = randn({3}, 11), var = randn({3}, 12).abs() + 0.5;
  const std::vector<double> mean0 = values(mean), var0 = values(var);
  const Tensor w = randn({3}, 13).requires_grad_();
  const Tensor y = mt::batch_norm(x, w, std::nullopt, mean, var, true, 0.25, 1e-5, false);
  const Stats s = channel_stats(x);
  std::vector<double> want_mean, want_var;
  for (int ch = 0; ch < 3; ++ch) {
    want_mean.push_back(0.75 * mean0[ch] + 0.25 * s.mean[ch]);
    want_var.push_back(0.75 * var0[ch] + 0.25 * s.var[ch] * 16.0 / 15.0);
  }
  expect_near(values(mean), want_mean, 1e-6);
  expect_near(values(var), want_var, 1e-6);
  EXPECT_FALSE(mean.requires_grad());
  EXPECT_TRUE(y.requires_grad());
  // Evaluation uses them, and changes nothing.
  const Tensor e = mt::batch_norm(x, std::nullopt, std::nullopt, mean, var, false, 0.25, 1e-3, false);
  expect_near(values(e), normalised(x, want_mean, want_var, {1, 1, 1}, {0, 0, 0}, 1e-3), 1e-5);
  expect_near(values(mean), want_mean, 1e-6);
}

TEST(BatchNorm, GradcheckAndGradgradcheckInInputWeightAndBias) {
  const Tensor x = randn({3, 2, 2, 2}, 20, mt::kFloat64).requires_grad_(),
               w = randn({2}, 21, mt::kFloat64).requires_grad_(), b = randn({2}, 22, mt::kFloat64).requires_grad_();
  const auto training = [](const mt::autograd::variable_list& v) {
    return mt::batch_norm(v[0], v[1], v[2], std::nullopt, std::nullopt, true, 0.1, 1e-5, false);
  };
  EXPECT_TRUE(mt::autograd::gradcheck(training, {x, w, b}));
  EXPECT_TRUE(mt::autograd::gradgradcheck(training, {x, w, b}));
  const Tensor mean = randn({2}, 23, mt::kFloat64), var = randn({2}, 24, mt::kFloat64).abs() + 0.5;
  const auto evaluation = [&](const mt::autograd::variable_list& v) {
    return mt::batch_norm(v[0], v[1], v[2], mean, var, false, 0.1, 1e-5, false);
  };
  EXPECT_TRUE(mt::autograd::gradcheck(evaluation, {x, w, b}));
}

TEST(BatchNorm, VmapMatchesTheLoop) {
  const Tensor x = randn({5, 4, 3, 2}, 30), w = randn({3}, 31), mean = randn({3}, 32), var = randn({3}, 33).abs();
  const mt_test::Fn training = [&](const std::vector<Tensor>& v) {
    return mt::batch_norm(v[0], w, std::nullopt, std::nullopt, std::nullopt, true, 0.1, 1e-5, false);
  };
  mt_test::expect_vmap_matches_loop(training, {x}, {0});
  mt_test::expect_vmap_matches_loop(training, {x.movedim(0, 2)}, {2});
  const mt_test::Fn evaluation = [&](const std::vector<Tensor>& v) {
    return mt::batch_norm(v[0], v[1], std::nullopt, mean, var, false, 0.1, 1e-5, false);
  };
  mt_test::expect_vmap_matches_loop(evaluation, {x, randn({5, 3}, 34)}, {0, 0});
}

TEST(BatchNorm, MetaAndErrors) {
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta"));
  const Tensor m = mt::batch_norm(mt::empty({8, 3, 4, 4}, meta), mt::empty({3}, meta), std::nullopt,
                                  mt::empty({3}, meta), mt::empty({3}, meta), true, 0.1, 1e-5, false);
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes().vec(), (Ints{8, 3, 4, 4}));
  const Tensor x = randn({2, 3, 4}, 40);
  expect_error<mt::RuntimeError>(
      [&] { mt::batch_norm(x.narrow(0, 0, 1).narrow(2, 0, 1), std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                           true, 0.1, 1e-5, false); },
      "Expected more than 1 value per channel when training, got input size [1, 3, 1]");
  expect_error<mt::RuntimeError>(
      [&] { mt::batch_norm(x, mt::ones({4}), std::nullopt, std::nullopt, std::nullopt, true, 0.1, 1e-5, false); },
      "weight should contain 3 elements not 4");
  expect_error<mt::RuntimeError>(
      [&] { mt::batch_norm(x, std::nullopt, std::nullopt, std::nullopt, std::nullopt, false, 0.1, 1e-5, false); },
      "running_mean and running_var must be defined in evaluation mode");
  expect_error<mt::NotImplementedError>(
      [&] { mt::batch_norm(x.to(mt::kInt64), std::nullopt, std::nullopt, std::nullopt, std::nullopt, true, 0.1, 1e-5,
                           false); },
      "\"batch_norm\" not implemented for 'mt.int64'");
}

TEST(BatchNorm, ModulesTrackRunningStatisticsAndUseThemInEvaluation) {
  mt::nn::BatchNorm2d bn(3);
  const Tensor x = randn({4, 3, 2, 2}, 50) * 3 + 2;
  const Tensor y = bn.forward(x);
  const Stats s = channel_stats(x);
  expect_near(values(y), normalised(x, s.mean, s.var, {1, 1, 1}, {0, 0, 0}, 1e-5), 1e-5);
  std::vector<double> want_mean, want_var;
  for (int ch = 0; ch < 3; ++ch) {
    want_mean.push_back(0.1 * s.mean[ch]);
    want_var.push_back(0.9 + 0.1 * s.var[ch] * 16.0 / 15.0);
  }
  expect_near(values(bn.running_mean), want_mean, 1e-6);
  expect_near(values(bn.running_var), want_var, 1e-6);
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>(), 1);
  bn.eval();
  expect_near(values(bn.forward(x)), normalised(x, want_mean, want_var, {1, 1, 1}, {0, 0, 0}, 1e-5), 1e-5);
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>(), 1);
  const auto state = bn.state_dict();
  for (const char* key : {"weight", "bias", "running_mean", "running_var", "num_batches_tracked"})
    EXPECT_NE(state.find(key), nullptr) << key;
  EXPECT_EQ(bn.parameters().size(), 2u);
  std::ostringstream printed;
  printed << bn;
  EXPECT_EQ(printed.str(), "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)");
  // Without running statistics evaluation normalises with the batch's too.
  mt::nn::BatchNorm1d plain(mt::nn::BatchNormOptions(3).affine(false).track_running_stats(false));
  plain.eval();
  const Tensor z = randn({6, 3}, 51);
  const Stats t = channel_stats(z);
  expect_near(values(plain.forward(z)), normalised(z, t.mean, t.var, {1, 1, 1}, {0, 0, 0}, 1e-5), 1e-5);
  EXPECT_TRUE(plain.parameters().empty());
  EXPECT_THROW(plain.forward(x), mt::ValueError);  // 4-D into BatchNorm1d
}

// (x - mean) / sqrt(var + eps) * w + b over each sample's groups of channels, in double.
std::vector<double> naive_group_norm(const Tensor& x, int64_t groups, const std::vector<double>& w,
                                     const std::vector<double>& b, double eps) {
  const int64_t n = x.size(0), c = x.size(1), inner = x.numel() / std::max<int64_t>(n * c, 1);
  const int64_t per_group = c / groups * inner;
  const std::vector<double> v = values(x);
  std::vector<double> out(v.size());
  for (int64_t s = 0; s < n * groups; ++s) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < per_group; ++i) mean += v[s * per_group + i];
    mean /= static_cast<double>(per_group);
    for (int64_t i = 0; i < per_group; ++i) var += std::pow(v[s * per_group + i] - mean, 2);
    var /= static_cast<double>(per_group);
    for (int64_t i = 0; i < per_group; ++i) {
      const int64_t k = s * per_group + i, channel = k / inner % c;
      out[k] = (v[k] - mean) / std::sqrt(var + eps) * w[channel] + b[channel];
    }
  }
  return out;
}

TEST(GroupNorm, NormalisesEachSamplesGroupsOfChannels) {
  uint64_t seed = 60;
  for (const auto& [shape, groups] : std::vector<std::pair<Ints, int64_t>>{
           {{2, 6}, 3}, {{3, 4, 5}, 2}, {{2, 6, 3, 2}, 6}, {{2, 6, 3, 2}, 1}, {{0, 4, 3}, 2}})
    for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kBFloat16}) {
      const Tensor x = randn(shape, seed++, dtype) * 3 - 1, w = randn({shape[1]}, seed++),
                   b = randn({shape[1]}, seed++);
      const Tensor y = mt::group_norm(x, groups, w, b, 1e-5);
      EXPECT_EQ(y.dtype(), dtype);
      EXPECT_EQ(y.sizes().vec(), shape);
      const double tol = dtype == mt::kFloat64 ? 1e-10 : dtype == mt::kFloat32 ? 1e-5 : 3e-2;
      expect_near(values(y), naive_group_norm(x, groups, values(w), values(b), 1e-5), tol);
    }
}

TEST(GroupNorm, DifferentiatesVmapsAndChecksItsArguments) {
  const Tensor x = randn({2, 4, 3}, 70, mt::kFloat64).requires_grad_(),
               w = randn({4}, 71, mt::kFloat64).requires_grad_(), b = randn({4}, 72, mt::kFloat64).requires_grad_();
  const auto f = [](const mt::autograd::variable_list& v) { return mt::group_norm(v[0], 2, v[1], v[2], 1e-5); };
  EXPECT_TRUE(mt::autograd::gradcheck(f, {x, w, b}));
  EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x, w, b}));
  const mt_test::Fn g = [](const std::vector<Tensor>& v) { return mt::group_norm(v[0], 2, v[1]); };
  mt_test::expect_vmap_matches_loop(g, {randn({5, 2, 4, 3}, 73), randn({5, 4}, 74)}, {0, 0});
  mt_test::expect_vmap_matches_loop(g, {randn({2, 4, 5, 3}, 75), randn({4}, 76)}, {2, std::nullopt});
  expect_error<mt::RuntimeError>([] { mt::group_norm(randn({2, 5, 3}, 77), 2); },
                                 "Expected number of channels in input to be divisible by num_groups, but got input "
                                 "of shape [2, 5, 3] and num_groups=2");
  expect_error<mt::RuntimeError>([] { mt::group_norm(randn({2, 6, 3}, 78), 2, mt::ones({4})); },
                                 "Expected weight to be a vector of size equal to the number of channels in input, but "
                                 "got weight of shape [4] and input of shape [2, 6, 3]");
  mt::nn::GroupNorm gn(mt::nn::GroupNormOptions(2, 4).eps(1e-3));
  const Tensor y = randn({3, 4, 5}, 79);
  expect_near(values(gn.forward(y)), naive_group_norm(y, 2, {1, 1, 1, 1}, {0, 0, 0, 0}, 1e-3), 1e-5);
  std::ostringstream printed;
  printed << gn;
  EXPECT_EQ(printed.str(), "GroupNorm(2, 4, eps=0.001, affine=True)");
  EXPECT_EQ(gn.parameters().size(), 2u);
  EXPECT_THROW(mt::nn::GroupNorm(mt::nn::GroupNormOptions(3, 4)), mt::ValueError);
}

}  // namespace
