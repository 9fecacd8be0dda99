#pragma once
// What every CUDA kernel file uses: the stream kernels run on, launch sizes, the launch check, and
// conversion between stored element types and the types kernels compute in. mt::Half and
// mt::BFloat16 (Eigen's) work in device code: static_cast<float> and back use the hardware conversions.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "tensor/DtypeDispatch.h"
#include "tensor/ScalarType.h"
#include "tensor/cuda/CUDAContext.h"

namespace mt::cuda {

// One stream per device, the default one: kernels, cudaMemcpy and the allocator's frees are ordered
// on it, so a block freed on the host can be reused by the next kernel without an event.
inline cudaStream_t current_stream() { return nullptr; }

constexpr int kNumThreads = 256;

// Blocks for `n` elements at `per_thread` elements per thread; kernels loop over the grid when the
// grid is capped, so any n works.
inline unsigned num_blocks(int64_t n, int threads = kNumThreads, int per_thread = 1) {
  const int64_t per_block = static_cast<int64_t>(threads) * per_thread;
  return static_cast<unsigned>(std::clamp<int64_t>((n + per_block - 1) / per_block, 1, int64_t{1} << 30));
}

// A launch's configuration errors (too many threads, too much shared memory) surface here, not later.
#define MT_CUDA_KERNEL_LAUNCH_CHECK() MT_CUDA_CHECK(cudaGetLastError())

// Element conversion in device code: 16-bit floats go through float, bool tests against zero.
template <typename To, typename From>
__host__ __device__ __forceinline__ To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, Half> || std::is_same_v<From, BFloat16>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<To> && sizeof(To) < 8 && !std::is_integral_v<From>) {
    return static_cast<To>(static_cast<int64_t>(v));  // as the CPU copy: -1.0 is 255 in uint8
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace mt::cuda
