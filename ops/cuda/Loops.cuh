#pragma once
// The one launch helper every CUDA pointwise kernel goes through (PyTorch's gpu_kernel, in miniature).
// `gpu_kernel<Out, In...>(iter, op)` applies `op` to every element of a built TensorIterator: input i is
// stored as In_i and converted to the type op's i-th parameter takes, the result is converted to Out.
// Two loops, picked on the host:
//   - contiguous operands with aligned pointers: each thread loads and stores kVec elements at once;
//   - anything else (broadcasting, strides, a view that starts mid-vector): each thread turns its
//     linear index into byte offsets. (A third loop for unaligned contiguous operands would save the
//     index arithmetic for views that are rare, at a third more kernels to compile.)
// A CPU scalar input (a wrapped number) is read on the host and passed by value in every case.
// `op` is a functor with a non-template __device__ operator(): nvcc's extended lambdas are not allowed
// inside the dtype-dispatch lambdas the kernels are written in.
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ops/infra/TensorIterator.h"
#include "ops/cuda/KernelUtils.cuh"

namespace mt::cuda {

namespace detail {

template <typename F>
struct op_traits : op_traits<decltype(&F::operator())> {};
template <typename C, typename R, typename... A>
struct op_traits<R (C::*)(A...) const> {
  using result = R;
  using args = std::tuple<A...>;
  static constexpr int arity = sizeof...(A);
};

constexpr int kMaxDims = 16;
constexpr int kVec = 4;

// Operand pointers (outputs first), and the values of CPU scalar inputs, by value in the launch.
template <int N>
struct Operands {
  char* data[N];
  alignas(8) char scalar[N][8];
  unsigned scalar_mask = 0;

  template <typename T>
  __device__ __forceinline__ T load(int i, int64_t offset) const {
    if (scalar_mask & (1u << i)) return *reinterpret_cast<const T*>(scalar[i]);
    return *reinterpret_cast<const T*>(data[i] + offset);
  }
};

// Linear index -> byte offset of each operand, over the iterator's coalesced shape (innermost first).
template <int N>
struct OffsetCalculator {
  int dims;
  int64_t sizes[kMaxDims];
  int64_t strides[kMaxDims][N];

  __device__ __forceinline__ void get(int64_t linear, int64_t (&offsets)[N]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) offsets[i] = 0;
    for (int d = 0; d < dims; ++d) {
      const int64_t q = linear / sizes[d];
      const int64_t idx = linear - q * sizes[d];
      linear = q;
#pragma unroll
      for (int i = 0; i < N; ++i) offsets[i] += idx * strides[d][i];
    }
  }
};

// out = op(in...) for element `k` whose operands are at the given byte offsets.
template <typename Out, typename... In, typename Op, int N, size_t... I>
__device__ __forceinline__ void apply(const Op& op, const Operands<N>& ops, const int64_t (&offsets)[N],
                                      std::index_sequence<I...>) {
  using Args = typename op_traits<Op>::args;
  const auto result = op(convert<std::tuple_element_t<I, Args>>(ops.template load<In>(I + 1, offsets[I + 1]))...);
  *reinterpret_cast<Out*>(ops.data[0] + offsets[0]) = convert<Out>(result);
}

// (__global__ templates need their pack last.)
template <typename Op, int N, typename Out, typename... In>
__global__ void strided_kernel(int64_t n, Op op, Operands<N> ops, OffsetCalculator<N> calc) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += stride) {
    int64_t offsets[N];
    calc.get(k, offsets);
    apply<Out, In...>(op, ops, offsets, std::index_sequence_for<In...>());
  }
}

template <typename T>
struct alignas(sizeof(T) * kVec) Vec {
  T val[kVec];
};

