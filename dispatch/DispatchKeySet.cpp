#include "dispatch/DispatchKeySet.h"

#include <sstream>

namespace mt {

namespace {
constexpr DispatchKeySet all_backends(DispatchKeySet::RAW, DispatchKeySet::full_backend_mask);
constexpr DispatchKeySet backend_dispatch_keyset = DispatchKeySet(DispatchKey::Dense) | all_backends;
constexpr DispatchKeySet autograd_runtime_keyset = autograd_dispatch_keyset | all_backends;
}  // namespace

DispatchKeySet getRuntimeDispatchKeySet(DispatchKey k) {
  switch (k) {
    case DispatchKey::Autograd:
      return autograd_runtime_keyset;
    case DispatchKey::CompositeImplicitAutograd:
      return backend_dispatch_keyset | autograd_runtime_keyset;
    case DispatchKey::CompositeExplicitAutograd:
      return backend_dispatch_keyset;
    default:
      return DispatchKeySet(k);
  }
}

bool runtimeDispatchKeySetHas(DispatchKey alias, DispatchKey k) {
  if (!isAliasDispatchKey(alias)) return alias == k;
  return getRuntimeDispatchKeySet(alias).has(k);
}

DispatchKeySet getBackendKeySetFromAutograd(DispatchKey k) {
  if (!isAutogradRuntimeKey(k)) return DispatchKeySet();
  return DispatchKeySet(toRuntimePerBackendFunctionalityKey(DispatchKey::Dense, toBackendComponent(k)));
}

std::string DispatchKeySet::str() const {
  std::ostringstream ss;
  ss << "DispatchKeySet(";
  bool first = true;
  for_each_key([&](DispatchKey k) {
    ss << (first ? "" : ", ") << k;
    first = false;
  });
  ss << ")";
  return ss.str();
}

std::ostream& operator<<(std::ostream& os, DispatchKeySet ks) { return os << ks.str(); }

}  // namespace mt
