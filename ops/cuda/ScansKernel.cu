// CUDA loops of the scans (ops/Scans.h): one thread per line, which walks it in order with the CPU loop's
// steps and accumulator types, so both devices give the same results. Neighbouring threads take neighbouring
// inner positions, so their reads coalesce when the scanned dim is not the last.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "ops/Scans.h"
#include "ops/cuda/KernelUtils.cuh"

namespace mt {
namespace {

using cuda::current_stream;
using cuda::kNumThreads;
using cuda::num_blocks;

template <Scan kOp, typename T>
__global__ void scan_lines_cuda(const T* in, T* out, ScanLines l) {
  using A = scan_acc_t<T>;
  const int64_t lines = l.outer * l.inner;
  for (int64_t line = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; line < lines;
       line += int64_t{gridDim.x} * blockDim.x) {
    const int64_t o = line / l.inner, i = line % l.inner;
    A acc = scan_identity<kOp, A>();
    for (int64_t j = 0; j < l.n; ++j) {
      const int64_t at = (o * l.n + j) * l.inner + i;
      acc = scan_step<kOp>(acc, to_scan_acc<A>(in[at]));
      out[at] = from_scan_acc<T>(acc);
    }
  }
}

void scan_kernel_cuda(const TensorBase& out, const TensorBase& self, int64_t dim, Scan op) {
  const ScanLines l = scan_lines(self.sizes(), dim);
  dispatch_numeric_types(self.dtype(), "scan", [&]<typename T>() {
    with_scan_op(op, [&]<Scan kOp>() {
      if constexpr (kOp == Scan::LogSumExp && std::is_integral_v<T>) {
        MT_CHECK_NOT_IMPLEMENTED(false, "\"logcumsumexp\" not implemented for '", self.dtype(), "'");
      } else {
        scan_lines_cuda<kOp, T><<<num_blocks(l.outer * l.inner), kNumThreads, 0, current_stream()>>>(
            self.data_ptr<const T>(), out.data_ptr<T>(), l);
        MT_CUDA_KERNEL_LAUNCH_CHECK();
      }
    });
  });
}

template <typename T>
__global__ void cum_extremum_lines_cuda(const T* in, T* values, int64_t* indices, ScanLines l, bool max) {
  const int64_t lines = l.outer * l.inner;
  for (int64_t line = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; line < lines;
       line += int64_t{gridDim.x} * blockDim.x) {
    const int64_t o = line / l.inner, i = line % l.inner;
    T best = in[o * l.n * l.inner + i];
    int64_t best_at = 0;
    for (int64_t j = 0; j < l.n; ++j) {
      const int64_t at = (o * l.n + j) * l.inner + i;
      if (replaces_extremum(in[at], best, max)) {
        best = in[at];
        best_at = j;
      }
      values[at] = best;
      indices[at] = best_at;
    }
  }
}

void cum_extremum_kernel_cuda(const TensorBase& values, const TensorBase& indices, const TensorBase& self, int64_t dim, bool max) {
  const ScanLines l = scan_lines(self.sizes(), dim);
  dispatch_all_types(self.dtype(), max ? "cummax" : "cummin", [&]<typename T>() {
    cum_extremum_lines_cuda<T><<<num_blocks(l.outer * l.inner), kNumThreads, 0, current_stream()>>>(
        self.data_ptr<const T>(), values.data_ptr<T>(), indices.data_ptr<int64_t>(), l, max);
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

MT_REGISTER_STUB(scan_stub, kCUDA, scan_kernel_cuda);
MT_REGISTER_STUB(cum_extremum_stub, kCUDA, cum_extremum_kernel_cuda);

}  // namespace mt
