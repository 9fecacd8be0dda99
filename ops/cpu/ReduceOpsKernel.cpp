// CPU loops of the reductions: one small op struct per reduction (its accumulator, how it takes one
// element, merges two partial results and writes the result), all run by reduce_loop (ops/infra/ReduceIterator.h).
//
// Precision: floating sums, means, products, variances and norms accumulate in double. Contiguous runs
// are summed with Eigen in blocks of kBlock elements (vectorised, several lanes in float32/float64;
// 16-bit floats widened to float32 first), and the block sums are added in double, so rounding error
// grows with the block length, not with the number of elements.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <Eigen/Core>
#ifdef __F16C__
#include <immintrin.h>
#endif

#include "ops/infra/ReduceIterator.h"
#include "ops/ReduceOps.h"
#include "ops/cpu/OpmathLoops.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

constexpr int64_t kBlock = 4096;

template <typename T>
constexpr bool is_float_or_double = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <typename T>
bool is_nan(T x) {
  if constexpr (std::is_integral_v<T>) return false;
  else return x != x;
}

template <typename T>
using Vec = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

// Integers and bools accumulate in int64, floating types in double.
template <typename T>
using acc_type = std::conditional_t<std::is_integral_v<T>, int64_t, double>;

// Integer overflow wraps around, as in PyTorch (computed unsigned, where wrapping is defined).
template <typename A>
A add(A a, A b) {
  if constexpr (std::is_integral_v<A>) return static_cast<A>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else return a + b;
}
template <typename A>
A mul(A a, A b) {
  if constexpr (std::is_integral_v<A>) return static_cast<A>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else return a * b;
}

// n <= kBlock 16-bit floats to float. Eigen converts them one at a time; these loops vectorise.
void widen(const BFloat16* p, int64_t n, float* out) {
  uint16_t bits[kBlock];
  std::memcpy(bits, p, n * sizeof(BFloat16));
  for (int64_t k = 0; k < n; ++k) out[k] = std::bit_cast<float>(static_cast<uint32_t>(bits[k]) << 16);
}
void widen(const Half* p, int64_t n, float* out) {
  int64_t k = 0;
#ifdef __F16C__
  for (; k + 8 <= n; k += 8) _mm256_storeu_ps(out + k, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k))));
#endif
  for (; k < n; ++k) out[k] = static_cast<float>(p[k]);
}

template <typename T>
acc_type<T> sum_contiguous(const T* p, int64_t n) {
  acc_type<T> acc = 0;
  if constexpr (is_float_or_double<T>) {
    for (int64_t i = 0; i < n; i += kBlock) acc += Vec<T>(p + i, std::min(kBlock, n - i)).sum();
  } else if constexpr (std::is_floating_point_v<opmath_t<T>>) {
    float block[kBlock];
    for (int64_t i = 0; i < n; i += kBlock) {
      const int64_t len = std::min(kBlock, n - i);
      widen(p + i, len, block);
      acc += Vec<float>(block, len).sum();
    }
  } else {
    for (int64_t i = 0; i < n; ++i) acc = add(acc, static_cast<acc_type<T>>(p[i]));
  }
  return acc;
}

template <typename T>
struct SumOp {
  using acc_t = acc_type<T>;
  T* out;
  acc_t identity() const { return 0; }
  acc_t reduce(acc_t a, T x, int64_t) const { return add(a, static_cast<acc_t>(x)); }
  acc_t combine(acc_t a, acc_t b) const { return add(a, b); }
  acc_t reduce_contiguous(acc_t a, const T* p, int64_t n, int64_t) const { return add(a, sum_contiguous(p, n)); }
  void write(int64_t o, acc_t a) const { out[o] = static_cast<T>(a); }
};

// An empty mean is 0 / 0 = NaN, as in PyTorch.
template <typename T>
struct MeanOp : SumOp<T> {
  double count;
  void write(int64_t o, double a) const { this->out[o] = static_cast<T>(a / count); }
};

template <typename T>
struct ProdOp {
  using acc_t = acc_type<T>;
  T* out;
  acc_t identity() const { return 1; }
  acc_t reduce(acc_t a, T x, int64_t) const { return mul(a, static_cast<acc_t>(x)); }
  acc_t combine(acc_t a, acc_t b) const { return mul(a, b); }
  void write(int64_t o, acc_t a) const { out[o] = static_cast<T>(a); }
};

