// upsample_nearest2d and upsample_bilinear2d against naive double-precision references (up and down,
// sizes and scale factors, align_corners), first and second derivatives, vmap against the loop, Meta,
// the autocast policy, the errors; nn::functional::interpolate's argument rules and nn::Upsample; CUDA
// against the CPU where a GPU is present.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <vector>

#include "autograd/Gradcheck.h"
#include "autograd/nn/Upsample.h"
#include "cuda/cuda_test_helpers.h"
#include "functorch/Vmap.h"
#include "functorch/autocast/AutocastMode.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/empty.h"
#include "ops/api/randn.h"
#include "ops/api/upsample_bilinear2d.h"
#include "ops/api/upsample_nearest2d.h"
#include "reference.h"

namespace {

using mt::Tensor;
using mt::testing::expect_error;
using mt::testing::seeded_randn;
using Ints = std::vector<int64_t>;
namespace F = mt::nn::functional;

// Per output position along one dim: the source pixels and their weights.
struct Taps {
  std::vector<std::vector<std::pair<int64_t, double>>> of;
};

// Nearest: pixel floor(i * in / out), by integers; with a scale factor s, floor(i / s).
Taps nearest_taps(int64_t in, int64_t out, std::optional<double> s) {
  Taps t;
  for (int64_t i = 0; i < out; ++i) {
    const int64_t src = s ? static_cast<int64_t>(std::floor(i / *s)) : i * in / out;
    t.of.push_back({{std::min(src, in - 1), 1.0}});
  }
  return t;
}

// Linear: source position i * (in - 1) / (out - 1) with align_corners, else (i + 0.5) / s - 0.5 with
// s = out / in or the scale factor, at least 0; the two pixels around it, weighted by distance.
Taps linear_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> s) {
  Taps t;
  for (int64_t i = 0; i < out; ++i) {
    const double scale = s ? 1 / *s : static_cast<double>(in) / out;
    const double src = align_corners ? (out > 1 ? i * static_cast<double>(in - 1) / (out - 1) : 0.0)
                                     : std::max((i + 0.5) * scale - 0.5, 0.0);
    const int64_t h0 = std::min(static_cast<int64_t>(std::floor(src)), in - 1), h1 = std::min(h0 + 1, in - 1);
    const double l = src - h0;
    t.of.push_back({{h0, 1 - l}, {h1, l}});
  }
  return t;
}

// sum over taps of x[n][c][a][b] * wa * wb, in double.
void expect_resampled(const Tensor& result, const Tensor& x, const Taps& rows, const Taps& cols, double tol) {
  const int64_t n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
  const int64_t oh = static_cast<int64_t>(rows.of.size()), ow = static_cast<int64_t>(cols.of.size());
  ASSERT_EQ(result.sizes().vec(), (Ints{n, c, oh, ow}));
  const std::vector<double> in = mt::testing::values(x), got = mt::testing::values(result);
  for (int64_t p = 0; p < n * c; ++p)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        double expected = 0;
        for (const auto& [a, wa] : rows.of[static_cast<size_t>(i)])
          for (const auto& [b, wb] : cols.of[static_cast<size_t>(j)])
            expected += in[static_cast<size_t>((p * h + a) * w + b)] * wa * wb;
        const size_t k = static_cast<size_t>((p * oh + i) * ow + j);
        EXPECT_NEAR(got[k], expected, tol * (1 + std::abs(expected))) << p << " " << i << " " << j;
      }
}

TEST(Upsample, NearestPicksPyTorchsSourcePixels) {
  for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kBFloat16, mt::kInt64, mt::kUInt8}) {
    const Tensor x = mt::testing::random_tensor({2, 3, 4, 3}, dtype, 1);
    for (const auto& [oh, ow] : std::vector<std::pair<int64_t, int64_t>>{{8, 6}, {7, 7}, {6, 2}, {4, 3}, {1, 1}}) {
      const Tensor r = mt::upsample_nearest2d(x, {oh, ow});
      EXPECT_EQ(r.dtype(), dtype);
      expect_resampled(r, x, nearest_taps(4, oh, std::nullopt), nearest_taps(3, ow, std::nullopt), 0);
    }
    // A scale factor sets the source positions: 1 / 2.5 per output row, 1 / 1.7 per column.
    expect_resampled(mt::upsample_nearest2d(x, {10, 5}, 2.5, 1.7), x, nearest_taps(4, 10, 2.5), nearest_taps(3, 5, 1.7),
                     0);
  }
}

