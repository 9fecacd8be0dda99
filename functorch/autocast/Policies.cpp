// Autocast's per-device op tables and the kernels that apply them. A kernel casts the eligible floating
// arguments (Tensor, Tensor?, Tensor[] on the key's device) and calls the op again from the top with its
// Autocast key excluded, so the casts and the op pass through autograd. Ops in no table fall through.
// The lists follow PyTorch's, limited to the ops microtorch has.
#include <array>
#include <utility>
#include <vector>

#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "dispatch/MapTensors.h"
#include "functorch/autocast/AutocastMode.h"
#include "ops/Tags.h"

namespace mt::autocast {

namespace {

using Entry = std::pair<std::string_view, CastPolicy>;
using P = CastPolicy;

// The tables come from the declarations' autocast_cpu= and autocast_cuda= tags (ops/Tags.h), which follow
// PyTorch's lists. CPU: PyTorch's hand-written CPU list; it has no set_opt_dtype rules (softmax stays in
// bfloat16). CUDA: norm's overloads without a dtype run in float32 by casting (PyTorch redirects them to
// the dtype overload: the same result); cross_entropy_loss is float32 as its parts (log_softmax, nll_loss)
// are, since here it is one op with its own kernel.
#define MT_POLICY_ENTRY(name, policy) Entry{name, P::policy},
constexpr std::array cpu_policies{MT_AUTOCAST_CPU_OPS(MT_POLICY_ENTRY)};
constexpr std::array cuda_policies{MT_AUTOCAST_CUDA_OPS(MT_POLICY_ENTRY)};
#undef MT_POLICY_ENTRY

// Replaces every Tensor and Tensor[] argument by its cast to `dtype`.
void cast_arguments(IValue* args, size_t n, ScalarType dtype, DeviceType device) {
  for (size_t i = 0; i < n; ++i) {
    if (args[i].isTensor()) {
      args[i] = IValue(cached_cast(dtype, args[i].toTensorRef(), device));
    } else if (args[i].isTensorList()) {
      std::vector<Tensor> cast;
      for (const Tensor& t : args[i].toTensorList()) cast.push_back(cached_cast(dtype, t, device));
      args[i] = IValue(std::move(cast));
    }
  }
}

// The widest floating dtype among the eligible arguments, starting from the autocast dtype; float64
// arguments are left alone, as PyTorch does.
ScalarType widest_dtype(IValue* args, size_t n, DeviceType device) {
  ScalarType widest = get_autocast_dtype(device);
  for_each_tensor(args, n, [&](const Tensor& t) {
    if (t.defined() && t.device().type() == device && t.is_floating_point() && t.scalar_type() != kFloat64)
      widest = promote_types(widest, t.scalar_type());
  });
  return widest;
}

// With a None `dtype` argument and a floating first argument, asks for a float32 result (no cast of the
// input is needed: the op accumulates in float32 and returns float32).
void set_opt_dtype(const OperatorHandle& op, IValue* args, size_t n, DeviceType device) {
  if (n == 0 || !args[0].isTensor()) return;
  const Tensor& self = args[0].toTensorRef();
  if (!self.defined() || self.device().type() != device || !self.is_floating_point() || self.scalar_type() == kFloat64)
    return;
  const auto& schema_args = op.schema().arguments;
  for (size_t i = 0; i < n; ++i) {
    if (schema_args[i].name == "dtype" && args[i].isNone()) args[i] = IValue(kFloat32);
  }
}

template <DeviceType Device, CastPolicy Policy>
void autocast_kernel(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const size_t n = op.schema().arguments.size();
  IValue* args = stack->data() + stack->size() - n;
  if constexpr (Policy == P::banned) {
    MT_CHECK(false, "mt::binary_cross_entropy is unsafe to autocast. Many models use a sigmoid layer right before ",
             "the binary cross entropy layer. In this case, combine the two layers using ",
             "mt::binary_cross_entropy_with_logits, which is safe to autocast.");
  }
  ExcludeDispatchKeyGuard no_autocast(autocast_dispatch_key(Device));
  if constexpr (Policy == P::lower_precision_fp) cast_arguments(args, n, get_autocast_dtype(Device), Device);
  if constexpr (Policy == P::fp32) cast_arguments(args, n, kFloat32, Device);
  if constexpr (Policy == P::promote) cast_arguments(args, n, widest_dtype(args, n, Device), Device);
  if constexpr (Policy == P::fp32_set_opt_dtype) set_opt_dtype(op, args, n, Device);
  op.callBoxed(stack);
}

template <DeviceType Device>
CppFunction kernel_for(CastPolicy policy) {
  switch (policy) {
    case P::lower_precision_fp:
      return CppFunction::makeFromBoxedFunction<&autocast_kernel<Device, P::lower_precision_fp>>();
    case P::fp32:
      return CppFunction::makeFromBoxedFunction<&autocast_kernel<Device, P::fp32>>();
    case P::fp32_set_opt_dtype:
      return CppFunction::makeFromBoxedFunction<&autocast_kernel<Device, P::fp32_set_opt_dtype>>();
    case P::promote:
      return CppFunction::makeFromBoxedFunction<&autocast_kernel<Device, P::promote>>();
    case P::banned:
      return CppFunction::makeFromBoxedFunction<&autocast_kernel<Device, P::banned>>();
  }
  MT_INTERNAL_ASSERT(false, "unknown autocast policy");
}

template <DeviceType Device, size_t N>
void register_policies(Library& m, const std::array<Entry, N>& table) {
  for (const auto& [op, policy] : table) m.impl(op, kernel_for<Device>(policy));
}

}  // namespace

std::span<const Entry> policies(DeviceType device) {
  autocast_dispatch_key(device);  // rejects devices without autocast
  if (device == kCPU) return cpu_policies;
  return cuda_policies;
}

std::optional<CastPolicy> policy_for(DeviceType device, std::string_view op) {
  for (const auto& [name, policy] : policies(device))
    if (name == op) return policy;
  return std::nullopt;
}

MT_LIBRARY_IMPL(_, AutocastCPU, m) { m.fallback(CppFunction::makeFallthrough()); }
MT_LIBRARY_IMPL(_, AutocastCUDA, m) { m.fallback(CppFunction::makeFallthrough()); }
MT_LIBRARY_IMPL(mt, AutocastCPU, m) { register_policies<kCPU>(m, cpu_policies); }
MT_LIBRARY_IMPL(mt, AutocastCUDA, m) { register_policies<kCUDA>(m, cuda_policies); }

}  // namespace mt::autocast
