// max_pool2d and max_pool2d_with_indices against a naive double-precision pooling (windows, strides,
// padding, dilation, ceil_mode, unbatched and empty inputs, every numeric dtype, ties and NaN), first and
// second derivatives, vmap and vmap of grad against the loop, Meta, no autocast policy, the errors, and CUDA
// against the CPU where a GPU is present; avg_pool2d (PyTorch's divisors: count_include_pad, ceil_mode,
// divisor_override) and adaptive_avg_pool2d against naive means, likewise.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "autograd/Gradcheck.h"
#include "cuda/cuda_test_helpers.h"
#include "functorch/Grad.h"
#include "functorch/Vmap.h"
#include "functorch/autocast/AutocastMode.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/adaptive_avg_pool2d.h"
#include "ops/api/avg_pool2d.h"
#include "ops/api/empty.h"
#include "ops/api/max_pool2d.h"
#include "ops/api/max_pool2d_with_indices.h"
#include "ops/api/randn.h"
#include "reference.h"

namespace {

using mt::Tensor;
using mt::testing::expect_error;
using Ints = std::vector<int64_t>;

struct Pool {
  Ints kernel, stride, padding = {0, 0}, dilation = {1, 1};
  bool ceil_mode = false;
};

// Each window's maximum (NaN if it holds one) and its position in the plane (the first among equals), in
// double, over x [planes..., H, W].
void naive_max_pool(const Tensor& x, Pool p, Ints& sizes, std::vector<double>& values, std::vector<double>& at) {
  if (p.stride.empty()) p.stride = p.kernel;
  const int64_t h = x.size(-2), w = x.size(-1);
  const auto out_size = [&](int64_t size, int d) {
    const int64_t span = size + 2 * p.padding[d] - p.dilation[d] * (p.kernel[d] - 1) - 1;
    int64_t o = (p.ceil_mode ? (span + p.stride[d] - 1) / p.stride[d] : span / p.stride[d]) + 1;
    if (p.ceil_mode && (o - 1) * p.stride[d] >= size + p.padding[d]) --o;
    return o;
  };
  const int64_t oh = out_size(h, 0), ow = out_size(w, 1), planes = x.numel() / (h * w);
  sizes = x.sizes().vec();
  sizes[sizes.size() - 2] = oh;
  sizes.back() = ow;
  const std::vector<double> v = mt::testing::values(x);
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xo = 0; xo < ow; ++xo) {
        int64_t best = -1;
        for (int64_t i = 0; i < p.kernel[0]; ++i)
          for (int64_t j = 0; j < p.kernel[1]; ++j) {
            const int64_t r = y * p.stride[0] - p.padding[0] + i * p.dilation[0];
            const int64_t c = xo * p.stride[1] - p.padding[1] + j * p.dilation[1];
            if (r < 0 || r >= h || c < 0 || c >= w) continue;
            const double e = v[pl * h * w + r * w + c];
            if (best < 0 || (!std::isnan(v[pl * h * w + best]) && (e > v[pl * h * w + best] || std::isnan(e))))
              best = r * w + c;
          }
        values.push_back(v[pl * h * w + best]);
        at.push_back(static_cast<double>(best));
      }
}

void expect_pool(const Tensor& x, const Pool& p, const std::tuple<Tensor, Tensor>& result) {
  Ints sizes;
  std::vector<double> values, at;
  naive_max_pool(x, p, sizes, values, at);
  const auto& [out, indices] = result;
  EXPECT_EQ(out.sizes().vec(), sizes);
  EXPECT_EQ(out.dtype(), x.dtype());
  EXPECT_EQ(indices.dtype(), mt::kInt64);
  const std::vector<double> got = mt::testing::values(out);
  ASSERT_EQ(got.size(), values.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(values[i])) EXPECT_TRUE(std::isnan(got[i])) << i;
    else EXPECT_EQ(got[i], values[i]) << i;
  }
  EXPECT_EQ(mt::testing::values(indices), at);
}

std::tuple<Tensor, Tensor> pool(const Tensor& x, const Pool& p) {
  return mt::max_pool2d_with_indices(x, p.kernel, p.stride, p.padding, p.dilation, p.ceil_mode);
}

