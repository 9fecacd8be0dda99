// The CUDA softmax and log_softmax (ops/cuda/SoftMaxKernel.cu) against the CPU ones: every dim of 3-D
// inputs in four layouts and every floating dtype, rows longer than a block, many short rows, the
// half_to_float result, -inf/+inf/NaN rows, 0-dim and size-1 inputs, and the losses built on log_softmax.
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "cuda_test_helpers.h"
#include "ops/api/_log_softmax.h"
#include "ops/api/_softmax.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/log_softmax.h"
#include "ops/api/nll_loss.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/softmax.h"

namespace {

using mt_test::expect_close_to_cpu;

const mt::ScalarType kFloatTypes[] = {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16};
const double kInf = std::numeric_limits<double>::infinity();

mt::Tensor random_input(mt::IntArrayRef sizes, mt::ScalarType dtype, uint64_t seed) {
  mt::Generator gen(seed);
  return (mt::randn(sizes, &gen, mt::TensorOptions(mt::kFloat64)) * 3.0).to(dtype);
}

// softmax and log_softmax along `dim` of a CPU tensor, on the GPU and on the CPU.
void expect_softmax_matches_cpu(const mt::Tensor& on_cpu, const mt::Tensor& on_cuda, int64_t dim) {
  SCOPED_TRACE("dim " + std::to_string(dim) + ", dtype " + std::string(mt::scalar_type_name(on_cpu.dtype())));
  expect_close_to_cpu(mt::softmax(on_cuda, dim), mt::softmax(on_cpu, dim));
  expect_close_to_cpu(mt::log_softmax(on_cuda, dim), mt::log_softmax(on_cpu, dim));
}

void expect_softmax_matches_cpu(const mt::Tensor& on_cpu, int64_t dim) {
  expect_softmax_matches_cpu(on_cpu, on_cpu.to(mt::kCUDA), dim);
}

TEST(CudaSoftmax, SoftmaxAndLogSoftmaxMatchCpuAlongEveryDimOfEveryLayout) {
  MT_SKIP_WITHOUT_GPU();
  // A [6, 5, 7] view of a base tensor, made alike on both devices.
  struct Layout {
    std::string name;
    std::vector<int64_t> base_sizes;
    std::function<mt::Tensor(const mt::Tensor&)> view;
  };
  const std::vector<Layout> layouts = {
      {"contiguous", {6, 5, 7}, [](const mt::Tensor& b) { return b; }},
      {"transposed", {7, 5, 6}, [](const mt::Tensor& b) { return b.transpose(0, 2); }},
      {"every other column", {6, 5, 14}, [](const mt::Tensor& b) { return b.slice(2, 0, 14, 2); }},
      {"expanded",
       {6, 1, 7},
       [](const mt::Tensor& b) {
         return b.expand({6, 5, 7});
       }},
  };
  for (mt::ScalarType dt : kFloatTypes) {
    for (const Layout& layout : layouts) {
      SCOPED_TRACE(layout.name);
      const mt::Tensor base = random_input(layout.base_sizes, dt, 1);
      for (int64_t dim : {0, 1, 2, -1})
        expect_softmax_matches_cpu(layout.view(base), layout.view(base.to(mt::kCUDA)), dim);
    }
  }
}

TEST(CudaSoftmax, LongRowsAndManyShortRowsMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat16}) {
    const mt::Tensor logits = random_input({4096, 1000}, dt, 2);
    expect_softmax_matches_cpu(logits, 1);
    expect_softmax_matches_cpu(logits, 0);  // 1000 columns of 4096
    expect_softmax_matches_cpu(random_input({2, 100000}, dt, 3), 1);
    expect_softmax_matches_cpu(random_input({100000, 3}, dt, 4), 1);
    expect_softmax_matches_cpu(random_input({8, 16, 32, 32}, dt, 5), 1);  // channels of an image batch
  }
}

TEST(CudaSoftmax, HalfToFloatGivesFloat32AsOnCpu) {
  MT_SKIP_WITHOUT_GPU();
  const mt::Tensor x = random_input({7, 300}, mt::kFloat16, 6);
  for (int64_t dim : {0, 1}) {
    const mt::Tensor on_cpu = mt::_softmax(x, dim, true), on_cuda = mt::_softmax(x.to(mt::kCUDA), dim, true);
    EXPECT_EQ(on_cuda.dtype(), mt::kFloat32);
    expect_close_to_cpu(on_cuda, on_cpu);
    expect_close_to_cpu(mt::_log_softmax(x.to(mt::kCUDA), dim, true), mt::_log_softmax(x, dim, true));
  }
}

TEST(CudaSoftmax, InfinitiesAndNaNGiveTheCpuResults) {
  MT_SKIP_WITHOUT_GPU();
  // Rows: masked entries (-inf), all masked (NaN), one +inf, two +inf, a NaN, huge values.
  mt::Tensor x = random_input({6, 5}, mt::kFloat64, 7).contiguous().clone();
  double* p = x.data_ptr<double>();
  p[1] = p[3] = -kInf;
  for (int i = 5; i < 10; ++i) p[i] = -kInf;
  p[12] = kInf;
  p[16] = p[19] = kInf;
  p[22] = std::numeric_limits<double>::quiet_NaN();
  for (int i = 25; i < 30; ++i) p[i] = 1e4 + i;
  for (mt::ScalarType dt : kFloatTypes) {
    expect_softmax_matches_cpu(x.to(dt), 1);
    expect_softmax_matches_cpu(x.to(dt), 0);
  }
}

TEST(CudaSoftmax, ZeroDimAndSizeOneDimsMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  expect_softmax_matches_cpu(random_input({}, mt::kFloat32, 8), 0);
  const mt::Tensor x = random_input({1, 4, 1}, mt::kFloat32, 9);
  for (int64_t dim : {0, 1, 2}) expect_softmax_matches_cpu(x, dim);
}

TEST(CudaSoftmax, CrossEntropyAndNllLossMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  mt::Generator gen(10);
  const mt::Tensor logits = random_input({64, 10}, mt::kFloat32, 11);
  const mt::Tensor target = mt::randint(0, 10, {64}, &gen);
  const mt::Tensor logits_cuda = logits.to(mt::kCUDA), target_cuda = target.to(mt::kCUDA);
  expect_close_to_cpu(mt::cross_entropy_loss(logits_cuda, target_cuda), mt::cross_entropy_loss(logits, target));
  expect_close_to_cpu(mt::nll_loss(mt::log_softmax(logits_cuda, 1), target_cuda),
                      mt::nll_loss(mt::log_softmax(logits, 1), target));
  // Class probabilities as targets: log_softmax and a sum over the class dim.
  const mt::Tensor probs = mt::softmax(random_input({64, 10}, mt::kFloat32, 12), 1);
  expect_close_to_cpu(mt::cross_entropy_loss(logits_cuda, probs.to(mt::kCUDA)), mt::cross_entropy_loss(logits, probs));
}

}  // namespace
