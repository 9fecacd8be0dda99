#pragma once
// The Dispatcher: the registry of operators and backend fallbacks, and the call path
// (extract the key set, index the operator's table, call the kernel). Registration takes a lock;
// calls take none.
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "dispatch/DispatchTrace.h"
#include "dispatch/OperatorEntry.h"

namespace mt {

template <typename FuncType>
class TypedOperatorHandle;

// Undoes one registration when destroyed (Library objects hold these).
class RegistrationHandleRAII {
 public:
  RegistrationHandleRAII() = default;
  explicit RegistrationHandleRAII(std::function<void()> on_destruction) : on_destruction_(std::move(on_destruction)) {}
  RegistrationHandleRAII(RegistrationHandleRAII&& o) noexcept : on_destruction_(std::exchange(o.on_destruction_, {})) {}
  RegistrationHandleRAII& operator=(RegistrationHandleRAII&& o) noexcept {
    reset();
    on_destruction_ = std::exchange(o.on_destruction_, {});
    return *this;
  }
  ~RegistrationHandleRAII() { reset(); }
  void reset() {
    if (on_destruction_) std::exchange(on_destruction_, {})();
  }

 private:
  std::function<void()> on_destruction_;
};

// A reference to a registered operator, cheap to copy; valid for the life of the process.
class OperatorHandle {
 public:
  const OperatorName& operator_name() const { return entry_->name(); }
  const FunctionSchema& schema() const { return entry_->schema(); }
  bool hasSchema() const { return entry_->hasSchema(); }

  template <typename FuncType>
  TypedOperatorHandle<FuncType> typed() const {
    assertSignatureIsCorrect(CppSignature::make<FuncType>(), InferSchema<FuncType>::get());
    return TypedOperatorHandle<FuncType>(entry_);
  }

  inline void callBoxed(Stack* stack) const;
  void callBoxed(Stack& stack) const { callBoxed(&stack); }
  inline void redispatchBoxed(DispatchKeySet ks, Stack* stack) const;
  void redispatchBoxed(DispatchKeySet ks, Stack& stack) const { redispatchBoxed(ks, &stack); }

  bool hasKernelForDispatchKey(DispatchKey k) const { return entry_->hasKernelForDispatchKey(k); }
  bool hasComputedKernelForDispatchKey(DispatchKey k) const { return entry_->hasComputedKernelForDispatchKey(k); }
  std::string dumpComputedTable() const { return entry_->dumpComputedTable(); }
  std::string dumpState() const { return entry_->dumpState(); }

  bool operator==(const OperatorHandle& o) const { return entry_ == o.entry_; }
  OperatorEntry& entry() const { return *entry_; }

 protected:
  friend class Dispatcher;
  explicit OperatorHandle(OperatorEntry* entry) : entry_(entry) {}
  // Under the registration lock: the first typed access records the C++ signature kernels must share.
  void assertSignatureIsCorrect(const CppSignature& sig, const InferredSchema& inferred) const;
  OperatorEntry* entry_;
};

template <typename Return, typename... Args>
class TypedOperatorHandle<Return(Args...)> : public OperatorHandle {
 public:
  inline Return call(Args... args) const;
  inline Return redispatch(DispatchKeySet ks, Args... args) const;

 private:
  friend class OperatorHandle;
  explicit TypedOperatorHandle(OperatorEntry* entry) : OperatorHandle(entry) {}
};

class Dispatcher {
 public:
  static Dispatcher& singleton();

  // Operators with a registered schema.
  std::optional<OperatorHandle> findSchema(const OperatorName& name);
  OperatorHandle findSchemaOrThrow(std::string_view name, std::string_view overload_name);
  // Any operator the dispatcher has heard of, with or without a schema.
  std::optional<OperatorHandle> findOp(const OperatorName& name);
  std::vector<OperatorName> getAllOpNames();

  template <typename Return, typename... Args>
  static Return call(const TypedOperatorHandle<Return(Args...)>& op, Args... args) {
    const OperatorEntry& entry = op.entry();
    DispatchKeySet ks = entry.dispatchKeyExtractor().getDispatchKeySetUnboxed(args...);
    const KernelFunction& kernel = entry.lookupForCall(ks);
    if (__builtin_expect(detail::dispatch_trace_on(), 0)) {
      detail::DispatchTraceScope trace("call", op, ks);
      return kernel.template call<Return, Args...>(op, ks, std::forward<Args>(args)...);
    }
    return kernel.template call<Return, Args...>(op, ks, std::forward<Args>(args)...);
  }

