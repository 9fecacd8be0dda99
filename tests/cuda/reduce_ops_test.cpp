// The CUDA reductions (ops/cuda/ReduceOpsKernel.cu) against the same reductions on the CPU: every dim
// list of 3-D inputs in five layouts (so both thread layouts of the kernel, rows and columns, run), keepdim,
// every dtype the CPU accepts, NaN and inf, ties of the arg-reductions, empty reductions, 0-dim and
// size-1 dims, high-rank permuted inputs, and reductions large enough to be split over blocks.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "cuda_test_helpers.h"
#include "ops/api/all.h"
#include "ops/api/amax.h"
#include "ops/api/amin.h"
#include "ops/api/any.h"
#include "ops/api/argmax.h"
#include "ops/api/argmin.h"
#include "ops/api/full.h"
#include "ops/api/logsumexp.h"
#include "ops/api/max.h"
#include "ops/api/mean.h"
#include "ops/api/min.h"
#include "ops/api/norm.h"
#include "ops/api/prod.h"
#include "ops/api/randint.h"
#include "ops/api/std.h"
#include "ops/api/sum.h"
#include "ops/api/var.h"
#include "ops/api/zeros.h"

namespace {

using Dims = std::vector<int64_t>;
using Reduction = std::function<mt::Tensor(const mt::Tensor&)>;
using mt_test::expect_close_to_cpu;

const std::vector<mt::ScalarType> kAllTypes =
    mt_test::with_narrow_integers({mt::kBool, mt::kInt64, mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16});
const std::vector<mt::ScalarType> kNumericTypes =
    mt_test::with_narrow_integers({mt::kInt64, mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16});
const mt::ScalarType kFloatTypes[] = {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16};
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Random CPU values of `dtype`, exact in every dtype so that sums are exact on both devices (the CPU
// adds float32 runs in float32): halves in [-4, 4] or integers in [-8, 8], with many ties and zeros;
// bools are random truth values.
mt::Tensor random_input(mt::IntArrayRef sizes, mt::ScalarType dtype, uint64_t seed) {
  mt::Generator gen(seed);
  if (dtype == mt::kBool) return mt::randint(0, 2, sizes, &gen).to(mt::kBool);
  const mt::Tensor ints = mt::randint(-8, 9, sizes, &gen);
  return mt::is_integral(dtype, false) ? ints.to(dtype) : (ints.to(mt::kFloat64) * 0.5).to(dtype);
}

// A float64 copy of `t` with `value` at the given flat positions, converted to `dtype`.
mt::Tensor with_values(const mt::Tensor& t, std::initializer_list<int64_t> at, double value, mt::ScalarType dtype) {
  mt::Tensor d = t.to(mt::kFloat64).contiguous().clone();
  for (int64_t i : at) d.data_ptr<double>()[i] = value;
  return d.to(dtype);
}

// A [6, 5, 7] view of a CPU base tensor, made alike on the CPU and on the GPU.
struct Layout {
  std::string name;
  Dims base_sizes;
  std::function<mt::Tensor(const mt::Tensor&)> view;
};

std::vector<Layout> layouts() {
  return {
      {"contiguous", {6, 5, 7}, [](const mt::Tensor& b) { return b; }},
      {"transposed", {7, 5, 6}, [](const mt::Tensor& b) { return b.transpose(0, 2); }},
      {"permuted",
       {5, 7, 6},
       [](const mt::Tensor& b) {
         return b.permute({2, 0, 1});
       }},
      {"every other column", {6, 5, 14}, [](const mt::Tensor& b) { return b.slice(2, 1, 14, 2); }},
      {"expanded",
       {6, 1, 7},
       [](const mt::Tensor& b) {
         return b.expand({6, 5, 7});
       }},
  };
}

std::vector<Dims> dim_lists() { return {{}, {2}, {0}, {1}, {0, 2}, {2, 0}, {0, 1}, {-1, -2}, {0, 1, 2}}; }

std::string describe(const std::string& layout, const Dims& dims, bool keepdim) {
  std::string s = layout + ", dims [";
  for (int64_t d : dims) s += std::to_string(d) + ",";
  return s + "], keepdim " + std::to_string(keepdim);
}

// `reduce(x, dims, keepdim)` on the GPU matches the CPU for every layout and dim list.
void expect_matches_cpu_everywhere(mt::ScalarType dtype, uint64_t seed,
                                   const std::function<mt::Tensor(const mt::Tensor&, const Dims&, bool)>& reduce) {
  for (const Layout& layout : layouts()) {
    const mt::Tensor base = random_input(layout.base_sizes, dtype, seed);
    const mt::Tensor on_cpu = layout.view(base), on_cuda = layout.view(base.to(mt::kCUDA));
    for (const Dims& dims : dim_lists()) {
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(describe(layout.name, dims, keepdim) + ", dtype " + std::string(mt::scalar_type_name(dtype)));
        expect_close_to_cpu(reduce(on_cuda, dims, keepdim), reduce(on_cpu, dims, keepdim));
      }
    }
  }
}

void expect_matches_cpu(const mt::Tensor& on_cpu, const Reduction& reduce) {
  expect_close_to_cpu(reduce(on_cpu.to(mt::kCUDA)), reduce(on_cpu));
}

TEST(CudaReductions, SumMeanProdOverAnyDimsMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kAllTypes) {
    expect_matches_cpu_everywhere(dt, 1, [](const mt::Tensor& x, const Dims& d, bool k) { return mt::sum(x, d, k); });
    if (mt::is_floating_point(dt)) {
      expect_matches_cpu_everywhere(dt, 2,
                                    [](const mt::Tensor& x, const Dims& d, bool k) { return mt::mean(x, d, k); });
    }
    for (int64_t dim : {0, 1, 2, -1}) {
      for (const Layout& layout : layouts()) {
        SCOPED_TRACE(layout.name + ", prod over dim " + std::to_string(dim));
        const mt::Tensor base = random_input(layout.base_sizes, dt, 3);
        expect_close_to_cpu(mt::prod(layout.view(base.to(mt::kCUDA)), dim), mt::prod(layout.view(base), dim));
      }
    }
    expect_matches_cpu(random_input({4, 6}, dt, 4), [](const mt::Tensor& x) { return mt::prod(x); });
  }
}

