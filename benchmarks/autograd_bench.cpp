// The cost of the autograd layers on a 1-element add: under no_grad (the autograd kernel runs and
// records nothing), under inference mode (inference tensors skip the autograd layers entirely), and
// with an input that requires grad (the add records a node).
#include <benchmark/benchmark.h>

#include "autograd/Autograd.h"
#include "ops/Factories.h"
#include "ops/Functions.h"

namespace {

void BM_AddSmallNoGrad(benchmark::State& state) {
  mt::Tensor a = mt::ones({1}).requires_grad_(), b = mt::ones({1});
  mt::NoGradGuard no_grad;
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(a, b));
}
BENCHMARK(BM_AddSmallNoGrad);

void BM_AddSmallInferenceMode(benchmark::State& state) {
  mt::InferenceMode guard;
  mt::Tensor a = mt::ones({1}), b = mt::ones({1});
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(a, b));
}
BENCHMARK(BM_AddSmallInferenceMode);

void BM_AddSmallRequiresGrad(benchmark::State& state) {
  mt::Tensor a = mt::ones({1}).requires_grad_(), b = mt::ones({1});
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(a, b));
}
BENCHMARK(BM_AddSmallRequiresGrad);

}  // namespace
