#pragma once
// What the CUDA reductions (ReduceOpsKernel.cu) and softmax (SoftMaxKernel.cu) share: the index spaces
// that read an input of any layout in place (no copy to a contiguous tensor first), the launch plan,
// and the combine of per-thread partial results across a block.
//
// A reduction has `outputs` positions in the kept space, each folding `count` positions of the reduced
// space. A block is kNumThreads threads in two dims. In row mode (the reduced elements are the closer
// ones in memory, e.g. sum(x, 1) of a row-major matrix) threadIdx.x walks the reduced elements of one
// output and threadIdx.y picks the output; in column mode (the outputs are the closer ones, e.g.
// sum(x, 0)) threadIdx.x picks the output and threadIdx.y shares its reduced elements.
// Either way neighbouring threads read neighbouring memory. When the outputs alone cannot fill the GPU,
// gridDim.y blocks split the reduced elements too, in chunks of `chunk`; their partial results are
// combined by a second kernel in a fixed order, so results are deterministic (atomics would not be).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ops/cuda/KernelUtils.cuh"
#include "tensor/Error.h"

namespace mt::cuda {

// Dims of one index space after merging; a tensor has more only in layouts no op produces.
constexpr int kMaxSpaceDims = 25;

// An index space walked fastest dim first. Each position has an input offset (`strides`, in elements)
// and a second coordinate (`steps`): the output element for the kept space, the logical index (position
// in the reduced dims, row-major) for the reduced space.
struct StridedSpace {
  int ndim;
  int64_t sizes[kMaxSpaceDims], strides[kMaxSpaceDims], steps[kMaxSpaceDims];

  __device__ void locate(int64_t pos, int64_t& offset, int64_t& step) const {
    offset = 0;
    step = 0;
    for (int d = 0; d < ndim; ++d) {
      int64_t coord = pos;
      if (d + 1 < ndim) {
        // 32-bit division is several times cheaper than 64-bit, and positions nearly always fit.
        const int64_t next = ((pos | sizes[d]) >> 32) == 0
                                 ? static_cast<uint32_t>(pos) / static_cast<uint32_t>(sizes[d])
                                 : pos / sizes[d];
        coord = pos - next * sizes[d];
        pos = next;
      }
      offset += coord * strides[d];
      step += coord * steps[d];
    }
  }
};

struct SpaceDim {
  int64_t size, stride, step;
};

// The space of `dims`, given fastest (logically innermost) first. Size-1 dims are dropped, the others
// ordered by stride so neighbouring positions are neighbours in memory, and a dim that continues the
// previous one is merged into it: always for offsets, and for steps too when `exact_steps` (else the
// steps are meaningless, for ops that do not need them).
inline StridedSpace make_space(std::vector<SpaceDim> dims, bool exact_steps) {
  std::erase_if(dims, [](const SpaceDim& d) { return d.size == 1; });
  std::stable_sort(dims.begin(), dims.end(),
                   [](const SpaceDim& a, const SpaceDim& b) { return std::abs(a.stride) < std::abs(b.stride); });
  StridedSpace s{};
  for (const SpaceDim& d : dims) {
    if (s.ndim > 0) {
      const int i = s.ndim - 1;
      if (d.stride == s.strides[i] * s.sizes[i] && (!exact_steps || d.step == s.steps[i] * s.sizes[i])) {
        s.sizes[i] *= d.size;
        continue;
      }
    }
    MT_CHECK_NOT_IMPLEMENTED(s.ndim < kMaxSpaceDims, "CUDA reductions support inputs with up to ", kMaxSpaceDims,
                             " dims that cannot be merged");
    s.sizes[s.ndim] = d.size;
    s.strides[s.ndim] = d.stride;
    s.steps[s.ndim] = d.step;
    ++s.ndim;
  }
  return s;
}

// The work of one reduction kernel (see the top of the file); `columns` and `chunk` come from plan_launch.
struct ReduceShape {
  StridedSpace kept, reduced;
  int64_t outputs, count, chunk;
  bool columns;
};

inline int multiprocessor_count() {
  static const int count = [] {
    int device = 0, n = 0;
    MT_CUDA_CHECK(cudaGetDevice(&device));
    MT_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
    return n;
  }();
  return count;
}

struct LaunchPlan {
  dim3 grid, block;
};

// Sets the shape's mode and chunk and returns the launch sizes. With `may_split`, reductions too few to
// fill the GPU are split over gridDim.y blocks (the caller then combines the partial results).
inline LaunchPlan plan_launch(ReduceShape& s, bool may_split) {
  auto pow2 = [](int64_t n, int cap) {
    int p = 1;
    while (p < n && p < cap) p *= 2;
    return p;
  };
  s.columns = s.kept.ndim > 0 && (s.reduced.ndim == 0 || std::abs(s.kept.strides[0]) < std::abs(s.reduced.strides[0]));
  // Column mode keeps up to a warp of outputs side by side, for whole cache lines.
  const int red_threads = pow2(s.count, s.columns ? kNumThreads / pow2(s.outputs, 32) : kNumThreads);
  const int out_threads = kNumThreads / red_threads;
  const int64_t blocks = std::min<int64_t>((s.outputs + out_threads - 1) / out_threads, int64_t{1} << 30);
  int64_t splits = 1;
  s.chunk = s.count;
  // Enough blocks for every multiprocessor to hold several; a chunk gives each thread at least 32 elements
  // so the second pass stays small.
  const int64_t target = 8 * static_cast<int64_t>(multiprocessor_count());
  const int64_t min_chunk = int64_t{32} * red_threads;
  if (may_split && blocks < target && s.count > min_chunk) {
    splits = std::min<int64_t>({(target + blocks - 1) / blocks, (s.count + min_chunk - 1) / min_chunk, 65535});
    s.chunk = (s.count + splits - 1) / splits;
    splits = (s.count + s.chunk - 1) / s.chunk;
  }
  LaunchPlan plan;
  plan.grid = dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(splits));
  plan.block = s.columns ? dim3(out_threads, red_threads) : dim3(red_threads, out_threads);
  return plan;
}