TEST(CudaReductions, AmaxAminMatchCpuAndNaNWins) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kAllTypes) {
    expect_matches_cpu_everywhere(dt, 5, [](const mt::Tensor& x, const Dims& d, bool k) { return mt::amax(x, d, k); });
    expect_matches_cpu_everywhere(dt, 6, [](const mt::Tensor& x, const Dims& d, bool k) { return mt::amin(x, d, k); });
  }
  for (mt::ScalarType dt : kFloatTypes) {
    const mt::Tensor x = with_values(random_input({4, 9}, mt::kFloat64, 7), {3, 10, 11, 35}, kNaN, dt);
    const mt::Tensor y = with_values(x, {20, 21}, kInf, dt);
    for (const mt::Tensor& t : {x, with_values(y, {0, 1, 2}, -kInf, dt)}) {
      for (int64_t dim : {0, 1}) {
        expect_matches_cpu(t, [dim](const mt::Tensor& v) { return mt::amax(v, {dim}); });
        expect_matches_cpu(t, [dim](const mt::Tensor& v) { return mt::amin(v, {dim}); });
      }
      expect_matches_cpu(t, [](const mt::Tensor& v) { return mt::max(v); });
      expect_matches_cpu(t, [](const mt::Tensor& v) { return mt::min(v); });
    }
  }
}

TEST(CudaReductions, MaxMinWithIndicesGiveTheFirstOccurrenceAsOnCpu) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kAllTypes) {
    for (const Layout& layout : layouts()) {
      const mt::Tensor base = random_input(layout.base_sizes, dt, 8);
      const mt::Tensor on_cpu = layout.view(base), on_cuda = layout.view(base.to(mt::kCUDA));
      for (int64_t dim : {0, 1, 2, -1}) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(describe(layout.name, {dim}, keepdim) + ", dtype " + std::string(mt::scalar_type_name(dt)));
          auto [cuda_max, cuda_argmax] = mt::max(on_cuda, dim, keepdim);
          auto [cpu_max, cpu_argmax] = mt::max(on_cpu, dim, keepdim);
          expect_close_to_cpu(cuda_max, cpu_max);
          expect_close_to_cpu(cuda_argmax, cpu_argmax);
          auto [cuda_min, cuda_argmin] = mt::min(on_cuda, dim, keepdim);
          auto [cpu_min, cpu_argmin] = mt::min(on_cpu, dim, keepdim);
          expect_close_to_cpu(cuda_min, cpu_min);
          expect_close_to_cpu(cuda_argmin, cpu_argmin);
        }
      }
    }
  }
}

