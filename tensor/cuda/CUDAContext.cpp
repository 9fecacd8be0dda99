#include "tensor/cuda/CUDAContext.h"

#include <cuda_runtime_api.h>

#include "tensor/Error.h"

namespace mt::cuda {

namespace {

struct DeviceQuery {
  int count = 0;
  cudaError_t error = cudaSuccess;
};

// Asked once: the answer does not change while the process runs (PyTorch caches it too).
const DeviceQuery& device_query() {
  static const DeviceQuery query = [] {
    DeviceQuery q;
    q.error = cudaGetDeviceCount(&q.count);
    if (q.error != cudaSuccess) {
      q.count = 0;
      (void)cudaGetLastError();  // clear the error so that it does not surface in a later call
    }
    return q;
  }();
  return query;
}

}  // namespace

namespace detail {
void throw_cuda_error(int error, const char* expr, const char* file, int line) {
  const auto err = static_cast<cudaError_t>(error);
  ::mt::detail::throw_error<RuntimeError>("CUDA error: ", expr, " failed: ", cudaGetErrorString(err), " (",
                                          cudaGetErrorName(err), ") at ", file, ":", line);
}
}  // namespace detail

int device_count() { return device_query().count; }

bool is_available() { return device_count() > 0; }

void check_cuda_available() {
  const DeviceQuery& q = device_query();
  MT_CHECK(q.error == cudaSuccess, "CUDA is not available: cudaGetDeviceCount failed: ", cudaGetErrorString(q.error));
  MT_CHECK(q.count > 0, "CUDA is not available: cudaGetDeviceCount found no CUDA device");
}

int current_device() {
  check_cuda_available();
  int device = 0;
  MT_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

void set_device(int device) {
  check_cuda_available();
  MT_CHECK(device >= 0 && device < device_count(), "set_device: invalid device index ", device, " (there are ",
           device_count(), " CUDA devices)");
  MT_CUDA_CHECK(cudaSetDevice(device));
}

void synchronize() {
  check_cuda_available();
  MT_CUDA_CHECK(cudaDeviceSynchronize());
}

// Qualified: inside the class, plain current_device() names the member accessor.
CUDAGuard::CUDAGuard(int device) : original_(::mt::cuda::current_device()), current_(original_) {
  if (device != original_) {
    set_device(device);
    current_ = device;
  }
}

CUDAGuard::~CUDAGuard() {
  // A destructor cannot throw; switching back to a device that was current a moment ago does not fail.
  if (current_ != original_) (void)cudaSetDevice(original_);
}

}  // namespace mt::cuda
