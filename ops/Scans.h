#pragma once
// The scans' per-device stubs and their steps, shared by the CPU and CUDA loops. Each stub walks the lines of
// a contiguous tensor along `dim`, seen as [outer, n, inner]. Floating scans accumulate in double (as
// PyTorch's CPU loops do), integer ones in uint64, which wraps as int64 arithmetic would.
#include <cstdint>
#include <type_traits>

#include "ops/BinaryMath.h"
#include "ops/infra/DispatchStub.h"
#include "tensor/TensorBase.h"

namespace mt {

enum class Scan { Sum, Prod, LogSumExp };

// out[..., j, ...] is the scan of self's line up to j; out has self's dtype and shape, both contiguous.
MT_DECLARE_STUB(scan_stub, void(const TensorBase& out, const TensorBase& self, int64_t dim, Scan));
// The running maximum (or minimum) and the position it was last found at: ties and NaN take the latest,
// and NaN, once seen, stays (PyTorch's rules).
MT_DECLARE_STUB(cum_extremum_stub,
                void(const TensorBase& values, const TensorBase& indices, const TensorBase& self, int64_t dim, bool max));

// The geometry of the lines along `dim` of a tensor of `sizes` (a 0-dim tensor is one line of one).
struct ScanLines {
  int64_t outer = 1, n = 1, inner = 1;
};
inline ScanLines scan_lines(IntArrayRef sizes, int64_t dim) {
  ScanLines l;
  if (sizes.empty()) return l;
  l.n = sizes[dim];
  for (int64_t d = 0; d < dim; ++d) l.outer *= sizes[d];
  for (size_t d = dim + 1; d < sizes.size(); ++d) l.inner *= sizes[d];
  return l;
}

template <typename T>
using scan_acc_t = std::conditional_t<std::is_integral_v<T>, uint64_t, double>;

template <typename A, typename T>
MT_HOST_DEVICE A to_scan_acc(T v) {
  if constexpr (std::is_integral_v<T>) return static_cast<A>(static_cast<int64_t>(v));
  else return static_cast<A>(static_cast<double>(v));
}
template <typename T, typename A>
MT_HOST_DEVICE T from_scan_acc(A a) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(a);  // modulo 2^bits
  else if constexpr (sizeof(T) == 2) return T(static_cast<float>(a));
  else return static_cast<T>(a);
}

template <Scan kOp, typename A>
MT_HOST_DEVICE A scan_identity() {
  if constexpr (kOp == Scan::Sum) return A(0);
  else if constexpr (kOp == Scan::Prod) return A(1);
  else return A(-INFINITY);
}
template <Scan kOp, typename A>
MT_HOST_DEVICE A scan_step(A acc, A x) {
  if constexpr (kOp == Scan::Sum) return acc + x;
  else if constexpr (kOp == Scan::Prod) return acc * x;
  else return log_add_exp(acc, x, false);
}

// Whether x replaces the running extremum `best`.
template <typename T>
MT_HOST_DEVICE bool replaces_extremum(T x, T best, bool max) {
  if (x != x) return true;
  if (best != best) return false;
  return max ? !(x < best) : !(best < x);
}

// Calls f.template operator()<kOp>() for the run-time scan.
template <typename F>
void with_scan_op(Scan op, F&& f) {
  switch (op) {
    case Scan::Sum: return f.template operator()<Scan::Sum>();
    case Scan::Prod: return f.template operator()<Scan::Prod>();
    case Scan::LogSumExp: return f.template operator()<Scan::LogSumExp>();
  }
}

}  // namespace mt
