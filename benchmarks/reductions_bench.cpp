// Reductions: the bandwidth of a whole-tensor float sum, next to the fastest plain loop for the same work.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "ops/Functions.h"
#include "ops/infra/Parallel.h"
#include "ops/Factories.h"

namespace {

void BM_SumLarge(benchmark::State& state) {
  const int64_t n = state.range(0);
  const mt::Tensor a = mt::ones({n});
  for (auto _ : state) benchmark::DoNotOptimize(mt::sum(a));
  state.SetBytesProcessed(state.iterations() * n * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_SumLarge)->Arg(1 << 24)->UseRealTime();

// A plain loop over both cores: each thread sums its half with 16 independent float lanes (which the
// compiler vectorises), and the halves are added at the end.
void BM_SumLargeBaseline(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(n, 1.f);
  for (auto _ : state) {
    std::vector<double> partial(mt::get_num_threads(), 0.0);
    const int64_t chunk = (n + mt::get_num_threads() - 1) / mt::get_num_threads();
    mt::parallel_for(0, mt::get_num_threads(), 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const float* p = a.data() + t * chunk;
        const int64_t len = std::min(chunk, n - t * chunk);
        float lanes[16] = {};
        int64_t i = 0;
        for (; i + 16 <= len; i += 16)
          for (int l = 0; l < 16; ++l) lanes[l] += p[i + l];
        double s = 0;
        for (; i < len; ++i) s += p[i];
        for (float l : lanes) s += l;
        partial[t] = s;
      }
    });
    double total = 0;
    for (double s : partial) total += s;
    benchmark::DoNotOptimize(total);
  }
  state.SetBytesProcessed(state.iterations() * n * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_SumLargeBaseline)->Arg(1 << 24)->UseRealTime();

}  // namespace
