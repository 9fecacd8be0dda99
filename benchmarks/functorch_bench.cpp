// The per-op cost of the vmap transform: vmap of a single add over a batch of 8 small vectors, so the
// time is the interpreter stack, wrapping and the batching rule, not the arithmetic. And per-sample
// gradients of a 784-128-10 MLP with ReLU and cross-entropy: vmap(grad(loss)) against a loop of
// backward passes (the same work as ../shared/yardstick/functorch_per_sample_grads.py).
#include <benchmark/benchmark.h>

#include "autograd/Autograd.h"
#include "functorch/Grad.h"
#include "functorch/Vmap.h"
#include "functorch/functionalize/Functionalize.h"
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

// An in-place add through a view, functionalized (clone, select, add, put, then the base regenerated)
// and eagerly: the cost of the Functionalize layer per mutation.
mt::Tensor add_through_view(const std::vector<mt::Tensor>& a) {
  const mt::Tensor y = a[0].clone();
  y.select(0, 1).add_(a[1]);
  return y;
}

void BM_FunctionalizeInPlaceOnView(benchmark::State& state) {
  const std::vector<mt::Tensor> inputs{mt::randn({8, 4}), mt::randn({4})};
  const auto f = mt::functionalize(add_through_view);
  for (auto _ : state) benchmark::DoNotOptimize(f(inputs));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FunctionalizeInPlaceOnView);

void BM_FunctionalizeInPlaceOnViewBaselineEager(benchmark::State& state) {
  const std::vector<mt::Tensor> inputs{mt::randn({8, 4}), mt::randn({4})};
  for (auto _ : state) benchmark::DoNotOptimize(add_through_view(inputs));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FunctionalizeInPlaceOnViewBaselineEager);

using Tensors = std::vector<mt::Tensor>;

// loss(W1, b1, W2, b2, x, y) for one sample x [784] with label y [].
mt::Tensor mlp_loss(const Tensors& a) {
  const mt::Tensor h = mt::relu(mt::add(mt::matmul(a[4], a[0].t()), a[1]));
  const mt::Tensor out = mt::add(mt::matmul(h, a[2].t()), a[3]);
  return mt::cross_entropy_loss(out.unsqueeze(0), a[5].unsqueeze(0));
}

struct PerSampleProblem {
  Tensors params;
  mt::Tensor x, y;
  explicit PerSampleProblem(int64_t batch) {
    mt::Generator g(0);
    params = {mt::mul(mt::randn({128, 784}, &g), 0.05), mt::zeros({128}), mt::mul(mt::randn({10, 128}, &g), 0.05),
              mt::zeros({10})};
    x = mt::randn({batch, 784}, &g);
    y = mt::randint(0, 10, {batch}, &g);
  }
};

void BM_PerSampleGradsVmap(benchmark::State& state) {
  const PerSampleProblem p(state.range(0));
  const auto per_sample = mt::vmap(mt::grad(mlp_loss, std::vector<int64_t>{0, 1, 2, 3}),
                                   {std::nullopt, std::nullopt, std::nullopt, std::nullopt, 0, 0});
  const Tensors inputs{p.params[0], p.params[1], p.params[2], p.params[3], p.x, p.y};
  for (auto _ : state) benchmark::DoNotOptimize(per_sample(inputs));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_PerSampleGradsVmap)->Arg(64)->Unit(benchmark::kMillisecond);

void BM_PerSampleGradsLoop(benchmark::State& state) {
  const PerSampleProblem p(state.range(0));
  Tensors params;
  for (const mt::Tensor& t : p.params) params.push_back(t.clone().requires_grad_());
  for (auto _ : state) {
    std::vector<Tensors> grads;
    for (int64_t i = 0; i < state.range(0); ++i)
      grads.push_back(
          mt::autograd::grad({mlp_loss({params[0], params[1], params[2], params[3], p.x[i], p.y[i]})}, params));
    benchmark::DoNotOptimize(grads);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_PerSampleGradsLoop)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace
