// im2col and col2im: argument checks (PyTorch's wording), output allocation, and the stubs' call, shared by
// CPU, CUDA and Meta (on Meta the stubs do nothing). An input of one image (no batch dim) is a batch of one.
#include "ops/Convolution.h"

#include <string>
#include <vector>

#include "dispatch/Library.h"

namespace mt {

MT_DEFINE_STUB(im2col_stub, void(const TensorBase&, const TensorBase&, const Im2ColGeometry&));
MT_DEFINE_STUB(col2im_stub, void(const TensorBase&, const TensorBase&, const Im2ColGeometry&));

namespace {

void check_pair(IntArrayRef v, const char* name) {
  MT_CHECK(v.size() == 2, "It is expected ", name, " equals to 2, but got size ", v.size());
}

// The geometry of `kernel_size` etc. over images of channels x height x width, checked as PyTorch's
// im2col_shape_check does, except that out_h and out_w are left to the caller to check.
Im2ColGeometry geometry(int64_t batch, int64_t channels, int64_t height, int64_t width, IntArrayRef kernel_size,
                        IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  check_pair(kernel_size, "kernel_size");
  check_pair(dilation, "dilation");
  check_pair(padding, "padding");
  check_pair(stride, "stride");
  Im2ColGeometry g{batch,       channels,    height,     width,     kernel_size[0], kernel_size[1], dilation[0],
                   dilation[1], padding[0], padding[1], stride[0], stride[1],      0,              0};
  MT_CHECK(g.kernel_h > 0 && g.kernel_w > 0, "kernel size should be greater than zero, but got kernel_height: ",
           g.kernel_h, " kernel_width: ", g.kernel_w);
  MT_CHECK(g.dilation_h > 0 && g.dilation_w > 0, "dilation should be greater than zero, but got dilation_height: ",
           g.dilation_h, " dilation_width: ", g.dilation_w);
  MT_CHECK(g.pad_h >= 0 && g.pad_w >= 0, "padding should be non-negative, but got pad_height: ", g.pad_h,
           " pad_width: ", g.pad_w);
  MT_CHECK(g.stride_h > 0 && g.stride_w > 0, "stride should be greater than zero, but got stride_height: ",
           g.stride_h, " stride_width: ", g.stride_w);
  // Floor division: a window wider than the padded image gives a count below one.
  const auto blocks = [](int64_t size, int64_t pad, int64_t dilation, int64_t kernel, int64_t stride) {
    const int64_t span = size + 2 * pad - (dilation * (kernel - 1) + 1);
    return span < 0 ? 0 : span / stride + 1;
  };
  g.out_h = blocks(height, g.pad_h, g.dilation_h, g.kernel_h, g.stride_h);
  g.out_w = blocks(width, g.pad_w, g.dilation_w, g.kernel_w, g.stride_w);
  return g;
}

std::string describe(const Im2ColGeometry& g) {
  return "kernel_size=(" + std::to_string(g.kernel_h) + ", " + std::to_string(g.kernel_w) + "), dilation=(" +
         std::to_string(g.dilation_h) + ", " + std::to_string(g.dilation_w) + "), padding=(" +
         std::to_string(g.pad_h) + ", " + std::to_string(g.pad_w) + ")";
}

Tensor im2col(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
              IntArrayRef stride) {
  const int64_t d = self.dim();
  MT_CHECK((d == 3 || d == 4) && self.size(-1) != 0 && self.size(-2) != 0 && self.size(-3) != 0,
           "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for "
           "input, but got: ",
           self.sizes());
  const Tensor image = self.contiguous();
  const Im2ColGeometry g = geometry(d == 4 ? self.size(0) : 1, self.size(-3), self.size(-2), self.size(-1),
                                    kernel_size, dilation, padding, stride);
  MT_CHECK(g.out_h >= 1 && g.out_w >= 1, "Given input with spatial size (", g.height, ", ", g.width, "), ",
           describe(g), ", calculated shape of the array of sliding blocks as (", g.out_h, ", ", g.out_w,
           "), but its components must be at least one.");
  std::vector<int64_t> sizes = {g.channels * g.kernel_h * g.kernel_w, g.out_h * g.out_w};
  if (d == 4) sizes.insert(sizes.begin(), g.batch);
  Tensor cols(TensorImpl::empty(sizes, self.dtype(), self.device()));
  if (cols.numel() > 0) im2col_stub(self.device().type(), cols, image, g);
  return cols;
}

Tensor col2im(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
              IntArrayRef padding, IntArrayRef stride) {
  const int64_t d = self.dim();
  MT_CHECK((d == 2 || d == 3) && self.size(-1) != 0 && self.size(-2) != 0,
           "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions "
           "for input, but got: ",
           self.sizes());
  check_pair(output_size, "output_size");
  check_pair(kernel_size, "kernel_size");
  const int64_t taps = kernel_size[0] * kernel_size[1];
  MT_CHECK(taps > 0 && self.size(-2) % taps == 0,
           "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
           "input.size(1)=",
           self.size(-2), " and kernel_size=(", kernel_size[0], ", ", kernel_size[1], ")");
  const Tensor cols = self.contiguous();
  const Im2ColGeometry g = geometry(d == 3 ? self.size(0) : 1, self.size(-2) / taps, output_size[0],
                                    output_size[1], kernel_size, dilation, padding, stride);
  MT_CHECK(g.out_h >= 1 && g.out_w >= 1, "Given output_size=(", g.height, ", ", g.width, "), ", describe(g),
           ", stride=(", g.stride_h, ", ", g.stride_w, "), calculated shape of the array of sliding blocks as (",
           g.out_h, ", ", g.out_w, "), which is too small (non-positive)");
  MT_CHECK(cols.size(-1) == g.out_h * g.out_w, "Given output_size=(", g.height, ", ", g.width, "), ", describe(g),
           ", stride=(", g.stride_h, ", ", g.stride_w,
           "), expected size of input's dimension 2 to match the calculated number of sliding blocks ", g.out_h,
           " * ", g.out_w, " = ", g.out_h * g.out_w, ", but got input.size(2)=", cols.size(-1), ".");
  std::vector<int64_t> sizes = {g.channels, g.height, g.width};
  if (d == 3) sizes.insert(sizes.begin(), g.batch);
  Tensor image(TensorImpl::empty(sizes, self.dtype(), self.device()));
  if (image.numel() > 0) col2im_stub(self.device().type(), image, cols, g);
  return image;
}

void register_kernels(Library& m) {
  m.impl("im2col", MT_FN(im2col));
  m.impl("col2im", MT_FN(col2im));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
