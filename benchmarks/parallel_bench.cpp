// What the thread pool's own decisions cost: the reading of the machine's runnable threads that its
// contention logic and the large GEMMs take (/proc/loadavg on Linux).
#include <benchmark/benchmark.h>

#include "ops/infra/Parallel.h"

namespace {

void BM_RunnableElsewhere(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mt::runnable_elsewhere());
}
BENCHMARK(BM_RunnableElsewhere);

}  // namespace