// max (kMax) or min; a NaN beats every number, as in PyTorch.
template <typename T, bool kMax>
bool beats(T x, T current) {
  if (is_nan(current)) return false;
  return is_nan(x) || (kMax ? current < x : x < current);
}

template <typename T, bool kMax>
T extreme_identity() {
  using L = std::numeric_limits<T>;
  if constexpr (L::has_infinity) return kMax ? T(-L::infinity()) : L::infinity();
  else return kMax ? L::lowest() : L::max();
}

template <typename T, bool kMax>
struct ExtremeOp {
  using acc_t = T;
  T* out;
  acc_t identity() const { return extreme_identity<T, kMax>(); }
  acc_t reduce(acc_t a, T x, int64_t) const { return beats<T, kMax>(x, a) ? x : a; }
  acc_t combine(acc_t a, acc_t b) const { return reduce(a, b, 0); }
  acc_t reduce_contiguous(acc_t a, const T* p, int64_t n, int64_t) const
    requires is_float_or_double<T>
  {
    const Vec<T> v(p, n);
    return reduce(a, kMax ? v.template maxCoeff<Eigen::PropagateNaN>() : v.template minCoeff<Eigen::PropagateNaN>(), 0);
  }
  void write(int64_t o, acc_t a) const { out[o] = a; }
};

// The value and index of the max (min). The walk is in logical order, so taking only strictly better
// elements keeps the first occurrence; index < 0 means nothing seen yet.
template <typename T, bool kMax>
struct ArgOp {
  struct acc_t {
    T value;
    int64_t index;
  };
  T* values;  // null for argmax/argmin
  int64_t* indices;
  acc_t identity() const { return {T(0), -1}; }
  acc_t reduce(acc_t a, T x, int64_t i) const { return a.index < 0 || beats<T, kMax>(x, a.value) ? acc_t{x, i} : a; }
  acc_t combine(acc_t a, acc_t b) const {
    if (b.index < 0) return a;
    return a.index < 0 || beats<T, kMax>(b.value, a.value) ? b : a;
  }
  // A block's extreme found vectorised; only a block that beats the current one is searched for it.
  acc_t reduce_contiguous(acc_t a, const T* p, int64_t n, int64_t index) const
    requires is_float_or_double<T>
  {
    for (int64_t i = 0; i < n; i += kBlock) {
      const Vec<T> v(p + i, std::min(kBlock, n - i));
      const T m = kMax ? v.template maxCoeff<Eigen::PropagateNaN>() : v.template minCoeff<Eigen::PropagateNaN>();
      if (a.index >= 0 && !beats<T, kMax>(m, a.value)) continue;
      int64_t k = i;
      while (is_nan(m) ? !is_nan(p[k]) : p[k] != m) ++k;
      a = {p[k], index + k};
    }
    return a;
  }
  void write(int64_t o, acc_t a) const {
    if (values) values[o] = a.value;
    indices[o] = a.index;
  }
};

// Welford's running mean and sum of squared deviations, merged with Chan's formula; a contiguous run
// is taken a block at a time with an exact two-pass mean and deviation.
template <typename T>
struct VarOp {
  struct acc_t {
    double n, mean, m2;
  };
  T* out;
  double correction;
  bool take_sqrt;
  acc_t identity() const { return {0, 0, 0}; }
  acc_t reduce(acc_t a, T x, int64_t) const {
    const double v = static_cast<double>(x), n = a.n + 1, d = v - a.mean, mean = a.mean + d / n;
    return {n, mean, a.m2 + d * (v - mean)};
  }
  acc_t combine(acc_t a, acc_t b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const double n = a.n + b.n, d = b.mean - a.mean;
    return {n, a.mean + d * (b.n / n), a.m2 + b.m2 + d * d * (a.n * b.n / n)};
  }
  acc_t reduce_contiguous(acc_t a, const T* p, int64_t n, int64_t) const {
    for (int64_t i = 0; i < n; i += kBlock) {
      const int64_t len = std::min(kBlock, n - i);
      const auto block = Vec<T>(p + i, len).template cast<double>();
      const double mean = block.sum() / static_cast<double>(len);
      a = combine(a, {static_cast<double>(len), mean, (block - mean).square().sum()});
    }
    return a;
  }
  void write(int64_t o, acc_t a) const {
    const double var = a.m2 / std::max(0.0, a.n - correction);
    out[o] = static_cast<T>(take_sqrt ? std::sqrt(var) : var);
  }
};

