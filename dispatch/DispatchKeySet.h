#pragma once
// A DispatchKeySet is one uint64_t: backend bits low, functionality bits high, so the highest set bit
// is the highest-priority functionality and the runtime table index is computed with two bit scans.
#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>

#include "dispatch/DispatchKey.h"

namespace mt {

namespace detail {
constexpr uint64_t full_backend_mask = (uint64_t(1) << num_backends) - 1;

// Runtime table offset of each functionality, and the backend mask that applies to it (non-zero only
// for per-backend functionalities, which take num_backends consecutive slots).
struct OffsetAndMask {
  uint16_t offset;
  uint16_t mask;
};
constexpr std::array<OffsetAndMask, num_functionality_keys> make_offsets_and_masks() {
  std::array<OffsetAndMask, num_functionality_keys> out{};
  out[0] = {0, 0};
  for (int k = 1; k < num_functionality_keys; ++k) {
    const auto prev = out[k - 1];
    const uint16_t offset = prev.offset + (prev.mask == 0 ? 1 : num_backends);
    const uint16_t mask = isPerBackendFunctionalityKey(static_cast<DispatchKey>(k)) ? full_backend_mask : 0;
    out[k] = {offset, mask};
  }
  return out;
}
inline constexpr std::array<OffsetAndMask, num_functionality_keys> offsets_and_masks = make_offsets_and_masks();
static_assert(offsets_and_masks[num_functionality_keys - 1].offset == num_runtime_entries - 1);
}  // namespace detail

class DispatchKeySet {
 public:
  enum Full { FULL };
  enum FullAfter { FULL_AFTER };
  enum Raw { RAW };

  constexpr DispatchKeySet() = default;
  constexpr DispatchKeySet(Full) : repr_((uint64_t(1) << (num_backends + num_functionality_keys - 1)) - 1) {}
  // Every key strictly below `t` (all backend bits included).
  constexpr DispatchKeySet(FullAfter, DispatchKey t)
      : repr_((uint64_t(1) << (num_backends + static_cast<int>(toFunctionalityKey(t)) - 1)) - 1) {}
  constexpr DispatchKeySet(Raw, uint64_t x) : repr_(x) {}
  constexpr explicit DispatchKeySet(BackendComponent b)
      : repr_(b == BackendComponent::InvalidBit ? 0 : uint64_t(1) << (static_cast<int>(b) - 1)) {}
  // A functionality key sets its bit; a runtime per-backend key sets its functionality and backend
  // bits; Undefined and alias keys give the empty set.
  constexpr DispatchKeySet(DispatchKey k) : repr_(bits_of(k)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> ks) {
    for (auto k : ks) repr_ |= bits_of(k);
  }
  constexpr DispatchKeySet(std::initializer_list<BackendComponent> bs) {
    for (auto b : bs) repr_ |= DispatchKeySet(b).repr_;
  }

  constexpr uint64_t raw_repr() const { return repr_; }
  constexpr bool empty() const { return repr_ == 0; }

  // True when every bit of `k` is present (for AutogradCPU: the autograd bit and the CPU bit).
  constexpr bool has(DispatchKey k) const {
    const uint64_t bits = bits_of(k);
    return bits != 0 && (repr_ & bits) == bits;
  }
  constexpr bool has_backend(BackendComponent b) const { return (repr_ & DispatchKeySet(b).repr_) != 0; }
  constexpr bool has_all(DispatchKeySet ks) const { return (repr_ & ks.repr_) == ks.repr_; }
  constexpr bool has_any(DispatchKeySet ks) const { return (repr_ & ks.repr_) != 0; }

  constexpr DispatchKeySet operator|(DispatchKeySet o) const { return {RAW, repr_ | o.repr_}; }
  constexpr DispatchKeySet operator&(DispatchKeySet o) const { return {RAW, repr_ & o.repr_}; }
  constexpr DispatchKeySet operator^(DispatchKeySet o) const { return {RAW, repr_ ^ o.repr_}; }
  // Set difference on functionalities only: backend bits are never cleared, since removing a
  // functionality must not forget which backend a tensor lives on.
  constexpr DispatchKeySet operator-(DispatchKeySet o) const {
    return {RAW, repr_ & (full_backend_mask | ~o.repr_)};
  }
  constexpr bool operator==(const DispatchKeySet&) const = default;

  constexpr DispatchKeySet add(DispatchKey k) const { return *this | DispatchKeySet(k); }
  constexpr DispatchKeySet add(DispatchKeySet ks) const { return *this | ks; }
  // Removes the functionality of `k` (for AutogradCPU: all of AutogradFunctionality), never a backend.
  constexpr DispatchKeySet remove(DispatchKey k) const {
    return {RAW, repr_ & ~(DispatchKeySet(k).repr_ & ~full_backend_mask)};
  }
  constexpr DispatchKeySet remove_backend(BackendComponent b) const {
    return {RAW, repr_ & ~DispatchKeySet(b).repr_};
  }

  // 1-based index of the highest set bit, 0 for the empty set.
  constexpr int indexOfHighestBit() const { return 64 - std::countl_zero(repr_); }