TEST(CudaReductions, ArgmaxArgminMatchCpuWithAndWithoutDim) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kNumericTypes) {
    for (const Layout& layout : layouts()) {
      SCOPED_TRACE(layout.name);
      const mt::Tensor base = random_input(layout.base_sizes, dt, 10);
      const mt::Tensor on_cpu = layout.view(base), on_cuda = layout.view(base.to(mt::kCUDA));
      expect_close_to_cpu(mt::argmax(on_cuda), mt::argmax(on_cpu));
      expect_close_to_cpu(mt::argmin(on_cuda), mt::argmin(on_cpu));
      for (int64_t dim : {0, 1, 2}) {
        expect_close_to_cpu(mt::argmax(on_cuda, dim, true), mt::argmax(on_cpu, dim, true));
        expect_close_to_cpu(mt::argmin(on_cuda, dim), mt::argmin(on_cpu, dim));
      }
    }
  }
  // The first NaN wins over every number and over later NaNs.
  for (mt::ScalarType dt : kFloatTypes) {
    const mt::Tensor x = with_values(random_input({5, 8}, mt::kFloat64, 11), {6, 12, 13, 39}, kNaN, dt);
    for (int64_t dim : {0, 1}) {
      expect_matches_cpu(x, [dim](const mt::Tensor& v) { return mt::argmax(v, dim); });
      expect_matches_cpu(x, [dim](const mt::Tensor& v) { return mt::argmin(v, dim); });
    }
    expect_matches_cpu(x, [](const mt::Tensor& v) { return mt::argmax(v); });
  }
}

TEST(CudaReductions, AllAnyMatchCpuForEveryDtype) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kAllTypes) {
    // Some outputs see a zero, some do not.
    expect_matches_cpu_everywhere(dt, 12, [](const mt::Tensor& x, const Dims& d, bool k) { return mt::all(x, d, k); });
    expect_matches_cpu_everywhere(dt, 13, [](const mt::Tensor& x, const Dims& d, bool k) { return mt::any(x, d, k); });
    const mt::Tensor zeros = mt::zeros({3, 4}, mt::TensorOptions(dt));
    expect_matches_cpu(zeros, [](const mt::Tensor& v) { return mt::any(v); });
    expect_matches_cpu(zeros, [](const mt::Tensor& v) { return mt::all(v, 1); });
  }
  const mt::Tensor nan = mt::full({2, 3}, kNaN, mt::TensorOptions(mt::kFloat32));  // NaN is true
  expect_matches_cpu(nan, [](const mt::Tensor& v) { return mt::all(v); });
}

TEST(CudaReductions, VarStdWithCorrectionMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kFloatTypes) {
    for (double correction : {0.0, 1.0, 2.5}) {
      expect_matches_cpu_everywhere(dt, 14, [correction](const mt::Tensor& x, const Dims& d, bool k) {
        return mt::var(x, d, mt::Scalar(correction), k);
      });
      expect_matches_cpu_everywhere(dt, 15, [correction](const mt::Tensor& x, const Dims& d, bool k) {
        return mt::std(x, d, mt::Scalar(correction), k);
      });
    }
  }
  // A large mean: the deviations, not the squares, must be accumulated.
  const mt::Tensor offset = random_input({64, 300}, mt::kFloat64, 16) + 1e4;
  expect_matches_cpu(offset.to(mt::kFloat32), [](const mt::Tensor& v) { return mt::var(v, Dims{1}); });
  expect_matches_cpu(offset, [](const mt::Tensor& v) { return mt::std(v, Dims{0}); });
  // One element with correction 1: 0 / 0.
  expect_matches_cpu(random_input({3, 1}, mt::kFloat32, 17), [](const mt::Tensor& v) { return mt::var(v, Dims{1}); });
}

TEST(CudaReductions, NormForEveryKindOfPMatchesCpu) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kFloatTypes) {
    for (double p : {0.0, 1.0, 2.0, 3.0, 0.5, -1.5, kInf, -kInf}) {
      SCOPED_TRACE("p = " + std::to_string(p));
      expect_matches_cpu_everywhere(dt, 18, [p](const mt::Tensor& x, const Dims& d, bool k) {
        return d.empty() ? mt::norm(x, mt::Scalar(p)) : mt::norm(x, mt::Scalar(p), d, k);
      });
    }
  }
  const mt::Tensor x = with_values(random_input({4, 6}, mt::kFloat64, 19), {2, 9}, kNaN, mt::kFloat32);
  for (double p : {1.0, 2.0, kInf, -kInf}) {
    expect_matches_cpu(x, [p](const mt::Tensor& v) { return mt::norm(v, mt::Scalar(p), {1}); });
  }
  // float16 input, float32 result.
  expect_matches_cpu(random_input({5, 7}, mt::kFloat16, 20),
                     [](const mt::Tensor& v) { return mt::norm(v, mt::Scalar(2.0), {0}, false, mt::kFloat32); });
}

