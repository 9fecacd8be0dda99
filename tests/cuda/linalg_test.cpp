// The CUDA GEMM and dot kernels against the CPU ones: mm, bmm, addmm (every beta, expanded biases, NaN
// ignored at beta 0, in place), the out= forms, matmul of every rank combination, linear and dot, for
// every dtype they support, with operands and outputs cuBLAS reads in place (row- or column-major, a
// batch stride of 0) and ones it cannot (copied first), degenerate sizes, large products at float32
// tolerance, and the errors.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cuda_test_helpers.h"
#include "ops/api/addmm.h"
#include "ops/api/bmm.h"
#include "ops/api/dot.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/linear.h"
#include "ops/api/matmul.h"
#include "ops/api/mm.h"
#include "ops/api/ones.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::error_of;
using mt_test::expect_close_to_cpu;

const std::vector<mt::ScalarType> kMatmulTypes =
    mt_test::with_narrow_integers({mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16, mt::kInt64});

Tensor cuda(const Tensor& t) { return t.to(mt::kCUDA); }

// Normal values, or integers in [-5, 5) for the integer types (products wrap alike on both devices).
Tensor sample(std::vector<int64_t> sizes, mt::ScalarType dt, uint64_t seed) {
  mt::Generator gen(seed);
  if (mt::is_integral(dt, false)) return mt::randint(-5, 5, sizes, &gen).to(dt);
  return mt::randn(sizes, &gen).to(dt);
}

// A matrix of rows x cols in one of the layouts GEMM meets, made alike on the CPU and the GPU.
enum class Layout { Contiguous, Transposed, PaddedRows, EverySecondColumn };
const Layout kLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::PaddedRows, Layout::EverySecondColumn};

struct Pair {
  Tensor cpu, gpu;
};

Pair matrix(int64_t rows, int64_t cols, Layout layout, mt::ScalarType dt, uint64_t seed) {
  switch (layout) {
    case Layout::Contiguous: {
      const Tensor t = sample({rows, cols}, dt, seed);
      return {t, cuda(t)};
    }
    case Layout::Transposed: {  // column-major
      const Tensor t = sample({cols, rows}, dt, seed);
      return {t.t(), cuda(t).t()};
    }
    case Layout::PaddedRows: {  // row-major with a leading dimension larger than cols
      const Tensor t = sample({rows, cols + 3}, dt, seed);
      return {t.slice(1, 0, cols), cuda(t).slice(1, 0, cols)};
    }
    case Layout::EverySecondColumn: {  // neither row- nor column-major: copied before cuBLAS
      const Tensor t = sample({rows, 2 * cols}, dt, seed);
      return {t.slice(1, 0, std::nullopt, 2), cuda(t).slice(1, 0, std::nullopt, 2)};
    }
  }
  return {};
}

TEST(CudaLinalg, MmMatchesCpuForEveryDtypeAndOperandLayout) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kMatmulTypes) {
    for (Layout la : kLayouts) {
      for (Layout lb : kLayouts) {
        const Pair a = matrix(5, 7, la, dt, 1), b = matrix(7, 3, lb, dt, 2);
        expect_close_to_cpu(mt::mm(a.gpu, b.gpu), mt::mm(a.cpu, b.cpu));
      }
    }
    // One row, one column, an outer product, and an empty inner dim (a matrix of zeros).
    const std::vector<std::array<int64_t, 3>> sizes = {{1, 7, 3}, {5, 7, 1}, {1, 7, 1},
                                                       {5, 1, 3}, {5, 0, 3}, {0, 4, 3}};
    for (auto [m, k, n] : sizes) {
      const Pair a = matrix(m, k, Layout::Contiguous, dt, 3), b = matrix(k, n, Layout::Transposed, dt, 4);
      expect_close_to_cpu(a.gpu.mm(b.gpu), a.cpu.mm(b.cpu));
    }
  }
  // Integers over many tiles, sizes not multiples of the tile; uint8 and int16 sums wrap.
  for (mt::ScalarType dt : {mt::kInt64, mt::kInt32, mt::kInt16, mt::kUInt8}) {
    SCOPED_TRACE(mt::scalar_type_name(dt));
    const Pair a = matrix(100, 200, Layout::Transposed, dt, 5), b = matrix(200, 150, Layout::Contiguous, dt, 6);
    expect_close_to_cpu(mt::mm(a.gpu, b.gpu), mt::mm(a.cpu, b.cpu));
  }
}

