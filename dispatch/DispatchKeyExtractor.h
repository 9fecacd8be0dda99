#pragma once
// Computes the key set an operator call dispatches on: the OR of its tensor arguments' key sets, with
// the thread-local included/excluded sets applied and the operator's fallthrough keys masked out.
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "dispatch/FunctionSchema.h"
#include "dispatch/IValue.h"
#include "dispatch/LocalDispatchKeySet.h"

namespace mt {

namespace detail {
inline void accumulate_keys(DispatchKeySet& ks, const Tensor& t) {
  if (TensorImpl* impl = t.unsafeGetTensorImpl()) ks = ks | impl->key_set();
}
inline void accumulate_keys(DispatchKeySet& ks, const std::optional<Tensor>& t) {
  if (t) accumulate_keys(ks, *t);
}
inline void accumulate_keys(DispatchKeySet& ks, ArrayRef<Tensor> ts) {
  for (const Tensor& t : ts) accumulate_keys(ks, t);
}
inline void accumulate_keys(DispatchKeySet& ks, const std::vector<Tensor>& ts) { accumulate_keys(ks, ArrayRef<Tensor>(ts)); }
template <typename T>
void accumulate_keys(DispatchKeySet&, const T&) {}
}  // namespace detail

class DispatchKeyExtractor {
 public:
  DispatchKeyExtractor() { reset(); }

  // Records which arguments hold tensors; called when the schema is registered.
  void setSchema(const FunctionSchema& schema);
  void reset();

  template <typename... Args>
  DispatchKeySet getDispatchKeySetUnboxed(const Args&... args) const {
    DispatchKeySet ks;
    (detail::accumulate_keys(ks, args), ...);
    return applyTlsAndMask(ks);
  }

  // Reads only the tensor arguments, located from the top of the stack.
  DispatchKeySet getDispatchKeySetBoxed(const Stack& stack) const {
    DispatchKeySet ks;
    const IValue* top = stack.data() + stack.size();
    for (uint64_t bits = tensor_args_from_top_; bits != 0; bits &= bits - 1) {
      const IValue& v = top[-1 - std::countr_zero(bits)];
      if (v.isTensor()) {
        ks = ks | v.unsafeToTensorImpl()->key_set();
      } else if (v.isTensorList()) {
        for (const Tensor& t : v.toTensorList()) detail::accumulate_keys(ks, t);
      }
    }
    return applyTlsAndMask(ks);
  }

  // Fallthrough slots are masked out per backend, so a call never enters one.
  void setOperatorHasFallthroughForKey(DispatchKey k, bool has_fallthrough);
  DispatchKeySet nonFallthroughKeys(int backend_index) const {
    return DispatchKeySet(DispatchKeySet::RAW, non_fallthrough_per_backend_[backend_index].load(std::memory_order_relaxed));
  }

 private:
  DispatchKeySet applyTlsAndMask(DispatchKeySet ks) const {
    const LocalDispatchKeySet tls = tls_local_dispatch_key_set();
    const DispatchKeySet full = (ks | tls.included_) - tls.excluded_;
    return full & nonFallthroughKeys(full.getBackendIndex());
  }

  uint64_t tensor_args_from_top_ = 0;  // bit i: the i-th argument from the top of the stack may hold tensors
  std::array<std::atomic<uint64_t>, num_backends> non_fallthrough_per_backend_;
};

}  // namespace mt
