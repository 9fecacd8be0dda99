// conv_transpose1d and conv_transpose2d against a naive double-precision transposed convolution (strides,
// padding, output padding below the stride and below the dilation, dilation, groups, bias, unbatched and
// empty inputs), the adjoint identity with conv2d, first and second derivatives, vmap against the loop,
// Meta, the autocast policy, the errors, and CUDA against the CPU where a GPU is present.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "autograd/Gradcheck.h"
#include "cuda/cuda_test_helpers.h"
#include "functorch/Vmap.h"
#include "functorch/autocast/AutocastMode.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/conv2d.h"
#include "ops/api/conv_transpose1d.h"
#include "ops/api/conv_transpose2d.h"
#include "ops/api/empty.h"
#include "ops/api/randn.h"
#include "reference.h"

namespace {

using mt::Tensor;
using mt::testing::expect_error;
using mt::testing::seeded_randn;
using Ints = std::vector<int64_t>;

struct Geometry {
  Ints stride = {1, 1}, padding = {0, 0}, output_padding = {0, 0}, dilation = {1, 1};
  int64_t groups = 1;
};

// x [N, C, H, W] spread through w [C, O/G, kh, kw]: input pixel (i, j) adds x * w at output pixel
// (i * stride - padding + a * dilation, ...) for each tap (a, b), in double; plus b [O].
std::vector<double> naive_conv_transpose2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b,
                                           const Geometry& g, Ints& out_sizes) {
  const Tensor xd = x.to(mt::kFloat64).contiguous(), wd = w.to(mt::kFloat64).contiguous();
  const double* in = xd.data_ptr<double>();
  const double* wt = wd.data_ptr<double>();
  const int64_t n = x.size(0), c = x.size(1), h = x.size(2), wi = x.size(3);
  const int64_t og = w.size(1), kh = w.size(2), kw = w.size(3), o = og * g.groups, cg = c / g.groups;
  const int64_t oh = (h - 1) * g.stride[0] - 2 * g.padding[0] + g.dilation[0] * (kh - 1) + g.output_padding[0] + 1;
  const int64_t ow = (wi - 1) * g.stride[1] - 2 * g.padding[1] + g.dilation[1] * (kw - 1) + g.output_padding[1] + 1;
  out_sizes = {n, o, oh, ow};
  std::vector<double> out(static_cast<size_t>(n * o * oh * ow));
  for (int64_t s = 0; s < n; ++s)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t p = 0; p < oh * ow; ++p)
        out[static_cast<size_t>((s * o + oc) * oh * ow + p)] = b ? mt::testing::element(*b, oc) : 0.0;
  for (int64_t s = 0; s < n; ++s)
    for (int64_t ic = 0; ic < c; ++ic)
      for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < wi; ++j)
          for (int64_t k = 0; k < og; ++k)
            for (int64_t a = 0; a < kh; ++a)
              for (int64_t bb = 0; bb < kw; ++bb) {
                const int64_t r = i * g.stride[0] - g.padding[0] + a * g.dilation[0];
                const int64_t col = j * g.stride[1] - g.padding[1] + bb * g.dilation[1];
                if (r < 0 || r >= oh || col < 0 || col >= ow) continue;
                const int64_t oc = ic / cg * og + k;
                out[static_cast<size_t>(((s * o + oc) * oh + r) * ow + col)] +=
                    in[((s * c + ic) * h + i) * wi + j] * wt[((ic * og + k) * kh + a) * kw + bb];
              }
  return out;
}

void expect_conv_transpose(const Tensor& result, const Tensor& x, const Tensor& w, const std::optional<Tensor>& b,
                           const Geometry& g, double tol) {
  Ints sizes;
  const std::vector<double> expected = naive_conv_transpose2d(x, w, b, g, sizes);
  ASSERT_EQ(result.sizes().vec(), sizes);
  mt::testing::expect_values_near(result, expected, tol);
}

Tensor conv_transpose2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Geometry& g) {
  return mt::conv_transpose2d(x, w, b, g.stride, g.padding, g.output_padding, g.groups, g.dilation);
}

struct Case {
  Ints input, weight;
  Geometry g;
  bool bias;
};

const std::vector<Case> kCases = {
    {{1, 1, 3, 3}, {1, 1, 3, 3}, {}, false},
    // Upsampling by 2: stride 2, padding 1, output padding 1 (the padded rows also get taps).
    {{2, 3, 4, 4}, {3, 2, 3, 3}, {.stride = {2, 2}, .padding = {1, 1}, .output_padding = {1, 1}}, true},
    {{2, 4, 5, 4},
     {4, 3, 3, 2},
     {.stride = {2, 1}, .padding = {1, 0}, .output_padding = {1, 0}, .dilation = {1, 2}, .groups = 2},
     true},
    // Output padding at least the stride (allowed below the dilation), and past what any tap reaches.
    {{1, 2, 3, 3}, {2, 2, 2, 2}, {.output_padding = {1, 1}, .dilation = {2, 2}}, true},
    {{1, 2, 3, 2}, {2, 1, 2, 2}, {.stride = {3, 3}, .output_padding = {2, 1}}, true},
    {{1, 1, 2, 2}, {1, 1, 3, 3}, {.stride = {2, 2}, .padding = {2, 2}, .output_padding = {1, 1}}, true},
    {{1, 4, 3, 3}, {4, 1, 3, 3}, {.stride = {2, 2}, .groups = 4}, true},  // depthwise
    {{0, 3, 3, 3}, {3, 2, 3, 3}, {}, true},                               // an empty batch
};

