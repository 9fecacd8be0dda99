// BM_MLPInference's forward (784-128-10, ReLU, inference mode) under CPU bfloat16 autocast: the two
// linears run in bf16, and the casts of the weights come from the cache the guard keeps.
#include <benchmark/benchmark.h>
#include <microtorch/microtorch.h>

#include "functorch/autocast/AutocastMode.h"

namespace {

struct Net : mt::nn::Module {
  Net(int64_t in, int64_t hidden, int64_t out, mt::Generator* g)
      : fc1(register_module("fc1", std::make_shared<mt::nn::Linear>(in, hidden, true, g))),
        fc2(register_module("fc2", std::make_shared<mt::nn::Linear>(hidden, out, true, g))) {}
  mt::Tensor forward(const mt::Tensor& x) const { return fc2->forward(mt::relu(fc1->forward(x))); }
  std::shared_ptr<mt::nn::Linear> fc1, fc2;
};

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
