// CUDA loops of the indexing ops (gather, scatter, take, put, index bounds, one_hot's range) and of
// tril/triu, as ops/cpu/IndexingKernel.cpp: one thread per element of the walked shape (the index's, or
// the matrix's), which turns its row-major position into an element offset per operand. self's offset
// skips `dim` and the index element supplies the position along it (take and put: the row-major
// position in all of self). The bounds checks reduce on the GPU and bring one or two int64 back.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <array>
#include <climits>

#include "ops/Indexing.h"
#include "ops/cuda/KernelUtils.cuh"

namespace mt {
namespace {

using cuda::current_stream;
using cuda::kNumThreads;
using cuda::num_blocks;

constexpr int kMaxDims = 16;
// A reduction's grid: enough blocks to fill the GPU, few enough that one atomic per warp stays cheap.
constexpr unsigned kMaxReduceBlocks = 1024;

// A shape walked in row-major order with the element strides of N operands over it, passed by value
// to the kernels.
template <int N>
struct Walk {
  int ndim = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t strides[N][kMaxDims] = {};

  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= sizes[d];
    return n;
  }
  // Each operand's element offset at row-major position `linear`.
  __host__ __device__ void offsets(int64_t linear, int64_t (&off)[N]) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      const int64_t q = linear / sizes[d];
      const int64_t c = linear - q * sizes[d];
      linear = q;
      for (int k = 0; k < N; ++k) off[k] += c * strides[k][d];
    }
  }
};

void check_dims(int64_t ndim) {
  MT_CHECK_NOT_IMPLEMENTED(ndim <= kMaxDims, "CUDA indexing kernels support at most ", kMaxDims, " dims, got ", ndim);
}

// Walks index's shape (a 0-dim index reads as shape [1]); `restrided` operands get their stride along
// `dim` zeroed, so their offset points at the start of the line the index element selects from.
template <int N>
Walk<N> index_walk(const TensorBase& index, int64_t dim, const std::array<const TensorBase*, N>& operands,
                   const std::array<bool, N>& restrided) {
  check_dims(index.dim());
  Walk<N> w;
  w.ndim = index.dim() == 0 ? 1 : static_cast<int>(index.dim());
  for (int d = 0; d < w.ndim; ++d) w.sizes[d] = index.dim() == 0 ? 1 : index.size(d);
  for (int k = 0; k < N; ++k) {
    const TensorBase& t = *operands[k];
    for (int d = 0; d < w.ndim; ++d) w.strides[k][d] = d < t.dim() ? t.stride(d) : 0;
    if (restrided[k]) w.strides[k][dim] = 0;
  }
  return w;
}

// The element offset of each row-major ("flat") position of a tensor of any strides.
struct FlatOffsets {
  bool contiguous;
  Walk<1> layout;

  explicit FlatOffsets(const TensorBase& t) : contiguous(t.is_contiguous()) {
    check_dims(t.dim());
    layout.ndim = static_cast<int>(t.dim());
    for (int d = 0; d < layout.ndim; ++d) {
      layout.sizes[d] = t.size(d);
      layout.strides[0][d] = t.stride(d);
    }
  }
  __device__ int64_t operator()(int64_t flat) const {
    if (contiguous) return flat;
    int64_t off[1];
    layout.offsets(flat, off);
    return off[0];
  }
};

int64_t dim_stride(const TensorBase& t, int64_t dim) { return t.dim() == 0 ? 0 : t.stride(dim); }

__device__ __forceinline__ int64_t grid_start() { return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ int64_t grid_step() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

// --- bounds: reductions to one or two int64 ------------------------------------------------------------

struct Min {
  __device__ int64_t operator()(int64_t a, int64_t b) const { return a < b ? a : b; }
  __device__ void atomic(int64_t* p, int64_t v) const {
    atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v));
  }
};
struct Max {
  __device__ int64_t operator()(int64_t a, int64_t b) const { return a > b ? a : b; }
  __device__ void atomic(int64_t* p, int64_t v) const {
    atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v));
  }
};

// Combines one value per thread of the warp into *result; every lane of the warp must call it.
template <typename Op>
__device__ void warp_reduce_into(int64_t* result, int64_t v, Op op) {
  for (int o = 16; o > 0; o /= 2) v = op(v, static_cast<int64_t>(__shfl_down_sync(0xffffffffu, v, o)));
  if (threadIdx.x % 32 == 0) op.atomic(result, v);
}

