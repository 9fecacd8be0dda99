// CUDA loops of where (also behind masked_fill) and fill_.
#include "ops/WhereFill.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <typename T>
struct WhereOp {
  __device__ T operator()(bool c, T a, T b) const { return c ? a : b; }
};
template <typename T>
struct FillOp {
  T value;
  __device__ T operator()() const { return value; }
};

void where_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.dtype(0), "where",
                     [&]<typename T>() { cuda::gpu_kernel<T, bool, T, T>(iter, WhereOp<T>{}); });
}

void fill_kernel(TensorIterator& iter, const Scalar& value) {
  dispatch_all_types(iter.dtype(0), "fill_",
                     [&]<typename T>() { cuda::gpu_kernel<T>(iter, FillOp<T>{value.to<T>()}); });
}

}  // namespace

MT_REGISTER_STUB(where_stub, kCUDA, where_kernel);
MT_REGISTER_STUB(fill_stub, kCUDA, fill_kernel);

}  // namespace mt
