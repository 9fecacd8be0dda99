// The training and inference step of a 784-128-10 MLP (ReLU, cross-entropy, SGD), the same work as the
// libtorch yardstick's BM_MLPTrainStep / BM_MLPInference: zero_grad, forward, backward, step; and the
// forward alone under inference mode. The heap bytes and allocations of one step (the pool's threads included)
// are counters.
#include <benchmark/benchmark.h>
#include <microtorch/microtorch.h>

#include "heap_count.h"
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
  const auto step = [&] {
    sgd.zero_grad();
    const mt::Tensor loss = mt::cross_entropy_loss(net.forward(x), y);
    loss.backward();
    sgd.step();
  };
  step();  // the first step allocates the gradients that later ones reuse
  const mt_bench::HeapCount heap = mt_bench::count_heap(step);
  for (auto _ : state) step();
  state.SetItemsProcessed(state.iterations() * batch);
  state.counters["heap_bytes_per_step"] = static_cast<double>(heap.bytes);
  state.counters["heap_allocs_per_step"] = static_cast<double>(heap.calls);
}
BENCHMARK(BM_MLPTrainStep)->Arg(1)->Arg(64);

void BM_MLPInference(benchmark::State& state) {
  const int64_t batch = state.range(0);
  mt::Generator g(0);
  Net net(784, 128, 10, &g);
  const mt::Tensor x = mt::randn({batch, 784}, &g);
  mt::InferenceMode guard;
  const mt_bench::HeapCount heap = mt_bench::count_heap([&] { benchmark::DoNotOptimize(net.forward(x)); });
  for (auto _ : state) benchmark::DoNotOptimize(net.forward(x));
  state.SetItemsProcessed(state.iterations() * batch);
  state.counters["heap_bytes_per_step"] = static_cast<double>(heap.bytes);
  state.counters["heap_allocs_per_step"] = static_cast<double>(heap.calls);
}
BENCHMARK(BM_MLPInference)->Arg(1)->Arg(64);

}  // namespace