TEST(ConvTranspose, Conv2dTransposedMatchesTheNaiveOne) {
  uint64_t seed = 1;
  for (const Case& c : kCases) {
    for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kBFloat16}) {
      const Tensor x = seeded_randn(c.input, seed++, dtype), w = seeded_randn(c.weight, seed++, dtype);
      const std::optional<Tensor> b =
          c.bias ? std::optional<Tensor>(seeded_randn({c.weight[1] * c.g.groups}, seed++, dtype)) : std::nullopt;
      const Tensor r = conv_transpose2d(x, w, b, c.g);
      EXPECT_EQ(r.dtype(), dtype);
      const double tol = dtype == mt::kFloat64 ? 1e-12 : dtype == mt::kFloat32 ? 1e-5 : 5e-2;
      expect_conv_transpose(r, x, w, b, c.g, tol);
    }
  }
}

// <conv2d(y, w), x> = <y, conv_transpose2d(x, w)>: each is the other's adjoint in its input.
TEST(ConvTranspose, IsTheAdjointOfConv2d) {
  const Tensor w = seeded_randn({4, 3, 3, 2}, 10, mt::kFloat64);  // conv2d: 3 -> 4 channels; transposed: 4 -> 3
  const Tensor y = seeded_randn({2, 3, 9, 8}, 11, mt::kFloat64);
  const Tensor forward = mt::conv2d(y, w, std::nullopt, Ints{2, 1}, Ints{1, 1}, Ints{1, 2});
  const Tensor x = seeded_randn(forward.sizes().vec(), 12, mt::kFloat64);
  const Tensor back = mt::conv_transpose2d(x, w, std::nullopt, Ints{2, 1}, Ints{1, 1}, Ints{0, 0}, 1, Ints{1, 2});
  ASSERT_EQ(back.sizes().vec(), y.sizes().vec());
  EXPECT_NEAR((forward * x).sum().item<double>(), (y * back).sum().item<double>(), 1e-10);
}

TEST(ConvTranspose, AnUnbatchedInputIsOneSample) {
  const Tensor x = seeded_randn({3, 4, 5}, 20), w = seeded_randn({3, 2, 3, 3}, 21), b = seeded_randn({2}, 22);
  const Tensor r = mt::conv_transpose2d(x, w, b, 2, 1, 1);
  EXPECT_EQ(r.sizes().vec(), (Ints{2, 8, 10}));
  expect_conv_transpose(r.unsqueeze(0), x.unsqueeze(0), w, b,
                        {.stride = {2, 2}, .padding = {1, 1}, .output_padding = {1, 1}}, 1e-5);
}

TEST(ConvTranspose, Conv1dTransposedIsConv2dTransposedOverOneRow) {
  const Tensor x = seeded_randn({2, 4, 6}, 30), w = seeded_randn({4, 3, 3}, 31), b = seeded_randn({6}, 32);
  const Tensor r = mt::conv_transpose1d(x, w, b, 2, 1, 1, 2, 2);
  expect_conv_transpose(
      r.unsqueeze(2), x.unsqueeze(2), w.unsqueeze(2), b,
      {.stride = {1, 2}, .padding = {0, 1}, .output_padding = {0, 1}, .dilation = {1, 2}, .groups = 2}, 1e-5);
  EXPECT_EQ(mt::conv_transpose1d(x.select(0, 0), w, b, 1, 0, 0, 2).sizes().vec(), (Ints{6, 8}));  // unbatched
}

TEST(ConvTranspose, GradcheckAndGradgradcheckInInputWeightAndBias) {
  for (const Case& c : {kCases[1], kCases[2], kCases[4]}) {
    Ints input = c.input;
    input[0] = 1;
    const Tensor x = seeded_randn(input, 40, mt::kFloat64).requires_grad_(),
                 w = seeded_randn(c.weight, 41, mt::kFloat64).requires_grad_(),
                 b = seeded_randn({c.weight[1] * c.g.groups}, 42, mt::kFloat64).requires_grad_();
    const auto f = [&](const mt::autograd::variable_list& v) { return conv_transpose2d(v[0], v[1], v[2], c.g); };
    EXPECT_TRUE(mt::autograd::gradcheck(f, {x, w, b}));
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x, w, b}));
  }
}