  // Calls the kernel for `ks` as given: no TLS, no fallthrough mask (the caller already computed it).
  template <typename Return, typename... Args>
  static Return redispatch(const TypedOperatorHandle<Return(Args...)>& op, DispatchKeySet ks, Args... args) {
    const KernelFunction& kernel = op.entry().lookup(ks);
    if (__builtin_expect(detail::dispatch_trace_on(), 0)) {
      detail::DispatchTraceScope trace("redispatch", op, ks);
      return kernel.template call<Return, Args...>(op, ks, std::forward<Args>(args)...);
    }
    return kernel.template call<Return, Args...>(op, ks, std::forward<Args>(args)...);
  }

  static void callBoxed(const OperatorHandle& op, Stack* stack) {
    const OperatorEntry& entry = op.entry();
    DispatchKeySet ks = entry.dispatchKeyExtractor().getDispatchKeySetBoxed(*stack);
    const KernelFunction& kernel = entry.lookupForCall(ks);
    if (__builtin_expect(detail::dispatch_trace_on(), 0)) {
      detail::DispatchTraceScope trace("callBoxed", op, ks);
      return kernel.callBoxed(op, ks, stack);
    }
    kernel.callBoxed(op, ks, stack);
  }

  static void redispatchBoxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
    const KernelFunction& kernel = op.entry().lookup(ks);
    if (__builtin_expect(detail::dispatch_trace_on(), 0)) {
      detail::DispatchTraceScope trace("redispatchBoxed", op, ks);
      return kernel.callBoxed(op, ks, stack);
    }
    kernel.callBoxed(op, ks, stack);
  }

  // --- registration; each returns a handle that undoes it --------------------------------------------
  RegistrationHandleRAII registerDef(FunctionSchema schema, std::string debug);
  RegistrationHandleRAII registerImpl(OperatorName name, std::optional<DispatchKey> key, KernelFunction kernel,
                                      std::string debug);
  // `key` is a runtime key or the Autograd alias (expanded to every Autograd<Backend> key).
  RegistrationHandleRAII registerFallback(DispatchKey key, KernelFunction kernel, std::string debug);
  // Claims namespace `ns` for one MT_LIBRARY block.
  RegistrationHandleRAII registerLibrary(std::string ns, std::string debug);

  // The fallback registered for a runtime slot (nullptr if none), with where it came from.
  const KernelFunction* backendFallback(int slot) const { return fallbacks_[slot].kernel.get(); }

 private:
  friend class OperatorHandle;
  Dispatcher();
  OperatorEntry& findOrRegisterName(const OperatorName& name);

  std::mutex mutex_;
  std::list<OperatorEntry> operators_;  // a list keeps entries (and handles to them) in place
  std::unordered_map<std::string, OperatorEntry*> lookup_;
  struct Fallback {
    std::shared_ptr<const KernelFunction> kernel;
    std::string debug;
  };
  std::array<Fallback, num_runtime_entries> fallbacks_;
  std::vector<std::shared_ptr<const KernelFunction>> retired_fallbacks_;
  std::unordered_map<std::string, std::string> libraries_;  // namespace -> where MT_LIBRARY claimed it
};

inline void OperatorHandle::callBoxed(Stack* stack) const { Dispatcher::callBoxed(*this, stack); }
inline void OperatorHandle::redispatchBoxed(DispatchKeySet ks, Stack* stack) const {
  Dispatcher::redispatchBoxed(*this, ks, stack);
}
template <typename Return, typename... Args>
Return TypedOperatorHandle<Return(Args...)>::call(Args... args) const {
  return Dispatcher::call<Return, Args...>(*this, std::forward<Args>(args)...);
}
template <typename Return, typename... Args>
Return TypedOperatorHandle<Return(Args...)>::redispatch(DispatchKeySet ks, Args... args) const {
  return Dispatcher::redispatch<Return, Args...>(*this, ks, std::forward<Args>(args)...);
}

}  // namespace mt