TEST(CudaReductions, LogSumExpMatchesCpuWithInfinitiesAndNaN) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kFloatTypes) {
    expect_matches_cpu_everywhere(dt, 21,
                                  [](const mt::Tensor& x, const Dims& d, bool k) { return mt::logsumexp(x, d, k); });
  }
  // Rows: all -inf, one +inf, two +inf, a NaN, large values that overflow a naive exp.
  mt::Tensor x = random_input({5, 4}, mt::kFloat64, 22);
  x = with_values(x, {0, 1, 2, 3}, -kInf, mt::kFloat64);
  x = with_values(x, {5}, kInf, mt::kFloat64);
  x = with_values(x, {8, 10}, kInf, mt::kFloat64);
  x = with_values(x, {13}, kNaN, mt::kFloat64);
  x = with_values(x, {16, 17, 18, 19}, 1000.0, mt::kFloat64);
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64}) {
    expect_matches_cpu(x.to(dt), [](const mt::Tensor& v) { return mt::logsumexp(v, {1}); });
  }
  // Integers give the default float dtype.
  expect_matches_cpu(random_input({3, 5}, mt::kInt64, 23), [](const mt::Tensor& v) { return mt::logsumexp(v, {1}); });
}

TEST(CudaReductions, EmptyReductionsGiveTheCpuIdentities) {
  MT_SKIP_WITHOUT_GPU();
  const mt::Tensor x = mt::zeros({0, 3}, mt::TensorOptions(mt::kFloat32));
  const std::vector<Reduction> reductions = {
      [](const mt::Tensor& v) { return mt::sum(v, Dims{0}); },
      [](const mt::Tensor& v) { return mt::mean(v, Dims{0}); },
      [](const mt::Tensor& v) { return mt::prod(v, 0); },
      [](const mt::Tensor& v) { return mt::all(v, 0); },
      [](const mt::Tensor& v) { return mt::any(v, 0); },
      [](const mt::Tensor& v) { return mt::logsumexp(v, {0}); },
      [](const mt::Tensor& v) { return mt::var(v, Dims{0}); },
      [](const mt::Tensor& v) { return mt::norm(v, mt::Scalar(2.0), {0}); },
      [](const mt::Tensor& v) { return mt::sum(v, Dims{1}); },  // no outputs
      [](const mt::Tensor& v) { return mt::sum(v); },
  };
  for (size_t i = 0; i < reductions.size(); ++i) {
    SCOPED_TRACE("reduction " + std::to_string(i));
    expect_matches_cpu(x, reductions[i]);
  }
  // The -inf norm has no identity: both devices refuse it alike.
  const auto neg_inf_norm = [](const mt::Tensor& v) { (void)mt::norm(v, mt::Scalar(-kInf), {0}); };
  const std::string on_cpu = mt_test::error_of([&] { neg_inf_norm(x); });
  EXPECT_NE(on_cpu.find("does not have an identity"), std::string::npos) << on_cpu;
  EXPECT_EQ(mt_test::error_of([&] { neg_inf_norm(x.to(mt::kCUDA)); }), on_cpu);
}

TEST(CudaReductions, ZeroDimSizeOneDimsAndHighRankLayoutsMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  const mt::Tensor scalar = random_input({}, mt::kFloat32, 24);
  expect_matches_cpu(scalar, [](const mt::Tensor& v) { return mt::sum(v); });
  expect_matches_cpu(scalar, [](const mt::Tensor& v) { return mt::amax(v, {0}); });
  expect_matches_cpu(scalar, [](const mt::Tensor& v) { return mt::argmax(v); });
  expect_matches_cpu(scalar, [](const mt::Tensor& v) { return mt::var(v, Dims{}, mt::Scalar(0.0)); });
  const mt::Tensor ones = random_input({1, 5, 1, 3}, mt::kFloat64, 25);
  for (const Dims& dims : std::vector<Dims>{{0}, {1}, {2, 3}, {0, 2}, {}}) {
    expect_matches_cpu(ones, [&dims](const mt::Tensor& v) { return mt::sum(v, dims, true); });
    expect_matches_cpu(ones, [&dims](const mt::Tensor& v) { return mt::amin(v, dims); });
  }
  // Five dims in a permuted order: the kept and the reduced positions each span several dims that
  // cannot be merged.
  const mt::Tensor base = random_input({3, 4, 5, 6, 7}, mt::kFloat32, 26);
  auto permuted = [](const mt::Tensor& b) { return b.permute({3, 0, 4, 2, 1}); };
  const mt::Tensor on_cpu = permuted(base), on_cuda = permuted(base.to(mt::kCUDA));
  for (const Dims& dims : std::vector<Dims>{{1, 3}, {0, 2, 4}, {4}, {0}}) {
    expect_close_to_cpu(mt::sum(on_cuda, dims), mt::sum(on_cpu, dims));
    expect_close_to_cpu(mt::var(on_cuda, dims), mt::var(on_cpu, dims));
  }
  for (int64_t dim = 0; dim < 5; ++dim) {
    auto [cuda_values, cuda_indices] = mt::max(on_cuda, dim);
    auto [cpu_values, cpu_indices] = mt::max(on_cpu, dim);
    expect_close_to_cpu(cuda_values, cpu_values);
    expect_close_to_cpu(cuda_indices, cpu_indices);
  }
  expect_close_to_cpu(mt::argmin(on_cuda), mt::argmin(on_cpu));
}

