// CPU loops of softmax and log_softmax. Every value is computed in opmath (float for the 16-bit types)
// from the row's maximum, so exp never overflows; exp is AccurateExp, so a -inf (masked) element gives
// exactly 0. Two layouts get a vectorised path:
// - rows: the dim is innermost (only size-1 dims after it), the common `softmax(x, -1)`; each row is
//   handled in place by Eigen, rows are spread over the threads;
// - columns: a contiguous input softmaxed along an outer dim; Eigen works across a block of the inner
//   dims at once, so every access is contiguous.
// Any other layout gathers each row into a buffer first.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "ops/infra/Parallel.h"
#include "ops/cpu/OpmathLoops.h"
#include "ops/SoftMax.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

template <typename T>
using Array = Eigen::Array<T, Eigen::Dynamic, 1>;

// y = softmax(x) or log_softmax(x) over n contiguous values; y may be x.
template <typename M>
void softmax_row(const M* x, M* y, int64_t n, bool log) {
  const Eigen::Map<const Array<M>> xa(x, n);
  Eigen::Map<Array<M>> ya(y, n);
  const M max = xa.maxCoeff();
  if (log) {
    ya = (xa - max) - std::log((xa - max).unaryExpr(AccurateExp()).sum());
  } else {
    ya = (xa - max).unaryExpr(AccurateExp());
    ya *= M(1) / ya.sum();
  }
}

// The geometry of the computation: `dim` has `len` elements `step` apart in self; the other dims are
// the rows, each mapped to its first element by its sizes and strides. out is contiguous, so in out a
// row's elements are `inner` apart (the product of the sizes after dim).
struct Geometry {
  int64_t len = 1, step = 0, inner = 1, rows = 1;
  std::vector<int64_t> row_sizes, row_strides;

  Geometry(const TensorBase& self, int64_t dim) {
    for (int64_t d = 0; d < self.dim(); ++d) {
      if (d == dim) {
        len = self.size(d);
        step = self.stride(d);
        continue;
      }
      row_sizes.push_back(self.size(d));
      row_strides.push_back(self.stride(d));
      rows *= self.size(d);
      if (d > dim) inner *= self.size(d);
    }
  }
  int64_t self_offset(int64_t row) const {
    int64_t off = 0;
    for (int64_t j = static_cast<int64_t>(row_sizes.size()) - 1; j >= 0; --j) {
      off += (row % row_sizes[j]) * row_strides[j];
      row /= row_sizes[j];
    }
    return off;
  }
  int64_t out_offset(int64_t row) const { return (row / inner) * len * inner + row % inner; }
};

// One row at a time. A contiguous row whose input, output and compute types agree is done in place in
// out; any other row goes through a buffer in the compute type.
template <typename T, typename O>
void softmax_rows(const TensorBase& out, const TensorBase& self, const Geometry& g, bool log) {
  using M = opmath_t<T>;
  const T* in = self.data_ptr<T>();
  O* o = out.data_ptr<O>();
  constexpr bool same_types = std::is_same_v<T, M> && std::is_same_v<O, M>;
  const bool direct = same_types && (g.step == 1 || g.len == 1) && g.inner == 1;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(g.len, 1));
  parallel_for(0, g.rows, grain, [&](int64_t begin, int64_t end) {
    std::vector<M> buf(direct ? 0 : g.len);
    for (int64_t r = begin; r < end; ++r) {
      const T* x = in + g.self_offset(r);
      O* y = o + g.out_offset(r);
      if constexpr (same_types) {
        if (direct) {
          softmax_row<M>(x, y, g.len, log);
          continue;
        }
      }
      for (int64_t k = 0; k < g.len; ++k) buf[k] = static_cast<M>(x[k * g.step]);
      softmax_row<M>(buf.data(), buf.data(), g.len, log);
      for (int64_t k = 0; k < g.len; ++k) y[k * g.inner] = static_cast<O>(buf[k]);
    }
  });
}

// A contiguous self along an outer dim: blocks of up to kBlock inner positions, each pass over the dim
// reading one contiguous run per element of the dim.
template <typename T, typename O>
void softmax_columns(const TensorBase& out, const TensorBase& self, const Geometry& g, bool log) {
  using M = opmath_t<T>;
  constexpr int64_t kBlock = 512;
  const T* in = self.data_ptr<T>();
  O* o = out.data_ptr<O>();
  const int64_t outer = g.rows / g.inner, blocks = (g.inner + kBlock - 1) / kBlock;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / (g.len * std::min(kBlock, g.inner)));
  parallel_for(0, outer * blocks, grain, [&](int64_t begin, int64_t end) {
    Array<M> max_buf(std::min(kBlock, g.inner)), sum_buf(max_buf.size());
    for (int64_t task = begin; task < end; ++task) {
      const int64_t start = (task % blocks) * kBlock, n = std::min(kBlock, g.inner - start);
      const int64_t base = (task / blocks) * g.len * g.inner + start;
      auto column = [&](int64_t k) { return Eigen::Map<const Array<T>>(in + base + k * g.inner, n).template cast<M>(); };
      auto max = max_buf.head(n);
      auto sum = sum_buf.head(n);
      max = column(0);
      for (int64_t k = 1; k < g.len; ++k) max = max.max(column(k));
      sum.setZero();
      for (int64_t k = 0; k < g.len; ++k) sum += (column(k) - max).unaryExpr(AccurateExp());
      // From here `sum` holds what each shifted element is reduced by (log) or scaled by.
      if (log) sum = sum.log();
      else sum = sum.inverse();
      for (int64_t k = 0; k < g.len; ++k) {
        Eigen::Map<Array<O>> y(o + base + k * g.inner, n);
        if (log) y = ((column(k) - max) - sum).template cast<O>();
        else y = ((column(k) - max).unaryExpr(AccurateExp()) * sum).template cast<O>();
      }
    }
  });
}

void softmax_kernel(const TensorBase& out, const TensorBase& self, int64_t dim, bool log) {
  const Geometry g(self, dim);
  dispatch_floating_types(self.dtype(), log ? "log_softmax" : "softmax", [&]<typename T>() {
    auto run = [&]<typename O>() {
      if (g.inner > 1 && self.is_contiguous()) softmax_columns<T, O>(out, self, g, log);
      else softmax_rows<T, O>(out, self, g, log);
    };
    // half_to_float: a float16 input with a float32 result.
    if constexpr (std::is_same_v<T, Half>) {
      if (out.dtype() == kFloat32) return run.template operator()<float>();
    }
    run.template operator()<T>();
  });
}

}  // namespace

MT_REGISTER_STUB(softmax_stub, kCPU, softmax_kernel);

}  // namespace mt
