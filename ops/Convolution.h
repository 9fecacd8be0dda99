#pragma once
// im2col and col2im (ops/Convolution.cpp): the sliding blocks of a batch of images as columns, and columns
// summed back into images. The argument checks and the output allocation are shared by CPU, CUDA and Meta;
// the loops are the stubs' (ops/cpu/ConvolutionKernel.cpp, ops/cuda/ConvolutionKernel.cu). conv1d and
// conv2d are compositions of them with matmul (ops/composite/Convolution.cpp).
#include "ops/infra/DispatchStub.h"
#include "tensor/TensorBase.h"

namespace mt {

// A kernel of kernel_h x kernel_w taps, `dilation` apart, slid by `stride` over images of channels x
// height x width padded by `padding` on each side: out_h x out_w blocks.
struct Im2ColGeometry {
  int64_t batch, channels, height, width;
  int64_t kernel_h, kernel_w, dilation_h, dilation_w, pad_h, pad_w, stride_h, stride_w;
  int64_t out_h, out_w;
};

// cols[n][(c * kernel_h + i) * kernel_w + j][y * out_w + x] = image[n][c][y * stride_h - pad_h + i *
// dilation_h][x * stride_w - pad_w + j * dilation_w], 0 where that lies in the padding. image is
// [batch, channels, height, width] and cols [batch, channels * kernel_h * kernel_w, out_h * out_w], both
// contiguous (a batch of one may lack the batch dim).
MT_DECLARE_STUB(im2col_stub, void(const TensorBase& cols, const TensorBase& image, const Im2ColGeometry& g));
// Each image element is the sum of the cols elements that im2col would copy from it (0 for none).
MT_DECLARE_STUB(col2im_stub, void(const TensorBase& image, const TensorBase& cols, const Im2ColGeometry& g));

}  // namespace mt