Tensor randn(Ints sizes, uint64_t seed, mt::ScalarType dtype = mt::kFloat32) {
  mt::Generator g(seed);
  return mt::randn(sizes, &g, mt::TensorOptions(mt::kFloat64)).to(dtype);
}

struct Case {
  Ints input;
  Pool pool;
};
const std::vector<Case> kCases = {
    {{2, 3, 6, 6}, {.kernel = {2, 2}, .stride = {}}},  // stride omitted: the kernel size
    {{1, 2, 5, 7}, {.kernel = {3, 3}, .stride = {1, 1}, .padding = {1, 1}}},
    {{2, 1, 7, 6}, {.kernel = {3, 2}, .stride = {2, 2}, .padding = {1, 1}, .ceil_mode = true}},
    {{1, 2, 7, 7}, {.kernel = {2, 3}, .stride = {1, 2}, .dilation = {2, 1}}},
    {{3, 5, 5}, {.kernel = {2, 2}, .stride = {1, 1}}},   // one image
    {{0, 2, 4, 4}, {.kernel = {2, 2}, .stride = {2, 2}}},  // an empty batch
};

TEST(Pooling, MaxPool2dMatchesTheNaivePoolingInEveryNumericDtype) {
  uint64_t seed = 1;
  for (const Case& c : kCases)
    for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kBFloat16, mt::kFloat16, mt::kInt64, mt::kUInt8}) {
      // Integers get small values: ties, where the first in row-major order must win.
      const Tensor x = mt::is_floating_point(dtype) ? randn(c.input, seed++, dtype)
                                                    : mt::testing::random_tensor(c.input, dtype, seed++);
      expect_pool(x, c.pool, pool(x, c.pool));
      EXPECT_EQ(mt::testing::values(mt::max_pool2d(x, c.pool.kernel, c.pool.stride, c.pool.padding, c.pool.dilation,
                                                   c.pool.ceil_mode)),
                mt::testing::values(std::get<0>(pool(x, c.pool))));
    }
}

TEST(Pooling, ANaNIsTheMaximumOfEveryWindowItIsIn) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Tensor x = mt::tensor({{{1.0, nan, 3.0}, {inf, -inf, 2.0}, {0.0, 5.0, nan}}});
  const Pool p{.kernel = {2, 2}, .stride = {1, 1}};
  expect_pool(x, p, pool(x, p));
  EXPECT_TRUE(std::isnan(mt::testing::values(std::get<0>(pool(x, p)))[0]));
}

TEST(Pooling, StridedInputsGiveTheSameResult) {
  const Tensor x = randn({2, 6, 3, 5}, 10).permute({0, 2, 3, 1});  // [2, 3, 5, 6], channels last
  ASSERT_FALSE(x.is_contiguous());
  const Pool p{.kernel = {2, 3}, .stride = {1, 2}, .padding = {1, 1}};
  expect_pool(x, p, pool(x, p));
}

TEST(Pooling, GradcheckAndGradgradcheck) {
  for (const Case& c : {kCases[1], kCases[2], kCases[3]}) {
    Ints input = c.input;
    input[0] = 1;
    const Tensor x = randn(input, 20, mt::kFloat64).requires_grad_();
    const auto f = [&](const mt::autograd::variable_list& v) {
      return mt::max_pool2d(v[0], c.pool.kernel, c.pool.stride, c.pool.padding, c.pool.dilation, c.pool.ceil_mode);
    };
    EXPECT_TRUE(mt::autograd::gradcheck(f, {x}));
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x}));
  }
  // Overlapping windows sharing a maximum send it each of their gradients.
  const Tensor x = mt::tensor({{{0.0, 1.0, 0.0}, {0.0, 9.0, 0.0}, {0.0, 0.0, 0.0}}}).requires_grad_();
  mt::max_pool2d(x, {2, 2}, {1, 1}).sum().backward();
  EXPECT_EQ(mt::testing::values(x.grad()), (std::vector<double>{0, 0, 0, 0, 4, 0, 0, 0, 0}));
}

