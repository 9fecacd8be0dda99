// CUDA loop of softmax and log_softmax (softmax_stub, ops/SoftMax.h). Each row (the elements along
// `dim` of one position of the other dims) is reduced by the threads that share it, as a reduction
// (ops/cuda/Reduce.cuh): its maximum, then the sum of exp(x - max), then every element is written. The
// input is read in place in any layout. Values are computed in opmath (float for the 16-bit types) with
// the CPU loop's formulas: exp(x - max) * (1 / sum), and (x - max) - log(sum).
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "ops/SoftMax.h"
#include "ops/cuda/KernelUtils.cuh"
#include "ops/cuda/Reduce.cuh"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

template <typename M>
struct MaxCombine {
  // A NaN is passed over here; it still makes the row NaN through the sum, as on the CPU.
  __device__ M combine(M a, M b) const { return a < b ? b : a; }
};

template <typename M>
struct SumCombine {
  __device__ M combine(M a, M b) const { return a + b; }
};

// Rows are the positions of s.kept (input offset, output offset); the row's elements are the positions
// of s.reduced (input offset, output offset).
template <typename T, typename O>
__global__ void __launch_bounds__(cuda::kNumThreads)
    softmax_kernel(const T* __restrict__ in, O* __restrict__ out, cuda::ReduceShape s, bool log) {
  using M = opmath_t<T>;
  const cuda::Lanes lanes(s.columns);
  for (int64_t first = int64_t{blockIdx.x} * lanes.out_count; first < s.outputs;
       first += int64_t{gridDim.x} * lanes.out_count) {
    const int64_t row = first + lanes.out;
    // Threads past the last row still take part in the block's combines, with empty rows.
    const int64_t end = row < s.outputs ? s.count : 0;
    int64_t in_row = 0, out_row = 0;
    if (row < s.outputs) s.kept.locate(row, in_row, out_row);
    auto load = [&](int64_t k, int64_t& out_offset) {
      int64_t offset;
      s.reduced.locate(k, offset, out_offset);
      return static_cast<M>(in[in_row + offset]);
    };

    M max = -std::numeric_limits<M>::infinity();
    for (int64_t k = lanes.red; k < end; k += lanes.red_count) {
      int64_t unused;
      max = MaxCombine<M>{}.combine(max, load(k, unused));
    }
    max = cuda::block_allreduce(max, MaxCombine<M>{}, s.columns);

    M sum = 0;
    for (int64_t k = lanes.red; k < end; k += lanes.red_count) {
      int64_t unused;
      sum += std::exp(load(k, unused) - max);
    }
    sum = cuda::block_allreduce(sum, SumCombine<M>{}, s.columns);

    // What each shifted element is reduced by (log) or scaled by.
    const M adjust = log ? std::log(sum) : M(1) / sum;
    for (int64_t k = lanes.red; k < end; k += lanes.red_count) {
      int64_t out_offset;
      const M shifted = load(k, out_offset) - max;
      out[out_row + out_offset] = cuda::convert<O>(log ? shifted - adjust : std::exp(shifted) * adjust);
    }
  }
}

// The rows and the softmaxed dim of self, with self's strides and the offsets of contiguous `out`.
cuda::ReduceShape softmax_shape(const TensorBase& self, int64_t dim) {
  std::vector<cuda::SpaceDim> rows, along;
  int64_t out_stride = 1, count = 1;
  for (int64_t d = self.dim() - 1; d >= 0; --d) {
    (d == dim ? along : rows).push_back({self.size(d), self.stride(d), out_stride});
    out_stride *= self.size(d);
    if (d == dim) count = self.size(d);
  }
  cuda::ReduceShape s{};
  s.kept = cuda::make_space(std::move(rows), /*exact_steps=*/true);
  s.reduced = cuda::make_space(std::move(along), /*exact_steps=*/true);
  s.outputs = self.dim() == 0 ? 1 : self.numel() / count;
  s.count = count;
  return s;
}

void softmax_kernel_cuda(const TensorBase& out, const TensorBase& self, int64_t dim, bool log) {
  cuda::ReduceShape s = softmax_shape(self, dim);
  // One block holds a whole row: the row's three passes need its max and sum in between.
  const cuda::LaunchPlan plan = cuda::plan_launch(s, /*may_split=*/false);
  dispatch_floating_types(self.dtype(), log ? "log_softmax" : "softmax", [&]<typename T>() {
    auto launch = [&]<typename O>() {
      softmax_kernel<T, O>
          <<<plan.grid, plan.block, 0, cuda::current_stream()>>>(self.data_ptr<T>(), out.data_ptr<O>(), s, log);
      MT_CUDA_KERNEL_LAUNCH_CHECK();
    };
    // half_to_float: a float16 input with a float32 result.
    if constexpr (std::is_same_v<T, Half>) {
      if (out.dtype() == kFloat32) return launch.template operator()<float>();
    }
    launch.template operator()<T>();
  });
}

}  // namespace

MT_REGISTER_STUB(softmax_stub, kCUDA, softmax_kernel_cuda);

}  // namespace mt