template <typename T>
struct NormOp {
  using acc_t = double;
  T* out;
  NormKind kind;
  double p;
  bool empty;  // PyTorch gives 0 for every norm of no elements
  acc_t identity() const { return kind == NormKind::NegInf ? std::numeric_limits<double>::infinity() : 0.0; }
  acc_t reduce(acc_t a, T x, int64_t) const {
    const double m = std::abs(static_cast<double>(x));
    switch (kind) {
      case NormKind::Zero: return a + (m != 0);
      case NormKind::One: return a + m;
      case NormKind::Two: return a + m * m;
      case NormKind::Inf: return beats<double, true>(m, a) ? m : a;
      case NormKind::NegInf: return beats<double, false>(m, a) ? m : a;
      case NormKind::General: return a + std::pow(m, p);
    }
    return a;
  }
  acc_t combine(acc_t a, acc_t b) const {
    if (kind == NormKind::Inf) return beats<double, true>(b, a) ? b : a;
    if (kind == NormKind::NegInf) return beats<double, false>(b, a) ? b : a;
    return a + b;
  }
  acc_t reduce_contiguous(acc_t a, const T* ptr, int64_t n, int64_t) const {
    for (int64_t i = 0; i < n; i += kBlock) {
      const int64_t len = std::min(kBlock, n - i);
      if constexpr (is_float_or_double<T>) {
        if (kind == NormKind::Two) {
          a += Vec<T>(ptr + i, len).square().sum();
          continue;
        }
        if (kind == NormKind::One) {
          a += Vec<T>(ptr + i, len).abs().sum();
          continue;
        }
      }
      for (int64_t k = i; k < i + len; ++k) a = reduce(a, ptr[k], 0);
    }
    return a;
  }
  void write(int64_t o, acc_t a) const {
    if (empty) a = 0;
    else if (kind == NormKind::Two) a = std::sqrt(a);
    else if (kind == NormKind::General) a = std::pow(a, 1.0 / p);
    out[o] = static_cast<T>(a);
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
  acc_t identity() const { return {-std::numeric_limits<double>::infinity(), 0}; }
  acc_t reduce(acc_t a, T x, int64_t) const { return combine(a, {static_cast<double>(x), 1}); }
  acc_t combine(acc_t a, acc_t b) const {
    if (std::isnan(a.max) || std::isnan(b.max)) return {std::numeric_limits<double>::quiet_NaN(), 0};
    if (b.max > a.max) std::swap(a, b);
    if (b.max == -std::numeric_limits<double>::infinity()) return a;
    if (b.max == a.max) return {a.max, a.sum + b.sum};  // also +inf and +inf
    return {a.max, a.sum + b.sum * std::exp(b.max - a.max)};
  }
  // A block with a finite max: its sum of exp(x - max), vectorised in the element type.
  acc_t reduce_contiguous(acc_t a, const T* p, int64_t n, int64_t) const {
    for (int64_t i = 0; i < n; i += kBlock) {
      const int64_t len = std::min(kBlock, n - i);
      if constexpr (is_float_or_double<T>) {
        const Vec<T> v(p + i, len);
        const T m = v.template maxCoeff<Eigen::PropagateNaN>();
        if (std::isfinite(m)) {
          a = combine(a, {static_cast<double>(m), static_cast<double>((v - m).unaryExpr(AccurateExp()).sum())});
          continue;
        }
      }
      for (int64_t k = i; k < i + len; ++k) a = reduce(a, p[k], 0);
    }
    return a;
  }
  void write(int64_t o, acc_t a) const {
    out[o] = static_cast<T>(std::isfinite(a.max) ? a.max + std::log(a.sum) : a.max);
  }
};

template <typename T, bool kAll>
struct LogicalOp {
  using acc_t = bool;
  bool* out;
  acc_t identity() const { return kAll; }
  acc_t reduce(acc_t a, T x, int64_t) const { return kAll ? a && x != T(0) : a || x != T(0); }
  acc_t combine(acc_t a, acc_t b) const { return kAll ? a && b : a || b; }
  // Counting the deciding elements (zeros for all, non-zeros for any) has no branch and vectorises.
  acc_t reduce_contiguous(acc_t a, const T* p, int64_t n, int64_t) const {
    int64_t deciding = 0;
    for (int64_t k = 0; k < n; ++k) deciding += kAll ? p[k] == T(0) : p[k] != T(0);
    return kAll ? a && deciding == 0 : a || deciding != 0;
  }
  void write(int64_t o, acc_t a) const { out[o] = a; }
};

// --- the stubs ---------------------------------------------------------------------------------------------

template <typename T, typename Op>
void run(const TensorBase& self, DimMask mask, const Op& op, bool index_order = false) {
  reduce_loop(ReduceIterator(self, mask, index_order), self.data_ptr<T>(), op);
}

void sum_kernel(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), "sum", [&]<typename T>() { run<T>(self, mask, SumOp<T>{out.data_ptr<T>()}); });
}