TEST(Pooling, VmapAndVmapOfGradMatchTheLoop) {
  const mt_test::Fn f = [](const std::vector<Tensor>& v) { return mt::max_pool2d(v[0], {3, 2}, {2, 1}, {1, 1}); };
  const Tensor x = randn({4, 2, 6, 5}, 30);
  mt_test::expect_vmap_matches_loop(f, {x}, {0});
  mt_test::expect_vmap_matches_loop(f, {x.unsqueeze(1)}, {0});
  mt_test::expect_vmap_matches_loop(f, {x.movedim(0, 3)}, {3});
  const mt_test::Fn indices = [](const std::vector<Tensor>& v) {
    return std::get<1>(mt::max_pool2d_with_indices(v[0], {2, 2}));
  };
  mt_test::expect_vmap_matches_loop(indices, {x.unsqueeze(1)}, {0});
  const mt_test::Fn grad = mt::grad([](const std::vector<Tensor>& v) {
    return mt::max_pool2d(v[0], {2, 2}).square().sum();
  });
  mt_test::expect_vmap_matches_loop(grad, {x}, {0}, 0, 1e-6);
}

TEST(Pooling, MetaGivesTheShapesAndNoAutocastPolicy) {
  const Tensor m = mt::empty({8, 3, 28, 27}, mt::TensorOptions(mt::Device("meta")).dtype(mt::kFloat16));
  const auto [out, indices] = mt::max_pool2d_with_indices(m, {3, 3}, {2, 2}, {1, 1}, {1, 1}, true);
  EXPECT_TRUE(out.is_meta());
  EXPECT_EQ(out.sizes().vec(), (Ints{8, 3, 15, 14}));  // ceil_mode keeps a last window of 28 rows
  EXPECT_EQ(out.dtype(), mt::kFloat16);
  EXPECT_EQ(indices.dtype(), mt::kInt64);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, "max_pool2d"), std::nullopt);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, "max_pool2d_with_indices"), std::nullopt);
}

TEST(Pooling, ErrorsNameTheProblem) {
  const Tensor x = randn({1, 2, 5, 5}, 40);
  expect_error<mt::RuntimeError>([&] { mt::max_pool2d(x, {3, 3}, {1, 1}, {2, 2}); },
                                 "pad should be smaller than or equal to half of kernel size, but got padW = 2, padH = "
                                 "2, kW = 3, kH = 3");
  expect_error<mt::RuntimeError>([&] { mt::max_pool2d(x, Ints{0, 2}); },
                                 "kernel size should be greater than zero, but got kH: 0 kW: 2");
  expect_error<mt::RuntimeError>([&] { mt::max_pool2d(x, {2, 2}, Ints{0, 1}); },
                                 "stride should be greater than zero, but got dH: 0 dW: 1");
  expect_error<mt::RuntimeError>([&] { mt::max_pool2d(x, Ints{2, 2, 2}); },
                                 "max_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  expect_error<mt::RuntimeError>(
      [&] {
        mt::max_pool2d(x, {6, 6});
      },
      "Given input size: (2x5x5). Calculated output size: (2x0x0). Output size is too small");
  expect_error<mt::RuntimeError>([&] { mt::max_pool2d(x.select(0, 0).select(0, 0), {2, 2}); },
                                 "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input");
  // Taps 3 apart from row -1 miss both rows of a 2-row input.
  expect_error<mt::RuntimeError>([&] { mt::max_pool2d(randn({1, 1, 2, 5}, 41), {2, 1}, {1, 1}, {1, 0}, {3, 1}); },
                                 "a window of the input of size (2, 5) reads only padding");
  expect_error<mt::NotImplementedError>([&] { mt::max_pool2d(x.gt(0), {2, 2}); }, "not implemented for 'mt.bool'");
}

TEST(Pooling, CudaMatchesTheCpu) {
  const std::string why = mt_test::why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  for (const Case& c : kCases) {
    const Tensor x = randn(c.input, 50);
    const auto [out, indices] = pool(x.to(mt::kCUDA), c.pool);
    EXPECT_TRUE(out.is_cuda());
    expect_pool(x, c.pool, {out.to(mt::kCPU), indices.to(mt::kCPU)});
  }
}

struct AvgCase {
  Ints input, kernel, stride, padding;
  bool ceil_mode = false, count_include_pad = true;
  std::optional<int64_t> divisor = std::nullopt;
};

