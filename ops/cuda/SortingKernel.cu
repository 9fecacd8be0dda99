// CUDA loop of sort, as ops/cpu/SortingKernel.cpp: each element's key (ops/Sorting.h) and its position in
// its row are sorted per row by cub's stable segmented sort, and the values are then read through the
// sorted positions. The keys are unsigned integers of 1, 2, 4 or 8 bytes, so cub is instantiated four times
// whatever the dtype.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cub/device/device_segmented_sort.cuh>

#include "ops/Sorting.h"
#include "ops/cuda/KernelUtils.cuh"

namespace mt {
namespace {

using cuda::current_stream;
using cuda::kNumThreads;
using cuda::num_blocks;

template <typename T, typename K>
__global__ void make_keys(const T* in, K* keys, int64_t* positions, int64_t n, int64_t total, bool descending) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total; i += int64_t{gridDim.x} * blockDim.x) {
    keys[i] = sort_key(in[i], descending);
    positions[i] = i % n;
  }
}

__global__ void row_offsets(int64_t* offsets, int64_t n, int64_t rows) {
  for (int64_t r = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; r <= rows; r += int64_t{gridDim.x} * blockDim.x)
    offsets[r] = r * n;
}

template <typename T>
__global__ void gather_rows(const T* in, const int64_t* positions, T* out, int64_t n, int64_t total) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total; i += int64_t{gridDim.x} * blockDim.x)
    out[i] = in[i - i % n + positions[i]];
}

TensorBase device_buffer(int64_t bytes, const TensorBase& like) {
  return TensorBase(TensorImpl::empty({std::max<int64_t>(bytes, 1)}, kUInt8, like.device()));
}

template <typename T>
void sort_rows(const TensorBase& values, const TensorBase& indices, const TensorBase& self, bool descending) {
  using K = sort_key_t<T>;
  const int64_t n = self.size(-1);
  const int64_t total = self.numel();
  const int64_t rows = total / n;
  const TensorBase keys = device_buffer(2 * total * static_cast<int64_t>(sizeof(K)), self);
  const TensorBase positions = device_buffer(total * static_cast<int64_t>(sizeof(int64_t)), self);
  const TensorBase offsets = device_buffer((rows + 1) * static_cast<int64_t>(sizeof(int64_t)), self);
  K* keys_in = static_cast<K*>(keys.data_ptr());
  int64_t* positions_in = static_cast<int64_t*>(positions.data_ptr());
  int64_t* row_starts = static_cast<int64_t*>(offsets.data_ptr());
  const unsigned blocks = num_blocks(total);
  make_keys<<<blocks, kNumThreads, 0, current_stream()>>>(self.data_ptr<const T>(), keys_in, positions_in, n, total,
                                                          descending);
  MT_CUDA_KERNEL_LAUNCH_CHECK();
  row_offsets<<<num_blocks(rows + 1), kNumThreads, 0, current_stream()>>>(row_starts, n, rows);
  MT_CUDA_KERNEL_LAUNCH_CHECK();

  int64_t* positions_out = indices.data_ptr<int64_t>();
  size_t scratch_bytes = 0;
  MT_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, scratch_bytes, keys_in, keys_in + total,
                                                          positions_in, positions_out, total, rows, row_starts,
                                                          row_starts + 1, current_stream()));
  const TensorBase scratch = device_buffer(static_cast<int64_t>(scratch_bytes), self);
  MT_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(scratch.data_ptr(), scratch_bytes, keys_in, keys_in + total,
                                                          positions_in, positions_out, total, rows, row_starts,
                                                          row_starts + 1, current_stream()));
  gather_rows<<<blocks, kNumThreads, 0, current_stream()>>>(self.data_ptr<const T>(), positions_out,
                                                            values.data_ptr<T>(), n, total);
  MT_CUDA_KERNEL_LAUNCH_CHECK();
}

void sort_kernel_cuda(const TensorBase& values, const TensorBase& indices, const TensorBase& self, bool descending) {
  dispatch_all_types(self.dtype(), "sort", [&]<typename T>() { sort_rows<T>(values, indices, self, descending); });
}

}  // namespace

MT_REGISTER_STUB(sort_stub, kCUDA, sort_kernel_cuda);

}  // namespace mt
