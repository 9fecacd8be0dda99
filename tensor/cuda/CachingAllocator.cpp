#include "tensor/cuda/CachingAllocator.h"

#include <cuda_runtime_api.h>

#include "tensor/Allocator.h"
#include "tensor/cuda/CUDAContext.h"

namespace mt::cuda {

namespace {

class CudaRawAllocator final : public RawAllocator {
 public:
  void* raw_alloc(size_t bytes, int device) override {
    CUDAGuard guard(device);
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, bytes);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // out of memory is not sticky: clear it, the core retries or reports it
      return nullptr;
    }
    MT_CUDA_CHECK(err);
    return ptr;
  }
  void raw_free(void* ptr, int device) override {
    CUDAGuard guard(device);
    MT_CUDA_CHECK(cudaFree(ptr));
  }
};

// Never destroyed: at process exit the CUDA runtime may already be torn down, and the driver frees a
// process's memory anyway.
CachingAllocatorCore& core() {
  static auto* raw = new CudaRawAllocator();
  static auto* core = new CachingAllocatorCore(*raw);
  return *core;
}

void free_block(void* ptr) { core().free(ptr); }

// Allocates on the current device. Registered whether or not there is a GPU, and CUDA is first asked
// on the first allocation rather than at load time (as PyTorch's lazy init): loading the library
// must not initialise the driver. Without a usable GPU the first allocation raises
// check_cuda_available()'s "CUDA is not available: <reason>".
class CUDAAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    check_cuda_available();
    const int device = current_device();
    void* ptr = core().allocate(nbytes, device);
    return DataPtr(ptr, ptr, ptr ? &free_block : nullptr, Device(kCUDA, static_cast<Device::DeviceIndex>(device)));
  }
  // A synchronous copy: it waits for the kernels on the default stream that write `src`.
  void copy_to_host(void* dst, const void* src, size_t nbytes) const override {
    MT_CUDA_CHECK(cudaMemcpy(dst, src, nbytes, cudaMemcpyDeviceToHost));
  }
};

CUDAAllocator cuda_allocator;

[[maybe_unused]] const bool registered = [] {
  set_allocator(kCUDA, &cuda_allocator);
  return true;
}();

}  // namespace

void empty_cache() { core().empty_cache(); }
MemoryStats memory_stats(int device) { return core().stats(device); }
void reset_peak_memory_stats(int device) { core().reset_peak_stats(device); }

}  // namespace mt::cuda
