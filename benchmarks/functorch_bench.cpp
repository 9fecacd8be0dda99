// The per-op cost of the vmap transform: vmap of a single add over a batch of 8 small vectors, so the
// time is the interpreter stack, wrapping and the batching rule, not the arithmetic.
#include <benchmark/benchmark.h>

#include "functorch/Vmap.h"
#include "ops/Factories.h"
#include "ops/Functions.h"

namespace {

void BM_VmapOverhead(benchmark::State& state) {
  const mt::Tensor x = mt::randn({8, 4}), y = mt::randn({8, 4});
  const auto f = mt::vmap([](const std::vector<mt::Tensor>& a) { return mt::add(a[0], a[1]); });
  const std::vector<mt::Tensor> inputs{x, y};
  for (auto _ : state) benchmark::DoNotOptimize(f(inputs));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VmapOverhead);

// The same add without vmap, for comparison.
void BM_VmapOverheadBaselineAdd(benchmark::State& state) {
  const mt::Tensor x = mt::randn({8, 4}), y = mt::randn({8, 4});
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(x, y));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VmapOverheadBaselineAdd);

}  // namespace