  constexpr DispatchKey highestFunctionalityKey() const {
    return static_cast<DispatchKey>(DispatchKeySet(RAW, repr_ >> num_backends).indexOfHighestBit());
  }
  constexpr BackendComponent highestBackendKey() const {
    return static_cast<BackendComponent>(DispatchKeySet(RAW, repr_ & full_backend_mask).indexOfHighestBit());
  }
  // The runtime key this set dispatches to: the highest functionality, combined with the highest
  // backend when that functionality is per-backend.
  constexpr DispatchKey highestPriorityTypeId() const {
    const DispatchKey f = highestFunctionalityKey();
    if (!isPerBackendFunctionalityKey(f)) return f;
    return toRuntimePerBackendFunctionalityKey(f, highestBackendKey());
  }
  // 0-based index of the highest backend (0 when there is none, like CPU).
  constexpr int getBackendIndex() const {
    return DispatchKeySet(RAW, (repr_ & full_backend_mask) >> 1).indexOfHighestBit();
  }

  // The slot in an operator's runtime table: offset of the highest functionality plus, for a
  // per-backend functionality, the index of the highest backend. No branch on the key list.
  int getDispatchTableIndexForDispatchKeySet() const {
    const int functionality_idx = DispatchKeySet(RAW, repr_ >> num_backends).indexOfHighestBit();
    const detail::OffsetAndMask om = detail::offsets_and_masks[functionality_idx];
    const int backend_idx = DispatchKeySet(RAW, (repr_ & om.mask) >> 1).indexOfHighestBit();
    return om.offset + backend_idx;
  }

  // Iterates over the runtime keys in the set, lowest priority first (a per-backend functionality
  // yields one key per backend present).
  template <typename F>
  void for_each_key(F&& f) const {
    for (int k = 1; k < num_functionality_keys; ++k) {
      const auto key = static_cast<DispatchKey>(k);
      if (!has(key)) continue;
      if (!isPerBackendFunctionalityKey(key)) {
        f(key);
        continue;
      }
      for (int b = 1; b <= num_backends; ++b) {
        const auto bc = static_cast<BackendComponent>(b);
        if (has_backend(bc)) f(toRuntimePerBackendFunctionalityKey(key, bc));
      }
    }
  }

  std::string str() const;  // "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)"

  static constexpr uint64_t full_backend_mask = detail::full_backend_mask;

 private:
  static constexpr uint64_t bits_of(DispatchKey k) {
    if (k == DispatchKey::Undefined || isAliasDispatchKey(k)) return 0;
    const int f = static_cast<int>(toFunctionalityKey(k));
    const uint64_t functionality_bit = uint64_t(1) << (num_backends + f - 1);
    return functionality_bit | DispatchKeySet(toBackendComponent(k)).repr_;
  }

  uint64_t repr_ = 0;
};
static_assert(num_backends + num_functionality_keys - 1 <= 64);

std::ostream& operator<<(std::ostream& os, DispatchKeySet ks);

// The runtime keys an alias key stands for (a runtime key stands for itself).
DispatchKeySet getRuntimeDispatchKeySet(DispatchKey k);
// Whether runtime key `k` is covered by alias (or runtime) key `alias`.
bool runtimeDispatchKeySetHas(DispatchKey alias, DispatchKey k);
// AutogradCPU -> {CPU}: the backend whose kernel makes a CompositeImplicitAutograd kernel unneeded.
DispatchKeySet getBackendKeySetFromAutograd(DispatchKey k);

// The runtime slot of a single runtime key.
inline int getDispatchTableIndexForDispatchKey(DispatchKey k) {
  return DispatchKeySet(k).getDispatchTableIndexForDispatchKeySet();
}

// The masks a layer uses to redispatch below itself.
constexpr DispatchKeySet autograd_dispatch_keyset = DispatchKeySet(DispatchKey::AutogradFunctionality);
constexpr DispatchKeySet after_autograd_keyset = DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::AutogradFunctionality);
constexpr DispatchKeySet after_ADInplaceOrView_keyset = DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::ADInplaceOrView);
constexpr DispatchKeySet after_func_keyset = DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::Functionalize);
constexpr DispatchKeySet after_DispatchMode_keyset = DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::DispatchMode);
constexpr DispatchKeySet autocast_dispatch_keyset = DispatchKeySet({DispatchKey::AutocastCPU, DispatchKey::AutocastCUDA});
constexpr DispatchKeySet autograd_dispatch_keyset_with_ADInplaceOrView =
    autograd_dispatch_keyset | DispatchKeySet(DispatchKey::ADInplaceOrView);
// The functionalities that, with a backend bit, name a backend's own kernels.
constexpr DispatchKeySet backend_functionality_keys =
    DispatchKeySet(DispatchKey::Dense) | DispatchKeySet(DispatchKeySet::RAW, DispatchKeySet::full_backend_mask);

// The TLS state a thread starts in: BackendSelect and ADInplaceOrView included, autocast excluded.
constexpr DispatchKeySet default_included_set = DispatchKeySet({DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView});
constexpr DispatchKeySet default_excluded_set = autocast_dispatch_keyset;

}  // namespace mt
