// conv1d and conv2d against a naive double-precision convolution (strides, padding, dilation, groups,
// bias, unbatched and empty inputs, padding="same" with odd and even kernels), first and second
// derivatives, vmap against the loop (per-sample inputs, per-sample filters), Meta, the autocast policy,
// the errors of conv2d, im2col and col2im, and CUDA against the CPU where a GPU is present. im2col's and
// col2im's own values are their OpInfo rows' (tests/opinfo/indexing_table.cpp).
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "autograd/Gradcheck.h"
#include "cuda/cuda_test_helpers.h"
#include "functorch/Grad.h"
#include "functorch/Vmap.h"
#include "functorch/autocast/AutocastMode.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/col2im.h"
#include "ops/api/conv1d.h"
#include "ops/api/conv2d.h"
#include "ops/api/empty.h"
#include "ops/api/im2col.h"
#include "ops/api/randn.h"
#include "reference.h"

namespace {

using mt::Tensor;
using mt::testing::expect_error;
using mt::testing::seeded_randn;
using Ints = std::vector<int64_t>;

// A convolution's geometry: padding before (top, left) may differ from after (bottom, right).
struct Geometry {
  Ints stride = {1, 1}, pad_before = {0, 0}, pad_after = {0, 0}, dilation = {1, 1};
  int64_t groups = 1;
};

// The convolution of x [N, C, H, W] by w [O, C/G, kh, kw] plus b [O], in double, summed term by term.
std::vector<double> naive_conv2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Geometry& g,
                                 Ints& out_sizes) {
  const Tensor xd = x.to(mt::kFloat64).contiguous(), wd = w.to(mt::kFloat64).contiguous();
  const double* in = xd.data_ptr<double>();
  const double* wt = wd.data_ptr<double>();
  const int64_t n = x.size(0), c = x.size(1), h = x.size(2), wi = x.size(3);
  const int64_t o = w.size(0), cg = w.size(1), kh = w.size(2), kw = w.size(3), og = o / g.groups;
  const int64_t oh = (h + g.pad_before[0] + g.pad_after[0] - g.dilation[0] * (kh - 1) - 1) / g.stride[0] + 1;
  const int64_t ow = (wi + g.pad_before[1] + g.pad_after[1] - g.dilation[1] * (kw - 1) - 1) / g.stride[1] + 1;
  out_sizes = {n, o, oh, ow};
  std::vector<double> out;
  for (int64_t b0 = 0; b0 < n; ++b0)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo) {
          double sum = b ? mt::testing::element(*b, oc) : 0.0;
          for (int64_t k = 0; k < cg; ++k) {
            const int64_t ic = oc / og * cg + k;
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                const int64_t r = y * g.stride[0] - g.pad_before[0] + i * g.dilation[0];
                const int64_t col = xo * g.stride[1] - g.pad_before[1] + j * g.dilation[1];
                if (r < 0 || r >= h || col < 0 || col >= wi) continue;
                sum += in[((b0 * c + ic) * h + r) * wi + col] * wt[((oc * cg + k) * kh + i) * kw + j];
              }
          }
          out.push_back(sum);
        }
  return out;
}

// result matches the naive convolution to `tol` relative to the sum of the terms' magnitudes' scale.
void expect_conv(const Tensor& result, const Tensor& x, const Tensor& w, const std::optional<Tensor>& b,
                 const Geometry& g, double tol) {
  Ints sizes;
  const std::vector<double> expected = naive_conv2d(x, w, b, g, sizes);
  ASSERT_EQ(result.sizes().vec(), sizes);
  mt::testing::expect_values_near(result, expected, tol);
}

struct Case {
  Ints input, weight;
  Geometry g;
  bool bias;
};

const std::vector<Case> kCases = {
    {{1, 1, 5, 5}, {1, 1, 3, 3}, {}, false},
    {{2, 3, 7, 6},
     {4, 3, 3, 2},
     {.stride = {2, 1}, .pad_before = {1, 2}, .pad_after = {1, 2}, .dilation = {1, 2}},
     true},
    {{2, 4, 6, 6}, {6, 2, 3, 3}, {.pad_before = {1, 1}, .pad_after = {1, 1}, .groups = 2}, true},
    {{1, 4, 5, 5}, {4, 1, 3, 3}, {.stride = {2, 2}, .groups = 4}, true},  // depthwise
    {{3, 2, 4, 4}, {5, 2, 1, 1}, {}, true},                               // 1 x 1
    {{0, 3, 5, 5}, {2, 3, 3, 3}, {}, true},                               // an empty batch
};

