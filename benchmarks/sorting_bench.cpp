// Sorting and scans: one row of random float32 values, sorted with its indices (as torch.sort returns
// them), and its running sum.
#include <benchmark/benchmark.h>

#include "ops/Factories.h"
#include "ops/Functions.h"

namespace {

void BM_Sort(benchmark::State& state) {
  mt::Generator gen(0);
  const mt::Tensor x = mt::randn({state.range(0)}, &gen);
  for (auto _ : state) benchmark::DoNotOptimize(mt::sort(x));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Sort)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Cumsum(benchmark::State& state) {
  mt::Generator gen(0);
  const mt::Tensor x = mt::randn({state.range(0)}, &gen);
  for (auto _ : state) benchmark::DoNotOptimize(mt::cumsum(x, 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Cumsum)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