TEST(CudaLinalg, MmOutWritesIntoEveryOutLayout) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kMatmulTypes) {
    const Pair a = matrix(6, 4, Layout::Contiguous, dt, 7), b = matrix(4, 5, Layout::PaddedRows, dt, 8);
    const Tensor want = mt::mm(a.cpu, b.cpu);
    // Column-major and row-major with padding: written in place; every second element: through a copy.
    for (Layout layout : {Layout::Transposed, Layout::PaddedRows, Layout::EverySecondColumn}) {
      const Pair out = matrix(6, 5, layout, dt, 9);
      Tensor gpu_out = out.gpu;
      Tensor& written = mt::mm_out(gpu_out, a.gpu, b.gpu);
      EXPECT_TRUE(written.is_same(gpu_out));
      expect_close_to_cpu(gpu_out, want);
    }
    // An empty out is resized.
    Tensor resized = mt::empty({0}, dt).to(mt::kCUDA);
    mt::mm_out(resized, a.gpu, b.gpu);
    expect_close_to_cpu(resized, want);
  }
}

TEST(CudaLinalg, AddmmMatchesCpuForEveryBetaAlphaAndBias) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kMatmulTypes) {
    const Pair a = matrix(6, 8, Layout::Transposed, dt, 10), b = matrix(8, 5, Layout::Contiguous, dt, 11);
    const Tensor full = sample({6, 5}, dt, 12), row = sample({5}, dt, 13), column = sample({6, 1}, dt, 14);
    const Tensor scalar = sample({}, dt, 15);
    for (const Tensor& bias : {full, row, column, scalar}) {
      for (double beta : {0.0, 1.0, 0.5, -2.0}) {
        for (double alpha : {1.0, -2.0, 0.0}) {
          const bool integral = mt::is_integral(dt, false);
          if (integral && beta == 0.5) continue;  // an integer tensor takes integer scalars
          const mt::Scalar s_beta = integral ? mt::Scalar(int64_t(beta)) : mt::Scalar(beta);
          const mt::Scalar s_alpha = integral ? mt::Scalar(int64_t(alpha)) : mt::Scalar(alpha);
          expect_close_to_cpu(mt::addmm(cuda(bias), a.gpu, b.gpu, s_beta, s_alpha),
                              mt::addmm(bias, a.cpu, b.cpu, s_beta, s_alpha));
        }
      }
    }
  }
  // beta == 0 ignores self, NaN included.
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const Pair a = matrix(4, 3, Layout::Contiguous, dt, 16), b = matrix(3, 2, Layout::Contiguous, dt, 17);
    const Tensor nan = mt::full({4, 2}, NAN, dt);
    const Tensor got = mt::addmm(cuda(nan), a.gpu, b.gpu, 0.0, 1.0);
    expect_close_to_cpu(got, mt::mm(a.cpu, b.cpu));
    expect_close_to_cpu(mt::addmm(cuda(nan), a.gpu, b.gpu, 0.0, 0.0), mt::zeros({4, 2}, dt));
  }
}

TEST(CudaLinalg, AddmmInPlaceOnEverySelfLayout) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kMatmulTypes) {
    const Pair a = matrix(6, 8, Layout::PaddedRows, dt, 18), b = matrix(8, 5, Layout::Transposed, dt, 19);
    for (Layout layout : kLayouts) {
      for (double beta : {1.0, 0.0, 3.0}) {
        const Pair self = matrix(6, 5, layout, dt, 20);
        const mt::Scalar s_beta = mt::is_integral(dt, false) ? mt::Scalar(int64_t(beta)) : mt::Scalar(beta);
        self.cpu.addmm_(a.cpu, b.cpu, s_beta, 2);
        const Tensor& same = self.gpu.addmm_(a.gpu, b.gpu, s_beta, 2);
        EXPECT_TRUE(same.is_same(self.gpu));
        expect_close_to_cpu(self.gpu, self.cpu);
      }
    }
  }
  // beta == 0 overwrites a NaN self.
  const Tensor nan = mt::full({3, 3}, NAN), nan_gpu = cuda(nan);
  const Pair a = matrix(3, 2, Layout::Contiguous, mt::kFloat32, 21),
             b = matrix(2, 3, Layout::Contiguous, mt::kFloat32, 22);
  nan.addmm_(a.cpu, b.cpu, 0.0);
  nan_gpu.addmm_(a.gpu, b.gpu, 0.0);
  expect_close_to_cpu(nan_gpu, nan);
}

