// CUDA loops of the reductions (the stubs of ops/ReduceOps.h): one small op struct per reduction, as in
// ops/cpu/ReduceOpsKernel.cpp, all run by one kernel that reads the input in place in any layout
// (ops/cuda/Reduce.cuh).
//
// The results follow the CPU loops: integers and bools accumulate in int64 (wrapping on overflow), every
// floating type in double; a NaN wins in max and min; arg-reductions give the first occurrence. Threads
// see the elements out of order, so every combine is order-free: among equal values (or NaNs) the
// smaller logical index wins.
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "ops/ReduceOps.h"
#include "ops/cuda/KernelUtils.cuh"
#include "ops/cuda/Reduce.cuh"
#include "tensor/DtypeDispatch.h"
#include "tensor/TensorImpl.h"

namespace mt {
namespace {

using cuda::convert;

template <typename T>
using acc_type = std::conditional_t<std::is_integral_v<T>, int64_t, double>;

// Integer overflow wraps around, as in PyTorch (computed unsigned, where wrapping is defined).
template <typename A>
__device__ A add(A a, A b) {
  if constexpr (std::is_integral_v<A>)
    return static_cast<A>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else
    return a + b;
}
template <typename A>
__device__ A mul(A a, A b) {
  if constexpr (std::is_integral_v<A>)
    return static_cast<A>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else
    return a * b;
}

template <typename A>
__device__ bool is_nan(A x) {
  if constexpr (std::is_floating_point_v<A>)
    return x != x;
  else
    return false;
}

// max (kMax) or min; a NaN beats every number, as in PyTorch.
template <typename A, bool kMax>
__device__ bool beats(A x, A current) {
  if (is_nan(current)) return false;
  return is_nan(x) || (kMax ? current < x : x < current);
}

template <typename T>
struct SumOp {
  using acc_t = acc_type<T>;
  T* out;
  __device__ acc_t identity() const { return 0; }
  __device__ acc_t reduce(acc_t a, T x, int64_t) const { return add(a, convert<acc_t>(x)); }
  __device__ acc_t combine(acc_t a, acc_t b) const { return add(a, b); }
  __device__ void write(int64_t o, acc_t a) const { out[o] = convert<T>(a); }
};

// An empty mean is 0 / 0 = NaN, as in PyTorch.
template <typename T>
struct MeanOp : SumOp<T> {
  double count;
  __device__ void write(int64_t o, double a) const { this->out[o] = convert<T>(a / count); }
};

template <typename T>
struct ProdOp {
  using acc_t = acc_type<T>;
  T* out;
  __device__ acc_t identity() const { return 1; }
  __device__ acc_t reduce(acc_t a, T x, int64_t) const { return mul(a, convert<acc_t>(x)); }
  __device__ acc_t combine(acc_t a, acc_t b) const { return mul(a, b); }
  __device__ void write(int64_t o, acc_t a) const { out[o] = convert<T>(a); }
};

template <typename T, bool kMax>
struct ExtremeOp {
  using acc_t = opmath_t<T>;
  T* out;
  __device__ acc_t identity() const {
    using L = std::numeric_limits<acc_t>;
    if constexpr (L::has_infinity)
      return kMax ? -L::infinity() : L::infinity();
    else
      return kMax ? L::lowest() : L::max();
  }
  __device__ acc_t reduce(acc_t a, T x, int64_t) const { return combine(a, convert<acc_t>(x)); }
  __device__ acc_t combine(acc_t a, acc_t b) const { return beats<acc_t, kMax>(b, a) ? b : a; }
  __device__ void write(int64_t o, acc_t a) const { out[o] = convert<T>(a); }
};

// The value and logical index of the max (min); index < 0 means nothing seen yet.
template <typename T, bool kMax>
struct ArgOp {
  using V = opmath_t<T>;
  struct acc_t {
    V value;
    int64_t index;
  };
  T* values;  // null for argmax/argmin
  int64_t* indices;
  __device__ acc_t identity() const { return {V(0), -1}; }
  __device__ acc_t reduce(acc_t a, T x, int64_t i) const { return combine(a, {convert<V>(x), i}); }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
    if (beats<V, kMax>(b.value, a.value)) return b;
    if (beats<V, kMax>(a.value, b.value)) return a;
    return b.index < a.index ? b : a;
  }
  __device__ void write(int64_t o, acc_t a) const {
    if (values) values[o] = convert<T>(a.value);
    indices[o] = a.index;
  }
};

// Welford's running mean and sum of squared deviations, merged with Chan's formula.
template <typename T>
struct VarOp {
  struct acc_t {
    double n, mean, m2;
  };
  T* out;
  double correction;
  bool take_sqrt;
  __device__ acc_t identity() const { return {0, 0, 0}; }
  __device__ acc_t reduce(acc_t a, T x, int64_t) const {
    const double v = convert<double>(x), n = a.n + 1, d = v - a.mean, mean = a.mean + d / n;
    return {n, mean, a.m2 + d * (v - mean)};
  }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const double n = a.n + b.n, d = b.mean - a.mean;
    return {n, a.mean + d * (b.n / n), a.m2 + b.m2 + d * d * (a.n * b.n / n)};
  }
  __device__ void write(int64_t o, acc_t a) const {
    const double dof = a.n - correction;  // max(0, dof), as the CPU's std::max(0.0, dof) (NaN too)
    const double var = a.m2 / (dof > 0 ? dof : 0.0);
    out[o] = convert<T>(take_sqrt ? ::sqrt(var) : var);
  }
};

