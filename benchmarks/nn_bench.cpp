// NN functional: the bandwidth of softmax over the rows of a contiguous float32 matrix (each element
// read once and written once: 8 bytes).
#include <benchmark/benchmark.h>

#include "ops/Factories.h"
#include "ops/Functions.h"

namespace {

void BM_SoftmaxRows(benchmark::State& state, int64_t rows, int64_t cols) {
  const mt::Tensor x = mt::randn({rows, cols});
  for (auto _ : state) benchmark::DoNotOptimize(mt::softmax(x, -1));
  state.SetBytesProcessed(state.iterations() * rows * cols * 2 * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK_CAPTURE(BM_SoftmaxRows, 4096x1024, 4096, 1024)->UseRealTime();

}  // namespace