TEST(Convolution, Conv2dMatchesTheNaiveConvolution) {
  uint64_t seed = 1;
  for (const Case& c : kCases) {
    for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kBFloat16}) {
      const Tensor x = seeded_randn(c.input, seed++, dtype), w = seeded_randn(c.weight, seed++, dtype);
      const std::optional<Tensor> b =
          c.bias ? std::optional<Tensor>(seeded_randn({c.weight[0]}, seed++, dtype)) : std::nullopt;
      const Tensor r = mt::conv2d(x, w, b, c.g.stride, c.g.pad_before, c.g.dilation, c.g.groups);
      EXPECT_EQ(r.dtype(), dtype);
      const double tol = dtype == mt::kFloat64 ? 1e-12 : dtype == mt::kFloat32 ? 1e-5 : 5e-2;
      expect_conv(r, x, w, b, c.g, tol);
    }
  }
}

TEST(Convolution, AnUnbatchedInputIsOneSample) {
  const Tensor x = seeded_randn({3, 5, 6}, 10), w = seeded_randn({2, 3, 3, 3}, 11), b = seeded_randn({2}, 12);
  const Tensor r = mt::conv2d(x, w, b, 1, 1);
  EXPECT_EQ(r.sizes().vec(), (Ints{2, 5, 6}));
  expect_conv(r.unsqueeze(0), x.unsqueeze(0), w, b, {.pad_before = {1, 1}, .pad_after = {1, 1}}, 1e-5);
}

TEST(Convolution, PaddingSameKeepsTheSizeAndPadsTheFarSideMore) {
  const Tensor x = seeded_randn({2, 2, 6, 7}, 20);
  // A 3 x 3 kernel pads 1 on each side; a 4 x 2 one with dilation (1, 3) pads (1, 1) before and (2, 2) after.
  for (const auto& [kernel, dilation, before, after] : std::vector<std::tuple<Ints, Ints, Ints, Ints>>{
           {{3, 3}, {1, 1}, {1, 1}, {1, 1}}, {{4, 2}, {1, 3}, {1, 1}, {2, 2}}}) {
    const Tensor w = seeded_randn({3, 2, kernel[0], kernel[1]}, 21), b = seeded_randn({3}, 22);
    const Tensor r = mt::conv2d(x, w, b, 1, "same", dilation);
    EXPECT_EQ(r.sizes().vec(), (Ints{2, 3, 6, 7}));
    expect_conv(r, x, w, b, {.pad_before = before, .pad_after = after, .dilation = dilation}, 1e-5);
    expect_conv(mt::conv2d(x, w, b, 1, "valid", dilation), x, w, b, {.dilation = dilation}, 1e-5);
  }
}

TEST(Convolution, Conv1dIsConv2dOverOneRow) {
  const Tensor x = seeded_randn({2, 4, 9}, 30), w = seeded_randn({6, 2, 3}, 31), b = seeded_randn({6}, 32);
  const Tensor r = mt::conv1d(x, w, b, 2, 1, 2, 2);
  expect_conv(r.unsqueeze(2), x.unsqueeze(2), w.unsqueeze(2), b,
              {.stride = {1, 2}, .pad_before = {0, 1}, .pad_after = {0, 1}, .dilation = {1, 2}, .groups = 2}, 1e-5);
  const Tensor same = mt::conv1d(x, w.narrow(0, 0, 3).narrow(1, 0, 1).repeat({1, 4, 1}), std::nullopt, 1, "same");
  EXPECT_EQ(same.sizes().vec(), (Ints{2, 3, 9}));
  EXPECT_EQ(mt::conv1d(x.select(0, 0), w, b, 1, Ints{0}, 1, 2).sizes().vec(), (Ints{6, 7}));  // unbatched
}