template <typename T>
struct NormOp {
  using acc_t = double;
  T* out;
  NormKind kind;
  double p;
  bool empty;  // PyTorch gives 0 for every norm of no elements
  __device__ acc_t identity() const { return kind == NormKind::NegInf ? std::numeric_limits<double>::infinity() : 0.0; }
  __device__ acc_t reduce(acc_t a, T x, int64_t) const {
    const double m = ::fabs(convert<double>(x));
    switch (kind) {
      case NormKind::Zero:
        return a + (m != 0);
      case NormKind::One:
        return a + m;
      case NormKind::Two:
        return a + m * m;
      case NormKind::Inf:
        return beats<double, true>(m, a) ? m : a;
      case NormKind::NegInf:
        return beats<double, false>(m, a) ? m : a;
      case NormKind::General:
        return a + ::pow(m, p);
    }
    return a;
  }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    if (kind == NormKind::Inf) return beats<double, true>(b, a) ? b : a;
    if (kind == NormKind::NegInf) return beats<double, false>(b, a) ? b : a;
    return a + b;
  }
  __device__ void write(int64_t o, acc_t a) const {
    if (empty)
      a = 0;
    else if (kind == NormKind::Two)
      a = ::sqrt(a);
    else if (kind == NormKind::General)
      a = ::pow(a, 1.0 / p);
    out[o] = convert<T>(a);
  }
};

// log(sum(exp(x))) in one pass: the running max and the sum of exp(x - max), rescaled when the max
// grows, so nothing overflows.
template <typename T>
struct LogSumExpOp {
  struct acc_t {
    double max, sum;
  };
  T* out;
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  __device__ acc_t identity() const { return {-kInf, 0}; }
  __device__ acc_t reduce(acc_t a, T x, int64_t) const { return combine(a, {convert<double>(x), 1}); }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    if (is_nan(a.max) || is_nan(b.max)) return {std::numeric_limits<double>::quiet_NaN(), 0};
    if (b.max > a.max) {
      const acc_t t = a;
      a = b;
      b = t;
    }
    if (b.max == -kInf) return a;
    if (b.max == a.max) return {a.max, a.sum + b.sum};  // also +inf and +inf
    return {a.max, a.sum + b.sum * ::exp(b.max - a.max)};
  }
  __device__ void write(int64_t o, acc_t a) const {
    out[o] = convert<T>(::fabs(a.max) < kInf ? a.max + ::log(a.sum) : a.max);
  }
};

template <typename T, bool kAll>
struct LogicalOp {
  using acc_t = bool;
  bool* out;
  __device__ acc_t identity() const { return kAll; }
  __device__ acc_t reduce(acc_t a, T x, int64_t) const { return kAll ? a && convert<bool>(x) : a || convert<bool>(x); }
  __device__ acc_t combine(acc_t a, acc_t b) const { return kAll ? a && b : a || b; }
  __device__ void write(int64_t o, acc_t a) const { out[o] = a; }
};

// --- the kernels -------------------------------------------------------------------------------------------