// result[0] = the smallest row-major position whose index element is outside [low, high).
__global__ void index_outside_kernel(Walk<1> w, int64_t n, const int64_t* index, int64_t low, int64_t high,
                                     int64_t* result) {
  int64_t first = LLONG_MAX;
  // A thread visits increasing positions: its first offender is its smallest.
  for (int64_t i = grid_start(); i < n; i += grid_step()) {
    int64_t off[1];
    w.offsets(i, off);
    const int64_t v = index[off[0]];
    if (v < low || v >= high) {
      first = i;
      break;
    }
  }
  warp_reduce_into(result, first, Min());
}

__global__ void index_min_max_kernel(Walk<1> w, int64_t n, const int64_t* index, int64_t* result) {
  int64_t lo = LLONG_MAX, hi = LLONG_MIN;
  for (int64_t i = grid_start(); i < n; i += grid_step()) {
    int64_t off[1];
    w.offsets(i, off);
    const int64_t v = index[off[0]];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  warp_reduce_into(result, lo, Min());
  warp_reduce_into(result + 1, hi, Max());
}

// A device buffer of `values.size()` int64 set to `values`, for a reduction's result.
template <size_t K>
TensorBase reduction_buffer(const TensorBase& like, const std::array<int64_t, K>& values) {
  TensorBase buffer(TensorImpl::empty({static_cast<int64_t>(K)}, kInt64, like.device()));
  MT_CUDA_CHECK(
      cudaMemcpyAsync(buffer.data_ptr(), values.data(), sizeof(values), cudaMemcpyHostToDevice, current_stream()));
  return buffer;
}

// Copies `count` int64 from the device to the host; waits for the kernels before them.
void read_back(int64_t* host, const int64_t* device, size_t count) {
  MT_CUDA_CHECK(cudaMemcpyAsync(host, device, count * sizeof(int64_t), cudaMemcpyDeviceToHost, current_stream()));
  MT_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
}

unsigned reduce_blocks(int64_t n) { return std::min(num_blocks(n), kMaxReduceBlocks); }

void index_outside_kernel_cuda(const TensorBase& index, int64_t low, int64_t high, std::optional<int64_t>& outside) {
  const auto w = index_walk<1>(index, 0, {&index}, {false});
  const int64_t n = w.numel();
  const int64_t* idx = index.data_ptr<int64_t>();
  TensorBase buffer = reduction_buffer<1>(index, {LLONG_MAX});
  index_outside_kernel<<<reduce_blocks(n), kNumThreads, 0, current_stream()>>>(w, n, idx, low, high,
                                                                               buffer.data_ptr<int64_t>());
  MT_CUDA_KERNEL_LAUNCH_CHECK();
  int64_t position = 0;
  read_back(&position, buffer.data_ptr<int64_t>(), 1);
  if (position == LLONG_MAX) return;
  int64_t off[1];
  w.offsets(position, off);
  int64_t value = 0;
  read_back(&value, idx + off[0], 1);
  outside = value;
}

void index_min_max_kernel_cuda(const TensorBase& index, int64_t& min, int64_t& max) {
  const auto w = index_walk<1>(index, 0, {&index}, {false});
  const int64_t n = w.numel();
  TensorBase buffer = reduction_buffer<2>(index, {LLONG_MAX, LLONG_MIN});
  index_min_max_kernel<<<reduce_blocks(n), kNumThreads, 0, current_stream()>>>(w, n, index.data_ptr<int64_t>(),
                                                                               buffer.data_ptr<int64_t>());
  MT_CUDA_KERNEL_LAUNCH_CHECK();
  int64_t result[2];
  read_back(result, buffer.data_ptr<int64_t>(), 2);
  min = result[0];
  max = result[1];
}

// --- gather, scatter -----------------------------------------------------------------------------------

template <typename T>
__global__ void gather_kernel(Walk<3> w, int64_t n, T* out, const T* self, const int64_t* index, int64_t step) {
  for (int64_t i = grid_start(); i < n; i += grid_step()) {
    int64_t off[3];
    w.offsets(i, off);
    out[off[0]] = self[off[2] + index[off[1]] * step];
  }
}

void gather_kernel_cuda(const TensorBase& out, const TensorBase& self, int64_t dim, const TensorBase& index) {
  const auto w = index_walk<3>(index, dim, {&out, &index, &self}, {false, false, true});
  const int64_t n = w.numel(), step = dim_stride(self, dim);
  dispatch_all_types(self.dtype(), "gather", [&]<typename T>() {
    gather_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(w, n, out.data_ptr<T>(), self.data_ptr<T>(),
                                                                          index.data_ptr<int64_t>(), step);
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

// *p += v for a 1- or 2-byte integer: atomicAdd has no such width, so the aligned 32-bit word holding *p
// is swapped in a compare-and-swap loop with only *p's bytes changed (wrapping, as the CPU's addition).
template <typename T>
__device__ void atomic_add_narrow(T* p, T v) {
  const auto address = reinterpret_cast<uintptr_t>(p);
  auto* word = reinterpret_cast<unsigned int*>(address & ~uintptr_t{3});
  const unsigned shift = (address & 3) * 8;
  const unsigned mask = ((1u << (sizeof(T) * 8)) - 1) << shift;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const unsigned sum = ((assumed >> shift) + static_cast<unsigned>(static_cast<std::make_unsigned_t<T>>(v))) << shift;
    old = atomicCAS(word, assumed, (assumed & ~mask) | (sum & mask));
  } while (assumed != old);
}

// *p += v for elements that other threads may add to at once; a sum of bools is their `or`, and writes
// of `true` may race harmlessly. Integer sums wrap, computed unsigned.
template <typename T>
__device__ void atomic_add(T* p, T v) {
  if constexpr (std::is_same_v<T, bool>) {
    if (v) *p = true;
  } else if constexpr (std::is_integral_v<T> && sizeof(T) < 4) {
    atomic_add_narrow(p, v);
  } else if constexpr (std::is_same_v<T, int32_t>) {
    atomicAdd(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v));
  } else if constexpr (std::is_same_v<T, int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  } else if constexpr (std::is_same_v<T, Half>) {
    atomicAdd(reinterpret_cast<__half*>(p), __float2half(static_cast<float>(v)));
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    atomicAdd(reinterpret_cast<__nv_bfloat16*>(p), __float2bfloat16(static_cast<float>(v)));
  } else {
    atomicAdd(p, v);
  }
}

// Assign: when two index elements name one element of self, either write may win, as in PyTorch.
template <typename T>
__device__ void combine(T* dst, T v, bool add) {
  if (add)
    atomic_add(dst, v);
  else
    *dst = v;
}

template <typename T>
__global__ void scatter_kernel(Walk<3> w, int64_t n, T* self, const T* src, const int64_t* index, int64_t step,
                               bool add) {
  for (int64_t i = grid_start(); i < n; i += grid_step()) {
    int64_t off[3];
    w.offsets(i, off);
    combine(self + off[2] + index[off[0]] * step, src[off[1]], add);
  }
}

void scatter_kernel_cuda(const TensorBase& self, int64_t dim, const TensorBase& index, const TensorBase& src, ScatterOp op) {
  const auto w = index_walk<3>(index, dim, {&index, &src, &self}, {false, false, true});
  const int64_t n = w.numel(), step = dim_stride(self, dim);
  dispatch_all_types(self.dtype(), "scatter", [&]<typename T>() {
    scatter_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(
        w, n, self.data_ptr<T>(), src.data_ptr<T>(), index.data_ptr<int64_t>(), step, op == ScatterOp::Add);
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

template <typename T>
__global__ void scatter_fill_kernel(Walk<2> w, int64_t n, T* self, const int64_t* index, int64_t step, T value) {
  for (int64_t i = grid_start(); i < n; i += grid_step()) {
    int64_t off[2];
    w.offsets(i, off);
    self[off[1] + index[off[0]] * step] = value;
  }
}

void scatter_fill_kernel_cuda(const TensorBase& self, int64_t dim, const TensorBase& index, const Scalar& value) {
  const auto w = index_walk<2>(index, dim, {&index, &self}, {false, true});
  const int64_t n = w.numel(), step = dim_stride(self, dim);
  dispatch_all_types(self.dtype(), "scatter", [&]<typename T>() {
    T v;
    if constexpr (std::is_same_v<T, bool>)
      v = value.toBool();
    else
      v = static_cast<T>(value.to<opmath_t<T>>());
    scatter_fill_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(w, n, self.data_ptr<T>(),
                                                                                index.data_ptr<int64_t>(), step, v);
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

// --- take, put -----------------------------------------------------------------------------------------

// out is contiguous in index's shape: its offset is the walk's position.
template <typename T>
__global__ void take_kernel(Walk<1> w, int64_t n, T* out, const T* self, FlatOffsets self_offset, int64_t numel,
                            const int64_t* index) {
  for (int64_t k = grid_start(); k < n; k += grid_step()) {
    int64_t off[1];
    w.offsets(k, off);
    const int64_t i = index[off[0]];
    out[k] = self[self_offset(i < 0 ? i + numel : i)];
  }
}

void take_kernel_cuda(const TensorBase& out, const TensorBase& self, const TensorBase& index) {
  const auto w = index_walk<1>(index, 0, {&index}, {false});
  const int64_t n = w.numel();
  const FlatOffsets self_offset(self);
  dispatch_all_types(self.dtype(), "take", [&]<typename T>() {
    take_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(
        w, n, out.data_ptr<T>(), self.data_ptr<T>(), self_offset, self.numel(), index.data_ptr<int64_t>());
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

template <typename T>
__global__ void put_kernel(Walk<1> w, int64_t n, T* self, FlatOffsets self_offset, int64_t numel, const T* source,
                           FlatOffsets source_offset, const int64_t* index, bool add) {
  for (int64_t k = grid_start(); k < n; k += grid_step()) {
    int64_t off[1];
    w.offsets(k, off);
    const int64_t i = index[off[0]];
    combine(self + self_offset(i < 0 ? i + numel : i), source[source_offset(k)], add);
  }
}

void put_kernel_cuda(const TensorBase& self, const TensorBase& index, const TensorBase& source, ScatterOp op) {
  const auto w = index_walk<1>(index, 0, {&index}, {false});
  const int64_t n = w.numel();
  const FlatOffsets self_offset(self), source_offset(source);
  dispatch_all_types(self.dtype(), "put_", [&]<typename T>() {
    put_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(
        w, n, self.data_ptr<T>(), self_offset, self.numel(), source.data_ptr<T>(), source_offset,
        index.data_ptr<int64_t>(), op == ScatterOp::Add);
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

// --- tril, triu ----------------------------------------------------------------------------------------

// One thread per element of self; out may be self (each thread reads and writes only its own element).
template <typename T>
__global__ void triangular_kernel(Walk<2> w, int64_t n, T* out, const T* self, int64_t rows, int64_t cols,
                                  int64_t diagonal, bool upper) {
  for (int64_t i = grid_start(); i < n; i += grid_step()) {
    int64_t off[2];
    w.offsets(i, off);
    const int64_t c = i % cols, r = (i / cols) % rows;
    // Column c of row r is on the (c - r)-th diagonal.
    const bool keep = upper ? c - r >= diagonal : c - r <= diagonal;
    out[off[0]] = keep ? self[off[1]] : T(0);
  }
}

void triangular_kernel_cuda(const TensorBase& out, const TensorBase& self, int64_t diagonal, bool upper) {
  check_dims(self.dim());
  Walk<2> w;
  w.ndim = static_cast<int>(self.dim());
  for (int d = 0; d < w.ndim; ++d) {
    w.sizes[d] = self.size(d);
    w.strides[0][d] = out.stride(d);
    w.strides[1][d] = self.stride(d);
  }
  const int64_t n = w.numel();
  dispatch_all_types(self.dtype(), upper ? "triu" : "tril", [&]<typename T>() {
    triangular_kernel<T><<<num_blocks(n), kNumThreads, 0, current_stream()>>>(
        w, n, out.data_ptr<T>(), self.data_ptr<T>(), self.size(-2), self.size(-1), diagonal, upper);
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

MT_REGISTER_STUB(index_outside_stub, kCUDA, index_outside_kernel_cuda);
MT_REGISTER_STUB(index_min_max_stub, kCUDA, index_min_max_kernel_cuda);
MT_REGISTER_STUB(gather_stub, kCUDA, gather_kernel_cuda);
MT_REGISTER_STUB(scatter_stub, kCUDA, scatter_kernel_cuda);
MT_REGISTER_STUB(scatter_fill_stub, kCUDA, scatter_fill_kernel_cuda);
MT_REGISTER_STUB(take_stub, kCUDA, take_kernel_cuda);
MT_REGISTER_STUB(put_stub, kCUDA, put_kernel_cuda);
MT_REGISTER_STUB(triangular_stub, kCUDA, triangular_kernel_cuda);

}  // namespace mt