// Each window's mean as PyTorch's kernel takes it: the sum of its elements inside the image, divided by the
// window's area within the padded image (count_include_pad), within the image, or by the override.
std::vector<double> naive_avg_pool(const Tensor& x, const AvgCase& c, Ints& sizes) {
  const Ints stride = c.stride.empty() ? c.kernel : c.stride;
  const int64_t h = x.size(-2), w = x.size(-1), planes = x.numel() / (h * w);
  const auto out_size = [&](int64_t size, int d) {
    const int64_t span = size + 2 * c.padding[d] - c.kernel[d];
    int64_t o = (c.ceil_mode ? (span + stride[d] - 1) / stride[d] : span / stride[d]) + 1;
    if (c.ceil_mode && (o - 1) * stride[d] >= size + c.padding[d]) --o;
    return o;
  };
  const int64_t oh = out_size(h, 0), ow = out_size(w, 1);
  sizes = x.sizes().vec();
  sizes[sizes.size() - 2] = oh;
  sizes.back() = ow;
  const std::vector<double> v = mt::testing::values(x);
  std::vector<double> out;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xo = 0; xo < ow; ++xo) {
        const int64_t top = y * stride[0] - c.padding[0], left = xo * stride[1] - c.padding[1];
        double sum = 0;
        int64_t inside = 0;
        for (int64_t r = top; r < top + c.kernel[0]; ++r)
          for (int64_t col = left; col < left + c.kernel[1]; ++col)
            if (r >= 0 && r < h && col >= 0 && col < w) {
              sum += v[(p * h + r) * w + col];
              ++inside;
            }
        const int64_t padded = (std::min(top + c.kernel[0], h + c.padding[0]) - top) *
                               (std::min(left + c.kernel[1], w + c.padding[1]) - left);
        out.push_back(sum / static_cast<double>(c.divisor ? *c.divisor : c.count_include_pad ? padded : inside));
      }
  return out;
}

const std::vector<AvgCase> kAvgCases = {
    {{2, 3, 6, 6}, {2, 2}, {}, {0, 0}},
    {{1, 2, 5, 7}, {3, 3}, {1, 2}, {1, 1}},
    {{2, 1, 7, 6}, {3, 2}, {2, 2}, {1, 1}, true},          // ceil_mode: a last window past the padding
    {{2, 1, 7, 6}, {3, 2}, {2, 2}, {1, 1}, true, false},   // ... counting the image's elements only
    {{1, 2, 5, 5}, {2, 3}, {2, 1}, {1, 1}, false, true, 5},  // divisor_override
    {{3, 5, 5}, {2, 2}, {1, 1}, {0, 0}},                    // one image
};

Tensor avg(const Tensor& x, const AvgCase& c) {
  return mt::avg_pool2d(x, c.kernel, c.stride, c.padding, c.ceil_mode, c.count_include_pad, c.divisor);
}

TEST(Pooling, AvgPool2dDividesAsPyTorch) {
  uint64_t seed = 60;
  for (const AvgCase& c : kAvgCases)
    for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kBFloat16}) {
      const Tensor x = randn(c.input, seed++, dtype);
      Ints sizes;
      const std::vector<double> expected = naive_avg_pool(x, c, sizes);
      const Tensor r = avg(x, c);
      EXPECT_EQ(r.sizes().vec(), sizes);
      EXPECT_EQ(r.dtype(), dtype);
      const double tol = dtype == mt::kFloat64 ? 1e-12 : dtype == mt::kFloat32 ? 1e-5 : 3e-2;
      const std::vector<double> got = mt::testing::values(r);
      for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], tol * (1 + std::abs(expected[i]))) << i;
    }
}

