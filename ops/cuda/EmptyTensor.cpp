// The CUDA backend's factories, for now only empty and empty_strided (as PyTorch's empty_cuda): the
// memory comes from the caching allocator registered for kCUDA, on the device the tensor names.
#include <optional>

#include "dispatch/Library.h"
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

}  // namespace

MT_LIBRARY_IMPL(mt, CUDA, m) {
  m.impl("empty", MT_FN(empty_cuda));
  m.impl("empty_strided", MT_FN(empty_strided_cuda));
}

}  // namespace mt
