// The cost of the dispatch-mode layer: BM_AddSmall's add under a mode that forwards every op as it is
// (the mode's key in the TLS, the fallback, popping and pushing the mode, a boxed call).
#include <benchmark/benchmark.h>

#include <memory>

#include "dispatch/modes/DispatchMode.h"
#include "ops/Factories.h"
#include "ops/Functions.h"

namespace {

struct ForwardEverything : mt::DispatchMode {
  void dispatch(const mt::OperatorHandle& op, mt::DispatchKeySet, mt::Stack& stack) override { op.callBoxed(stack); }
};

void BM_AddSmallUnderEmptyMode(benchmark::State& state) {
  mt::Tensor a = mt::ones({1}), b = mt::ones({1});
  mt::DispatchModeGuard guard(std::make_shared<ForwardEverything>());
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(a, b));
}
BENCHMARK(BM_AddSmallUnderEmptyMode);

}  // namespace
