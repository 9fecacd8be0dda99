#pragma once
// max_pool2d_with_indices (ops/Pooling.cpp): the argument checks and the output allocation, shared by CPU,
// CUDA and Meta; the loops are the stub's (ops/cpu/PoolingKernel.cpp, ops/cuda/PoolingKernel.cu). The
// average poolings are compositions (ops/composite/Pooling.cpp) that share the window checks.
#include "ops/infra/DispatchStub.h"
#include "tensor/TensorBase.h"

namespace mt {

// A window of kernel_h x kernel_w taps, `dilation` apart, slid by `stride` over planes of height x width
// padded by `padding` (which no window reads): out_h x out_w windows per plane, `planes` planes.
struct PoolGeometry {
  int64_t planes, height, width;
  int64_t kernel_h, kernel_w, stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  int64_t out_h, out_w;
};

// The windows of max_pool2d or avg_pool2d (`op`; avg_pool2d passes dilation 1) over `self`, an image
// [C, H, W] or a batch of them, from their int[2] arguments (one value stands for both dims; an omitted
// stride is the kernel size), checked as PyTorch's pool2d_shape_check checks them. out_h and out_w follow
// PyTorch's pooling_output_shape: floor division, or ceil division where a last window that would start in
// the far padding is dropped.
PoolGeometry pool_geometry(const TensorBase& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation, bool ceil_mode, const char* op);

// out[p][y][x] = the largest element of plane p under window (y, x) (NaN if any is NaN), indices[p][y][x]
// its position r * width + c in the plane (the first, in row-major order, among equals). self, out and
// indices are contiguous: [planes, height, width] and [planes, out_h, out_w].
MT_DECLARE_STUB(max_pool2d_stub, void(const TensorBase& out, const TensorBase& indices, const TensorBase& self,
                                      const PoolGeometry& g));

}  // namespace mt
