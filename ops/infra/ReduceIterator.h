#pragma once
// ReduceIterator: the one loop helper of every CPU reduction. It splits a strided input into the dims
// that are kept (one output element each) and the dims that are reduced, and reduce_loop() runs an op
// over it (PyTorch's binary_kernel_reduce, in miniature). An op is a small struct:
//
//   using acc_t = ...;                                  the accumulator
//   acc_t identity() const;                             the value of an empty reduction
//   acc_t reduce(acc_t a, T x, int64_t index) const;    one more element (index: see below)
//   acc_t combine(acc_t a, acc_t b) const;              two partial results, a covering earlier elements
//   void write(int64_t out, acc_t a) const;             stores the result of output element `out`
//   acc_t reduce_contiguous(acc_t a, const T* p, int64_t n, int64_t index) const;
//                                                       optional: a contiguous run, vectorised (the
//                                                       elements have indices index, index + 1, ...)
//
// Two loop shapes cover every layout. When a reduced dim is the input's fastest one, each output reduces
// runs of its own ("inner"). When a kept dim is the fastest ("vertical", e.g. summing the rows of a
// row-major matrix), a block of neighbouring outputs is reduced together, one input row at a time, so
// the input is still read in memory order and the inner loop runs over independent accumulators.
// Both cores are used by splitting the outputs or, when there are too few of them, the reduced elements
// (each chunk reduces its own part, and the parts are combined in order).
#include <algorithm>
#include <cstdint>

#include "ops/infra/Parallel.h"
#include "ops/ReduceOps.h"
#include "tensor/SmallVector.h"
#include "tensor/TensorBase.h"

namespace mt {

// An index space walked innermost dim first. Each position has an input offset (`strides`, in
// elements) and a second coordinate (`steps`): the output element for kept dims, the logical index
// for reduced dims.
struct StridedSpace {
  SmallVector<int64_t, 6> sizes, strides, steps;

  int64_t numel() const;
  // The input offset and the second coordinate of linear position `pos`.
  void locate(int64_t pos, int64_t& offset, int64_t& step) const;
  // Calls f(offset, step, n) for each run of positions in [begin, end) along the innermost dim.
  template <typename F>
  void for_each_run(int64_t begin, int64_t end, F&& f) const;
};

class ReduceIterator {
 public:
  // `index_order`: walk the reduced elements in logical order and pass their logical index (position
  // in the reduced dims, row-major) to the op, as arg-reductions need; otherwise the reduced dims are
  // walked in memory order and the index passed is meaningless.
  ReduceIterator(const TensorBase& input, DimMask mask, bool index_order);

  const StridedSpace& reduced() const { return reduced_; }
  // Inner loops: one position per output. Vertical loops: the kept dims other than the vector dim.
  const StridedSpace& groups() const { return groups_; }
  bool vertical() const { return vertical_; }
  // The vertical loops' vector dim: the kept dim that is fastest in memory.
  int64_t vec_size() const { return vec_size_; }
  int64_t vec_stride() const { return vec_stride_; }
  int64_t vec_step() const { return vec_step_; }