// A thread's place in the block: which of the block's outputs it works for, and its place among the
// threads that share that output's reduced elements.
struct Lanes {
  int out, out_count, red, red_count;
  __device__ explicit Lanes(bool columns)
      : out(columns ? threadIdx.x : threadIdx.y),
        out_count(columns ? blockDim.x : blockDim.y),
        red(columns ? threadIdx.y : threadIdx.x),
        red_count(columns ? blockDim.y : blockDim.x) {}
};

// __shfl_down_sync for any trivially copyable value, one 32-bit word at a time.
template <typename A>
__device__ __forceinline__ A shfl_down(A v, int delta) {
  if constexpr (std::is_same_v<A, float> || std::is_same_v<A, double> || std::is_same_v<A, int64_t>) {
    return __shfl_down_sync(0xffffffffu, v, delta);
  } else {
    constexpr int kWords = (sizeof(A) + 3) / 4;
    int words[kWords] = {};
    memcpy(words, &v, sizeof(A));
#pragma unroll
    for (int i = 0; i < kWords; ++i) words[i] = __shfl_down_sync(0xffffffffu, words[i], delta);
    A r;
    memcpy(&r, words, sizeof(A));
    return r;
  }
}

// Shared memory for `n` values of A; each (A, n, kTag) is its own array.
template <typename A, int n, int kTag>
__device__ __forceinline__ A* shared_buffer() {
  __shared__ __align__(16) unsigned char raw[n * sizeof(A)];
  return reinterpret_cast<A*>(raw);
}

// Combines the partial results `acc` of the threads that share an output with c.combine(a, b), which
// must not depend on the order of its partials beyond rounding. The result is in the thread with
// lanes.red == 0. Every thread of the block calls it (it synchronises).
template <typename A, typename C>
__device__ A block_combine(A acc, const C& c, bool columns) {
  if (columns) {  // across threadIdx.y, through shared memory
    if (blockDim.y == 1) return acc;
    A* buf = shared_buffer<A, kNumThreads, 0>();
    const int i = threadIdx.y * blockDim.x + threadIdx.x;
    __syncthreads();  // the previous call's readers are done
    buf[i] = acc;
    __syncthreads();
    for (unsigned s = blockDim.y / 2; s > 0; s /= 2) {
      if (threadIdx.y < s) buf[i] = acc = c.combine(acc, buf[i + s * blockDim.x]);
      __syncthreads();
    }
    return acc;
  }
  // Across threadIdx.x: a row's threads are aligned groups of a warp, or whole warps. A tree of shuffles
  // leaves in each group's first lane the combination of exactly that group.
  for (unsigned d = std::min(blockDim.x, 32u) / 2; d > 0; d /= 2) acc = c.combine(acc, shfl_down(acc, d));
  if (blockDim.x <= 32) return acc;
  A* buf = shared_buffer<A, kNumThreads / 32, 1>();
  const int warps = blockDim.x / 32, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads();
  if (lane == 0) buf[threadIdx.y * warps + warp] = acc;
  __syncthreads();
  if (warp == 0) {
    // Lanes past `warps` load a valid value the tree never passes to lane 0.
    acc = buf[threadIdx.y * warps + lane % warps];
    for (int d = warps / 2; d > 0; d /= 2) acc = c.combine(acc, shfl_down(acc, d));
  }
  return acc;
}

// block_combine with the result given to every thread that shares the output.
template <typename A, typename C>
__device__ A block_allreduce(A acc, const C& c, bool columns) {
  const Lanes lanes(columns);
  acc = block_combine(acc, c, columns);
  A* result = shared_buffer<A, kNumThreads, 2>();
  if (lanes.red == 0) result[lanes.out] = acc;
  __syncthreads();
  acc = result[lanes.out];
  __syncthreads();  // before a next call writes `result` again
  return acc;
}

}  // namespace mt::cuda