// Adaptive windows: rows floor(i * in / out) to ceil((i + 1) * in / out), overlapping where out > in.
TEST(Pooling, AdaptiveAvgPool2dAveragesPyTorchsWindows) {
  for (const auto& [input, out] : std::vector<std::pair<Ints, Ints>>{
           {{2, 3, 7, 5}, {3, 2}}, {{1, 2, 3, 4}, {5, 6}}, {{2, 4, 6}, {1, 1}}, {{1, 1, 4, 4}, {4, 4}}}) {
    const Tensor x = randn(input, 70, mt::kFloat64);
    const Tensor r = mt::adaptive_avg_pool2d(x, out);
    const int64_t h = x.size(-2), w = x.size(-1), planes = x.numel() / (h * w);
    Ints sizes = input;
    sizes[sizes.size() - 2] = out[0];
    sizes.back() = out[1];
    ASSERT_EQ(r.sizes().vec(), sizes);
    const std::vector<double> v = mt::testing::values(x), got = mt::testing::values(r);
    size_t k = 0;
    for (int64_t p = 0; p < planes; ++p)
      for (int64_t i = 0; i < out[0]; ++i)
        for (int64_t j = 0; j < out[1]; ++j, ++k) {
          const int64_t r0 = i * h / out[0], r1 = ((i + 1) * h + out[0] - 1) / out[0];
          const int64_t c0 = j * w / out[1], c1 = ((j + 1) * w + out[1] - 1) / out[1];
          double sum = 0;
          for (int64_t a = r0; a < r1; ++a)
            for (int64_t b = c0; b < c1; ++b) sum += v[(p * h + a) * w + b];
          EXPECT_NEAR(got[k], sum / static_cast<double>((r1 - r0) * (c1 - c0)), 1e-12) << k;
        }
  }
}

TEST(Pooling, AveragePoolsDifferentiateVmapAndKeepTheirDtypeUnderAutocast) {
  for (const AvgCase& c : {kAvgCases[1], kAvgCases[3], kAvgCases[4]}) {
    const Tensor x = randn(c.input, 80, mt::kFloat64).requires_grad_();
    const auto f = [&](const mt::autograd::variable_list& v) { return avg(v[0], c); };
    EXPECT_TRUE(mt::autograd::gradcheck(f, {x}));
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x}));
  }
  const Tensor x = randn({1, 2, 5, 7}, 81, mt::kFloat64).requires_grad_();
  EXPECT_TRUE(mt::autograd::gradcheck([](const mt::autograd::variable_list& v) {
    return mt::adaptive_avg_pool2d(v[0], {3, 4});
  }, {x}));
  const mt_test::Fn f = [](const std::vector<Tensor>& v) {
    return mt::avg_pool2d(v[0], {3, 2}, {2, 1}, {1, 1}, true) + mt::adaptive_avg_pool2d(v[0], {4, 6});  // [2, 4, 6]
  };
  const Tensor b = randn({4, 2, 6, 5}, 82);
  mt_test::expect_vmap_matches_loop(f, {b}, {0});
  mt_test::expect_vmap_matches_loop(f, {b.movedim(0, 3)}, {3});
  // PyTorch's lists give neither a policy: they stay in float32 under CPU autocast.
  const mt::AutocastGuard autocast(mt::kCPU, mt::kBFloat16);
  EXPECT_EQ(mt::adaptive_avg_pool2d(b, {2, 2}).dtype(), mt::kFloat32);
  EXPECT_EQ(mt::avg_pool2d(b, {2, 2}).dtype(), mt::kFloat32);
}

TEST(Pooling, AveragePoolErrorsNameTheProblem) {
  const Tensor x = randn({1, 2, 5, 5}, 90);
  expect_error<mt::RuntimeError>([&] { mt::avg_pool2d(x, {2, 2}, {}, {0, 0}, false, true, 0); },
                                 "divisor must be not zero");
  expect_error<mt::RuntimeError>([&] { mt::avg_pool2d(x, {3, 3}, {1, 1}, {2, 2}); },
                                 "pad should be smaller than or equal to half of kernel size");
  expect_error<mt::NotImplementedError>([&] { mt::avg_pool2d(x.to(mt::kInt64), {2, 2}); },
                                        "\"avg_pool2d\" not implemented for 'mt.int64'");
  expect_error<mt::RuntimeError>([&] { mt::adaptive_avg_pool2d(x, {2}); },
                                 "adaptive_avg_pool2d: output_size must be 2");
  expect_error<mt::RuntimeError>([&] { mt::adaptive_avg_pool2d(x.select(0, 0).select(0, 0), {2, 2}); },
                                 "Expected 3D or 4D (batch mode) tensor");
}

}  // namespace
