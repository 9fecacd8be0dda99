// CUDA loops of im2col and col2im: one thread per column element (im2col), and one thread per image
// element summing the column elements that im2col would copy from it (col2im: no atomics, and 16-bit
// floats are summed in float).
#include "ops/Convolution.h"
#include "ops/cuda/KernelUtils.cuh"

namespace mt {
namespace {

using cuda::current_stream;
using cuda::kNumThreads;
using cuda::num_blocks;

template <typename T>
__global__ void im2col_kernel(Im2ColGeometry g, int64_t n, const T* image, T* cols) {
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    // k = ((plane * kernel_h + i) * kernel_w + j) * out_h * out_w + y * out_w + x
    const int64_t x = k % g.out_w, y = k / g.out_w % g.out_h, tap = k / (g.out_w * g.out_h);
    const int64_t j = tap % g.kernel_w, i = tap / g.kernel_w % g.kernel_h, plane = tap / (g.kernel_w * g.kernel_h);
    const int64_t r = y * g.stride_h - g.pad_h + i * g.dilation_h, c = x * g.stride_w - g.pad_w + j * g.dilation_w;
    cols[k] = r >= 0 && r < g.height && c >= 0 && c < g.width ? image[(plane * g.height + r) * g.width + c] : T(0);
  }
}

template <typename T>
__global__ void col2im_kernel(Im2ColGeometry g, int64_t n, const T* cols, T* image) {
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t c = k % g.width, r = k / g.width % g.height, plane = k / (g.width * g.height);
    opmath_t<T> sum = 0;
    for (int64_t i = 0; i < g.kernel_h; ++i) {
      // Block row y reads row r through tap i where y * stride_h = r + pad_h - i * dilation_h.
      const int64_t ry = r + g.pad_h - i * g.dilation_h;
      if (ry < 0 || ry % g.stride_h != 0 || ry / g.stride_h >= g.out_h) continue;
      for (int64_t j = 0; j < g.kernel_w; ++j) {
        const int64_t cx = c + g.pad_w - j * g.dilation_w;
        if (cx < 0 || cx % g.stride_w != 0 || cx / g.stride_w >= g.out_w) continue;
        const int64_t tap = (plane * g.kernel_h + i) * g.kernel_w + j;
        sum += cuda::convert<opmath_t<T>>(cols[(tap * g.out_h + ry / g.stride_h) * g.out_w + cx / g.stride_w]);
      }
    }
    image[k] = cuda::convert<T>(sum);
  }
}

void im2col_kernel_cuda(const TensorBase& cols, const TensorBase& image, const Im2ColGeometry& g) {
  const int64_t n = cols.numel();
  dispatch_numeric_types(image.dtype(), "im2col", [&]<typename T>() {
    im2col_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(g, n, image.data_ptr<T>(),
                                                                           cols.data_ptr<T>());
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

void col2im_kernel_cuda(const TensorBase& image, const TensorBase& cols, const Im2ColGeometry& g) {
  const int64_t n = image.numel();
  dispatch_numeric_types(image.dtype(), "col2im", [&]<typename T>() {
    col2im_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(g, n, cols.data_ptr<T>(),
                                                                           image.data_ptr<T>());
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

MT_REGISTER_STUB(im2col_stub, kCUDA, im2col_kernel_cuda);
MT_REGISTER_STUB(col2im_stub, kCUDA, col2im_kernel_cuda);

}  // namespace mt