void mean_kernel(const TensorBase& out, const TensorBase& self, DimMask mask) {
  if (out.numel() == 0) return;
  dispatch_floating_types(self.dtype(), "mean", [&]<typename T>() {
    MeanOp<T> op;
    op.out = out.data_ptr<T>();
    op.count = static_cast<double>(self.numel() / out.numel());  // elements per output
    run<T>(self, mask, op);
  });
}

void prod_kernel(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), "prod", [&]<typename T>() { run<T>(self, mask, ProdOp<T>{out.data_ptr<T>()}); });
}

template <bool kMax>
void extreme_kernel(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), kMax ? "amax" : "amin",
                     [&]<typename T>() { run<T>(self, mask, ExtremeOp<T, kMax>{out.data_ptr<T>()}); });
}

template <bool kMax>
void with_indices_kernel(const TensorBase& values, const TensorBase& indices, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), kMax ? "max" : "min", [&]<typename T>() {
    ArgOp<T, kMax> op{values.defined() ? values.data_ptr<T>() : nullptr, indices.data_ptr<int64_t>()};
    run<T>(self, mask, op, /*index_order=*/true);
  });
}

void var_kernel(const TensorBase& out, const TensorBase& self, DimMask mask, double correction, bool take_sqrt) {
  dispatch_floating_types(self.dtype(), take_sqrt ? "std" : "var", [&]<typename T>() {
    run<T>(self, mask, VarOp<T>{out.data_ptr<T>(), correction, take_sqrt});
  });
}

void norm_kernel(const TensorBase& out, const TensorBase& self, DimMask mask, double p) {
  const bool empty = self.numel() == 0;
  dispatch_floating_types(self.dtype(), "norm", [&]<typename T>() {
    run<T>(self, mask, NormOp<T>{out.data_ptr<T>(), norm_kind(p), p, empty});
  });
}

void logsumexp_kernel(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_floating_types(self.dtype(), "logsumexp",
                          [&]<typename T>() { run<T>(self, mask, LogSumExpOp<T>{out.data_ptr<T>()}); });
}

template <bool kAll>
void logical_kernel(const TensorBase& out, const TensorBase& self, DimMask mask) {
  dispatch_all_types(self.dtype(), kAll ? "all" : "any",
                     [&]<typename T>() { run<T>(self, mask, LogicalOp<T, kAll>{out.data_ptr<bool>()}); });
}

}  // namespace

MT_REGISTER_STUB(sum_stub, kCPU, sum_kernel);
MT_REGISTER_STUB(mean_stub, kCPU, mean_kernel);
MT_REGISTER_STUB(prod_stub, kCPU, prod_kernel);
MT_REGISTER_STUB(amax_stub, kCPU, extreme_kernel<true>);
MT_REGISTER_STUB(amin_stub, kCPU, extreme_kernel<false>);
MT_REGISTER_STUB(max_with_indices_stub, kCPU, with_indices_kernel<true>);
MT_REGISTER_STUB(min_with_indices_stub, kCPU, with_indices_kernel<false>);
MT_REGISTER_STUB(var_stub, kCPU, var_kernel);
MT_REGISTER_STUB(norm_stub, kCPU, norm_kernel);
MT_REGISTER_STUB(logsumexp_stub, kCPU, logsumexp_kernel);
MT_REGISTER_STUB(all_stub, kCPU, logical_kernel<true>);
MT_REGISTER_STUB(any_stub, kCPU, logical_kernel<false>);

}  // namespace mt
