// CUDA loops of mm, bmm, addmm and dot. The floating GEMMs are cuBLAS's, with float accumulation for
// the 16-bit types and without TF32 (float32 results must match the CPU's to float32 precision). int64,
// and the products that read neither a nor b (alpha == 0, or an inner size of 0), take a tiled kernel
// that reads every operand through its strides. dot is a two-pass reduction, so every dtype sums alike
// and the result lands in the device tensor without a pointer-mode switch on the shared handle.
#include <cublas_v2.h>
#include <dlfcn.h>

#include <array>
#include <mutex>
#include <string>
#include <type_traits>

#include "ops/Copy.h"
#include "ops/LinearAlgebra.h"
#include "ops/ScalarMath.h"
#include "ops/cuda/KernelUtils.cuh"

namespace mt {
namespace {

using cuda::convert;
using cuda::current_stream;
using cuda::kNumThreads;
using cuda::num_blocks;

// The cuBLAS functions the products call, loaded with cuBLAS on the first product on a GPU rather than
// with the library: mapping cuBLAS (and the cuBLASLt it loads) adds about 150 MB to the resident memory of
// every process, one that never touches a GPU too.
struct Cublas {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasSetMathMode) set_math_mode;
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasGetStatusString) status_string;
  decltype(&cublasGemmEx_64) gemm;
  decltype(&cublasGemmStridedBatchedEx_64) gemm_strided_batched;
};

const Cublas& cublas() {
  static const Cublas api = [] {
    // By its soname (the library's run path, then the system's), else from the toolkit it was built with.
    const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* lib = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) lib = dlopen((MT_CUDA_LIBRARY_DIR "/" + soname).c_str(), RTLD_NOW | RTLD_LOCAL);
    MT_CHECK(lib != nullptr, "CUDA matrix products need cuBLAS (", soname, "), which could not be loaded: ", dlerror());
    Cublas loaded{};
    const auto resolve = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      MT_CHECK(fn != nullptr, "cuBLAS (", soname, ") has no ", name);
    };
    resolve(loaded.create, "cublasCreate_v2");
    resolve(loaded.set_math_mode, "cublasSetMathMode");
    resolve(loaded.set_stream, "cublasSetStream_v2");
    resolve(loaded.status_string, "cublasGetStatusString");
    resolve(loaded.gemm, "cublasGemmEx_64");
    resolve(loaded.gemm_strided_batched, "cublasGemmStridedBatchedEx_64");
    return loaded;
  }();
  return api;
}

[[noreturn, gnu::cold, gnu::noinline]] void throw_cublas_error(cublasStatus_t status, const char* expr,
                                                               const char* file, int line) {
  detail::throw_error<RuntimeError>("cuBLAS error: ", expr, " failed: ", cublas().status_string(status), " at ", file,
                                    ":", line);
}

