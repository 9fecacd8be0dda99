// Pointwise ops: the per-call overhead on tiny tensors and the bandwidth on large ones.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "ops/Functions.h"
#include "ops/infra/Parallel.h"
#include "ops/Factories.h"
#include "ops/TensorOperators.h"

namespace {

void BM_AddSmall(benchmark::State& state) {
  mt::Tensor a = mt::ones({1}), b = mt::ones({1});
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(a, b));
}
BENCHMARK(BM_AddSmall);

// A bias added to a small batch (a linear layer's): broadcasting takes TensorIterator's general setup.
void BM_AddSmallBroadcast(benchmark::State& state) {
  mt::Tensor a = mt::ones({8, 16}), b = mt::ones({16});
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(a, b));
}
BENCHMARK(BM_AddSmallBroadcast);

void BM_AddLarge(benchmark::State& state) {
  const int64_t n = state.range(0);
  mt::Tensor a = mt::ones({n}), b = mt::ones({n}), out = mt::empty({n});
  for (auto _ : state) {
    mt::add_out(out, a, b);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n * 12);
}
BENCHMARK(BM_AddLarge)->Arg(100352)->Arg(1 << 20)->Arg(1 << 24)->UseRealTime();

// A tensor times a Python scalar (SGD's lr * grad): the scalar is read once and the loop runs over
// the tensor alone.
void BM_MulScalarLarge(benchmark::State& state) {
  const int64_t n = state.range(0);
  mt::Tensor a = mt::ones({n});
  for (auto _ : state) benchmark::DoNotOptimize(mt::mul(a, 0.5));
  state.SetBytesProcessed(state.iterations() * n * 8);
}
BENCHMARK(BM_MulScalarLarge)->Arg(1 << 20)->UseRealTime();

// A transposed input: the loop follows its memory, and the result keeps its layout.
void BM_AddTransposed(benchmark::State& state) {
  const int64_t n = state.range(0);
  mt::Tensor a = mt::ones({n, n}).t();
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(a, a));
  state.SetBytesProcessed(state.iterations() * n * n * 12);
}
BENCHMARK(BM_AddTransposed)->Arg(1024)->UseRealTime();

// The vectorised math kernels on 1M float32 values in [-10, 10] (in [0, 10] for sqrt).
using UnaryOut = mt::Tensor& (*)(mt::Tensor&, const mt::Tensor&);
void BM_UnaryLarge(benchmark::State& state, UnaryOut op, bool nonnegative) {
  const int64_t n = state.range(0);
  mt::Tensor x = mt::rand({n}) * 20 - 10, out = mt::empty({n});
  if (nonnegative) x = mt::abs(x);
  for (auto _ : state) {
    op(out, x);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n * 8);
}
BENCHMARK_CAPTURE(BM_UnaryLarge, exp, mt::exp_out, false)->Arg(1 << 20)->UseRealTime();
BENCHMARK_CAPTURE(BM_UnaryLarge, sqrt, mt::sqrt_out, true)->Arg(1 << 20)->UseRealTime();
BENCHMARK_CAPTURE(BM_UnaryLarge, sigmoid, mt::sigmoid_out, false)->Arg(1 << 20)->UseRealTime();
BENCHMARK_CAPTURE(BM_UnaryLarge, tanh, mt::tanh_out, false)->Arg(1 << 20)->UseRealTime();

// The fastest plain C++ for the same work: a vectorisable loop over both cores.
void BM_AddLargeBaseline(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(n, 1.f), b(n, 2.f), c(n);
  for (auto _ : state) {
    mt::parallel_for(0, n, mt::kParallelGrain, [&](int64_t begin, int64_t end) {
      const float* __restrict pa = a.data();
      const float* __restrict pb = b.data();
      float* __restrict pc = c.data();
      for (int64_t i = begin; i < end; ++i) pc[i] = pa[i] + pb[i];
    });
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n * 12);
}
BENCHMARK(BM_AddLargeBaseline)->Arg(1 << 24)->UseRealTime();

}  // namespace