TEST(Upsample, BilinearMatchesTheNaiveInterpolation) {
  for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kBFloat16}) {
    const Tensor x = seeded_randn({2, 3, 5, 4}, 2, dtype);
    const double tol = dtype == mt::kFloat64 ? 1e-12 : dtype == mt::kFloat32 ? 1e-5 : 3e-2;
    for (bool align : {false, true})
      for (const auto& [oh, ow] : std::vector<std::pair<int64_t, int64_t>>{{10, 8}, {7, 9}, {3, 2}, {1, 1}, {5, 4}}) {
        const Tensor r = mt::upsample_bilinear2d(x, {oh, ow}, align);
        EXPECT_EQ(r.dtype(), dtype);
        expect_resampled(r, x, linear_taps(5, oh, align, std::nullopt), linear_taps(4, ow, align, std::nullopt), tol);
      }
    expect_resampled(mt::upsample_bilinear2d(x, {8, 6}, false, 1.7, 1.5), x, linear_taps(5, 8, false, 1.7),
                     linear_taps(4, 6, false, 1.5), tol);
  }
}

TEST(Upsample, GradcheckAndGradgradcheck) {
  const Tensor x = seeded_randn({1, 2, 3, 4}, 3, mt::kFloat64).requires_grad_();
  for (bool align : {false, true}) {
    const auto bilinear = [&](const mt::autograd::variable_list& v) {
      return mt::upsample_bilinear2d(v[0], {5, 7}, align);
    };
    EXPECT_TRUE(mt::autograd::gradcheck(bilinear, {x}));
    EXPECT_TRUE(mt::autograd::gradgradcheck(bilinear, {x}));
  }
  const auto nearest = [](const mt::autograd::variable_list& v) { return mt::upsample_nearest2d(v[0], {5, 3}); };
  EXPECT_TRUE(mt::autograd::gradcheck(nearest, {x}));
  EXPECT_TRUE(mt::autograd::gradgradcheck(nearest, {x}));
}

TEST(Upsample, VmapMatchesTheLoop) {
  const Tensor x = seeded_randn({3, 2, 2, 4, 4}, 4);
  mt_test::expect_vmap_matches_loop(
      [](const std::vector<Tensor>& v) {
        return mt::upsample_bilinear2d(v[0], {6, 5}, true);
      },
      {x}, {0});
  mt_test::expect_vmap_matches_loop(
      [](const std::vector<Tensor>& v) {
        return mt::upsample_nearest2d(v[0], {8, 3});
      },
      {x.movedim(0, 4)}, {4});
}

TEST(Upsample, MetaGivesTheShapeAndAutocastRunsThemInFloatOnCuda) {
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta")).dtype(mt::kFloat16);
  const Tensor x = mt::empty({8, 3, 14, 14}, meta);
  EXPECT_EQ(mt::upsample_nearest2d(x, {28, 28}).sizes().vec(), (Ints{8, 3, 28, 28}));
  const Tensor b = mt::upsample_bilinear2d(x, {7, 9}, false);
  EXPECT_TRUE(b.is_meta());
  EXPECT_EQ(b.sizes().vec(), (Ints{8, 3, 7, 9}));
  for (const char* op : {"upsample_nearest2d", "upsample_bilinear2d"}) {
    EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, op), mt::autocast::CastPolicy::fp32) << op;
    EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, op), std::nullopt) << op;
  }
}

TEST(Upsample, OpErrorsNameTheProblem) {
  const Tensor x = seeded_randn({2, 3, 4, 4}, 5);
  expect_error<mt::RuntimeError>([&] { mt::upsample_nearest2d(x, {4}); },
                                 "It is expected output_size equals to 2, but got size 1");
  expect_error<mt::RuntimeError>(
      [&] {
        mt::upsample_nearest2d(x.select(0, 0), {4, 4});
      },
      "It is expected input_size equals to 4, but got size 3");
  expect_error<mt::RuntimeError>(
      [&] {
        mt::upsample_bilinear2d(x, {0, 4}, false);
      },
      "Input and output sizes should be greater than 0, but got input (H: 4, W: 4) output "
      "(H: 0, W: 4)");
  expect_error<mt::RuntimeError>(
      [&] {
        mt::upsample_nearest2d(seeded_randn({2, 0, 4, 4}, 6), {8, 8});
      },
      "Non-empty 4D data tensor expected but got a tensor with sizes [2, 0, 4, 4]");
  expect_error<mt::NotImplementedError>(
      [&] {
        mt::upsample_bilinear2d(mt::testing::random_tensor({1, 1, 2, 2}, mt::kInt64, 7), {4, 4}, false);
      },
      "\"upsample_bilinear2d\" not implemented for 'mt.int64'");
  EXPECT_EQ(mt::upsample_nearest2d(seeded_randn({0, 2, 3, 3}, 8), {6, 6}).sizes().vec(), (Ints{0, 2, 6, 6}));
}

