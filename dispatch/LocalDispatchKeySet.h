#pragma once
// Thread-local included/excluded key sets and the RAII guards that change them. The raw TLS words are
// stored XORed with the defaults, so a zero-initialised thread starts in the default state without
// any constructor running on the hot path.
#include "dispatch/DispatchKeySet.h"

namespace mt {

struct LocalDispatchKeySet {
  DispatchKeySet included_;
  DispatchKeySet excluded_;
};

namespace detail {
struct PODLocalDispatchKeySet {
  uint64_t included_xor_default;
  uint64_t excluded_xor_default;
};
extern thread_local constinit PODLocalDispatchKeySet raw_local_dispatch_key_set [[gnu::tls_model("initial-exec")]];
}  // namespace detail

inline LocalDispatchKeySet tls_local_dispatch_key_set() {
  const auto& raw = detail::raw_local_dispatch_key_set;
  return {DispatchKeySet(DispatchKeySet::RAW, raw.included_xor_default) ^ default_included_set,
          DispatchKeySet(DispatchKeySet::RAW, raw.excluded_xor_default) ^ default_excluded_set};
}
inline void tls_set_local_dispatch_key_set(LocalDispatchKeySet s) {
  detail::raw_local_dispatch_key_set = {(s.included_ ^ default_included_set).raw_repr(),
                                        (s.excluded_ ^ default_excluded_set).raw_repr()};
}
inline bool tls_is_dispatch_key_included(DispatchKey k) { return tls_local_dispatch_key_set().included_.has(k); }
inline bool tls_is_dispatch_key_excluded(DispatchKey k) { return tls_local_dispatch_key_set().excluded_.has(k); }

// Adds keys to the TLS included set for the guard's lifetime (exclusion still wins).
class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet ks) : saved_(tls_local_dispatch_key_set()) {
    tls_set_local_dispatch_key_set({saved_.included_ | ks, saved_.excluded_});
  }
  explicit IncludeDispatchKeyGuard(DispatchKey k) : IncludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ~IncludeDispatchKeyGuard() { tls_set_local_dispatch_key_set(saved_); }
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;

 private:
  LocalDispatchKeySet saved_;
};

// Adds keys to the TLS excluded set for the guard's lifetime.
class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet ks) : saved_(tls_local_dispatch_key_set()) {
    tls_set_local_dispatch_key_set({saved_.included_, saved_.excluded_ | ks});
  }
  explicit ExcludeDispatchKeyGuard(DispatchKey k) : ExcludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ~ExcludeDispatchKeyGuard() { tls_set_local_dispatch_key_set(saved_); }
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;

 private:
  LocalDispatchKeySet saved_;
};

// Replaces both sets outright (e.g. to restore a state captured elsewhere) for the guard's lifetime.
class ForceDispatchKeyGuard {
 public:
  explicit ForceDispatchKeyGuard(LocalDispatchKeySet s) : saved_(tls_local_dispatch_key_set()) {
    tls_set_local_dispatch_key_set(s);
  }
  ForceDispatchKeyGuard(DispatchKeySet included, DispatchKeySet excluded)
      : ForceDispatchKeyGuard(LocalDispatchKeySet{included, excluded}) {}
  ~ForceDispatchKeyGuard() { tls_set_local_dispatch_key_set(saved_); }
  ForceDispatchKeyGuard(const ForceDispatchKeyGuard&) = delete;
  ForceDispatchKeyGuard& operator=(const ForceDispatchKeyGuard&) = delete;

 private:
  LocalDispatchKeySet saved_;
};

}  // namespace mt
