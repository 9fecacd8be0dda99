// CPU loop of max_pool2d: planes are split across threads; each window is scanned in row-major order, so
// the first of equal maxima wins, and a NaN, once met, is the maximum (as PyTorch's loop).
#include <cmath>
#include <limits>

#include "ops/Pooling.h"
#include "ops/infra/Parallel.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return std::isnan(static_cast<float>(v));
  }
}

void max_pool2d_kernel(const TensorBase& out, const TensorBase& indices, const TensorBase& self,
                       const PoolGeometry& g) {
  const int64_t per_plane = std::max<int64_t>(1, g.out_h * g.out_w * g.kernel_h * g.kernel_w);
  dispatch_numeric_types(self.dtype(), "max_pool2d", [&]<typename T>() {
    const T* in = self.data_ptr<T>();
    T* o = out.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    parallel_for(0, g.planes, std::max<int64_t>(1, kParallelGrain / per_plane), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* plane = in + p * g.height * g.width;
        for (int64_t y = 0; y < g.out_h; ++y)
          for (int64_t x = 0; x < g.out_w; ++x) {
            const int64_t top = y * g.stride_h - g.pad_h, left = x * g.stride_w - g.pad_w;
            int64_t best = -1;
            for (int64_t i = 0; i < g.kernel_h; ++i) {
              const int64_t r = top + i * g.dilation_h;
              if (r < 0 || r >= g.height) continue;
              for (int64_t j = 0; j < g.kernel_w; ++j) {
                const int64_t c = left + j * g.dilation_w;
                if (c < 0 || c >= g.width) continue;
                const int64_t at = r * g.width + c;
                if (best < 0 || (!is_nan(plane[best]) && (plane[at] > plane[best] || is_nan(plane[at])))) best = at;
              }
            }
            // ops/Pooling.cpp has checked that every window reads an element of the plane.
            const int64_t k = (p * g.out_h + y) * g.out_w + x;
            o[k] = plane[best];
            idx[k] = best;
          }
      }
    });
  });
}

}  // namespace

MT_REGISTER_STUB(max_pool2d_stub, kCPU, max_pool2d_kernel);

}  // namespace mt
