// The CUDA loop of copy_ and dtype conversion on one device. Same-dtype contiguous copies are one
// cudaMemcpyAsync; everything else (conversion, broadcasting, strides) goes through gpu_kernel.
#include "ops/Copy.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <typename D, typename S>
struct ConvertOp {
  __device__ D operator()(S s) const { return cuda::convert<D>(s); }
};

void copy_kernel_cuda(TensorIterator& iter) {
  if (iter.dtype(0) == iter.dtype(1) && iter.is_contiguous() && !iter.is_cpu_scalar(1)) {
    MT_CUDA_CHECK(cudaMemcpyAsync(iter.data_ptr(0), iter.data_ptr(1), iter.numel() * element_size(iter.dtype(0)),
                                  cudaMemcpyDeviceToDevice, cuda::current_stream()));
    return;
  }
  dispatch_all_types(iter.dtype(0), "copy_", [&]<typename D>() {
    dispatch_all_types(iter.dtype(1), "copy_", [&]<typename S>() { cuda::gpu_kernel<D, S>(iter, ConvertOp<D, S>{}); });
  });
}

}  // namespace

MT_REGISTER_STUB(copy_stub, kCUDA, copy_kernel_cuda);

}  // namespace mt