 private:
  StridedSpace groups_, reduced_;
  bool vertical_ = false;
  int64_t vec_size_ = 1, vec_stride_ = 0, vec_step_ = 0;
};

template <typename F>
void StridedSpace::for_each_run(int64_t begin, int64_t end, F&& f) const {
  if (begin >= end) return;
  const size_t nd = sizes.size();
  int64_t counter[kMaxReduceDims];
  int64_t rest = begin, offset = 0, step = 0;
  for (size_t d = 0; d < nd; ++d) {
    counter[d] = rest % sizes[d];
    rest /= sizes[d];
    offset += counter[d] * strides[d];
    step += counter[d] * steps[d];
  }
  while (begin < end) {
    const int64_t n = std::min(sizes[0] - counter[0], end - begin);
    f(offset, step, n);
    begin += n;
    counter[0] += n;
    offset += n * strides[0];
    step += n * steps[0];
    for (size_t d = 0; d + 1 < nd && counter[d] == sizes[d]; ++d) {
      counter[d] = 0;
      offset += strides[d + 1] - sizes[d] * strides[d];
      step += steps[d + 1] - sizes[d] * steps[d];
      ++counter[d + 1];
    }
  }
}

namespace detail {

// n elements `stride` apart; the first has logical index `index`, the next ones index + k * step.
template <typename T, typename Op>
typename Op::acc_t reduce_run(const Op& op, typename Op::acc_t acc, const T* p, int64_t n, int64_t stride,
                              int64_t index, int64_t step) {
  constexpr int64_t kMinVectorRun = 16;  // below this, setting up a vector loop costs more than it saves
  if constexpr (requires { op.reduce_contiguous(acc, p, n, index); }) {
    if (stride == 1 && n >= kMinVectorRun) return op.reduce_contiguous(acc, p, n, index);
  }
  for (int64_t k = 0; k < n; ++k) acc = op.reduce(acc, p[k * stride], index + k * step);
  return acc;
}

// The reduced elements [begin, end) below `base`, folded into `acc`.
template <typename T, typename Op>
typename Op::acc_t reduce_range(const Op& op, const StridedSpace& red, const T* base, int64_t begin, int64_t end,
                                typename Op::acc_t acc) {
  const int64_t stride = red.strides[0], step = red.steps[0];
  if (red.sizes.size() == 1) return reduce_run(op, acc, base + begin * stride, end - begin, stride, begin * step, step);
  red.for_each_run(begin, end, [&](int64_t offset, int64_t index, int64_t n) {
    acc = reduce_run(op, acc, base + offset, n, stride, index, step);
  });
  return acc;
}

// The reduced elements [begin, end) of `count` neighbouring outputs (input step `vec_stride` apart),
// folded into acc[0..count): one input row at a time, so the input is read in memory order.
template <typename T, typename Op>
void reduce_block(const Op& op, const StridedSpace& red, const T* base, int64_t vec_stride, int64_t count,
                  int64_t begin, int64_t end, typename Op::acc_t* acc) {
  const int64_t stride = red.strides[0], step = red.steps[0];
  red.for_each_run(begin, end, [&](int64_t offset, int64_t index, int64_t n) {
    for (int64_t k = 0; k < n; ++k) {
      const T* row = base + offset + k * stride;
      const int64_t i = index + k * step;
      if (vec_stride == 1) {
        for (int64_t j = 0; j < count; ++j) acc[j] = op.reduce(acc[j], row[j], i);
      } else {
        for (int64_t j = 0; j < count; ++j) acc[j] = op.reduce(acc[j], row[j * vec_stride], i);
      }
    }
  });
}

}  // namespace detail

// Runs `op` over the input `in` (whose layout `it` describes), writing every output element once.
template <typename T, typename Op>
void reduce_loop(const ReduceIterator& it, const T* in, const Op& op) {
  using acc_t = typename Op::acc_t;
  // Outputs reduced together in a vertical loop: their accumulators stay in the L1 cache.
  constexpr int64_t kBlock = std::max<int64_t>(16, 32768 / sizeof(acc_t));
  const StridedSpace& red = it.reduced();
  const StridedSpace& groups = it.groups();
  const int64_t n = red.numel();
  const int64_t vec = it.vertical() ? it.vec_size() : 1;
  const int64_t blocks = (vec + kBlock - 1) / kBlock;
  const int64_t tasks = groups.numel() * blocks;  // inner loops: one task per output
  if (tasks == 0) return;
  const bool wake = n >= kWakeGrains * kParallelGrain;  // a split task is worth waking workers for
  const int threads = n >= 2 * kParallelGrain ? parallel_threads(wake) : 1;
  // Few large tasks: each one is spread over the threads instead, so both cores work.
  const bool split = threads > 1 && tasks < 4 * threads;
  const int64_t chunks = split ? std::min<int64_t>(int64_t{threads} * kChunksPerThread, n / kParallelGrain) : 1;
  auto chunk = [&](int64_t c) { return n / chunks * c + std::min(c, n % chunks); };

  // Vertical task t: outputs [j0, j0 + count) of the vector dim in group t / blocks.
  auto run_vertical_task = [&](int64_t t) {
    int64_t offset, out;
    groups.locate(t / blocks, offset, out);
    const int64_t j0 = (t % blocks) * kBlock;
    const int64_t count = std::min(kBlock, vec - j0);
    const T* base = in + offset + j0 * it.vec_stride();
    out += j0 * it.vec_step();
    SmallVector<acc_t, 16> acc;  // not std::vector: chunks write their own elements concurrently
    acc.resize(chunks * count);
    std::fill(acc.begin(), acc.end(), op.identity());
    if (chunks == 1) {
      detail::reduce_block(op, red, base, it.vec_stride(), count, 0, n, acc.data());
      for (int64_t j = 0; j < count; ++j) op.write(out + j * it.vec_step(), acc[j]);
      return;
    }
    parallel_for(0, chunks, 1, wake, [&](int64_t b, int64_t e) {
      for (int64_t c = b; c < e; ++c)
        detail::reduce_block(op, red, base, it.vec_stride(), count, chunk(c), chunk(c + 1), acc.data() + c * count);
    });
    for (int64_t j = 0; j < count; ++j) {
      acc_t a = acc[j];
      for (int64_t c = 1; c < chunks; ++c) a = op.combine(a, acc[c * count + j]);
      op.write(out + j * it.vec_step(), a);
    }
  };

  if (it.vertical()) {
    if (split) {
      for (int64_t t = 0; t < tasks; ++t) run_vertical_task(t);
      return;
    }
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n * std::min(vec, kBlock), 1));
    parallel_for(0, tasks, grain, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) run_vertical_task(t);
    });
    return;
  }
  if (split) {
    for (int64_t o = 0; o < tasks; ++o) {
      int64_t offset, out;
      groups.locate(o, offset, out);
      SmallVector<acc_t, 8> part;
      part.resize(chunks);
      std::fill(part.begin(), part.end(), op.identity());
      parallel_for(0, chunks, 1, wake, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) part[c] = detail::reduce_range(op, red, in + offset, chunk(c), chunk(c + 1), part[c]);
      });
      acc_t acc = part[0];
      for (int64_t c = 1; c < chunks; ++c) acc = op.combine(acc, part[c]);
      op.write(out, acc);
    }
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1));
  parallel_for(0, tasks, grain, [&](int64_t b, int64_t e) {
    groups.for_each_run(b, e, [&](int64_t offset, int64_t out, int64_t count) {
      for (int64_t k = 0; k < count; ++k) {
        op.write(out + k * groups.steps[0],
                 detail::reduce_range(op, red, in + offset + k * groups.strides[0], 0, n, op.identity()));
      }
    });
  });
}

}  // namespace mt
