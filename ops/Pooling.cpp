// max_pool2d_with_indices: argument checks (PyTorch's wording), output allocation and the stub's call,
// shared by CPU, CUDA and Meta (on Meta the stub does nothing). An input without the batch dim is one sample.
#include "ops/Pooling.h"

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dispatch/Library.h"

namespace mt {

MT_DEFINE_STUB(max_pool2d_stub, void(const TensorBase&, const TensorBase&, const TensorBase&, const PoolGeometry&));

namespace {

int64_t pooled_size(int64_t size, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceil_mode) {
  const int64_t span = size + 2 * pad - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= size + pad) --out;
  return out;
}

// (height, width) from an int[2] argument of one or two values, or from `fallback` where the argument may be
// omitted (a pooling's stride) and is.
std::pair<int64_t, int64_t> pair_of(IntArrayRef v, const char* op, const char* name, const char* forms,
                                    std::optional<IntArrayRef> fallback = {}) {
  if (v.empty() && fallback) v = *fallback;
  MT_CHECK(v.size() == 1 || v.size() == 2, op, ": ", name, " must ", forms);
  return {v[0], v.size() == 2 ? v[1] : v[0]};
}

// Whether each of the `out` windows along a dim of `size` has a tap inside it (dilated taps can straddle
// a short input, where the window would have no maximum).
bool windows_reach_input(int64_t size, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, int64_t out) {
  for (int64_t o = 0; o < out; ++o) {
    bool reached = false;
    for (int64_t i = 0; i < kernel && !reached; ++i) {
      const int64_t at = o * stride - pad + i * dilation;
      reached = at >= 0 && at < size;
    }
    if (!reached) return false;
  }
  return true;
}

}  // namespace

PoolGeometry pool_geometry(const TensorBase& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation, bool ceil_mode, const char* op) {
  const auto [kh, kw] = pair_of(kernel_size, op, "kernel_size", "either be a single int, or a tuple of two ints");
  const auto [sh, sw] =
      pair_of(stride, op, "stride", "either be omitted, a single int, or a tuple of two ints", kernel_size);
  const auto [ph, pw] = pair_of(padding, op, "padding", "either be a single int, or a tuple of two ints");
  const auto [dh, dw] = pair_of(dilation, op, "dilation", "be either a single int, or a tuple of two ints");
  const int64_t d = self.dim();
  MT_CHECK((d == 3 || d == 4) && self.size(-1) != 0 && self.size(-2) != 0 && self.size(-3) != 0,
           "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:", self.sizes());
  MT_CHECK(kh > 0 && kw > 0, "kernel size should be greater than zero, but got kH: ", kh, " kW: ", kw);
  MT_CHECK(sh > 0 && sw > 0, "stride should be greater than zero, but got dH: ", sh, " dW: ", sw);
  MT_CHECK(dh > 0 && dw > 0, "dilation should be greater than zero, but got dilationH: ", dh, " dilationW: ", dw);
  MT_CHECK(ph >= 0 && pw >= 0, "pad must be non-negative, but got padW = ", pw, ", padH = ", ph);
  MT_CHECK(ph <= kh / 2 && pw <= kw / 2, "pad should be smaller than or equal to half of kernel size, but got padW = ",
           pw, ", padH = ", ph, ", kW = ", kw, ", kH = ", kh);
  const int64_t channels = self.size(-3), height = self.size(-2), width = self.size(-1);
  const PoolGeometry g{(d == 4 ? self.size(0) : 1) * channels, height, width, kh, kw, sh, sw, ph, pw, dh, dw,
                       pooled_size(height, kh, ph, sh, dh, ceil_mode), pooled_size(width, kw, pw, sw, dw, ceil_mode)};
  MT_CHECK(g.out_h >= 1 && g.out_w >= 1, "Given input size: (", channels, "x", height, "x", width,
           "). Calculated output size: (", channels, "x", g.out_h, "x", g.out_w, "). Output size is too small");
  MT_CHECK(windows_reach_input(height, kh, ph, sh, dh, g.out_h) && windows_reach_input(width, kw, pw, sw, dw, g.out_w),
           op, ": with kernel_size=(", kh, ", ", kw, "), padding=(", ph, ", ", pw, ") and dilation=(", dh, ", ", dw,
           ") a window of the input of size (", height, ", ", width, ") reads only padding");
  return g;
}

namespace {

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  const PoolGeometry g = pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d");
  const int64_t d = self.dim();
  std::vector<int64_t> sizes = self.sizes().vec();
  sizes[d - 2] = g.out_h;
  sizes[d - 1] = g.out_w;
  Tensor out(TensorImpl::empty(sizes, self.dtype(), self.device()));
  Tensor indices(TensorImpl::empty(sizes, kInt64, self.device()));
  if (out.numel() > 0) max_pool2d_stub(self.device().type(), out, indices, self.contiguous(), g);
  return {out, indices};
}

void register_kernels(Library& m) { m.impl("max_pool2d_with_indices", MT_FN(max_pool2d_with_indices)); }

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
