#pragma once
// OperatorEntry: everything the dispatcher knows about one operator. The runtime dispatch table is a
// fixed array of atomic pointers, one per runtime slot, recomputed from the per-key registration lists
// whenever a kernel or fallback is (de)registered; calls only read it.
#include <array>
#include <atomic>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dispatch/DispatchKeyExtractor.h"
#include "dispatch/FunctionSchema.h"
#include "dispatch/KernelFunction.h"

namespace mt {

class Dispatcher;

// A kernel as registered: the kernel, where it came from, and what its C++ signature means.
struct AnnotatedKernel {
  std::shared_ptr<const KernelFunction> kernel;
  std::string debug;
};

class OperatorEntry {
 public:
  explicit OperatorEntry(OperatorName name);
  OperatorEntry(const OperatorEntry&) = delete;
  OperatorEntry& operator=(const OperatorEntry&) = delete;

  const OperatorName& name() const { return name_; }
  bool hasSchema() const { return schema_.has_value(); }
  const FunctionSchema& schema() const;
  const std::string& schemaDebug() const { return schema_debug_; }

  // --- the call path ----------------------------------------------------------------------------------
  const DispatchKeyExtractor& dispatchKeyExtractor() const { return extractor_; }
  const KernelFunction& lookup(DispatchKeySet ks) const {
    const KernelFunction* k = table_[ks.getDispatchTableIndexForDispatchKeySet()].load(std::memory_order_acquire);
    if (__builtin_expect(k == nullptr, 0)) reportError(ks);
    return *k;
  }
  // lookup() for a call (not a redispatch), whose `ks` was masked with the fallthrough masks. A
  // registration on another thread may have put a fallthrough into the slot after `ks` was computed;
  // the mask is updated before the slot, so it already hides that key: apply it again and retry.
  const KernelFunction& lookupForCall(DispatchKeySet& ks) const {
    const KernelFunction* k = &lookup(ks);
    while (__builtin_expect(k->isFallthrough(), 0)) {
      ks = ks & extractor_.nonFallthroughKeys(ks.getBackendIndex());
      k = &lookup(ks);
    }
    return *k;
  }

  // --- registration (the Dispatcher holds its lock) ---------------------------------------------------
  using KernelList = std::list<AnnotatedKernel>;
  void registerSchema(FunctionSchema schema, std::string debug, const Dispatcher& dispatcher);
  void deregisterSchema(const Dispatcher& dispatcher);
  // `key` nullopt registers a catch-all, stored as CompositeImplicitAutograd.
  KernelList::iterator registerKernel(const Dispatcher& dispatcher, std::optional<DispatchKey> key,
                                      KernelFunction kernel, std::string debug);
  void deregisterKernel(const Dispatcher& dispatcher, DispatchKey key, KernelList::iterator it);
  void updateFallback(const Dispatcher& dispatcher, DispatchKey runtime_key);
  bool isEmpty() const { return !schema_ && kernels_.empty(); }

  // Checks an unboxed caller's signature (TypedOperatorHandle) and records it.
  void assertSignatureIsCorrect(const CppSignature& sig, const InferredSchema& inferred);

  // --- introspection ------------------------------------------------------------------------------------
  bool hasKernelForDispatchKey(DispatchKey k) const;  // a direct registration, alias keys included
  bool hasComputedKernelForDispatchKey(DispatchKey k) const;  // the runtime slot is filled
  std::string dumpComputedTable() const;
  std::string dumpState() const;
  [[noreturn]] void reportError(DispatchKeySet ks) const;

 private:
  struct SlotChoice {
    const KernelFunction* kernel;
    const char* source;  // "kernel", "default backend kernel", ...
  };
  SlotChoice computeDispatchTableEntry(const Dispatcher& dispatcher, DispatchKey k) const;
  void updateDispatchTableEntry(const Dispatcher& dispatcher, DispatchKey k);
  void updateDispatchTable(const Dispatcher& dispatcher, DispatchKey k);
  const AnnotatedKernel* kernelForKey(DispatchKey k) const;
  void checkKernelAgainstSchema(const KernelFunction& kernel, const std::string& debug) const;
  std::string availableKeys() const;

  OperatorName name_;
  std::optional<FunctionSchema> schema_;
  std::string schema_debug_;
  DispatchKeyExtractor extractor_;
  std::array<std::atomic<const KernelFunction*>, num_runtime_entries> table_{};
  // Read without the lock by dumpComputedTable() (also from reportError() on the call path).
  std::array<std::atomic<const char*>, num_runtime_entries> table_source_{};
  std::map<DispatchKey, KernelList> kernels_;  // newest registration first
  // Kernels no longer registered: a call on another thread may still be running them.
  std::vector<std::shared_ptr<const KernelFunction>> retired_;
  // The C++ signature unboxed kernels and callers must share, with where it was first seen.
  std::optional<CppSignature> cpp_signature_;
  std::string cpp_signature_debug_;
};

}  // namespace mt