TEST(Convolution, GradcheckAndGradgradcheckInInputWeightAndBias) {
  for (const Case& c : {kCases[1], kCases[2]}) {
    Ints input = c.input;
    input[0] = 1;
    const Tensor x = seeded_randn(input, 40, mt::kFloat64).requires_grad_(),
                 w = seeded_randn(c.weight, 41, mt::kFloat64).requires_grad_(),
                 b = seeded_randn({c.weight[0]}, 42, mt::kFloat64).requires_grad_();
    const auto f = [&](const mt::autograd::variable_list& v) {
      return mt::conv2d(v[0], v[1], v[2], c.g.stride, c.g.pad_before, c.g.dilation, c.g.groups);
    };
    EXPECT_TRUE(mt::autograd::gradcheck(f, {x, w, b}));
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x, w, b}));
  }
  const Tensor x = seeded_randn({1, 2, 7}, 43, mt::kFloat64).requires_grad_(),
               w = seeded_randn({2, 2, 4}, 44, mt::kFloat64).requires_grad_();
  EXPECT_TRUE(mt::autograd::gradcheck([](const mt::autograd::variable_list& v) {
    return mt::conv1d(v[0], v[1], std::nullopt, 1, "same");
  }, {x, w}));
}

TEST(Convolution, VmapOverSamplesOrFiltersMatchesTheLoop) {
  const Tensor x = seeded_randn({4, 2, 5, 5}, 50), w = seeded_randn({3, 2, 3, 3}, 51), b = seeded_randn({3}, 52);
  // Each sample alone ([C, H, W]) or as a batch of one; filters shared or one bank per sample.
  const mt_test::Fn conv = [](const std::vector<Tensor>& v) { return mt::conv2d(v[0], v[1], v[2], 1, 1); };
  mt_test::expect_vmap_matches_loop(conv, {x, w, b}, {0, std::nullopt, std::nullopt});
  mt_test::expect_vmap_matches_loop(conv, {x.unsqueeze(1), w, b}, {0, std::nullopt, std::nullopt});
  mt_test::expect_vmap_matches_loop(conv, {x.select(0, 0), seeded_randn({4, 3, 2, 3, 3}, 53), b},
                                    {std::nullopt, 0, std::nullopt});
  mt_test::expect_vmap_matches_loop(conv, {x.movedim(0, 3), seeded_randn({3, 2, 3, 3, 4}, 54), b},
                                    {3, 4, std::nullopt});
  // Per-sample gradients of a loss in the filters.
  const mt_test::Fn per_sample_grad = mt::grad([](const std::vector<Tensor>& v) {
    return mt::conv2d(v[0], v[1], std::nullopt, 2).square().sum();
  }, 1);
  mt_test::expect_vmap_matches_loop(per_sample_grad, {x.unsqueeze(1), w}, {0, std::nullopt}, 0, 1e-4);
}

TEST(Convolution, MetaGivesTheShape) {
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta")).dtype(mt::kFloat16);
  const Tensor r = mt::conv2d(mt::empty({8, 3, 28, 28}, meta), mt::empty({16, 3, 5, 5}, meta), std::nullopt, 2, 2);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.dtype(), mt::kFloat16);
  EXPECT_EQ(r.sizes().vec(), (Ints{8, 16, 14, 14}));
}

TEST(Convolution, AutocastRunsConvolutionsInLowerPrecision) {
  for (const char* op : {"conv1d", "conv2d", "conv1d.padding", "conv2d.padding"}) {
    EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, op), mt::autocast::CastPolicy::lower_precision_fp) << op;
    EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, op), mt::autocast::CastPolicy::lower_precision_fp) << op;
  }
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, "im2col"), std::nullopt);
}

