// Which operators of the library vmap runs without the loop fallback: each one with a tensor argument
// (out= overloads aside, which vmap refuses) has a batching rule or a CompositeImplicitAutograd
// decomposition: none falls back to the loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "dispatch/Dispatcher.h"

namespace {

bool has_tensor_argument(const mt::FunctionSchema& schema) {
  return std::any_of(schema.arguments.begin(), schema.arguments.end(),
                     [](const mt::Argument& a) { return a.type.kind == mt::TypeKind::Tensor; });
}
bool is_out_overload(const mt::FunctionSchema& schema) {
  return std::any_of(schema.arguments.begin(), schema.arguments.end(), [](const mt::Argument& a) { return a.is_out(); });
}

TEST(VmapCoverage, EveryOperatorHasARuleOrADecomposition) {
  std::set<std::string> falling_back;
  auto& dispatcher = mt::Dispatcher::singleton();
  for (const mt::OperatorName& name : dispatcher.getAllOpNames()) {
    if (name.ns != "mt") continue;
    const auto op = dispatcher.findSchema(name);
    if (!op || !has_tensor_argument(op->schema()) || is_out_overload(op->schema())) continue;
    if (op->hasKernelForDispatchKey(mt::DispatchKey::FuncTorchBatched) ||
        op->hasKernelForDispatchKey(mt::DispatchKey::CompositeImplicitAutograd))
      continue;
    falling_back.insert(name.str());
  }
  EXPECT_EQ(falling_back, std::set<std::string>{});
}

}  // namespace