#define MT_CUBLAS_CHECK(expr)                                              \
  do {                                                                     \
    const cublasStatus_t mt_cublas_status_ = (expr);                       \
    if (__builtin_expect(mt_cublas_status_ != CUBLAS_STATUS_SUCCESS, 0)) { \
      throw_cublas_error(mt_cublas_status_, #expr, __FILE__, __LINE__);    \
    }                                                                      \
  } while (0)

// One handle per device, made on first use. Its settings never change after that (current_stream() is
// the device's one stream, and the pointer mode stays on host), so threads may share it. The handles are
// never destroyed: at exit the CUDA context may already be gone.
cublasHandle_t cublas_handle() {
  constexpr int kMaxDevices = 64;
  static std::array<cublasHandle_t, kMaxDevices> handles{};
  static std::array<std::once_flag, kMaxDevices> created;
  const int device = cuda::current_device();
  MT_CHECK(device < kMaxDevices, "cuBLAS handles: device ", device, " is beyond the ", kMaxDevices, " supported");
  std::call_once(created[device], [&] {
    cublasHandle_t h = nullptr;
    MT_CUBLAS_CHECK(cublas().create(&h));
    // Default math: float32 GEMMs stay in full float32 (no TF32); 16-bit GEMMs use the tensor cores.
    // Split-K partial sums of 16-bit GEMMs stay in float too, as on the CPU, where each result is
    // rounded once.
    MT_CUBLAS_CHECK(cublas().set_math_mode(
        h, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
    MT_CUBLAS_CHECK(cublas().set_stream(h, current_stream()));
    handles[device] = h;
  });
  return handles[device];
}

// --- GEMM ----------------------------------------------------------------------------------------------

// One matrix of a batch (rows x cols, element strides) and the distance between batch entries.
struct Matrix {
  char* data = nullptr;
  int64_t rows = 0, cols = 0, row_stride = 0, col_stride = 0, batch_stride = 0;

  Matrix t() const { return {data, cols, rows, col_stride, row_stride, batch_stride}; }
  // The leading dimension when the columns are contiguous and do not overlap, else 0. The stride of a
  // dim of size 1 does not matter.
  int64_t col_major_ld() const {
    if (row_stride != 1 && rows != 1) return 0;
    if (cols == 1) return std::max<int64_t>(rows, 1);
    return col_stride >= std::max<int64_t>(rows, 1) ? col_stride : 0;
  }
  int64_t row_major_ld() const { return t().col_major_ld(); }
  bool blas_readable() const { return col_major_ld() != 0 || row_major_ld() != 0; }
};

// The matrices of a 2-D tensor, or of each entry of a 3-D batch.
Matrix matrix_of(const TensorBase& t) {
  const int64_t d = t.dim() - 2;
  return {
      static_cast<char*>(t.data_ptr()), t.size(d), t.size(d + 1), t.stride(d), t.stride(d + 1), d ? t.stride(0) : 0};
}

// cuBLAS writes C column-major; a batch's matrices must not overlap.
bool blas_writable(const TensorBase& out) {
  Matrix c = matrix_of(out);
  if (c.col_major_ld() == 0) c = c.t();
  const int64_t ld = c.col_major_ld();
  if (ld == 0) return false;
  const int64_t batch = out.dim() == 3 ? out.size(0) : 1;
  return batch == 1 || c.batch_stride >= ld * (c.cols - 1) + c.rows;
}

template <typename T>
constexpr cudaDataType blas_type() {
  if constexpr (std::is_same_v<T, float>)
    return CUDA_R_32F;
  else if constexpr (std::is_same_v<T, double>)
    return CUDA_R_64F;
  else if constexpr (std::is_same_v<T, Half>)
    return CUDA_R_16F;
  else
    return CUDA_R_16BF;
}

// A GEMM operand as cuBLAS takes it: column-major with a leading dimension, transposed or not.
struct BlasOperand {
  const char* data;
  cublasOperation_t op;
  int64_t ld, batch_stride;
};

BlasOperand blas_operand(const Matrix& x) {
  if (const int64_t ld = x.col_major_ld()) return {x.data, CUBLAS_OP_N, ld, x.batch_stride};
  return {x.data, CUBLAS_OP_T, x.row_major_ld(), x.batch_stride};
}

// c = alpha * a b + beta * c for every matrix of the batch, c being BLAS-writable and a, b BLAS-readable.
// beta == 0 does not read c (NaN included).
template <typename T>
void blas_gemm(const TensorBase& c, const TensorBase& a, const TensorBase& b, opmath_t<T> alpha, opmath_t<T> beta) {
  Matrix cm = matrix_of(c), am = matrix_of(a), bm = matrix_of(b);
  if (cm.col_major_ld() == 0) {
    // A row-major result is the column-major transpose of b^T a^T.
    cm = cm.t();
    const Matrix at = am.t();
    am = bm.t();
    bm = at;
  }
  const BlasOperand x = blas_operand(am), y = blas_operand(bm);
  const int64_t batch = c.dim() == 3 ? c.size(0) : 1;
  constexpr cudaDataType type = blas_type<T>();
  constexpr cublasComputeType_t compute = std::is_same_v<T, double> ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  cublasHandle_t handle = cublas_handle();
  if (batch == 1) {
    MT_CUBLAS_CHECK(cublas().gemm(handle, x.op, y.op, cm.rows, cm.cols, am.cols, &alpha, x.data, type, x.ld, y.data, type,
                                  y.ld, &beta, cm.data, type, cm.col_major_ld(), compute, CUBLAS_GEMM_DEFAULT));
  } else {
    // A batch stride of 0 (an expanded operand) reads one matrix for every entry.
    MT_CUBLAS_CHECK(cublas().gemm_strided_batched(
        handle, x.op, y.op, cm.rows, cm.cols, am.cols, &alpha, x.data, type, x.ld, x.batch_stride, y.data, type, y.ld,
        y.batch_stride, &beta, cm.data, type, cm.col_major_ld(), cm.batch_stride, batch, compute, CUBLAS_GEMM_DEFAULT));
  }
}

// The sum type of the tiled kernel: the opmath type, and for integers the unsigned type they wrap in
// (ops/ScalarMath.h), so that overflow wraps as on the CPU instead of being undefined.
template <typename T>
using Acc = typename std::conditional_t<std::is_integral_v<T>, std::type_identity<wrap_t<T>>, OpMath<T>>::type;

template <typename T>
struct TiledOperand {
  T* data;
  int64_t batch_stride, row_stride, col_stride;

  __device__ T& at(int64_t batch, int64_t r, int64_t c) const {
    return data[batch * batch_stride + r * row_stride + c * col_stride];
  }
};

template <typename T>
TiledOperand<T> tiled_operand(const TensorBase& t) {
  const Matrix m = matrix_of(t);
  return {reinterpret_cast<T*>(m.data), m.batch_stride, m.row_stride, m.col_stride};
}

template <typename T>
struct TiledGemm {
  TiledOperand<T> out;
  TiledOperand<const T> self, a, b;
  int64_t batch, m, n, k;
  Acc<T> alpha, beta;
  bool use_self, multiply;
};

constexpr int kTile = 16;

// out = beta * self + alpha * (a @ b), one kTile x kTile block of out per thread block, the products
// summed from kTile-wide slices of a and b staged in shared memory. The loops over the grid are uniform
// within a block, so every thread reaches each __syncthreads.
template <typename T>
__global__ void tiled_gemm_kernel(TiledGemm<T> g) {
  using A = Acc<T>;
  __shared__ A a_tile[kTile][kTile];
  __shared__ A b_tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row_tiles = (g.m + kTile - 1) / kTile, col_tiles = (g.n + kTile - 1) / kTile;
  for (int64_t z = blockIdx.z; z < g.batch; z += gridDim.z) {
    for (int64_t tr = blockIdx.y; tr < row_tiles; tr += gridDim.y) {
      for (int64_t tc = blockIdx.x; tc < col_tiles; tc += gridDim.x) {
        const int64_t r = tr * kTile + ty, c = tc * kTile + tx;
        A sum = A(0);
        for (int64_t k0 = 0; g.multiply && k0 < g.k; k0 += kTile) {
          a_tile[ty][tx] = r < g.m && k0 + tx < g.k ? convert<A>(g.a.at(z, r, k0 + tx)) : A(0);
          b_tile[ty][tx] = k0 + ty < g.k && c < g.n ? convert<A>(g.b.at(z, k0 + ty, c)) : A(0);
          __syncthreads();
          for (int i = 0; i < kTile; ++i) sum += a_tile[ty][i] * b_tile[i][tx];
          __syncthreads();
        }
        if (r < g.m && c < g.n) {
          A v = g.use_self ? g.beta * convert<A>(g.self.at(z, r, c)) : A(0);
          if (g.multiply) v += g.alpha * sum;
          g.out.at(z, r, c) = convert<T>(v);
        }
      }
    }
  }
}

template <typename T>
void tiled_gemm(const TensorBase& out, const TensorBase& self, const TensorBase& a, const TensorBase& b, Acc<T> alpha, Acc<T> beta,
                bool use_self) {
  const int64_t d = out.dim() - 2;
  TiledGemm<T> g{tiled_operand<T>(out),
                 use_self ? tiled_operand<const T>(self) : TiledOperand<const T>{},
                 tiled_operand<const T>(a),
                 tiled_operand<const T>(b),
                 d ? out.size(0) : 1,
                 out.size(d),
                 out.size(d + 1),
                 a.size(d + 1),
                 alpha,
                 beta,
                 use_self,
                 alpha != Acc<T>(0) && a.size(d + 1) > 0};
  const auto capped = [](int64_t blocks, int64_t cap) { return static_cast<unsigned>(std::min(blocks, cap)); };
  const dim3 grid(capped((g.n + kTile - 1) / kTile, INT32_MAX), capped((g.m + kTile - 1) / kTile, 65535),
                  capped(g.batch, 65535));
  tiled_gemm_kernel<T><<<grid, dim3(kTile, kTile), 0, current_stream()>>>(g);
  MT_CUDA_KERNEL_LAUNCH_CHECK();
}

template <typename T>
void gemm_typed(const TensorBase& out, const TensorBase& self, const TensorBase& a, const TensorBase& b, const Scalar& beta_s,
                const Scalar& alpha_s) {
  if (out.numel() == 0) return;
  Acc<T> alpha, beta;
  if constexpr (std::is_integral_v<T>) {
    alpha = static_cast<Acc<T>>(alpha_s.to<T>());
    beta = static_cast<Acc<T>>(beta_s.to<T>());
  } else {
    alpha = alpha_s.to<opmath_t<T>>();
    beta = beta_s.to<opmath_t<T>>();
  }
  const bool use_self = self.defined() && beta != Acc<T>(0);
  const int64_t k = a.size(-1);
  if constexpr (std::is_integral_v<T>) {
    return tiled_gemm<T>(out, self, a, b, alpha, beta, use_self);
  } else {
    if (alpha == Acc<T>(0) || k == 0) return tiled_gemm<T>(out, self, a, b, alpha, beta, use_self);
    const TensorBase x = matrix_of(a).blas_readable() ? a : converted_copy(a, a.dtype());
    const TensorBase y = matrix_of(b).blas_readable() ? b : converted_copy(b, b.dtype());
    // An out cuBLAS cannot write (overlapping or scattered elements) takes a contiguous result, copied in.
    const bool direct = blas_writable(out);
    const TensorBase c = direct ? out : TensorBase(TensorImpl::empty(out.sizes(), out.dtype(), out.device()));
    // beta * self goes through c: self is c already when it is out itself, else it is copied in first
    // (an expanded bias broadcasts in the copy).
    const bool self_is_c = self.defined() && self.data_ptr() == c.data_ptr() && self.strides() == c.strides();
    if (use_self && !self_is_c) copy_into(c, self);
    blas_gemm<T>(c, x, y, alpha, use_self ? beta : Acc<T>(0));
    if (!direct) copy_into(out, c);
  }
}

void gemm_kernel_cuda(const TensorBase& out, const TensorBase& self, const TensorBase& a, const TensorBase& b, const Scalar& beta,
                      const Scalar& alpha) {
  // PyTorch's names for the CUDA loops of addmm/mm and of bmm.
  const char* name = out.dim() == 3 ? "bmm_cuda" : "addmm_cuda";
  dispatch_numeric_types(out.dtype(), name, [&]<typename T>() { gemm_typed<T>(out, self, a, b, beta, alpha); });
}

// --- dot -----------------------------------------------------------------------------------------------

// At most this many partial sums, added up by one block in the second pass.
constexpr unsigned kDotBlocks = 512;

// The sum of one value per thread of the block, in thread 0.
template <typename A>
__device__ A block_sum(A v) {
  __shared__ A partial[kNumThreads];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int s = kNumThreads / 2; s > 0; s /= 2) {
    if (static_cast<int>(threadIdx.x) < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  return partial[0];
}

template <typename T>
__global__ void dot_partial_kernel(int64_t n, const T* a, int64_t a_stride, const T* b, int64_t b_stride,
                                   Acc<T>* partial) {
  using A = Acc<T>;
  A sum = A(0);
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    sum += convert<A>(a[i * a_stride]) * convert<A>(b[i * b_stride]);
  sum = block_sum(sum);
  if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

template <typename T>
__global__ void dot_final_kernel(unsigned count, const Acc<T>* partial, T* out) {
  using A = Acc<T>;
  A sum = A(0);
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) sum += partial[i];
  sum = block_sum(sum);
  if (threadIdx.x == 0) *out = convert<T>(sum);
}

void dot_kernel_cuda(const TensorBase& out, const TensorBase& a, const TensorBase& b) {
  const int64_t n = a.numel();
  const unsigned blocks = std::min(num_blocks(n), kDotBlocks);
  // 8-byte slots hold any of the sum types (float, double, uint64).
  TensorBase partial(TensorImpl::empty({static_cast<int64_t>(blocks)}, kFloat64, out.device()));
  dispatch_numeric_types(a.dtype(), "dot", [&]<typename T>() {
    auto* sums = static_cast<Acc<T>*>(partial.data_ptr());
    dot_partial_kernel<T><<<blocks, kNumThreads, 0, current_stream()>>>(n, a.data_ptr<T>(), a.stride(0),
                                                                        b.data_ptr<T>(), b.stride(0), sums);
    MT_CUDA_KERNEL_LAUNCH_CHECK();
    dot_final_kernel<T><<<1, kNumThreads, 0, current_stream()>>>(blocks, sums, out.data_ptr<T>());
    MT_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

MT_REGISTER_STUB(gemm_stub, kCUDA, gemm_kernel_cuda);
MT_REGISTER_STUB(dot_stub, kCUDA, dot_kernel_cuda);

}  // namespace mt
