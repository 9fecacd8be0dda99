// Tensors crossing between the CPU and the GPU, as a user meets them: to(device) both ways for every
// dtype, layout and size (large ones go through the pinned staging buffers), copy_ across devices
// with broadcasting and conversion, item() and printing of CUDA tensors, the factories on CUDA, the
// error for ops that mix devices, autograd on CUDA against the CPU, and Module::to. Skips without a GPU.
#include <sstream>
#include <string>
#include <vector>

#include "cuda/cuda_test_helpers.h"
#include "ops/api/arange.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/eq.h"
#include "ops/api/eye.h"
#include "ops/api/full.h"
#include "ops/api/gelu.h"
#include "ops/api/linear.h"
#include "ops/api/linspace.h"
#include "ops/api/mm.h"
#include "ops/api/mul.h"
#include "ops/api/ones.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::error_of;
using mt_test::expect_close_to_cpu;
using mt_test::kOnCuda;

// Two CPU tensors of one dtype and shape with equal elements.
bool same(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() && mt::eq(a, b).all().item<bool>();
}

TEST(CudaTransfer, ToDeviceAndBackKeepsEveryDtypeAndLayout) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dtype : mt_test::with_narrow_integers(
           {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16, mt::kInt64, mt::kBool})) {
    SCOPED_TRACE(mt::scalar_type_name(dtype));
    const Tensor x = (mt::randn({37, 29}) * 10).to(dtype);
    const Tensor on_gpu = x.to(mt::kCUDA);
    EXPECT_TRUE(on_gpu.is_cuda());
    EXPECT_EQ(on_gpu.device().str(), "cuda:0");  // the current device
    expect_close_to_cpu(on_gpu, x, 0);
    EXPECT_TRUE(same(on_gpu.to(mt::kCPU), x));
    // Strided views go over as their values, in both directions.
    expect_close_to_cpu(x.t().to(mt::kCUDA), x.t(), 0);
    EXPECT_TRUE(same(on_gpu.t().to(mt::kCPU), x.t()));
    EXPECT_TRUE(same(on_gpu.slice(1, 3, 20, 4).to(mt::kCPU), x.slice(1, 3, 20, 4)));
  }
}

TEST(CudaTransfer, LargeCopiesGoThroughThePinnedStagingChunks) {
  MT_SKIP_WITHOUT_GPU();
  // 9 MiB + 12 bytes: more than two 4 MiB chunks, and a partial last one.
  const int64_t n = (9 << 20) / 4 + 3;
  const Tensor x = mt::arange(n, mt::kFloat32).mul(0.5);
  const Tensor on_gpu = x.to(mt::kCUDA);
  EXPECT_TRUE(same(on_gpu.to(mt::kCPU), x));
  EXPECT_EQ(on_gpu.select(0, n - 1).item<float>(), static_cast<float>(n - 1) * 0.5f);
}

TEST(CudaTransfer, ToWithADtypeConvertsOnEitherSide) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor x = mt::randn({100}) * 100;
  expect_close_to_cpu(x.to(mt::TensorOptions().device(mt::kCUDA).dtype(mt::kFloat16)), x.to(mt::kFloat16), 0);
  const Tensor back = x.to(mt::kCUDA).to(mt::TensorOptions().device(mt::kCPU).dtype(mt::kInt64));
  EXPECT_TRUE(same(back, x.to(mt::kInt64)));
}

TEST(CudaTransfer, CopyAcrossDevicesBroadcastsAndConverts) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor row = mt::arange(6, mt::kFloat64);
  Tensor on_gpu = mt::zeros({4, 6}, kOnCuda);
  on_gpu.copy_(row);  // CPU row broadcast into a CUDA matrix, float64 -> float32
  expect_close_to_cpu(on_gpu, row.to(mt::kFloat32).expand({4, 6}).contiguous(), 0);
  Tensor cpu_t = mt::zeros({6, 4}, mt::kFloat16).t();  // a non-contiguous CPU destination
  cpu_t.copy_(on_gpu);
  EXPECT_TRUE(same(cpu_t, row.to(mt::kFloat16).expand({4, 6})));
  EXPECT_EQ(error_of([&] { on_gpu.copy_(mt::ones({5})); }),
            "The size of tensor a (6) must match the size of tensor b (5) at non-singleton dimension 1");
}

TEST(CudaTransfer, ItemAndPrintingReadTheDevice) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor x = mt::tensor({1.5f, -2.0f, 3.25f}).to(mt::kCUDA);
  EXPECT_EQ(x.select(0, 2).item<float>(), 3.25f);
  EXPECT_EQ(mt::tensor({int64_t{7}}).to(mt::kCUDA).item<int64_t>(), 7);
  std::ostringstream printed;
  printed << x;
  EXPECT_EQ(printed.str(), "tensor([ 1.5000, -2.0000,  3.2500], device='cuda:0')");
}

