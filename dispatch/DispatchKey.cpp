#include "dispatch/DispatchKey.h"

namespace mt {

std::string_view toString(BackendComponent b) {
  switch (b) {
#define MT_CASE(name)              \
  case BackendComponent::name##Bit: \
    return #name "Bit";
    MT_FORALL_BACKEND_COMPONENTS(MT_CASE)
#undef MT_CASE
    case BackendComponent::InvalidBit:
      return "InvalidBit";
  }
  return "UNKNOWN_BACKEND_BIT";
}

std::string_view toString(DispatchKey k) {
  switch (k) {
    case DispatchKey::Undefined:
      return "Undefined";
#define MT_CASE(name)       \
  case DispatchKey::name: \
    return #name;
      MT_FORALL_FUNCTIONALITY_KEYS(MT_CASE)
#undef MT_CASE
#define MT_CASE(b)                    \
  case DispatchKey::b:                \
    return #b;                        \
  case DispatchKey::Autograd##b:      \
    return "Autograd" #b;
      MT_FORALL_BACKEND_COMPONENTS(MT_CASE)
#undef MT_CASE
    case DispatchKey::Autograd:
      return "Autograd";
    case DispatchKey::CompositeImplicitAutograd:
      return "CompositeImplicitAutograd";
    case DispatchKey::CompositeExplicitAutograd:
      return "CompositeExplicitAutograd";
    case DispatchKey::EndOfFunctionalityKeys:
      return "EndOfFunctionalityKeys";
    case DispatchKey::StartOfAutogradBackends:
      return "StartOfAutogradBackends";
  }
  return "UNKNOWN_DISPATCH_KEY";
}

std::ostream& operator<<(std::ostream& os, DispatchKey k) { return os << toString(k); }
std::ostream& operator<<(std::ostream& os, BackendComponent b) { return os << toString(b); }

std::optional<DispatchKey> parseDispatchKey(std::string_view name) {
  for (int k = 0; k <= static_cast<int>(DispatchKey::EndOfAliasKeys); ++k) {
    const auto key = static_cast<DispatchKey>(k);
    if (key == DispatchKey::EndOfFunctionalityKeys || key == DispatchKey::StartOfAutogradBackends) continue;
    if (toString(key) == name) return key;
  }
  return std::nullopt;
}

}  // namespace mt
