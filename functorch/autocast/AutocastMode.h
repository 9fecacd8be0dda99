#pragma once
// Autocast (PyTorch's torch.autocast): while an AutocastGuard is active, the ops of a device's policy
// table run in that table's dtype. Every floating tensor carries its device's Autocast key, which is
// excluded in TLS by default; the guard lifts the exclusion, and the kernels in Policies.cpp cast the
// arguments and call the op again from the top with the key excluded, so autograd records the casts.
//
//   { mt::AutocastGuard autocast(mt::kCPU, mt::kBFloat16); logits = model.forward(x); }  // bf16 matmuls
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "dispatch/DispatchKey.h"
#include "tensor/Device.h"
#include "tensor/ScalarType.h"
#include "tensor/Tensor.h"

namespace mt {

namespace autocast {

enum class CastPolicy : uint8_t {
  lower_precision_fp,  // cast floating args to the guard's dtype (matrix products)
  fp32,                // cast floating args to float32 (losses, ops that lose range or precision)
  fp32_set_opt_dtype,  // an op with `ScalarType? dtype`: when it is None, ask for a float32 result
  promote,             // cast floating args to the widest floating dtype among them (cat, stack)
  banned,              // refuses to run under autocast (binary_cross_entropy on CUDA)
};
std::string_view toString(CastPolicy p);

// `device`'s table: (operator name, policy) pairs.
std::span<const std::pair<std::string_view, CastPolicy>> policies(DeviceType device);
// The policy of operator `op` ("mm", "pow.Tensor_Scalar") on `device`; nullopt: the op runs unchanged.
std::optional<CastPolicy> policy_for(DeviceType device, std::string_view op);

// AutocastCPU or AutocastCUDA; other devices have no autocast and raise.
DispatchKey autocast_dispatch_key(DeviceType device);
// Whether autocast is on for `device` in this thread.
bool is_enabled(DeviceType device);
// The dtype lower_precision_fp ops run in on `device`: the innermost guard's, else bfloat16 on CPU and
// float16 on CUDA.
ScalarType get_autocast_dtype(DeviceType device);

// `t` as `dtype` if it is eligible (defined, floating but not float64, on `device`), else `t` itself.
// Casts of float32 leaves that require grad to the autocast dtype are cached until the outermost
// guard exits.
Tensor cached_cast(ScalarType dtype, const Tensor& t, DeviceType device);
// How many casts this thread's cache holds, and dropping them (the outermost guard's exit does this).
size_t cache_size();
void clear_cache();

}  // namespace autocast

// Turns autocast on (or, with enabled=false, off) for `device` with lower precision `dtype` for the
// guard's lifetime, then restores the previous state exactly. CPU supports bfloat16; CUDA float16 and
// bfloat16.
class AutocastGuard {
 public:
  AutocastGuard(DeviceType device, ScalarType dtype, bool enabled = true);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  DeviceType device_;
  bool prev_enabled_;
  ScalarType prev_dtype_;
};

}  // namespace mt