TEST(CudaReductions, LargeReductionsSplitOverBlocksMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  const int64_t n = int64_t{1} << 20;
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64}) {
    // A repeated maximum and minimum: the first one is the answer.
    mt::Tensor x = with_values(random_input({n}, mt::kFloat64, 27), {123456, 987654}, 100.0, mt::kFloat64);
    x = with_values(x, {654321, 765432}, -100.0, dt);
    const std::vector<Reduction> full = {
        [](const mt::Tensor& v) { return mt::sum(v); },
        [](const mt::Tensor& v) { return mt::mean(v); },
        [](const mt::Tensor& v) { return mt::amax(v); },
        [](const mt::Tensor& v) { return mt::argmax(v); },
        [](const mt::Tensor& v) { return mt::argmin(v); },
        [](const mt::Tensor& v) { return mt::var(v); },
        [](const mt::Tensor& v) { return mt::norm(v); },
        [](const mt::Tensor& v) { return mt::norm(v, mt::Scalar(3.0)); },
        [](const mt::Tensor& v) { return mt::logsumexp(v, {0}); },
        [](const mt::Tensor& v) { return mt::all(v); },
    };
    for (size_t i = 0; i < full.size(); ++i) {
      SCOPED_TRACE("full reduction " + std::to_string(i) + " of " + std::string(mt::scalar_type_name(dt)));
      expect_matches_cpu(x, full[i]);
    }
    // Few outputs with many elements each, along the fastest dim (rows) and across it (columns).
    const mt::Tensor wide = random_input({3, n / 4}, dt, 28);
    expect_matches_cpu(wide, [](const mt::Tensor& v) { return mt::sum(v, Dims{1}); });
    expect_matches_cpu(wide, [](const mt::Tensor& v) { return std::get<1>(mt::max(v, 1)); });
    expect_matches_cpu(wide.t(), [](const mt::Tensor& v) { return mt::sum(v, Dims{0}); });
    const mt::Tensor tall = random_input({n / 4, 3}, dt, 29);
    expect_matches_cpu(tall, [](const mt::Tensor& v) { return mt::sum(v, Dims{0}); });
    expect_matches_cpu(tall, [](const mt::Tensor& v) { return mt::var(v, Dims{0}); });
    expect_matches_cpu(tall, [](const mt::Tensor& v) { return std::get<1>(mt::min(v, 0)); });
    const mt::Tensor matrix = random_input({4096, 1000}, dt, 30);
    expect_matches_cpu(matrix, [](const mt::Tensor& v) { return mt::sum(v, Dims{0}); });
    expect_matches_cpu(matrix, [](const mt::Tensor& v) { return mt::mean(v, Dims{1}); });
  }
  // 16-bit inputs accumulate in wide types.
  const mt::Tensor half = random_input({n}, mt::kFloat16, 31);
  expect_matches_cpu(half, [](const mt::Tensor& v) { return mt::sum(v); });
  expect_matches_cpu(random_input({n}, mt::kBFloat16, 32), [](const mt::Tensor& v) { return mt::mean(v); });
  const mt::Tensor ints = random_input({n}, mt::kInt64, 33);
  expect_matches_cpu(ints, [](const mt::Tensor& v) { return mt::sum(v); });
  expect_matches_cpu(random_input({n}, mt::kBool, 34), [](const mt::Tensor& v) { return mt::sum(v); });
}

}  // namespace
