#include "dispatch/modes/OpCounter.h"

namespace mt {

void OpCounter::dispatch(const OperatorHandle& op, DispatchKeySet, Stack& stack) {
  ++counts_[op.operator_name().str()];
  op.callBoxed(stack);
}

int64_t OpCounter::count(const std::string& name) const {
  const auto it = counts_.find(name);
  return it == counts_.end() ? 0 : it->second;
}

int64_t OpCounter::total() const {
  int64_t sum = 0;
  for (const auto& [name, n] : counts_) sum += n;
  return sum;
}

}  // namespace mt
