// max_pool2d: the values of max_pool2d_with_indices (whose indices its derivative uses). avg_pool2d: each
// window's sum through im2col, divided as PyTorch divides. adaptive_avg_pool2d: two matrix products with
// averaging matrices. Autograd, vmap, Meta and CUDA take the compositions through their parts.
#include <algorithm>
#include <vector>

#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "ops/Factories.h"
#include "ops/Pooling.h"
#include "ops/api/cat.h"
#include "ops/api/div.h"
#include "ops/api/im2col.h"
#include "ops/api/matmul.h"
#include "ops/api/max_pool2d_with_indices.h"
#include "ops/api/sum.h"

namespace mt {
namespace {

Tensor max_pool(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(mt::max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

void check_floating(const Tensor& self, const char* op) {
  MT_CHECK_AS(NotImplementedError, is_floating_point(self.dtype()), "\"", op, "\" not implemented for '",
              self.dtype(), "'");
}

// self extended by zero rows and columns to height x width (no copy where it has them already).
Tensor zero_extended(const Tensor& self, int64_t height, int64_t width) {
  Tensor x = self;
  for (const auto& [dim, size] : {std::pair<int64_t, int64_t>{-2, height}, {-1, width}}) {
    if (x.size(dim) >= size) continue;
    std::vector<int64_t> extra = x.sizes().vec();
    extra[x.dim() + dim] = size - x.size(dim);
    x = mt::cat({x, mt::zeros(extra, x.options())}, dim);
  }
  return x;
}

Tensor average_pool(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                    bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  const PoolGeometry g = pool_geometry(self, kernel_size, stride, padding, {1}, ceil_mode, "avg_pool2d");
  check_floating(self, "avg_pool2d");
  MT_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const int64_t height = g.height, width = g.width, out_h = g.out_h, out_w = g.out_w;
  const int64_t kh = g.kernel_h, kw = g.kernel_w, sh = g.stride_h, sw = g.stride_w, ph = g.pad_h, pw = g.pad_w;
  // A ceil_mode window past the far padding reads zeros: the image is extended to what im2col's floor
  // division needs for out_h x out_w windows.
  const Tensor x = zero_extended(self, (out_h - 1) * sh + kh - 2 * ph, (out_w - 1) * sw + kw - 2 * pw);
  const Tensor sums =
      mt::sum(mt::im2col(x.reshape({g.planes, 1, x.size(-2), x.size(-1)}), {kh, kw}, {1, 1}, {ph, pw}, {sh, sw}), 1);
  // PyTorch's divisor: the window's area within the padded image (count_include_pad), or within the image.
  std::vector<double> divisors;
  for (int64_t y = 0; y < out_h; ++y)
    for (int64_t c = 0; c < out_w; ++c) {
      const int64_t top = y * sh - ph, left = c * sw - pw;
      const int64_t bottom = std::min(top + kh, height + ph), right = std::min(left + kw, width + pw);
      const int64_t padded = (bottom - top) * (right - left);
      const int64_t inside = (std::min(bottom, height) - std::max<int64_t>(top, 0)) *
                             (std::min(right, width) - std::max<int64_t>(left, 0));
      divisors.push_back(static_cast<double>(divisor_override    ? *divisor_override
                                             : count_include_pad ? padded
                                                                 : inside));
    }
  std::vector<int64_t> sizes = self.sizes().vec();
  sizes[sizes.size() - 2] = out_h;
  sizes.back() = out_w;
  const Tensor divisor = mt::tensor(divisors, TensorOptions(self.dtype()).device(self.device())).view({out_h * out_w});
  return mt::div(sums, divisor).view(sizes);
}

// The [out, in] matrix that averages each of PyTorch's adaptive windows: rows floor(i * in / out) to
// ceil((i + 1) * in / out).
Tensor averaging_matrix(int64_t out, int64_t in, const TensorOptions& options) {
  std::vector<double> m(static_cast<size_t>(out * in), 0.0);
  for (int64_t i = 0; i < out; ++i) {
    const int64_t start = i * in / out, end = ((i + 1) * in + out - 1) / out;
    for (int64_t j = start; j < end; ++j) m[i * in + j] = 1.0 / static_cast<double>(end - start);
  }
  return mt::tensor(m, options).view({out, in});
}

Tensor adaptive_average_pool(const Tensor& self, IntArrayRef output_size) {
  MT_CHECK(output_size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  MT_CHECK(output_size[0] >= 0 && output_size[1] >= 0,
           "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {",
           output_size[0], ", ", output_size[1], "}");
  const int64_t d = self.dim();
  MT_CHECK((d == 3 || d == 4) && self.size(-1) != 0 && self.size(-2) != 0 && self.size(-3) != 0,
           "adaptive_avg_pool2d: Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
           "but got:", self.sizes());
  check_floating(self, "adaptive_avg_pool2d");
  const TensorOptions options = TensorOptions(self.dtype()).device(self.device());
  // PyTorch's kernel runs in the input's dtype whatever autocast says: its products here must too.
  const ExcludeDispatchKeyGuard no_autocast(autocast_dispatch_keyset);
  const Tensor rows = averaging_matrix(output_size[0], self.size(-2), options);
  const Tensor cols = averaging_matrix(output_size[1], self.size(-1), options);
  return mt::matmul(mt::matmul(rows, self), cols.t());
}

void register_kernels(Library& m) {
  m.impl("max_pool2d", MT_FN(max_pool));
  m.impl("avg_pool2d", MT_FN(average_pool));
  m.impl("adaptive_avg_pool2d", MT_FN(adaptive_average_pool));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_kernels(m); }

}  // namespace mt
