// Cost of the dispatcher itself, on an op whose kernel does nothing: bench::noop(a, b) returns a.
#include <benchmark/benchmark.h>

#include "dispatch/Library.h"
#include "ops/Factories.h"

namespace {

mt::Tensor noop_cpu(const mt::Tensor& a, const mt::Tensor&) { return a; }

void noop_boxed(const mt::OperatorHandle&, mt::Stack* stack) {
  mt::IValue a = std::move((*stack)[stack->size() - 2]);
  stack->clear();
  stack->push_back(std::move(a));
}

MT_LIBRARY(bench, m) {
  m.def("bench::noop(Tensor a, Tensor b) -> Tensor");
  m.def("bench::noop_boxed_only(Tensor a, Tensor b) -> Tensor");
}
MT_LIBRARY_IMPL(bench, CPU, m) {
  m.impl("noop", MT_FN(noop_cpu));
  m.impl("noop_boxed_only", mt::CppFunction::makeFromBoxedFunction<&noop_boxed>());
}
MT_LIBRARY_IMPL(bench, Autograd, m) {
  m.impl("noop", mt::CppFunction::makeFallthrough());
  m.impl("noop_boxed_only", mt::CppFunction::makeFallthrough());
}

using NoopSig = mt::Tensor(const mt::Tensor&, const mt::Tensor&);

void BM_DispatchNoopUnboxed(benchmark::State& state) {
  auto op = mt::Dispatcher::singleton().findSchemaOrThrow("bench::noop", "").typed<NoopSig>();
  mt::Tensor a = mt::ones({1}), b = mt::ones({1});
  for (auto _ : state) benchmark::DoNotOptimize(op.call(a, b));
}
BENCHMARK(BM_DispatchNoopUnboxed);

void BM_DispatchNoopBoxed(benchmark::State& state) {
  auto op = mt::Dispatcher::singleton().findSchemaOrThrow("bench::noop", "");
  mt::Tensor a = mt::ones({1}), b = mt::ones({1});
  for (auto _ : state) {
    mt::Stack stack;
    stack.reserve(2);
    stack.emplace_back(a);
    stack.emplace_back(b);
    op.callBoxed(stack);
    benchmark::DoNotOptimize(stack);
  }
}
BENCHMARK(BM_DispatchNoopBoxed);

void BM_RedispatchNoop(benchmark::State& state) {
  auto op = mt::Dispatcher::singleton().findSchemaOrThrow("bench::noop", "").typed<NoopSig>();
  mt::Tensor a = mt::ones({1}), b = mt::ones({1});
  const mt::DispatchKeySet cpu(mt::DispatchKey::CPU);
  for (auto _ : state) benchmark::DoNotOptimize(op.redispatch(cpu, a, b));
}
BENCHMARK(BM_RedispatchNoop);

void BM_DispatchNoopToBoxedKernel(benchmark::State& state) {
  auto op = mt::Dispatcher::singleton().findSchemaOrThrow("bench::noop_boxed_only", "").typed<NoopSig>();
  mt::Tensor a = mt::ones({1}), b = mt::ones({1});
  for (auto _ : state) benchmark::DoNotOptimize(op.call(a, b));
}
BENCHMARK(BM_DispatchNoopToBoxedKernel);

}  // namespace
