// BM_MLPInference's forward (784-128-10, ReLU, inference mode) under CPU bfloat16 autocast: the two
// linears run in bf16, and the casts of the weights come from the cache the guard keeps.
#include <benchmark/benchmark.h>
#include <microtorch/microtorch.h>

#include "functorch/autocast/AutocastMode.h"

#include "mlp_net.h"

namespace {

using mt_bench::Net;

void BM_MLPInferenceAutocastBF16(benchmark::State& state) {
  const int64_t batch = state.range(0);
  mt::Generator g(0);
  Net net(784, 128, 10, &g);
  const mt::Tensor x = mt::randn({batch, 784}, &g);
  mt::InferenceMode guard;
  mt::AutocastGuard autocast(mt::kCPU, mt::kBFloat16);
  for (auto _ : state) benchmark::DoNotOptimize(net.forward(x));
  state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_MLPInferenceAutocastBF16)->Arg(1)->Arg(64);

}  // namespace