// Each thread loads kVec elements of every tensor operand with one aligned access, applies op to each,
// and stores kVec results at once; the last (n % kVec) elements are left to the tail loop.
template <typename Out, typename... In, typename Op, int N, size_t... I>
__device__ __forceinline__ void apply_vectorized(const Op& op, const Operands<N>& ops, int64_t v,
                                                 std::index_sequence<I...>) {
  using Args = typename op_traits<Op>::args;
  const std::tuple<Vec<In>...> in{
      (ops.scalar_mask & (1u << (I + 1))) ? Vec<In>{} : reinterpret_cast<const Vec<In>*>(ops.data[I + 1])[v]...};
  Vec<Out> out;
#pragma unroll
  for (int j = 0; j < kVec; ++j) {
    const auto result = op(convert<std::tuple_element_t<I, Args>>((ops.scalar_mask & (1u << (I + 1)))
                                                                      ? *reinterpret_cast<const In*>(ops.scalar[I + 1])
                                                                      : std::get<I>(in).val[j])...);
    out.val[j] = convert<Out>(result);
  }
  reinterpret_cast<Vec<Out>*>(ops.data[0])[v] = out;
}

template <typename Op, int N, typename Out, typename... In>
__global__ void vectorized_kernel(int64_t n, Op op, Operands<N> ops) {
  const int64_t nvec = n / kVec;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t v = first; v < nvec; v += stride)
    apply_vectorized<Out, In...>(op, ops, v, std::index_sequence_for<In...>());
  for (int64_t k = nvec * kVec + first; k < n; k += stride) {
    const int64_t offsets[N] = {k * static_cast<int64_t>(sizeof(Out)), k * static_cast<int64_t>(sizeof(In))...};
    apply<Out, In...>(op, ops, offsets, std::index_sequence_for<In...>());
  }
}

}  // namespace detail

template <typename Out, typename... In, typename Op>
void gpu_kernel(TensorIterator& iter, const Op& op) {
  constexpr int N = sizeof...(In) + 1;
  static_assert(detail::op_traits<Op>::arity == sizeof...(In), "gpu_kernel: one input type per op parameter");
  MT_INTERNAL_ASSERT(iter.ntensors() == N && iter.noutputs() == 1);
  const int64_t n = iter.numel();
  if (n == 0) {
    iter.cast_outputs();
    return;
  }
  MT_CHECK_NOT_IMPLEMENTED(iter.ndim() <= detail::kMaxDims, "CUDA pointwise kernels support at most ", detail::kMaxDims,
                           " dims after coalescing, got ", iter.ndim());
  constexpr size_t kSizes[N] = {sizeof(Out), sizeof(In)...};

  detail::Operands<N> ops;
  bool contiguous = iter.ndim() == 1;
  bool aligned = true;
  for (int i = 0; i < N; ++i) {
    ops.data[i] = static_cast<char*>(iter.data_ptr(i));
    if (iter.is_cpu_scalar(i)) {
      ops.scalar_mask |= 1u << i;
      std::memcpy(ops.scalar[i], ops.data[i], kSizes[i]);
      continue;
    }
    contiguous = contiguous && iter.stride(0, i) == static_cast<int64_t>(kSizes[i]);
    aligned = aligned && reinterpret_cast<uintptr_t>(ops.data[i]) % (kSizes[i] * detail::kVec) == 0;
  }

  const cudaStream_t stream = current_stream();
  if (contiguous && aligned) {
    detail::vectorized_kernel<Op, N, Out, In...>
        <<<num_blocks(n, kNumThreads, detail::kVec), kNumThreads, 0, stream>>>(n, op, ops);
  } else {
    detail::OffsetCalculator<N> calc;
    calc.dims = iter.ndim();
    for (int d = 0; d < calc.dims; ++d) {
      calc.sizes[d] = iter.shape(d);
      for (int i = 0; i < N; ++i) calc.strides[d][i] = iter.stride(d, i);
    }
    detail::strided_kernel<Op, N, Out, In...><<<num_blocks(n), kNumThreads, 0, stream>>>(n, op, ops, calc);
  }
  MT_CUDA_KERNEL_LAUNCH_CHECK();
  iter.cast_outputs();
}

// Every operand stores T (the common case: arithmetic, unary math).
template <typename T, typename Op>
void gpu_kernel_same_type(TensorIterator& iter, const Op& op) {
  [&]<size_t... I>(std::index_sequence<I...>) { gpu_kernel<T, std::conditional_t<(I >= 0), T, T>...>(iter, op); }
  (std::make_index_sequence<detail::op_traits<Op>::arity>());
}

}  // namespace mt::cuda
