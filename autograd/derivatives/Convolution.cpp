// Derivatives of im2col and col2im: each is the other's adjoint (im2col copies image elements into
// columns; col2im sums columns back into the elements they came from), so each one's backward is the
// other applied to the gradient, and is differentiable again. conv1d and conv2d are compositions of
// im2col and matmul and differentiate through them.
#include "autograd/derivatives/Formulas.h"
#include "ops/api/col2im.h"
#include "ops/api/im2col.h"

namespace mt::autograd {

namespace {

Tensor im2col(DispatchKeySet ks, const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation,
              IntArrayRef padding, IntArrayRef stride) {
  return differentiable<ops::im2col>(
      "Im2ColBackward0", {self},
      [&] {
        return BackwardFunction::Formula([size = std::vector<int64_t>{self.size(-2), self.size(-1)},
                                          kernel = kernel_size.vec(), dilation = dilation.vec(),
                                          padding = padding.vec(), stride = stride.vec()](const variable_list& g) {
          return variable_list{mt::col2im(g[0], size, kernel, dilation, padding, stride)};
        });
      },
      ks, self, kernel_size, dilation, padding, stride);
}

Tensor col2im(DispatchKeySet ks, const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
              IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  return differentiable<ops::col2im>(
      "Col2ImBackward0", {self},
      [&] {
        return BackwardFunction::Formula([kernel = kernel_size.vec(), dilation = dilation.vec(),
                                          padding = padding.vec(), stride = stride.vec()](const variable_list& g) {
          return variable_list{mt::im2col(g[0], kernel, dilation, padding, stride)};
        });
      },
      ks, self, output_size, kernel_size, dilation, padding, stride);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("im2col", MT_FN(im2col));
  m.impl("col2im", MT_FN(col2im));
}

}  // namespace mt::autograd