TEST(Convolution, Conv2dErrorsNameTheProblem) {
  const Tensor x = seeded_randn({2, 3, 5, 5}, 60), w = seeded_randn({4, 3, 3, 3}, 61);
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, seeded_randn({4, 2, 3, 3}, 62)); },
                                 "Given groups=1, weight of size [4, 2, 3, 3], expected input[2, 3, 5, 5] to have 2 "
                                 "channels, but got 3 channels instead");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, seeded_randn({4, 1, 3, 3}, 63), std::nullopt, 1, Ints{0}, 1, 3); },
                                 "Given groups=3, expected weight to be divisible by 3 at dimension 0");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x.unsqueeze(0), w); }, "Expected 3D (unbatched) or 4D (batched)");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, w, seeded_randn({3}, 64)); },
                                 "expected bias to be 1-dimensional with 4 elements, but got bias of size [3]");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, w, std::nullopt, 2, "same"); },
                                 "padding='same' is not supported for strided convolutions");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, w, std::nullopt, 1, "full"); }, "Invalid padding string: 'full'");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, w, std::nullopt, Ints{1, 1, 1}); },
                                 "expected stride to be a single integer value or a list of 2 values");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, w, std::nullopt, 1, Ints{0}, 1, 0); },
                                 "non-positive groups is not supported");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, w.to(mt::kFloat64)); },
                                 "Input type (mt.float32) and weight type (mt.float64) should be the same");
  expect_error<mt::RuntimeError>([&] { mt::conv2d(x, seeded_randn({4, 3, 7, 3}, 65)); },
                                 "calculated shape of the array of sliding blocks as (0, 3), but its components must "
                                 "be at least one");
}

TEST(Convolution, Im2colAndCol2imErrorsNameTheProblem) {
  const Tensor x = seeded_randn({2, 3, 5, 5}, 70);
  expect_error<mt::RuntimeError>([&] { mt::im2col(x, {0, 3}, {1, 1}, {0, 0}, {1, 1}); },
                                 "kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 3");
  expect_error<mt::RuntimeError>([&] { mt::im2col(x, {3, 3}, {1, 1}, {-1, 0}, {1, 1}); },
                                 "padding should be non-negative, but got pad_height: -1 pad_width: 0");
  expect_error<mt::RuntimeError>([&] { mt::im2col(x, {3, 3}, {1, 1}, {0, 0}, {1, 0}); },
                                 "stride should be greater than zero, but got stride_height: 1 stride_width: 0");
  expect_error<mt::RuntimeError>([&] { mt::im2col(x, {3}, {1, 1}, {0, 0}, {1, 1}); },
                                 "It is expected kernel_size equals to 2, but got size 1");
  expect_error<mt::RuntimeError>([&] { mt::im2col(x.select(1, 0).select(1, 0), {1, 1}, {1, 1}, {0, 0}, {1, 1}); },
                                 "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                                 "dimensions for input, but got: [2, 5]");
  const Tensor cols = seeded_randn({2, 27, 9}, 71);
  expect_error<mt::RuntimeError>([&] { mt::col2im(cols, {5, 5}, {2, 2}, {1, 1}, {0, 0}, {1, 1}); },
                                 "Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                                 "but got input.size(1)=27 and kernel_size=(2, 2)");
  expect_error<mt::RuntimeError>([&] { mt::col2im(cols, {6, 5}, {3, 3}, {1, 1}, {0, 0}, {1, 1}); },
                                 "expected size of input's dimension 2 to match the calculated number of sliding "
                                 "blocks 4 * 3 = 12, but got input.size(2)=9.");
}

TEST(Convolution, CudaMatchesTheCpu) {
  const std::string why = mt_test::why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  for (const Case& c : kCases) {
    const Tensor x = seeded_randn(c.input, 80), w = seeded_randn(c.weight, 81), b = seeded_randn({c.weight[0]}, 82);
    const Tensor r = mt::conv2d(x.to(mt::kCUDA), w.to(mt::kCUDA), b.to(mt::kCUDA), c.g.stride, c.g.pad_before,
                                c.g.dilation, c.g.groups);
    EXPECT_TRUE(r.is_cuda());
    expect_conv(r.to(mt::kCPU), x, w, b, c.g, 1e-4);
    const Tensor xg = x.to(mt::kCUDA).requires_grad_();
    mt::conv2d(xg, w.to(mt::kCUDA), b.to(mt::kCUDA), c.g.stride, c.g.pad_before, c.g.dilation, c.g.groups)
        .sum()
        .backward();
    const Tensor xc = x.clone().requires_grad_();
    mt::conv2d(xc, w, b, c.g.stride, c.g.pad_before, c.g.dilation, c.g.groups).sum().backward();
    mt_test::expect_same(xg.grad().to(mt::kCPU), xc.grad(), 1e-4);
  }
}

}  // namespace