TEST(CudaTransfer, FactoriesOnCudaGiveTheCpuValues) {
  MT_SKIP_WITHOUT_GPU();
  expect_close_to_cpu(mt::zeros({3, 4}, kOnCuda), mt::zeros({3, 4}), 0);
  expect_close_to_cpu(mt::ones({5}, kOnCuda.dtype(mt::kInt64)), mt::ones({5}, mt::kInt64), 0);
  expect_close_to_cpu(mt::full({2, 2}, 2.5, kOnCuda.dtype(mt::kBFloat16)), mt::full({2, 2}, 2.5, mt::kBFloat16), 0);
  expect_close_to_cpu(mt::arange(0, 10, 3, kOnCuda), mt::arange(0, 10, 3), 0);
  expect_close_to_cpu(mt::linspace(-1, 1, 7, kOnCuda), mt::linspace(-1, 1, 7), 0);
  expect_close_to_cpu(mt::eye(3, 4, kOnCuda), mt::eye(3, 4), 0);
  // A seed draws the same tensor on either device.
  mt::manual_seed(3);
  const Tensor r_gpu = mt::randn({64}, kOnCuda);
  mt::manual_seed(3);
  expect_close_to_cpu(r_gpu, mt::randn({64}), 0);
  mt::manual_seed(4);
  const Tensor i_gpu = mt::randint(0, 9, {64}, nullptr, kOnCuda);
  mt::manual_seed(4);
  expect_close_to_cpu(i_gpu, mt::randint(0, 9, {64}), 0);
}

TEST(CudaTransfer, OpsMixingDevicesNameBothDevices) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor a = mt::ones({3}, kOnCuda), b = mt::ones({3});
  const std::string both = "Expected all tensors to be on the same device, but found at least two devices, ";
  EXPECT_EQ(error_of([&] { (void)(a + b); }), both + "cuda:0 and cpu!");
  EXPECT_EQ(error_of([&] { (void)mt::mul(b, a); }), both + "cpu and cuda:0!");
  EXPECT_EQ(error_of([&] { (void)mt::where(a > 0, a, b); }), both + "cuda:0 and cpu!");
  EXPECT_EQ(error_of([&] { (void)mt::mm(a.reshape({3, 1}), b.reshape({1, 3})); }), both + "cuda:0 and cpu!");
  EXPECT_EQ(error_of([&] { (void)a.index_select(0, mt::zeros({1}, mt::kInt64)); }), both + "cuda:0 and cpu!");
  // A 0-dim CPU tensor is the one exception, as in PyTorch.
  EXPECT_NO_THROW((void)(a + mt::full({}, 2.0)));
}

TEST(CudaTransfer, AutogradOnCudaMatchesCpu) {
  MT_SKIP_WITHOUT_GPU();
  mt::manual_seed(5);
  const Tensor x = mt::randn({16, 8}), w = mt::randn({4, 8}), b = mt::randn({4});
  const Tensor y = mt::randint(0, 4, {16});
  auto grads = [&](mt::Device device) {
    const Tensor wd = w.to(device).requires_grad_(), bd = b.to(device).requires_grad_();
    const Tensor logits = mt::gelu(mt::linear(x.to(device), wd, bd));
    const Tensor loss = mt::cross_entropy_loss(logits, y.to(device)) + (wd * wd).sum() * 0.01;
    loss.backward();
    return std::vector<Tensor>{loss.detach(), wd.grad(), bd.grad()};
  };
  const std::vector<Tensor> on_gpu = grads(mt::Device(mt::kCUDA)), on_cpu = grads(mt::Device(mt::kCPU));
  for (size_t i = 0; i < on_cpu.size(); ++i) expect_close_to_cpu(on_gpu[i], on_cpu[i], 1e-4);
}

TEST(CudaTransfer, ModuleToMovesParametersTheLayersAndOptimizersHold) {
  MT_SKIP_WITHOUT_GPU();
  auto linear = std::make_shared<mt::nn::Linear>(3, 2);
  const Tensor weight = linear->parameters()[0];
  const Tensor before = weight.detach().clone();
  linear->to(mt::Device(mt::kCUDA));
  EXPECT_TRUE(weight.is_cuda());  // the same tensor, moved
  EXPECT_TRUE(weight.requires_grad());
  expect_close_to_cpu(weight.detach(), before, 0);
  const Tensor out = linear->forward(mt::ones({1, 3}, kOnCuda));
  EXPECT_TRUE(out.is_cuda());
  out.sum().backward();
  EXPECT_TRUE(weight.grad().is_cuda());
}

}  // namespace