TEST(CudaLinalg, BmmMatchesCpuWithExpandedTransposedAndInterleavedBatches) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kMatmulTypes) {
    const Tensor a = sample({4, 5, 6}, dt, 23), b = sample({4, 6, 3}, dt, 24);
    expect_close_to_cpu(mt::bmm(cuda(a), cuda(b)), mt::bmm(a, b));
    // Transposed matrices, and batches interleaved in memory (batch stride smaller than a matrix).
    const Tensor at = sample({4, 6, 5}, dt, 25), bi = sample({6, 4, 3}, dt, 26);
    expect_close_to_cpu(cuda(at).transpose(1, 2).bmm(cuda(bi).transpose(0, 1)),
                        at.transpose(1, 2).bmm(bi.transpose(0, 1)));
    // An expanded operand: batch stride 0.
    const Tensor one = sample({1, 5, 6}, dt, 27);
    expect_close_to_cpu(mt::bmm(cuda(one).expand({4, 5, 6}), cuda(b)), mt::bmm(one.expand({4, 5, 6}), b));
    // Into a column-major out, and into an interleaved one (through a copy).
    const Tensor want = mt::bmm(a, b);
    Tensor column_major = mt::empty({4, 3, 5}, dt).to(mt::kCUDA).transpose(1, 2);
    mt::bmm_out(column_major, cuda(a), cuda(b));
    expect_close_to_cpu(column_major, want);
    Tensor interleaved = mt::empty({5, 4, 3}, dt).to(mt::kCUDA).transpose(0, 1);
    mt::bmm_out(interleaved, cuda(a), cuda(b));
    expect_close_to_cpu(interleaved, want);
  }
  // Many entries, and one entry.
  const Tensor a = sample({300, 8, 16}, mt::kFloat32, 28), b = sample({300, 16, 4}, mt::kFloat32, 29);
  expect_close_to_cpu(mt::bmm(cuda(a), cuda(b)), mt::bmm(a, b));
  expect_close_to_cpu(mt::bmm(cuda(a).slice(0, 0, 1), cuda(b).slice(0, 0, 1)),
                      mt::bmm(a.slice(0, 0, 1), b.slice(0, 0, 1)));
}

TEST(CudaLinalg, MatmulMatchesCpuForEveryRankCombination) {
  MT_SKIP_WITHOUT_GPU();
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
      {{7}, {7}},       {{5, 7}, {7}},    {{7}, {7, 3}},       {{5, 7}, {7, 3}},          {{2, 5, 7}, {7, 3}},
      {{2, 5, 7}, {7}}, {{7}, {2, 7, 3}}, {{5, 7}, {2, 7, 3}}, {{2, 1, 5, 7}, {3, 7, 4}}, {{3, 2, 5, 7}, {2, 7, 4}}};
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat16, mt::kInt64, mt::kInt32, mt::kUInt8}) {
    uint64_t seed = 30;
    for (const auto& [sa, sb] : shapes) {
      const Tensor a = sample(sa, dt, seed++), b = sample(sb, dt, seed++);
      expect_close_to_cpu(mt::matmul(cuda(a), cuda(b)), mt::matmul(a, b));
    }
    // A batch that does not fold into rows (transposed batch dims) goes through bmm.
    const Tensor a = sample({5, 2, 7}, dt, seed++), b = sample({7, 3}, dt, seed++);
    expect_close_to_cpu(cuda(a).transpose(0, 1).matmul(cuda(b)), a.transpose(0, 1).matmul(b));
  }
}

