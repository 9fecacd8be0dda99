#pragma once
// Dispatch keys: backends (the low bits of a DispatchKeySet), functionality keys (the high bits, in
// priority order), the runtime per-backend keys that combine the two (CPU = Dense+CPUBit,
// AutogradCUDA = AutogradFunctionality+CUDABit) and the registration-only alias keys.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

namespace mt {

// Backend order is priority order. Meta is last so that Meta in the TLS include set wins.
#define MT_FORALL_BACKEND_COMPONENTS(_) _(CPU) _(CUDA) _(PrivateUse1) _(Meta)

enum class BackendComponent : uint8_t {
  InvalidBit = 0,
#define MT_DEFINE_BIT(b) b##Bit,
  MT_FORALL_BACKEND_COMPONENTS(MT_DEFINE_BIT)
#undef MT_DEFINE_BIT
  EndOfBackendKeys = MetaBit,
};
constexpr int num_backends = static_cast<int>(BackendComponent::EndOfBackendKeys);

// Functionality keys, lowest priority first. The two marked per-backend get one runtime slot per backend.
#define MT_FORALL_FUNCTIONALITY_KEYS(_) \
  _(Dense)                  /* per-backend: the kernels that compute */                  \
  _(BackendSelect)          /* factories pick a backend from their options */           \
  _(DispatchMode)           /* C++ dispatch modes that see what executes */              \
  _(FuncTorchDynamicLayerBackMode)                                                       \
  _(Functionalize)                                                                       \
  _(ADInplaceOrView)        /* version counters and view bookkeeping */                  \
  _(AutogradFunctionality)  /* per-backend: record the graph */                          \
  _(AutocastCPU)                                                                         \
  _(AutocastCUDA)                                                                        \
  _(FuncTorchBatched)                                                                    \
  _(FuncTorchGradWrapper)                                                                \
  _(FuncTorchDynamicLayerFrontMode)                                                      \
  _(PreDispatch)            /* C++ dispatch modes that see the user's calls */

enum class DispatchKey : uint8_t {
  Undefined = 0,
#define MT_DEFINE_KEY(k) k,
  MT_FORALL_FUNCTIONALITY_KEYS(MT_DEFINE_KEY)
#undef MT_DEFINE_KEY
  EndOfFunctionalityKeys,

  // Runtime per-backend keys. Each StartOf* plays the role of InvalidBit, so that
  // key = StartOf* + backend bit.
  StartOfDenseBackends = EndOfFunctionalityKeys,
#define MT_DEFINE_DENSE(b) b,
  MT_FORALL_BACKEND_COMPONENTS(MT_DEFINE_DENSE)
#undef MT_DEFINE_DENSE
  EndOfDenseBackends = Meta,
  StartOfAutogradBackends,
#define MT_DEFINE_AUTOGRAD(b) Autograd##b,
  MT_FORALL_BACKEND_COMPONENTS(MT_DEFINE_AUTOGRAD)
#undef MT_DEFINE_AUTOGRAD
  EndOfAutogradBackends = AutogradMeta,
  EndOfRuntimeBackendKeys = EndOfAutogradBackends,

  // Alias keys: used when registering, expanded to runtime keys, never dispatched to.
  Autograd,
  CompositeImplicitAutograd,
  CompositeExplicitAutograd,
  EndOfAliasKeys = CompositeExplicitAutograd,
  StartOfAliasKeys = Autograd,
};

constexpr int num_functionality_keys = static_cast<int>(DispatchKey::EndOfFunctionalityKeys);  // counts Undefined
constexpr int num_per_backend_functionality_keys = 2;
// One slot per non-per-backend functionality (and Undefined), num_backends per per-backend one.
constexpr int num_runtime_entries =
    num_functionality_keys + num_per_backend_functionality_keys * (num_backends - 1);

constexpr bool isPerBackendFunctionalityKey(DispatchKey k) {
  return k == DispatchKey::Dense || k == DispatchKey::AutogradFunctionality;
}
constexpr bool isAliasDispatchKey(DispatchKey k) {
  return k >= DispatchKey::StartOfAliasKeys && k <= DispatchKey::EndOfAliasKeys;
}
constexpr bool isRuntimePerBackendKey(DispatchKey k) {
  return k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfRuntimeBackendKeys &&
         k != DispatchKey::StartOfAutogradBackends;
}
// A key that names a backend's compute kernels (CPU, CUDA, Meta, PrivateUse1).
constexpr bool isBackendDispatchKey(DispatchKey k) {
  return k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfDenseBackends;
}
constexpr bool isAutogradRuntimeKey(DispatchKey k) {
  return k > DispatchKey::StartOfAutogradBackends && k <= DispatchKey::EndOfAutogradBackends;
}

// AutogradCUDA -> AutogradFunctionality, CPU -> Dense, anything else -> itself.
constexpr DispatchKey toFunctionalityKey(DispatchKey k) {
  if (k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfDenseBackends) return DispatchKey::Dense;
  if (isAutogradRuntimeKey(k)) return DispatchKey::AutogradFunctionality;
  return k;
}
// AutogradCUDA -> CUDABit; keys that are not per-backend -> InvalidBit.
constexpr BackendComponent toBackendComponent(DispatchKey k) {
  if (k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfDenseBackends)
    return static_cast<BackendComponent>(static_cast<int>(k) - static_cast<int>(DispatchKey::StartOfDenseBackends));
  if (isAutogradRuntimeKey(k))
    return static_cast<BackendComponent>(static_cast<int>(k) -
                                         static_cast<int>(DispatchKey::StartOfAutogradBackends));
  return BackendComponent::InvalidBit;
}
// (Dense, CUDABit) -> CUDA; (AutogradFunctionality, CPUBit) -> AutogradCPU.
constexpr DispatchKey toRuntimePerBackendFunctionalityKey(DispatchKey functionality, BackendComponent b) {
  const auto start = functionality == DispatchKey::Dense ? DispatchKey::StartOfDenseBackends
                                                         : DispatchKey::StartOfAutogradBackends;
  return static_cast<DispatchKey>(static_cast<int>(start) + static_cast<int>(b));
}
constexpr DispatchKey getAutogradKeyFromBackend(BackendComponent b) {
  return toRuntimePerBackendFunctionalityKey(DispatchKey::AutogradFunctionality, b);
}

std::string_view toString(DispatchKey k);
std::string_view toString(BackendComponent b);
std::ostream& operator<<(std::ostream& os, DispatchKey k);
std::ostream& operator<<(std::ostream& os, BackendComponent b);
// The inverse of toString: "AutogradCPU" -> DispatchKey::AutogradCPU; nullopt for an unknown name.
std::optional<DispatchKey> parseDispatchKey(std::string_view name);

}  // namespace mt
