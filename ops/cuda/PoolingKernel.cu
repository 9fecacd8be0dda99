// CUDA loop of max_pool2d: one thread per output element scans its window in row-major order, so the
// first of equal maxima wins, and a NaN, once met, is the maximum (as the CPU loop).
#include "ops/Pooling.h"
#include "ops/cuda/KernelUtils.cuh"

namespace mt {
namespace {

using cuda::current_stream;
using cuda::kNumThreads;
using cuda::num_blocks;

template <typename T>
__device__ bool is_nan(T v) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    const float f = cuda::convert<float>(v);
    return f != f;
  }
}

template <typename T>
__global__ void max_pool2d_kernel(PoolGeometry g, int64_t n, const T* self, T* out, int64_t* indices) {
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t x = k % g.out_w, y = k / g.out_w % g.out_h, p = k / (g.out_w * g.out_h);
    const T* plane = self + p * g.height * g.width;
    const int64_t top = y * g.stride_h - g.pad_h, left = x * g.stride_w - g.pad_w;
    int64_t best = -1;
    for (int64_t i = 0; i < g.kernel_h; ++i) {
      const int64_t r = top + i * g.dilation_h;
      if (r < 0 || r >= g.height) continue;
      for (int64_t j = 0; j < g.kernel_w; ++j) {
        const int64_t c = left + j * g.dilation_w;
        if (c < 0 || c >= g.width) continue;
        const int64_t at = r * g.width + c;
        if (best < 0 || (!is_nan(plane[best]) && (cuda::convert<opmath_t<T>>(plane[at]) >
                                                      cuda::convert<opmath_t<T>>(plane[best]) ||
                                                  is_nan(plane[at]))))
          best = at;
      }
    }
    out[k] = plane[best];
    indices[k] = best;
  }
}

void max_pool2d_kernel_cuda(const TensorBase& out, const TensorBase& indices, const TensorBase& self,
                            const PoolGeometry& g) {
  const int64_t n = out.numel();
  dispatch_numeric_types(self.dtype(), "max_pool2d", [&]<typename T>() {
    max_pool2d_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(
        g, n, self.data_ptr<T>(), out.data_ptr<T>(), indices.data_ptr<int64_t>());
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

MT_REGISTER_STUB(max_pool2d_stub, kCUDA, max_pool2d_kernel_cuda);

}  // namespace mt
