// Matrix products: float32 mm into a preallocated output, with a GFLOPS counter (2 n^3 flops per call),
// the same work as the libtorch yardstick's BM_Matmul.
#include <benchmark/benchmark.h>

#include "ops/Config.h"
#include "ops/Factories.h"
#include "ops/Functions.h"

namespace {

// What every run measured (the engines, their kernels, the threads) goes into the output's context.
const bool kConfigInContext = [] {
  benchmark::AddCustomContext("microtorch", mt::show_config());
  return true;
}();

void BM_Matmul(benchmark::State& state) {
  const int64_t n = state.range(0);
  const mt::Tensor a = mt::randn({n, n}), b = mt::randn({n, n});
  mt::Tensor c = mt::empty({n, n});
  for (auto _ : state) {
    mt::mm_out(c, a, b);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * n * n * n * state.iterations(), benchmark::Counter::kIsRate,
                                                benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Matmul)->Arg(128)->Arg(512)->Arg(1024);

}  // namespace