// The reduced positions k, k + step, ... below `end` of the output whose elements start at `in`.
template <typename T, typename Op>
__device__ typename Op::acc_t reduce_positions(const Op& op, const T* in, const cuda::StridedSpace& red, int64_t k,
                                               int64_t end, int step) {
  constexpr int kUnroll = 4;  // loads in flight per thread
  typename Op::acc_t acc = op.identity();
  for (; k + (kUnroll - 1) * int64_t{step} < end; k += kUnroll * int64_t{step}) {
    T v[kUnroll];
    int64_t index[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      int64_t offset;
      red.locate(k + u * int64_t{step}, offset, index[u]);
      v[u] = in[offset];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc = op.reduce(acc, v[u], index[u]);
  }
  for (; k < end; k += step) {
    int64_t offset, index;
    red.locate(k, offset, index);
    acc = op.reduce(acc, in[offset], index);
  }
  return acc;
}

// Each block reduces chunk blockIdx.y of the reduced positions of its outputs (see Reduce.cuh), and
// writes the result, or with several chunks its partial result to partials[out * gridDim.y + chunk].
template <typename T, typename Op>
__global__ void __launch_bounds__(cuda::kNumThreads)
    reduce_kernel(const T* __restrict__ in, Op op, cuda::ReduceShape s, typename Op::acc_t* __restrict__ partials) {
  const cuda::Lanes lanes(s.columns);
  const int64_t begin = int64_t{blockIdx.y} * s.chunk;
  const int64_t end = std::min(s.count, begin + s.chunk);
  for (int64_t first = int64_t{blockIdx.x} * lanes.out_count; first < s.outputs;
       first += int64_t{gridDim.x} * lanes.out_count) {
    const int64_t pos = first + lanes.out;
    typename Op::acc_t acc = op.identity();
    int64_t offset = 0, out = 0;
    if (pos < s.outputs) {
      s.kept.locate(pos, offset, out);
      acc = reduce_positions(op, in + offset, s.reduced, begin + lanes.red, end, lanes.red_count);
    }
    acc = cuda::block_combine(acc, op, s.columns);
    if (pos < s.outputs && lanes.red == 0) {
      if (gridDim.y == 1)
        op.write(out, acc);
      else
        partials[out * gridDim.y + blockIdx.y] = acc;
    }
  }
}

// The second pass of a split reduction: each output's partial results, in chunk order.
template <typename Op>
__global__ void combine_partials_kernel(Op op, const typename Op::acc_t* __restrict__ partials, int64_t outputs,
                                        int splits) {
  for (int64_t o = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; o < outputs; o += int64_t{gridDim.x} * blockDim.x) {
    typename Op::acc_t acc = partials[o * splits];
    for (int c = 1; c < splits; ++c) acc = op.combine(acc, partials[o * splits + c]);
    op.write(o, acc);
  }
}

// The kept and reduced spaces of self: the kept steps are the output's (contiguous, kept dims in order),
// the reduced steps the logical index, which only arg-reductions need (`index_order`).
cuda::ReduceShape reduce_shape(const TensorBase& self, DimMask mask, bool index_order) {
  std::vector<cuda::SpaceDim> kept, reduced;
  int64_t outputs = 1, count = 1;
  for (int64_t d = self.dim() - 1; d >= 0; --d) {
    if (mask >> d & 1) {
      reduced.push_back({self.size(d), self.stride(d), count});
      count *= self.size(d);
    } else {
      kept.push_back({self.size(d), self.stride(d), outputs});
      outputs *= self.size(d);
    }
  }
  cuda::ReduceShape s{};
  s.kept = cuda::make_space(std::move(kept), /*exact_steps=*/true);
  s.reduced = cuda::make_space(std::move(reduced), index_order);
  s.outputs = outputs;
  s.count = count;
  return s;
}

template <typename T, typename Op>
void run(const TensorBase& self, DimMask mask, const Op& op, bool index_order = false) {
  using acc_t = typename Op::acc_t;
  cuda::ReduceShape s = reduce_shape(self, mask, index_order);
  if (s.outputs == 0) return;
  const cuda::LaunchPlan plan = cuda::plan_launch(s, /*may_split=*/true);
  const int splits = static_cast<int>(plan.grid.y);
  TensorBase workspace;  // the partial results of a split reduction; freed in stream order after the kernels
  acc_t* partials = nullptr;
  if (splits > 1) {
    const int64_t words = (s.outputs * splits * static_cast<int64_t>(sizeof(acc_t)) + 7) / 8;
    workspace = TensorBase(TensorImpl::empty({words}, kInt64, self.device()));
    partials = static_cast<acc_t*>(workspace.data_ptr());
  }
  const cudaStream_t stream = cuda::current_stream();
  reduce_kernel<T, Op><<<plan.grid, plan.block, 0, stream>>>(self.data_ptr<T>(), op, s, partials);
  MT_CUDA_KERNEL_LAUNCH_CHECK();
  if (splits > 1) {
    combine_partials_kernel<Op>
        <<<cuda::num_blocks(s.outputs), cuda::kNumThreads, 0, stream>>>(op, partials, s.outputs, splits);
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  }
}

// --- the stubs ---------------------------------------------------------------------------------------------

void sum_kernel_cuda(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), "sum", [&]<typename T>() { run<T>(self, mask, SumOp<T>{out.data_ptr<T>()}); });
}

