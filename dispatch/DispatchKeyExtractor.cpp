#include "dispatch/DispatchKeyExtractor.h"

namespace mt {

void DispatchKeyExtractor::setSchema(const FunctionSchema& schema) {
  const size_t n = schema.arguments.size();
  MT_CHECK_VALUE(n <= 64, "The function schema has ", n, " arguments but microtorch supports at most 64");
  tensor_args_from_top_ = 0;
  for (size_t i = 0; i < n; ++i) {
    if (schema.arguments[i].type.kind == TypeKind::Tensor) tensor_args_from_top_ |= uint64_t(1) << (n - 1 - i);
  }
}

void DispatchKeyExtractor::reset() {
  tensor_args_from_top_ = 0;
  for (auto& m : non_fallthrough_per_backend_) m.store(DispatchKeySet(DispatchKeySet::FULL).raw_repr());
}

void DispatchKeyExtractor::setOperatorHasFallthroughForKey(DispatchKey k, bool has_fallthrough) {
  const uint64_t functionality_bit = DispatchKeySet(toFunctionalityKey(k)).raw_repr();
  auto update = [&](std::atomic<uint64_t>& mask) {
    const uint64_t old = mask.load(std::memory_order_relaxed);
    mask.store(has_fallthrough ? old & ~functionality_bit : old | functionality_bit, std::memory_order_release);
  };
  const BackendComponent b = toBackendComponent(k);
  if (b == BackendComponent::InvalidBit) {
    for (auto& m : non_fallthrough_per_backend_) update(m);
  } else {
    update(non_fallthrough_per_backend_[static_cast<int>(b) - 1]);
  }
}

}  // namespace mt
