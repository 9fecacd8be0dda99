#include "dispatch/OperatorEntry.h"

#include <iostream>
#include <mutex>
#include <sstream>

#include "dispatch/Dispatcher.h"

namespace mt {

namespace {
// Every runtime key, in table order.
template <typename F>
void for_each_runtime_key(F&& f) {
  f(DispatchKey::Undefined);
  DispatchKeySet(DispatchKeySet::FULL).for_each_key(f);
}

std::once_flag override_warning;
}  // namespace

OperatorEntry::OperatorEntry(OperatorName name) : name_(std::move(name)) {
  for (auto& source : table_source_) source.store(nullptr, std::memory_order_relaxed);
}

const FunctionSchema& OperatorEntry::schema() const {
  MT_CHECK(schema_.has_value(), "Tried to access the schema for ", name_.str(),
           " which doesn't have a schema registered yet");
  return *schema_;
}

const AnnotatedKernel* OperatorEntry::kernelForKey(DispatchKey k) const {
  auto it = kernels_.find(k);
  return it == kernels_.end() ? nullptr : &it->second.front();
}

bool OperatorEntry::hasKernelForDispatchKey(DispatchKey k) const { return kernelForKey(k) != nullptr; }

bool OperatorEntry::hasComputedKernelForDispatchKey(DispatchKey k) const {
  MT_CHECK_VALUE(!isAliasDispatchKey(k), "hasComputedKernelForDispatchKey expects a runtime key, got alias key ", k);
  return table_[getDispatchTableIndexForDispatchKey(k)].load(std::memory_order_acquire) != nullptr;
}

void OperatorEntry::checkKernelAgainstSchema(const KernelFunction& kernel, const std::string& debug) const {
  const auto inferred = kernel.inferredSchema();
  if (!schema_ || !inferred) return;
  if (auto reason = findSchemaDifferences(*schema_, *inferred)) {
    MT_CHECK(false,
             "Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n"
             "  operator: ", name_.str(), "\n  expected schema: ", schema_->str(), "\n    ", schema_debug_,
             "\n  inferred schema: ", inferred->str(), "\n    ", debug, "\n  reason: ", *reason);
  }
}

void OperatorEntry::registerSchema(FunctionSchema schema, std::string debug, const Dispatcher&) {
  // Check every kernel registered before the def, before changing anything.
  schema_ = std::move(schema);
  schema_debug_ = std::move(debug);
  try {
    for (const auto& [key, list] : kernels_)
      for (const auto& k : list) checkKernelAgainstSchema(*k.kernel, k.debug);
  } catch (...) {
    schema_.reset();
    schema_debug_.clear();
    throw;
  }
  extractor_.setSchema(*schema_);
}

void OperatorEntry::deregisterSchema(const Dispatcher&) {
  schema_.reset();
  schema_debug_.clear();
}

OperatorEntry::KernelList::iterator OperatorEntry::registerKernel(const Dispatcher& dispatcher,
                                                                  std::optional<DispatchKey> key,
                                                                  KernelFunction kernel, std::string debug) {
  const DispatchKey k = key.value_or(DispatchKey::CompositeImplicitAutograd);
  checkKernelAgainstSchema(kernel, debug);
  if (const auto& sig = kernel.cppSignature()) {
    MT_CHECK(!cpp_signature_ || *cpp_signature_ == *sig, "\nMismatch in kernel C++ signatures\n  operator: ",
             name_.str(), "\n  kernel 1: ", cpp_signature_ ? cpp_signature_->name() : "", "\n    ", cpp_signature_debug_,
             "\n  kernel 2: ", sig->name(), "\n    dispatch key: ", k, "\n    ", debug);
    if (!cpp_signature_) {
      cpp_signature_ = sig;
      cpp_signature_debug_ = debug;
    }
  }
  KernelList& list = kernels_[k];
  if (!list.empty()) {
    std::call_once(override_warning, [&] {
      std::cerr << "Warning: Overriding a previously registered kernel for the same operator and the same dispatch "
                   "key\n  operator: "
                << name_.str() << "\n  dispatch key: " << k << "\n  previous kernel: " << list.front().debug
                << "\n       new kernel: " << debug
                << "\n(Warning only once for all operators, other operators may also be overridden.)\n";
    });
  }
  list.push_front(AnnotatedKernel{std::make_shared<const KernelFunction>(std::move(kernel)), std::move(debug)});
  updateDispatchTable(dispatcher, k);
  return list.begin();
}

void OperatorEntry::deregisterKernel(const Dispatcher& dispatcher, DispatchKey key, KernelList::iterator it) {
  auto found = kernels_.find(key);
  MT_INTERNAL_ASSERT(found != kernels_.end());
  retired_.push_back(it->kernel);
  found->second.erase(it);
  if (found->second.empty()) kernels_.erase(found);
  updateDispatchTable(dispatcher, key);
}

void OperatorEntry::updateFallback(const Dispatcher& dispatcher, DispatchKey runtime_key) {
  updateDispatchTableEntry(dispatcher, runtime_key);
}

OperatorEntry::SlotChoice OperatorEntry::computeDispatchTableEntry(const Dispatcher& dispatcher, DispatchKey k) const {
  using DK = DispatchKey;
  if (const auto* direct = kernelForKey(k)) return {direct->kernel.get(), "kernel"};
  const auto* explicit_kernel = kernelForKey(DK::CompositeExplicitAutograd);
  if (explicit_kernel && (k == DK::Undefined || runtimeDispatchKeySetHas(DK::CompositeExplicitAutograd, k)))
    return {explicit_kernel->kernel.get(), "default backend kernel"};
  // An Autograd slot takes the math kernel only while the backend has no kernel of its own: a backend
  // kernel without a derivative must not be silently bypassed by the decomposition.
  bool has_backend_kernel = explicit_kernel != nullptr;
  const DispatchKeySet backend_keys = getBackendKeySetFromAutograd(k);
  for (const auto& [key, list] : kernels_) {
    if (!isAliasDispatchKey(key) && key != DK::Undefined && backend_keys.has(key)) has_backend_kernel = true;
  }
  const auto* math_kernel = kernelForKey(DK::CompositeImplicitAutograd);
  if (math_kernel && !has_backend_kernel &&
      (k == DK::Undefined || runtimeDispatchKeySetHas(DK::CompositeImplicitAutograd, k)))
    return {math_kernel->kernel.get(), "math kernel"};
  const auto* autograd_kernel = kernelForKey(DK::Autograd);
  if (autograd_kernel && runtimeDispatchKeySetHas(DK::Autograd, k)) return {autograd_kernel->kernel.get(), "autograd kernel"};
  if (const KernelFunction* fallback = dispatcher.backendFallback(getDispatchTableIndexForDispatchKey(k)))
    return {fallback, "backend fallback"};
  return {nullptr, nullptr};
}

void OperatorEntry::updateDispatchTableEntry(const Dispatcher& dispatcher, DispatchKey k) {
  const SlotChoice choice = computeDispatchTableEntry(dispatcher, k);
  const int idx = getDispatchTableIndexForDispatchKey(k);
  const bool fallthrough = choice.kernel && choice.kernel->isFallthrough();
  // Mask a new fallthrough before it is in the slot, unmask only after a real kernel is: a concurrent
  // call then never enters a fallthrough slot.
  if (fallthrough) extractor_.setOperatorHasFallthroughForKey(k, true);
  table_[idx].store(choice.kernel, std::memory_order_release);
  table_source_[idx].store(choice.source, std::memory_order_relaxed);
  if (!fallthrough) extractor_.setOperatorHasFallthroughForKey(k, false);
}

void OperatorEntry::updateDispatchTable(const Dispatcher& dispatcher, DispatchKey k) {
  if (k == DispatchKey::Undefined) {
    updateDispatchTableEntry(dispatcher, k);
    return;
  }
  if (isAliasDispatchKey(k)) {
    getRuntimeDispatchKeySet(k).for_each_key([&](DispatchKey r) { updateDispatchTableEntry(dispatcher, r); });
    // A CompositeExplicitAutograd kernel also decides whether the Autograd slots may take the math
    // kernel (see computeDispatchTableEntry), so they depend on it too.
    if (k == DispatchKey::CompositeExplicitAutograd) {
      getRuntimeDispatchKeySet(DispatchKey::Autograd).for_each_key(
          [&](DispatchKey r) { updateDispatchTableEntry(dispatcher, r); });
    }
    if (k != DispatchKey::Autograd) updateDispatchTableEntry(dispatcher, DispatchKey::Undefined);
    return;
  }
  updateDispatchTableEntry(dispatcher, k);
  // The backend's Autograd slot depends on whether the backend has a kernel (see above).
  if (isBackendDispatchKey(k)) updateDispatchTableEntry(dispatcher, getAutogradKeyFromBackend(toBackendComponent(k)));
}

void OperatorEntry::assertSignatureIsCorrect(const CppSignature& sig, const InferredSchema& inferred) {
  auto fail = [&](const std::string& expected, const std::string& reason) {
    MT_CHECK(false, "\nTried to access or call an operator with a wrong signature.\n  operator: ",
             schema_ ? schema_->str() : name_.str(), "\n    ", schema_debug_, "\n  correct signature:  ", expected,
             "\n  accessed/called as: ", sig.name(), reason,
             "\nThis likely happened in a call to OperatorHandle::typed<Return (Args...)>(). Please make sure that "
             "the function signature matches the signature in the operator registration call.");
  };
  if (cpp_signature_ && !(*cpp_signature_ == sig)) fail(cpp_signature_->name() + "\n    " + cpp_signature_debug_, "");
  if (schema_) {
    if (auto reason = findSchemaDifferences(*schema_, inferred)) fail(schema_->str(), "\n  reason: " + *reason);
  }
  // Kernels registered later must agree with how callers already call.
  if (!cpp_signature_) {
    cpp_signature_ = sig;
    cpp_signature_debug_ = "first accessed through OperatorHandle::typed<" + sig.name() + ">()";
  }
}

std::string OperatorEntry::availableKeys() const {
  std::ostringstream ss;
  bool first = true;
  for_each_runtime_key([&](DispatchKey k) {
    if (k == DispatchKey::Undefined) return;
    if (table_[getDispatchTableIndexForDispatchKey(k)].load(std::memory_order_acquire) == nullptr) return;
    ss << (first ? "" : ", ") << k;
    first = false;
  });
  return ss.str();
}

std::string OperatorEntry::dumpComputedTable() const {
  std::ostringstream ss;
  for_each_runtime_key([&](DispatchKey k) {
    const int idx = getDispatchTableIndexForDispatchKey(k);
    const KernelFunction* kernel = table_[idx].load(std::memory_order_acquire);
    if (kernel == nullptr) return;
    ss << k << ": " << (kernel->isFallthrough() ? "fallthrough " : "") << "["
       << table_source_[idx].load(std::memory_order_relaxed) << "]\n";
  });
  return ss.str();
}

std::string OperatorEntry::dumpState() const {
  std::ostringstream ss;
  ss << "name: " << name_.str() << "\n";
  if (schema_) ss << "schema: " << schema_->str() << "\n  debug: " << schema_debug_ << "\n";
  for (const auto& [key, list] : kernels_) {
    for (const auto& k : list) ss << key << ": " << k.debug << "\n";
  }
  return ss.str();
}

void OperatorEntry::reportError(DispatchKeySet ks) const {
  const DispatchKey k = ks.highestPriorityTypeId();
  if (k == DispatchKey::Undefined) {
    MT_CHECK_NOT_IMPLEMENTED(
        false, "There were no tensor arguments to this function (e.g., you passed an empty list of Tensors), but no "
               "fallback function is registered for schema ", name_.str(),
        ".  This usually means that this function requires a non-empty list of Tensors, or that you (the operator "
        "writer) forgot to register a fallback function.  Available functions are [", availableKeys(), "].\n\n",
        dumpComputedTable());
  }
  MT_CHECK_NOT_IMPLEMENTED(false, "Could not run '", name_.str(), "' with arguments from the '", k,
                           "' backend. This could be because the operator doesn't exist for this backend. '",
                           name_.str(), "' is only available for these backends: [", availableKeys(), "].\n\n",
                           dumpComputedTable());
  __builtin_unreachable();
}

}  // namespace mt