void mean_kernel_cuda(const TensorBase& out, const TensorBase& self, DimMask mask) {
  if (out.numel() == 0) return;
  dispatch_floating_types(self.dtype(), "mean", [&]<typename T>() {
    const double count = static_cast<double>(self.numel() / out.numel());  // elements per output
    run<T>(self, mask, MeanOp<T>{{out.data_ptr<T>()}, count});
  });
}

void prod_kernel_cuda(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), "prod", [&]<typename T>() { run<T>(self, mask, ProdOp<T>{out.data_ptr<T>()}); });
}

template <bool kMax>
void extreme_kernel_cuda(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), kMax ? "amax" : "amin",
                     [&]<typename T>() { run<T>(self, mask, ExtremeOp<T, kMax>{out.data_ptr<T>()}); });
}

template <bool kMax>
void with_indices_kernel_cuda(const TensorBase& values, const TensorBase& indices, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), kMax ? "max" : "min", [&]<typename T>() {
    ArgOp<T, kMax> op{values.defined() ? values.data_ptr<T>() : nullptr, indices.data_ptr<int64_t>()};
    run<T>(self, mask, op, /*index_order=*/true);
  });
}

void var_kernel_cuda(const TensorBase& out, const TensorBase& self, DimMask mask, double correction, bool take_sqrt) {
  dispatch_floating_types(self.dtype(), take_sqrt ? "std" : "var", [&]<typename T>() {
    run<T>(self, mask, VarOp<T>{out.data_ptr<T>(), correction, take_sqrt});
  });
}

void norm_kernel_cuda(const TensorBase& out, const TensorBase& self, DimMask mask, double p) {
  const bool empty = self.numel() == 0;
  dispatch_floating_types(self.dtype(), "norm", [&]<typename T>() {
    run<T>(self, mask, NormOp<T>{out.data_ptr<T>(), norm_kind(p), p, empty});
  });
}

void logsumexp_kernel_cuda(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_floating_types(self.dtype(), "logsumexp",
                          [&]<typename T>() { run<T>(self, mask, LogSumExpOp<T>{out.data_ptr<T>()}); });
}

template <bool kAll>
void logical_kernel_cuda(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), kAll ? "all" : "any",
                     [&]<typename T>() { run<T>(self, mask, LogicalOp<T, kAll>{out.data_ptr<bool>()}); });
}

}  // namespace

MT_REGISTER_STUB(sum_stub, kCUDA, sum_kernel_cuda);
MT_REGISTER_STUB(mean_stub, kCUDA, mean_kernel_cuda);
MT_REGISTER_STUB(prod_stub, kCUDA, prod_kernel_cuda);
MT_REGISTER_STUB(amax_stub, kCUDA, extreme_kernel_cuda<true>);
MT_REGISTER_STUB(amin_stub, kCUDA, extreme_kernel_cuda<false>);
MT_REGISTER_STUB(max_with_indices_stub, kCUDA, with_indices_kernel_cuda<true>);
MT_REGISTER_STUB(min_with_indices_stub, kCUDA, with_indices_kernel_cuda<false>);
MT_REGISTER_STUB(var_stub, kCUDA, var_kernel_cuda);
MT_REGISTER_STUB(norm_stub, kCUDA, norm_kernel_cuda);
MT_REGISTER_STUB(logsumexp_stub, kCUDA, logsumexp_kernel_cuda);
MT_REGISTER_STUB(all_stub, kCUDA, logical_kernel_cuda<true>);
MT_REGISTER_STUB(any_stub, kCUDA, logical_kernel_cuda<false>);

}  // namespace mt