TEST(CudaLinalg, LinearMatchesCpuWithAndWithoutBias) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const Tensor weight = sample({5, 6}, dt, 40), bias = sample({5}, dt, 41);
    for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{4, 6}, {2, 3, 6}, {6}}) {
      const Tensor input = sample(shape, dt, 42);
      expect_close_to_cpu(mt::linear(cuda(input), cuda(weight), cuda(bias)), mt::linear(input, weight, bias));
      expect_close_to_cpu(mt::linear(cuda(input), cuda(weight)), mt::linear(input, weight));
    }
  }
}

TEST(CudaLinalg, DotMatchesCpuForEveryDtypeAndStride) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kMatmulTypes) {
    const Tensor a = sample({37}, dt, 43), b = sample({111}, dt, 44);
    const Tensor every_third = b.slice(0, 0, std::nullopt, 3), every_third_gpu = cuda(b).slice(0, 0, std::nullopt, 3);
    expect_close_to_cpu(mt::dot(cuda(a), every_third_gpu), mt::dot(a, every_third));
    expect_close_to_cpu(cuda(a).dot(cuda(a)), a.dot(a));
    const Tensor empty = mt::empty({0}, dt);
    expect_close_to_cpu(mt::dot(cuda(empty), cuda(empty)), mt::dot(empty, empty));
  }
  // Many blocks of partial sums; small integers keep every partial sum exact, whatever the order.
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64, mt::kInt64, mt::kInt32, mt::kUInt8, mt::kInt8}) {
    const Tensor a = sample({300001}, mt::kInt64, 45).to(dt), b = sample({300001}, mt::kInt64, 46).to(dt);
    expect_close_to_cpu(mt::dot(cuda(a), cuda(b)), mt::dot(a, b));
  }
}

TEST(CudaLinalg, LargeProductsMatchCpuAtTheDtypesTolerance) {
  MT_SKIP_WITHOUT_GPU();
  // The left operand is scaled by 1 / sqrt(k), as a layer's weights are, so that the results are about
  // one in size: the two devices' rounding errors then stay far below the absolute tolerance near zero.
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const Tensor a = (sample({512, 384}, mt::kFloat64, 47) / std::sqrt(384.0)).to(dt);
    const Tensor b = sample({384, 256}, dt, 48);
    expect_close_to_cpu(mt::mm(cuda(a), cuda(b)), mt::mm(a, b));
    // As linear reads its weight: transposed.
    const Tensor weight = sample({256, 384}, dt, 49), bias = sample({256}, dt, 50);
    expect_close_to_cpu(mt::linear(cuda(a), cuda(weight), cuda(bias)), mt::linear(a, weight, bias));
  }
  const Tensor a = sample({8, 128, 64}, mt::kFloat32, 51) / 8.0, b = sample({8, 64, 96}, mt::kFloat32, 52);
  expect_close_to_cpu(mt::bmm(cuda(a), cuda(b)), mt::bmm(a, b));
}

TEST(CudaLinalg, UnsupportedDtypesAndBadShapesRaiseAsOnCpu) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor flags = mt::ones({2, 2}, mt::kBool);
  EXPECT_THROW((void)mt::mm(cuda(flags), cuda(flags)), mt::NotImplementedError);
  EXPECT_THROW((void)mt::bmm(cuda(flags).unsqueeze(0), cuda(flags).unsqueeze(0)), mt::NotImplementedError);
  EXPECT_THROW((void)mt::dot(cuda(flags[0]), cuda(flags[0])), mt::NotImplementedError);
  const Tensor a = mt::ones({2, 3}), b = mt::ones({4, 2});
  const std::string want = error_of([&] { (void)mt::mm(a, b); });
  EXPECT_FALSE(want.empty());
  EXPECT_EQ(error_of([&] { (void)mt::mm(cuda(a), cuda(b)); }), want);
  const std::string bmm_want = error_of([&] { (void)mt::bmm(a.unsqueeze(0), b.unsqueeze(0)); });
  EXPECT_EQ(error_of([&] { (void)mt::bmm(cuda(a).unsqueeze(0), cuda(b).unsqueeze(0)); }), bmm_want);
}

}  // namespace
