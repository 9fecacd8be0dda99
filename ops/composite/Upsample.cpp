// upsample_nearest2d and upsample_bilinear2d (what F.interpolate calls) as compositions: nearest picks
// each output row's and column's source with index_select; bilinear is two products with interpolation
// matrices (two weights a row), as adaptive_avg_pool2d's averaging ones. The source positions are PyTorch's,
// computed as its kernels compute them (in float for every dtype but double), so that a position landing on
// a pixel boundary picks the same pixel. Autograd, vmap, Meta and CUDA take them through their parts.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "ops/Factories.h"
#include "ops/api/index_select.h"
#include "ops/api/matmul.h"

namespace mt {
namespace {

// PyTorch's upsample_2d_common_check and its non-empty check (an empty batch is allowed).
void check_upsample(const Tensor& self, IntArrayRef output_size) {
  MT_CHECK(output_size.size() == 2, "It is expected output_size equals to 2, but got size ", output_size.size());
  MT_CHECK(self.dim() == 4, "It is expected input_size equals to 4, but got size ", self.dim());
  MT_CHECK(self.size(2) > 0 && self.size(3) > 0 && output_size[0] > 0 && output_size[1] > 0,
           "Input and output sizes should be greater than 0, but got input (H: ", self.size(2), ", W: ", self.size(3),
           ") output (H: ", output_size[0], ", W: ", output_size[1], ")");
  MT_CHECK(self.size(1) != 0, "Non-empty 4D data tensor expected but got a tensor with sizes ", self.sizes());
}

// Input pixels per output pixel: 1 / scale where the caller gave a scale factor, else in / out.
template <typename T>
T source_scale(int64_t in, int64_t out, std::optional<double> scale) {
  return scale && *scale > 0 ? static_cast<T>(1.0 / *scale) : static_cast<T>(in) / static_cast<T>(out);
}

// Each output position's source pixel: floor(dst * scale) in float (PyTorch's nearest_idx).
Tensor nearest_sources(int64_t in, int64_t out, std::optional<double> scale, Device device) {
  std::vector<int64_t> index(static_cast<size_t>(out));
  const float s = source_scale<float>(in, out, scale);
  for (int64_t i = 0; i < out; ++i)
    index[i] = out == in ? i : out == 2 * in ? i / 2 : std::min(static_cast<int64_t>(std::floor(i * s)), in - 1);
  return mt::tensor(index, TensorOptions(kInt64).device(device));
}

Tensor upsample_nearest(const Tensor& self, IntArrayRef output_size, std::optional<double> scales_h,
                        std::optional<double> scales_w) {
  check_upsample(self, output_size);
  const Tensor rows = mt::index_select(self, 2, nearest_sources(self.size(2), output_size[0], scales_h, self.device()));
  return mt::index_select(rows, 3, nearest_sources(self.size(3), output_size[1], scales_w, self.device()));
}

// The [out, in] matrix of linear interpolation: output i reads pixels h0 and h0 + 1 (h0 at the border)
// with weights 1 - l and l, from PyTorch's source index: i * (in - 1) / (out - 1) with align_corners, else
// (i + 0.5) * scale - 0.5, clamped at 0. M is the type PyTorch computes it in.
template <typename M>
Tensor interpolation_matrix(int64_t in, int64_t out, bool align_corners, std::optional<double> scale,
                            const TensorOptions& options) {
  const M s = align_corners ? (out > 1 ? static_cast<M>(in - 1) / static_cast<M>(out - 1) : M(0))
                            : source_scale<M>(in, out, scale);
  std::vector<double> m(static_cast<size_t>(out * in), 0.0);
  for (int64_t i = 0; i < out; ++i) {
    const M src = align_corners ? s * static_cast<M>(i) : std::max(s * (static_cast<M>(i) + M(0.5)) - M(0.5), M(0));
    const int64_t h0 = std::min(static_cast<int64_t>(src), in - 1);
    const int64_t h1 = h0 + (h0 < in - 1 ? 1 : 0);
    const M l = std::clamp(src - static_cast<M>(h0), M(0), M(1));
    m[i * in + h0] += static_cast<double>(M(1) - l);
    m[i * in + h1] += static_cast<double>(l);
  }
  return mt::tensor(m, options).view({out, in});
}

Tensor upsample_bilinear(const Tensor& self, IntArrayRef output_size, bool align_corners,
                         std::optional<double> scales_h, std::optional<double> scales_w) {
  check_upsample(self, output_size);
  MT_CHECK_AS(NotImplementedError, is_floating_point(self.dtype()), "\"upsample_bilinear2d\" not implemented for '",
              self.dtype(), "'");
  const TensorOptions options = TensorOptions(self.dtype()).device(self.device());
  const auto matrix = [&](int64_t in, int64_t out, std::optional<double> scale) {
    return self.dtype() == kFloat64 ? interpolation_matrix<double>(in, out, align_corners, scale, options)
                                    : interpolation_matrix<float>(in, out, align_corners, scale, options);
  };
  // PyTorch's kernel runs in the input's dtype (autocast's policy for the op decides it): so do the products.
  const ExcludeDispatchKeyGuard no_autocast(autocast_dispatch_keyset);
  const Tensor rows = matrix(self.size(2), output_size[0], scales_h);
  const Tensor cols = matrix(self.size(3), output_size[1], scales_w);
  return mt::matmul(mt::matmul(rows, self), cols.t());
}

void register_kernels(Library& m) {
  m.impl("upsample_nearest2d", MT_FN(upsample_nearest));
  m.impl("upsample_bilinear2d", MT_FN(upsample_bilinear));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_kernels(m); }

}  // namespace mt
