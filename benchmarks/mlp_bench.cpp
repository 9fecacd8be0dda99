// The training and inference step of a 784-128-10 MLP (ReLU, cross-entropy, SGD), the same work as the
// libtorch yardstick's BM_MLPTrainStep / BM_MLPInference: zero_grad, forward, backward, step; and the
// forward alone under inference mode.
#include <benchmark/benchmark.h>
#include <microtorch/microtorch.h>

#include "mlp_net.h"

namespace {

using mt_bench::Net;

void BM_MLPTrainStep(benchmark::State& state) {
  const int64_t batch = state.range(0);
  mt::Generator g(0);
  Net net(784, 128, 10, &g);
  mt::optim::SGD sgd(net.parameters(), {.lr = 0.01});
  const mt::Tensor x = mt::randn({batch, 784}, &g);
  const mt::Tensor y = mt::randint(0, 10, {batch}, &g);
  for (auto _ : state) {
    sgd.zero_grad();
    const mt::Tensor loss = mt::cross_entropy_loss(net.forward(x), y);
    loss.backward();
    sgd.step();
  }
  state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_MLPTrainStep)->Arg(1)->Arg(64);

void BM_MLPInference(benchmark::State& state) {
  const int64_t batch = state.range(0);
  mt::Generator g(0);
  Net net(784, 128, 10, &g);
  const mt::Tensor x = mt::randn({batch, 784}, &g);
  mt::InferenceMode guard;
  for (auto _ : state) benchmark::DoNotOptimize(net.forward(x));
  state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_MLPInference)->Arg(1)->Arg(64);

}  // namespace
