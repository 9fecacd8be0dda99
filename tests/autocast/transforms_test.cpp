// Autocast with the functorch transforms: the policies apply to the ops inside vmap and grad (the
// transforms run above and below the autocast key, whichever order the guard and the transform come
// in), gradients of float32 inputs come back float32, and the values match the per-sample loop.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "functorch/vmap_test_helpers.h"
#include "ops/api/addmm.h"
#include "ops/api/matmul.h"
#include "ops/api/mm.h"
#include "ops/api/randn.h"
#include "ops/api/softmax.h"
#include "ops/api/tanh.h"

namespace {

using mt::Tensor;
using Inputs = std::vector<Tensor>;

void expect_close(const Tensor& actual, const Tensor& expected, double relative) {
  ASSERT_EQ(actual.sizes().vec(), expected.sizes().vec());
  const double scale = expected.to(mt::kFloat32).abs().max().item<double>();
  EXPECT_LE((actual.to(mt::kFloat32) - expected.to(mt::kFloat32)).abs().max().item<double>(), relative * scale)
      << actual << "\n"
      << expected;
}

// x [D] -> tanh(W x + b) summed: a matmul (lower precision) feeding pointwise ops and a sum.
Tensor layer(const Inputs& in) { return mt::tanh(mt::addmm(in[2].unsqueeze(0), in[0].unsqueeze(0), in[1])).sum(); }

TEST(AutocastTransforms, VmapInsideTheGuardRunsTheMatmulInBFloat16) {
  mt::Generator g(0);
  const Tensor x = mt::randn({6, 4}, &g), w = mt::randn({4, 3}, &g);
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  const auto f = [](const Inputs& in) { return mt::matmul(in[0], in[1]); };
  const Tensor batched = mt::vmap(f, {0, std::nullopt})({x, w});
  EXPECT_EQ(batched.dtype(), mt::kBFloat16);
  const Tensor looped = mt_test::loop_and_stack(f, {x, w}, {0, std::nullopt});
  EXPECT_EQ(looped.dtype(), mt::kBFloat16);
  expect_close(batched, looped, 1e-2);
  // And against float32 outside the guard, at bf16 precision.
  mt::AutocastGuard off(mt::kCPU, mt::kBFloat16, /*enabled=*/false);
  expect_close(batched, x.matmul(w), 2e-2);
}

TEST(AutocastTransforms, AGuardInsideTheVmappedFunction) {
  const Tensor x = mt::randn({5, 3}), w = mt::randn({3, 3});
  const auto f = [](const Inputs& in) {
    mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
    return mt::mm(in[0].unsqueeze(0), in[1]).softmax(1);
  };
  const Tensor out = mt::vmap(f, {0, std::nullopt})({x, w});
  EXPECT_EQ(out.dtype(), mt::kBFloat16);
  expect_close(out, mt::softmax(x.matmul(w), 1).unsqueeze(1), 2e-2);
}

TEST(AutocastTransforms, GradUnderAutocastGivesFloat32GradientsOfFloat32Inputs) {
  mt::Generator g(1);
  const Tensor x = mt::randn({4}, &g), w = mt::randn({4, 3}, &g), b = mt::randn({3}, &g);
  const auto grads = [&] { return mt::grad(layer, std::vector<int64_t>{1, 2})({x, w, b}); };
  const std::vector<Tensor> reference = grads();
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  const std::vector<Tensor> mixed = grads();
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(mixed[i].dtype(), mt::kFloat32);
    expect_close(mixed[i], reference[i], 3e-2);
  }
}

TEST(AutocastTransforms, PerSampleGradientsUnderAutocast) {
  mt::Generator g(2);
  const Tensor xs = mt::randn({8, 4}, &g), w = mt::randn({4, 3}, &g), b = mt::randn({3}, &g);
  const auto per_sample = mt::vmap(mt::grad(layer, 1), {0, std::nullopt, std::nullopt});
  const Tensor reference = per_sample({xs, w, b});
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  const Tensor mixed = per_sample({xs, w, b});
  EXPECT_EQ(mixed.dtype(), mt::kFloat32);
  expect_close(mixed, reference, 3e-2);
}

}  // namespace
