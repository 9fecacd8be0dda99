#include "dispatch/Dispatcher.h"

namespace mt {

Dispatcher::Dispatcher() = default;

void OperatorHandle::assertSignatureIsCorrect(const CppSignature& sig, const InferredSchema& inferred) const {
  std::lock_guard<std::mutex> lock(Dispatcher::singleton().mutex_);
  entry_->assertSignatureIsCorrect(sig, inferred);
}

Dispatcher& Dispatcher::singleton() {
  // Never destroyed: static Library objects deregister from it during exit.
  static Dispatcher* instance = new Dispatcher();
  return *instance;
}

std::optional<OperatorHandle> Dispatcher::findOp(const OperatorName& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = lookup_.find(name.str());
  if (it == lookup_.end()) return std::nullopt;
  return OperatorHandle(it->second);
}

std::optional<OperatorHandle> Dispatcher::findSchema(const OperatorName& name) {
  auto op = findOp(name);
  if (!op || !op->hasSchema()) return std::nullopt;
  return op;
}

OperatorHandle Dispatcher::findSchemaOrThrow(std::string_view name, std::string_view overload_name) {
  OperatorName op_name = parse_operator_name(name);
  op_name.overload = std::string(overload_name);
  if (auto op = findSchema(op_name)) return *op;
  // Entries are never erased, so "known name" is not "has an implementation": ask for kernels.
  bool has_impl = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = lookup_.find(op_name.str());
    has_impl = it != lookup_.end() && !it->second->isEmpty();
  }
  MT_CHECK_VALUE(false, "Could not find schema for ", name, ".", overload_name,
                 has_impl ? " but we found an implementation; did you forget to def() the operator?" : "");
  __builtin_unreachable();
}

std::vector<OperatorName> Dispatcher::getAllOpNames() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OperatorName> names;
  for (const OperatorEntry& e : operators_)
    if (e.hasSchema()) names.push_back(e.name());
  return names;
}

OperatorEntry& Dispatcher::findOrRegisterName(const OperatorName& name) {
  const std::string key = name.str();
  if (auto it = lookup_.find(key); it != lookup_.end()) return *it->second;
  OperatorEntry& entry = operators_.emplace_back(name);
  lookup_.emplace(key, &entry);
  for (int idx = 0; idx < num_runtime_entries; ++idx) {
    if (!fallbacks_[idx].kernel) continue;
    DispatchKeySet(DispatchKeySet::FULL).for_each_key([&](DispatchKey k) {
      if (getDispatchTableIndexForDispatchKey(k) == idx) entry.updateFallback(*this, k);
    });
  }
  return entry;
}

RegistrationHandleRAII Dispatcher::registerDef(FunctionSchema schema, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& entry = findOrRegisterName(schema.op);
  MT_CHECK(!entry.hasSchema(), "Tried to register an operator (", schema.str(),
           ") with the same name and overload name multiple times. Each overload's schema should only be registered "
           "with a single call to def(). Duplicate registration: ", debug, ". Original registration: ",
           entry.schemaDebug());
  entry.registerSchema(std::move(schema), std::move(debug), *this);
  return RegistrationHandleRAII([this, &entry] {
    std::lock_guard<std::mutex> lock(mutex_);
    entry.deregisterSchema(*this);
  });
}

RegistrationHandleRAII Dispatcher::registerImpl(OperatorName name, std::optional<DispatchKey> key,
                                                KernelFunction kernel, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  MT_CHECK_VALUE(!key || isAliasDispatchKey(*key) || isRuntimePerBackendKey(*key) ||
                     (*key > DispatchKey::Undefined && *key < DispatchKey::EndOfFunctionalityKeys &&
                      !isPerBackendFunctionalityKey(*key)),
                 "Cannot register a kernel for dispatch key ", *key,
                 ": expected a runtime key (e.g. CPU, AutogradCPU, FuncTorchBatched) or an alias key");
  OperatorEntry& entry = findOrRegisterName(name);
  const DispatchKey stored_key = key.value_or(DispatchKey::CompositeImplicitAutograd);
  auto it = entry.registerKernel(*this, key, std::move(kernel), std::move(debug));
  return RegistrationHandleRAII([this, &entry, stored_key, it] {
    std::lock_guard<std::mutex> lock(mutex_);
    entry.deregisterKernel(*this, stored_key, it);
  });
}

RegistrationHandleRAII Dispatcher::registerFallback(DispatchKey key, KernelFunction kernel, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  MT_CHECK_VALUE(key == DispatchKey::Autograd || !isAliasDispatchKey(key),
                 "Cannot register a backend fallback for alias key ", key, ": expected a runtime key or Autograd");
  const DispatchKeySet keys = getRuntimeDispatchKeySet(key);
  keys.for_each_key([&](DispatchKey k) {
    const Fallback& existing = fallbacks_[getDispatchTableIndexForDispatchKey(k)];
    MT_CHECK(!existing.kernel, "Tried to register multiple backend fallbacks for the same dispatch key ", k,
             "; previous registration ", existing.debug, ", new registration ", debug);
  });
  auto shared = std::make_shared<const KernelFunction>(std::move(kernel));
  keys.for_each_key([&](DispatchKey k) {
    fallbacks_[getDispatchTableIndexForDispatchKey(k)] = Fallback{shared, debug};
    for (OperatorEntry& op : operators_) op.updateFallback(*this, k);
  });
  return RegistrationHandleRAII([this, keys] {
    std::lock_guard<std::mutex> lock(mutex_);
    keys.for_each_key([&](DispatchKey k) {
      Fallback& f = fallbacks_[getDispatchTableIndexForDispatchKey(k)];
      retired_fallbacks_.push_back(std::move(f.kernel));
      f = Fallback{};
      for (OperatorEntry& op : operators_) op.updateFallback(*this, k);
    });
  });
}

RegistrationHandleRAII Dispatcher::registerLibrary(std::string ns, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, inserted] = libraries_.emplace(ns, debug);
  MT_CHECK(inserted, "Only a single MT_LIBRARY can be used to register the namespace ", ns,
           "; please put all of your definitions in a single MT_LIBRARY block.  If you were trying to specify "
           "implementations, consider using MT_LIBRARY_IMPL (which can be duplicated).  If you really intended to "
           "define operators for a single namespace in a distributed way, you can use MT_LIBRARY_FRAGMENT to "
           "explicitly indicate this.  Previous registration of MT_LIBRARY was ",
           it->second, "; latest registration was ", debug);
  return RegistrationHandleRAII([this, ns] {
    std::lock_guard<std::mutex> lock(mutex_);
    libraries_.erase(ns);
  });
}

}  // namespace mt
