// Autocast's thread-local state (on/off is the TLS exclusion of the device's key; the dtypes and the
// nesting depth live here), the guard, and the weight-cast cache.
#include "functorch/autocast/AutocastMode.h"

#include <unordered_map>

#include "autograd/AutogradMeta.h"
#include "autograd/GradMode.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "tensor/Error.h"
#include "tensor/TensorOptions.h"

namespace mt {

namespace autocast {

namespace {

thread_local ScalarType cpu_dtype = kBFloat16;
thread_local ScalarType cuda_dtype = kFloat16;
// Guards alive in this thread, enabled or not: the cache lives until the outermost one exits.
thread_local int nesting = 0;

ScalarType& dtype_slot(DeviceType device) {
  autocast_dispatch_key(device);  // rejects devices without autocast
  return device == kCPU ? cpu_dtype : cuda_dtype;
}

// A cast of a float32 leaf parameter. The source is held so its address cannot be reused by another
// tensor while the entry lives; its version tells whether an optimizer step changed it since.
struct CacheEntry {
  Tensor source;
  uint32_t version;
  Tensor cast;
};
struct CacheKey {
  const TensorImpl* impl;
  ScalarType dtype;
  bool operator==(const CacheKey&) const = default;
};
struct CacheKeyHash {
  size_t operator()(const CacheKey& k) const {
    return std::hash<const void*>()(k.impl) ^ (static_cast<size_t>(k.dtype) << 1);
  }
};
thread_local std::unordered_map<CacheKey, CacheEntry, CacheKeyHash> cast_cache;

bool is_eligible(const Tensor& t, DeviceType device) {
  return t.defined() && t.device().type() == device && t.is_floating_point() && t.scalar_type() != kFloat64;
}

bool is_view(const Tensor& t) {
  const autograd::AutogradMeta* meta = autograd::get_autograd_meta(t);
  return meta && meta->view;
}

}  // namespace

std::string_view toString(CastPolicy p) {
  switch (p) {
    case CastPolicy::lower_precision_fp:
      return "lower_precision_fp";
    case CastPolicy::fp32:
      return "fp32";
    case CastPolicy::fp32_set_opt_dtype:
      return "fp32_set_opt_dtype";
    case CastPolicy::promote:
      return "promote";
    case CastPolicy::banned:
      return "banned";
  }
  return "?";
}

DispatchKey autocast_dispatch_key(DeviceType device) {
  MT_CHECK_VALUE(device == kCPU || device == kCUDA, "User specified an unsupported autocast device_type '",
                 device_type_name(device), "' (autocast supports 'cpu' and 'cuda')");
  return device == kCPU ? DispatchKey::AutocastCPU : DispatchKey::AutocastCUDA;
}

bool is_enabled(DeviceType device) { return !tls_is_dispatch_key_excluded(autocast_dispatch_key(device)); }

ScalarType get_autocast_dtype(DeviceType device) { return dtype_slot(device); }

Tensor cached_cast(ScalarType dtype, const Tensor& t, DeviceType device) {
  if (!is_eligible(t, device) || t.scalar_type() == dtype) return t;
  const bool cacheable = nesting > 0 && dtype == get_autocast_dtype(device) && t.scalar_type() == kFloat32 &&
                         t.requires_grad() && t.is_leaf() && !is_view(t);
  if (!cacheable) return t.to(TensorOptions().dtype(dtype));
  CacheEntry& entry = cast_cache[CacheKey{t.unsafeGetTensorImpl(), dtype}];
  // A cast made under no_grad has no history: with grad mode on, it must be made again.
  const bool stale =
      !entry.cast.defined() || entry.version != t._version() || (GradMode::is_enabled() && !entry.cast.requires_grad());
  if (stale) entry = CacheEntry{t, t._version(), t.to(TensorOptions().dtype(dtype))};
  return entry.cast;
}

size_t cache_size() { return cast_cache.size(); }
void clear_cache() { cast_cache.clear(); }

}  // namespace autocast

AutocastGuard::AutocastGuard(DeviceType device, ScalarType dtype, bool enabled)
    : device_(device), prev_enabled_(autocast::is_enabled(device)), prev_dtype_(autocast::get_autocast_dtype(device)) {
  if (device == kCPU) {
    MT_CHECK_VALUE(dtype == kBFloat16, "In CPU autocast, but the target dtype is not supported. CPU Autocast only ",
                   "supports dtype of mt.bfloat16 currently, got ", dtype);
  } else {
    MT_CHECK_VALUE(dtype == kFloat16 || dtype == kBFloat16, "In CUDA autocast, but the target dtype is not ",
                   "supported. CUDA Autocast only supports dtypes of mt.float16 and mt.bfloat16 currently, got ",
                   dtype);
  }
  const DispatchKey key = autocast::autocast_dispatch_key(device);
  LocalDispatchKeySet tls = tls_local_dispatch_key_set();
  tls.excluded_ = enabled ? tls.excluded_.remove(key) : tls.excluded_.add(key);
  tls_set_local_dispatch_key_set(tls);
  autocast::dtype_slot(device) = dtype;
  ++autocast::nesting;
}

AutocastGuard::~AutocastGuard() {
  if (--autocast::nesting == 0) autocast::clear_cache();
  const DispatchKey key = autocast::autocast_dispatch_key(device_);
  LocalDispatchKeySet tls = tls_local_dispatch_key_set();
  tls.excluded_ = prev_enabled_ ? tls.excluded_.remove(key) : tls.excluded_.add(key);
  tls_set_local_dispatch_key_set(tls);
  autocast::dtype_slot(device_) = prev_dtype_;
}

}  // namespace mt