TEST(ConvTranspose, VmapOverSamplesOrFiltersMatchesTheLoop) {
  const Tensor x = seeded_randn({4, 2, 3, 3}, 50), w = seeded_randn({2, 3, 3, 3}, 51), b = seeded_randn({3}, 52);
  const mt_test::Fn conv = [](const std::vector<Tensor>& v) { return mt::conv_transpose2d(v[0], v[1], v[2], 2, 1, 1); };
  mt_test::expect_vmap_matches_loop(conv, {x, w, b}, {0, std::nullopt, std::nullopt});
  mt_test::expect_vmap_matches_loop(conv, {x.unsqueeze(1), w, b}, {0, std::nullopt, std::nullopt});
  mt_test::expect_vmap_matches_loop(conv, {x.movedim(0, 3), seeded_randn({2, 3, 3, 3, 4}, 53), b},
                                    {3, 4, std::nullopt});
}

TEST(ConvTranspose, MetaGivesTheShape) {
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta")).dtype(mt::kFloat16);
  const Tensor r =
      mt::conv_transpose2d(mt::empty({8, 16, 7, 7}, meta), mt::empty({16, 8, 4, 4}, meta), std::nullopt, 2, 1);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.dtype(), mt::kFloat16);
  EXPECT_EQ(r.sizes().vec(), (Ints{8, 8, 14, 14}));
}

TEST(ConvTranspose, AutocastRunsThemInLowerPrecision) {
  for (const char* op : {"conv_transpose1d", "conv_transpose2d.input"}) {
    EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, op), mt::autocast::CastPolicy::lower_precision_fp) << op;
    EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, op), mt::autocast::CastPolicy::lower_precision_fp) << op;
  }
}

TEST(ConvTranspose, ErrorsNameTheProblem) {
  const Tensor x = seeded_randn({2, 3, 5, 5}, 60), w = seeded_randn({3, 4, 3, 3}, 61);
  expect_error<mt::RuntimeError>(
      [&] {
        mt::conv_transpose2d(x, seeded_randn({2, 4, 3, 3}, 62));
      },
      "Given transposed=1, weight of size [2, 4, 3, 3], expected input[2, 3, 5, 5] to have "
      "2 channels, but got 3 channels instead");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x, w, std::nullopt, 1, 0, 0, 2); },
                                 "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight "
                                 "of size [3, 4, 3, 3] instead");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x.unsqueeze(0), w); },
                                 "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of "
                                 "size: [1, 2, 3, 5, 5]");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x, w, seeded_randn({3}, 63)); },
                                 "Given transposed=1, weight of size [3, 4, 3, 3], expected bias to be 1-dimensional "
                                 "with 4 elements, but got bias of size [3] instead");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x, w, std::nullopt, 2, 0, 2); },
                                 "output padding must be smaller than either stride or dilation, but got "
                                 "output_padding_height: 2 output_padding_width: 2 stride_height: 2 stride_width: 2 "
                                 "dilation_height: 1 dilation_width: 1");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x, w, std::nullopt, 1, -1); },
                                 "negative padding is not supported");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x, w, std::nullopt, 1, 0, 0, 0); },
                                 "non-positive groups is not supported");
  expect_error<mt::RuntimeError>(
      [&] {
        mt::conv_transpose2d(x, w, std::nullopt, Ints{1, 1, 1});
      },
      "expected stride to be a single integer value or a list of 2 values");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x, w.to(mt::kFloat64)); },
                                 "Input type (mt.float32) and weight type (mt.float64) should be the same");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x, w, std::nullopt, 1, 4); },
                                 "Given input size per channel: (5 x 5). Calculated output size per channel: (-1 x "
                                 "-1). Output size is too small");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose2d(x.narrow(2, 0, 0), w); },
                                 "non-empty 3D or 4D (batch mode) tensor expected for input, but got: [2, 3, 0, 5]");
  expect_error<mt::RuntimeError>([&] { mt::conv_transpose1d(x, w); },
                                 "Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d");
}

TEST(ConvTranspose, CudaMatchesTheCpu) {
  const std::string why = mt_test::why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  for (const Case& c : kCases) {
    const Tensor x = seeded_randn(c.input, 80), w = seeded_randn(c.weight, 81),
                 b = seeded_randn({c.weight[1] * c.g.groups}, 82);
    const Tensor r = conv_transpose2d(x.to(mt::kCUDA), w.to(mt::kCUDA), b.to(mt::kCUDA), c.g);
    EXPECT_TRUE(r.is_cuda());
    expect_conv_transpose(r.to(mt::kCPU), x, w, b, c.g, 1e-4);
    const Tensor xg = x.to(mt::kCUDA).requires_grad_();
    conv_transpose2d(xg, w.to(mt::kCUDA), b.to(mt::kCUDA), c.g).sum().backward();
    const Tensor xc = x.clone().requires_grad_();
    conv_transpose2d(xc, w, b, c.g).sum().backward();
    mt_test::expect_same(xg.grad().to(mt::kCPU), xc.grad(), 1e-4);
  }
}

}  // namespace