TEST(Upsample, InterpolateFollowsPyTorchsArgumentRules) {
  const Tensor x = seeded_randn({2, 3, 4, 5}, 9);
  // A scale factor: output floor(in * s), interpolated by 1 / s unless recompute_scale_factor.
  const Tensor scaled = F::interpolate(x, F::InterpolateFuncOptions().scale_factor({1.7}).mode("bilinear"));
  EXPECT_EQ(mt::testing::values(scaled), mt::testing::values(mt::upsample_bilinear2d(x, {6, 8}, false, 1.7, 1.7)));
  const Tensor recomputed = F::interpolate(
      x, F::InterpolateFuncOptions().scale_factor({1.7, 2.0}).mode("bilinear").recompute_scale_factor(true));
  EXPECT_EQ(mt::testing::values(recomputed), mt::testing::values(mt::upsample_bilinear2d(x, {6, 10}, false)));
  EXPECT_EQ(mt::testing::values(F::interpolate(x, F::InterpolateFuncOptions().size({8, 10}))),
            mt::testing::values(mt::upsample_nearest2d(x, {8, 10})));
  EXPECT_EQ(mt::testing::values(
                F::interpolate(x, F::InterpolateFuncOptions().size({3}).mode("bilinear").align_corners(true))),
            mt::testing::values(mt::upsample_bilinear2d(x, {3, 3}, true)));
  using Options = F::InterpolateFuncOptions;
  expect_error<mt::ValueError>(
      [&] {
        F::interpolate(x, Options().size({8, 8}).scale_factor({2}));
      },
      "only one of size or scale_factor should be defined");
  expect_error<mt::ValueError>([&] { F::interpolate(x); }, "either size or scale_factor should be defined");
  expect_error<mt::ValueError>(
      [&] {
        F::interpolate(x, Options().size({8, 8}).align_corners(false));
      },
      "align_corners option can only be set with the interpolating modes: linear | bilinear "
      "| bicubic | trilinear");
  expect_error<mt::ValueError>(
      [&] {
        F::interpolate(x, Options().size({8, 8, 8}));
      },
      "Input and output must have the same number of spatial dimensions, but got input with "
      "spatial dimensions of [4, 5] and output size of [8, 8, 8]");
  expect_error<mt::ValueError>(
      [&] {
        F::interpolate(x, Options().scale_factor({2, 2, 2}));
      },
      "Input and scale_factor must have the same number of spatial dimensions");
  expect_error<mt::ValueError>(
      [&] {
        F::interpolate(x, Options().size({8, 8}).recompute_scale_factor(true));
      },
      "recompute_scale_factor is not meaningful with an explicit size.");
  expect_error<mt::NotImplementedError>(
      [&] {
        F::interpolate(x, Options().size({8, 8}).mode("bicubic"));
      },
      "interpolate supports 4D inputs (N, C, H, W) in the modes nearest and "
      "bilinear, but got a 4D input and mode bicubic");
  expect_error<mt::NotImplementedError>([&] { F::interpolate(x.select(0, 0), Options().size({8})); },
                                        "but got a 3D input and mode nearest");
}

TEST(Upsample, UpsampleModuleInterpolatesAndPrintsLikePyTorch) {
  const Tensor x = seeded_randn({1, 2, 3, 3}, 10);
  const mt::nn::Upsample up(mt::nn::UpsampleOptions().scale_factor({2}).mode("bilinear").align_corners(true));
  EXPECT_EQ(mt::testing::values(up.forward(x)),
            mt::testing::values(mt::upsample_bilinear2d(x, {6, 6}, true, 2.0, 2.0)));
  std::ostringstream a, b;
  a << mt::nn::Upsample(mt::nn::UpsampleOptions().scale_factor({2}));
  EXPECT_EQ(a.str(), "Upsample(scale_factor=2.0, mode='nearest')");
  b << mt::nn::Upsample(mt::nn::UpsampleOptions().size({4, 6}).mode("bilinear"));
  EXPECT_EQ(b.str(), "Upsample(size=(4, 6), mode='bilinear')");
}

TEST(Upsample, CudaMatchesTheCpu) {
  const std::string why = mt_test::why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const Tensor x = seeded_randn({2, 3, 5, 4}, 11);
  for (bool align : {false, true}) {
    const Tensor r = mt::upsample_bilinear2d(x.to(mt::kCUDA), {9, 7}, align);
    EXPECT_TRUE(r.is_cuda());
    mt_test::expect_same(r.to(mt::kCPU), mt::upsample_bilinear2d(x, {9, 7}, align), 1e-5);
  }
  mt_test::expect_same(mt::upsample_nearest2d(x.to(mt::kCUDA), {10, 3}).to(mt::kCPU),
                       mt::upsample_nearest2d(x, {10, 3}), 0);
  const Tensor xg = x.to(mt::kCUDA).requires_grad_(), xc = x.clone().requires_grad_();
  mt::upsample_bilinear2d(xg, {9, 7}, false).square().sum().backward();
  mt::upsample_bilinear2d(xc, {9, 7}, false).square().sum().backward();
  mt_test::expect_same(xg.grad().to(mt::kCPU), xc.grad(), 1e-4);
}

}  // namespace
