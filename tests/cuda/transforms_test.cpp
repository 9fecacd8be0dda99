// The layers above the backend on CUDA tensors: their kernels are backend independent, so vmap, grad,
// vmap(grad), functionalize and autocast's CUDA policies give on the GPU what they give on the CPU.
// Skips without a GPU.
#include <vector>

#include "cuda/cuda_test_helpers.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/linear.h"
#include "ops/api/mm.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/softmax.h"

namespace {

using mt::Tensor;
using mt_test::expect_close_to_cpu;
using Inputs = std::vector<Tensor>;

Inputs to_cuda(const Inputs& in) {
  Inputs out;
  for (const Tensor& t : in) out.push_back(t.to(mt::kCUDA));
  return out;
}

// Per-sample loss of a one-layer classifier: x [D], y [] -> cross_entropy(W x + b, y).
Tensor sample_loss(const Inputs& in) {
  const Tensor logits = mt::linear(in[2].unsqueeze(0), in[0], in[1]);
  return mt::cross_entropy_loss(logits, in[3].unsqueeze(0));
}

TEST(CudaTransforms, PerSampleGradientsMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  mt::manual_seed(2);
  const Inputs in = {mt::randn({3, 5}), mt::randn({3}), mt::randn({8, 5}), mt::randint(0, 3, {8})};
  const auto per_sample =
      mt::vmap(mt::grad(sample_loss, std::vector<int64_t>{0, 1}), {std::nullopt, std::nullopt, 0, 0});
  const std::vector<Tensor> on_cpu = per_sample(in), on_gpu = per_sample(to_cuda(in));
  ASSERT_EQ(on_gpu.size(), on_cpu.size());
  for (size_t i = 0; i < on_cpu.size(); ++i) expect_close_to_cpu(on_gpu[i], on_cpu[i], 1e-4);
}

TEST(CudaTransforms, FunctionalizeRemovesMutationsOfCudaTensors) {
  MT_SKIP_WITHOUT_GPU();
  const auto f = [](const Inputs& in) {
    Tensor y = in[0].clone();
    y.select(0, 1).mul_(3);
    y.slice(1, 0, 2).add_(1);
    return std::vector<Tensor>{y * 2};
  };
  const Inputs in = {mt::randn({3, 4})};
  const Tensor on_cpu = mt::functionalize(f)(in)[0];
  const Tensor on_gpu = mt::functionalize(f, mt::FunctionalizeRemove::MutationsAndViews)(to_cuda(in))[0];
  expect_close_to_cpu(on_gpu, on_cpu);
  expect_close_to_cpu(on_gpu, f(in)[0]);
}

TEST(CudaTransforms, AutocastCudaRunsMatmulsInTheLowerPrecision) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor a = mt::randn({16, 32}), b = mt::randn({32, 8});
  const Tensor ac = a.to(mt::kCUDA), bc = b.to(mt::kCUDA);
  Tensor product, probabilities;
  {
    mt::AutocastGuard guard(mt::kCUDA, mt::kFloat16);
    product = mt::mm(ac, bc);
    probabilities = mt::softmax(product, 1);  // an fp32 op under CUDA autocast
  }
  EXPECT_EQ(product.dtype(), mt::kFloat16);
  EXPECT_EQ(probabilities.dtype(), mt::kFloat32);
  expect_close_to_cpu(product, mt::mm(a.to(mt::kFloat16), b.to(mt::kFloat16)), 2e-2);
  // The CPU guard leaves CUDA tensors alone.
  mt::AutocastGuard cpu_guard(mt::kCPU, mt::kBFloat16);
  EXPECT_EQ(mt::mm(ac, bc).dtype(), mt::kFloat32);
}

}  // namespace
