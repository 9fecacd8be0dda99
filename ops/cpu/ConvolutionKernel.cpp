// CPU loops of im2col and col2im. Each (image, channel) plane is independent, so planes are split across
// threads; within one, a tap (i, j) of the kernel reads one strided row of the image per block row, which
// im2col writes as a contiguous run of the column and col2im adds back. col2im adds in the element type,
// as PyTorch's CPU loop does.
#include <algorithm>

#include "ops/Convolution.h"
#include "ops/infra/Parallel.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

// The image row a block row y reads for tap i, or -1 where it lies in the padding.
inline int64_t source_row(const Im2ColGeometry& g, int64_t y, int64_t i) {
  const int64_t r = y * g.stride_h - g.pad_h + i * g.dilation_h;
  return r >= 0 && r < g.height ? r : -1;
}

// Calls f(plane) for each (image, channel) plane, several planes to a task.
template <typename F>
void for_each_plane(const Im2ColGeometry& g, F&& f) {
  const int64_t per_plane = std::max<int64_t>(1, g.kernel_h * g.kernel_w * g.out_h * g.out_w);
  parallel_for(0, g.batch * g.channels, std::max<int64_t>(1, kParallelGrain / per_plane),
               [&](int64_t begin, int64_t end) {
                 for (int64_t p = begin; p < end; ++p) f(p);
               });
}

void im2col_kernel(const TensorBase& cols, const TensorBase& image, const Im2ColGeometry& g) {
  const int64_t taps = g.kernel_h * g.kernel_w, blocks = g.out_h * g.out_w;
  dispatch_numeric_types(image.dtype(), "im2col", [&]<typename T>() {
    const T* in = image.data_ptr<T>();
    T* out = cols.data_ptr<T>();
    for_each_plane(g, [&](int64_t p) {
      const T* plane = in + p * g.height * g.width;
      for (int64_t i = 0; i < g.kernel_h; ++i)
        for (int64_t j = 0; j < g.kernel_w; ++j) {
          T* column = out + (p * taps + i * g.kernel_w + j) * blocks;
          for (int64_t y = 0; y < g.out_h; ++y) {
            T* dst = column + y * g.out_w;
            const int64_t r = source_row(g, y, i);
            if (r < 0) {
              std::fill(dst, dst + g.out_w, T(0));
              continue;
            }
            const T* src = plane + r * g.width;
            for (int64_t x = 0; x < g.out_w; ++x) {
              const int64_t c = x * g.stride_w - g.pad_w + j * g.dilation_w;
              dst[x] = c >= 0 && c < g.width ? src[c] : T(0);
            }
          }
        }
    });
  });
}

void col2im_kernel(const TensorBase& image, const TensorBase& cols, const Im2ColGeometry& g) {
  const int64_t taps = g.kernel_h * g.kernel_w, blocks = g.out_h * g.out_w;
  dispatch_numeric_types(image.dtype(), "col2im", [&]<typename T>() {
    const T* in = cols.data_ptr<T>();
    T* out = image.data_ptr<T>();
    for_each_plane(g, [&](int64_t p) {
      T* plane = out + p * g.height * g.width;
      std::fill(plane, plane + g.height * g.width, T(0));
      for (int64_t i = 0; i < g.kernel_h; ++i)
        for (int64_t j = 0; j < g.kernel_w; ++j) {
          const T* column = in + (p * taps + i * g.kernel_w + j) * blocks;
          for (int64_t y = 0; y < g.out_h; ++y) {
            const int64_t r = source_row(g, y, i);
            if (r < 0) continue;
            const T* src = column + y * g.out_w;
            T* dst = plane + r * g.width;
            for (int64_t x = 0; x < g.out_w; ++x) {
              const int64_t c = x * g.stride_w - g.pad_w + j * g.dilation_w;
              if (c >= 0 && c < g.width) dst[c] = static_cast<T>(dst[c] + src[x]);
            }
          }
        }
    });
  });
}

}  // namespace

MT_REGISTER_STUB(im2col_stub, kCPU, im2col_kernel);
MT_REGISTER_STUB(col2im_stub, kCPU, col2im_kernel);

}  // namespace mt
