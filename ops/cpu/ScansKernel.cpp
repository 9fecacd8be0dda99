// CPU loops of the scans (ops/Scans.h): lines run in parallel in blocks of `outer`; within one, the running
// values of the `inner` lines beside each other are kept in a row of accumulators, so the innermost loop runs
// over contiguous elements.
#include <algorithm>
#include <vector>

#include "ops/infra/Parallel.h"
#include "ops/Scans.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

// Blocks of about this many elements make one task of the parallel loop.
constexpr int64_t kElementsPerTask = 1 << 15;

int64_t outer_grain(const ScanLines& l) { return std::max<int64_t>(1, kElementsPerTask / (l.n * l.inner)); }

template <Scan kOp, typename T>
void scan_lines_cpu(const TensorBase& out, const TensorBase& self, int64_t dim) {
  using A = scan_acc_t<T>;
  const ScanLines l = scan_lines(self.sizes(), dim);
  const T* in = self.data_ptr<const T>();
  T* result = out.data_ptr<T>();
  parallel_for(0, l.outer, outer_grain(l), [&](int64_t begin, int64_t end) {
    if (l.inner == 1) {  // one line at a time, its running value in a register
      for (int64_t o = begin; o < end; ++o) {
        A acc = scan_identity<kOp, A>();
        const T* line = in + o * l.n;
        T* line_out = result + o * l.n;
        for (int64_t j = 0; j < l.n; ++j) {
          acc = scan_step<kOp>(acc, to_scan_acc<A>(line[j]));
          line_out[j] = from_scan_acc<T>(acc);
        }
      }
      return;
    }
    std::vector<A> acc(l.inner);
    for (int64_t o = begin; o < end; ++o) {
      std::fill(acc.begin(), acc.end(), scan_identity<kOp, A>());
      for (int64_t j = 0; j < l.n; ++j) {
        const int64_t base = (o * l.n + j) * l.inner;
        for (int64_t i = 0; i < l.inner; ++i) {
          acc[i] = scan_step<kOp>(acc[i], to_scan_acc<A>(in[base + i]));
          result[base + i] = from_scan_acc<T>(acc[i]);
        }
      }
    }
  });
}

void scan_kernel_cpu(const TensorBase& out, const TensorBase& self, int64_t dim, Scan op) {
  dispatch_numeric_types(self.dtype(), "scan", [&]<typename T>() {
    with_scan_op(op, [&]<Scan kOp>() {
      if constexpr (kOp == Scan::LogSumExp && std::is_integral_v<T>) {
        MT_CHECK_NOT_IMPLEMENTED(false, "\"logcumsumexp\" not implemented for '", self.dtype(), "'");
      } else {
        scan_lines_cpu<kOp, T>(out, self, dim);
      }
    });
  });
}

template <typename T>
void cum_extremum_lines_cpu(const TensorBase& values, const TensorBase& indices, const TensorBase& self, int64_t dim, bool max) {
  const ScanLines l = scan_lines(self.sizes(), dim);
  const T* in = self.data_ptr<const T>();
  T* best_out = values.data_ptr<T>();
  int64_t* at_out = indices.data_ptr<int64_t>();
  parallel_for(0, l.outer, outer_grain(l), [&](int64_t begin, int64_t end) {
    std::vector<T> best(l.inner);
    std::vector<int64_t> at(l.inner);
    for (int64_t o = begin; o < end; ++o) {
      for (int64_t j = 0; j < l.n; ++j) {
        const int64_t base = (o * l.n + j) * l.inner;
        for (int64_t i = 0; i < l.inner; ++i) {
          if (j == 0 || replaces_extremum<T>(in[base + i], best[i], max)) {
            best[i] = in[base + i];
            at[i] = j;
          }
          best_out[base + i] = best[i];
          at_out[base + i] = at[i];
        }
      }
    }
  });
}

void cum_extremum_kernel_cpu(const TensorBase& values, const TensorBase& indices, const TensorBase& self, int64_t dim, bool max) {
  dispatch_all_types(self.dtype(), max ? "cummax" : "cummin",
                     [&]<typename T>() { cum_extremum_lines_cpu<T>(values, indices, self, dim, max); });
}

}  // namespace

MT_REGISTER_STUB(scan_stub, kCPU, scan_kernel_cpu);
MT_REGISTER_STUB(cum_extremum_stub, kCPU, cum_extremum_kernel_cpu);

}  // namespace mt
