// The CUDA backend's factories. empty and empty_strided take memory from the caching allocator
// registered for kCUDA, on the device the tensor names (as PyTorch's empty_cuda); full, zeros and ones
// fill it with the fill loop. The factories that compute values (arange, linspace, eye) or draw them
// (rand, randn, randint) run the CPU kernel and copy the result over: the values are then exactly
// the CPU's, and a seed draws the same tensor on either device, at the cost of one transfer.
#include <optional>
#include <tuple>

#include "dispatch/Library.h"
#include "ops/api/arange_ops.h"
#include "ops/api/copy_ops.h"
#include "ops/api/eye_ops.h"
#include "ops/api/linspace_ops.h"
#include "ops/api/rand_ops.h"
#include "ops/api/randint_ops.h"
#include "ops/api/randn_ops.h"
#include "ops/infra/TensorIterator.h"
#include "ops/WhereFill.h"
#include "tensor/cuda/CUDAContext.h"

namespace mt {

namespace {

// "cuda:1" allocates on device 1; plain "cuda" on the current device.
void guard_device(std::optional<cuda::CUDAGuard>& guard, std::optional<Device> device) {
  if (device && device->has_index()) guard.emplace(device->index());
}

Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  std::optional<cuda::CUDAGuard> guard;
  guard_device(guard, device);
  return Tensor(TensorImpl::empty(size, dtype.value_or(get_default_dtype()), device.value_or(Device(kCUDA))));
}

Tensor empty_strided_cuda(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                          std::optional<Device> device) {
  std::optional<cuda::CUDAGuard> guard;
  guard_device(guard, device);
  return Tensor(
      TensorImpl::empty_strided(size, stride, dtype.value_or(get_default_dtype()), device.value_or(Device(kCUDA))));
}

Tensor full_cuda(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Device> device) {
  // Without a dtype, the fill value decides: bool, int64 or the default float (as on the CPU).
  const ScalarType inferred = fill_value.isFloatingPoint() ? get_default_dtype() : fill_value.type();
  Tensor out = empty_cuda(size, dtype.value_or(inferred), device);
  TensorIterator iter = TensorIterator::nullary_op(out);
  fill_stub(kCUDA, iter, fill_value);
  return out;
}

Tensor zeros_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return full_cuda(size, 0, dtype.value_or(get_default_dtype()), device);
}

Tensor ones_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return full_cuda(size, 1, dtype.value_or(get_default_dtype()), device);
}

// The factory `Op` run on the CPU, its result copied to the device asked for. Every factory declares
// `device` as its last argument.
template <typename Op, typename Schema = typename Op::schema>
struct MadeOnCpu;
template <typename Op, typename... Args>
struct MadeOnCpu<Op, Tensor(Args...)> {
  static Tensor call(Args... args) {
    auto arg_tuple = std::make_tuple(args...);
    std::optional<Device>& device = std::get<sizeof...(Args) - 1>(arg_tuple);
    const Device target = device.value_or(Device(kCUDA));
    device = Device(kCPU);
    const Tensor on_cpu = std::apply([](auto&&... a) { return Op::call(a...); }, arg_tuple);
    Tensor out = empty_strided_cuda(on_cpu.sizes(), on_cpu.strides(), on_cpu.dtype(), target);
    ops::copy_::call(out, on_cpu, false);
    return out;
  }
};

}  // namespace

MT_LIBRARY_IMPL(mt, CUDA, m) {
  m.impl("empty", MT_FN(empty_cuda));
  m.impl("empty_strided", MT_FN(empty_strided_cuda));
  m.impl("full", MT_FN(full_cuda));
  m.impl("zeros", MT_FN(zeros_cuda));
  m.impl("ones", MT_FN(ones_cuda));
  m.impl("arange", &MadeOnCpu<ops::arange>::call);
  m.impl("arange.start_step", &MadeOnCpu<ops::arange_start_step>::call);
  m.impl("linspace", &MadeOnCpu<ops::linspace>::call);
  m.impl("eye", &MadeOnCpu<ops::eye>::call);
  m.impl("eye.m", &MadeOnCpu<ops::eye_m>::call);
  m.impl("rand", &MadeOnCpu<ops::rand>::call);
  m.impl("randn", &MadeOnCpu<ops::randn>::call);
  m.impl("randint", &MadeOnCpu<ops::randint>::call);
  m.impl("randint.low", &MadeOnCpu<ops::randint_low>::call);
}

}  // namespace mt
