// CPU loops of mm, bmm, addmm and dot. GEMM is Eigen's, split into blocks over the cores by parallel_for,
// except for float32 and float64 products on the engine chosen for their dtype (ops/Config.h): oneDNN
// or OpenBLAS, whose kernels are faster than Eigen's (about 1.6x here). Each block is then one
// single-threaded call, but for large OpenBLAS products, which run on OpenBLAS's own threads while the
// cores are free (see kBlasThreadsWork).
#include <algorithm>
#include <bit>
#include <atomic>
#include <chrono>
#include <climits>
#include <mutex>
#include <thread>
#include <type_traits>

#include <Eigen/Core>
#ifdef MT_WITH_BLAS
#include <cblas.h>
#endif
#ifdef MT_WITH_DNNL
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>
#endif

#include "ops/Config.h"
#include "ops/LinearAlgebra.h"
#include "ops/infra/Parallel.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

constexpr auto Dyn = Eigen::Dynamic;

// Integer products and sums are computed unsigned, where overflow wraps around as PyTorch's results do
// instead of being undefined; two's complement makes the bits the same.
template <typename T>
using compute_t = typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>, std::type_identity<T>>::type;
// The type a product of two elements is taken in: float for the 16-bit floats, as PyTorch's opmath, and
// uint32 for uint16, which C++ would otherwise promote to (signed) int, where 65535 * 65535 overflows.
template <typename C>
using product_t = std::conditional_t<std::is_same_v<C, uint16_t>, uint32_t, opmath_t<C>>;
template <typename T>
using Matrix = Eigen::Matrix<T, Dyn, Dyn>;  // column-major
// A matrix whose rows (RowMajor) or columns (ColMajor) are contiguous, `ld` elements apart: what GEMM reads.
template <typename T, int Order>
using LdMap = Eigen::Map<const Eigen::Matrix<T, Dyn, Dyn, Order>, Eigen::Unaligned, Eigen::OuterStride<>>;
template <typename T>
using OutMap = Eigen::Map<Matrix<T>, Eigen::Unaligned, Eigen::OuterStride<>>;
// Any strides (a broadcast bias, a sliced input): read element by element.
template <typename T>
using AnyMap = Eigen::Map<const Matrix<T>, Eigen::Unaligned, Eigen::Stride<Dyn, Dyn>>;

// One matrix of a batch: its first element, sizes and element strides.
template <typename T>
struct Strided {
  T* data = nullptr;
  int64_t rows = 0, cols = 0, row_stride = 0, col_stride = 0;

  Strided t() const { return {data, cols, rows, col_stride, row_stride}; }
  Strided row_block(int64_t begin, int64_t n) const {
    return {data + begin * row_stride, n, cols, row_stride, col_stride};
  }
  Strided col_block(int64_t begin, int64_t n) const {
    return {data + begin * col_stride, rows, n, row_stride, col_stride};
  }
  // The leading dimension when the columns are contiguous and do not overlap, else 0. The stride of a
  // dim of size 1 does not matter.
  int64_t col_major_ld() const {
    if (row_stride != 1 && rows != 1) return 0;
    if (cols == 1) return std::max<int64_t>(rows, 1);
    return col_stride >= std::max<int64_t>(rows, 1) ? col_stride : 0;
  }
  int64_t row_major_ld() const { return t().col_major_ld(); }
  AnyMap<std::remove_const_t<T>> any_map() const {
    return {data, rows, cols, Eigen::Stride<Dyn, Dyn>(col_stride, row_stride)};
  }
};

// Calls f with an Eigen map of x that GEMM can read directly (either storage order), after packing x
// into a column-major copy when neither order fits.
template <typename T, typename F>
void with_operand(const Strided<const T>& x, F&& f) {
  if (const int64_t ld = x.col_major_ld()) {
    f(LdMap<T, Eigen::ColMajor>(x.data, x.rows, x.cols, Eigen::OuterStride<>(ld)));
  } else if (const int64_t ld = x.row_major_ld()) {
    f(LdMap<T, Eigen::RowMajor>(x.data, x.rows, x.cols, Eigen::OuterStride<>(ld)));
  } else {
    const Matrix<T> packed = x.any_map();
    f(LdMap<T, Eigen::ColMajor>(packed.data(), x.rows, x.cols, Eigen::OuterStride<>(std::max<int64_t>(x.rows, 1))));
  }
}

// c += alpha * a b, reading a and b in place when their layout allows. alpha == 0 reads neither (NaN
// included), as BLAS.
template <typename M>
void add_product(OutMap<M> c, const Strided<const M>& a, const Strided<const M>& b, M alpha) {
  if (a.cols == 0 || alpha == M(0)) return;
  with_operand(a, [&](const auto& am) { with_operand(b, [&](const auto& bm) { c.noalias() += alpha * am * bm; }); });
}

template <typename M>
Strided<const M> dense(const Matrix<M>& m) {
  return {m.data(), m.rows(), m.cols(), 1, m.rows()};
}

// An M copy of a 16-bit operand, column-major. Columns that are contiguous in memory are widened by a
// loop the compiler vectorises (a bfloat16 is the top half of a float); Eigen's element-wise cast does
// one element at a time and was most of a small bf16 product's time.
template <typename M, typename T>
Matrix<M> widened(const Strided<const T>& x) {
  if (x.row_stride != 1 && x.rows > 1) return x.any_map().template cast<M>();
  Matrix<M> out(x.rows, x.cols);
  for (int64_t j = 0; j < x.cols; ++j) {
    const T* __restrict src = x.data + j * x.col_stride;
    M* __restrict dst = out.data() + j * x.rows;
    if constexpr (std::is_same_v<T, BFloat16>) {
      const auto* bits = reinterpret_cast<const uint16_t*>(src);
      for (int64_t i = 0; i < x.rows; ++i) dst[i] = std::bit_cast<float>(static_cast<uint32_t>(bits[i]) << 16);
    } else {
      for (int64_t i = 0; i < x.rows; ++i) dst[i] = static_cast<M>(src[i]);
    }
  }
  return out;
}

// Whether T's products run on oneDNN or OpenBLAS (the engine chosen for T), not on Eigen.
template <typename T>
bool on_engine(GemmEngine engine) {
  if constexpr (std::is_same_v<T, float>) return gemm_engine(kFloat32) == engine;
  else if constexpr (std::is_same_v<T, double>) return gemm_engine(kFloat64) == engine;
  else return false;
}

#if defined(MT_WITH_BLAS) || defined(MT_WITH_DNNL)
// A GEMM operand as BLAS takes it: column-major with a leading dimension, possibly transposed; packed
// into a column-major copy when neither order fits.
template <typename T>
struct GemmOperand {
  explicit GemmOperand(const Strided<const T>& x) {
    if ((ld = x.col_major_ld())) {
      data = x.data;
    } else if ((ld = x.row_major_ld())) {
      data = x.data;
      trans = true;
    } else {
      packed = x.any_map();
      data = packed.data();
      ld = std::max<int64_t>(x.rows, 1);
    }
  }
  // Copies the operand so that its stored lines (columns, or rows where transposed) are `new_ld` apart.
  void restride(int64_t lines, int64_t length, int64_t new_ld) {
    Matrix<T> copy(new_ld, lines);
    for (int64_t j = 0; j < lines; ++j) std::copy_n(data + j * ld, length, copy.data() + j * new_ld);
    packed = std::move(copy);
    data = packed.data();
    ld = new_ld;
  }
  const T* data = nullptr;
  int64_t ld = 0;
  bool trans = false;
  Matrix<T> packed;
};
#endif

#ifdef MT_WITH_DNNL
// oneDNN runs a product on an OpenMP team as large as its calling thread's omp_get_max_threads(). Products
// are split over the pool's threads already, and an OpenMP team would spin beside them: each call runs on
// its caller's thread alone, and the caller's own setting (for a user's OpenMP code) is put back after.
class OneOpenMPThread {
 public:
  OneOpenMPThread() : saved_(omp_get_max_threads()) {
    if (saved_ != 1) omp_set_num_threads(1);
  }
  ~OneOpenMPThread() {
    if (saved_ != 1) omp_set_num_threads(saved_);
  }
  OneOpenMPThread(const OneOpenMPThread&) = delete;
  OneOpenMPThread& operator=(const OneOpenMPThread&) = delete;

 private:
  int saved_;
};

// c (column-major, ld elements apart) = alpha * a b + beta * c on oneDNN; beta == 0 does not read c.
// oneDNN's sgemm is row-major, where the column-major c is c^T = b^T a^T with the same operands.
void dnnl_gemm(float* c, int64_t ld, const Strided<const float>& a, const Strided<const float>& b, float alpha,
               float beta) {
  GemmOperand<float> x(a);
  const GemmOperand<float> y(b);
  // In oneDNN's terms the product is m x k by k x n with m = b.cols, n = a.rows, and x its second operand.
  // Products it deems small (1/m + 1/n >= 0.0038: up to about 512 x 512) its AVX2 kernels multiply
  // without packing, reading x's lines straight from memory; where those are a multiple of 256 floats
  // (1 KiB) apart they fall into the same cache sets, and 64x512 to 512x512 products ran 1.3-1.9x slower
  // on a Zen 3 than with a copy of x whose lines are 16 floats further apart (the copy counted). Its
  // AVX-512 kernels copy such operands themselves.
  const double m = static_cast<double>(b.cols), n = static_cast<double>(a.rows);
  if (x.ld % 256 == 0 && m >= 32 && n > 16 && 1 / m + 1 / n >= 0.0038 && gemm_kernel_level(kFloat32) < 4) {
    const int64_t lines = x.trans ? a.rows : a.cols, length = x.trans ? a.cols : a.rows;
    const int64_t padded = (length + 15) / 16 * 16;
    x.restride(lines, length, padded % 256 == 0 ? padded + 16 : padded);
  }
  const OneOpenMPThread one_thread;
  const dnnl_status_t status = dnnl_sgemm(y.trans ? 'T' : 'N', x.trans ? 'T' : 'N', b.cols, a.rows, a.cols, alpha,
                                          y.data, y.ld, x.data, x.ld, beta, c, ld);
  MT_CHECK(status == dnnl_success, "oneDNN's sgemm failed (status ", static_cast<int>(status), ") on a ", a.rows,
           "x", a.cols, " by ", b.rows, "x", b.cols, " product");
}
#endif

#ifdef MT_WITH_BLAS
// How many threads OpenBLAS runs a product on. Most products are split across our pool and run on one
// OpenBLAS thread each: OpenBLAS's own threads spin long after a call (about 0.1 s), competing with our
// workers, which made small products many times slower. Large ones use its threads (see kBlasThreadsWork).
// The count is OpenBLAS's global, changed only when it differs (a rare, cold call); products on other
// threads at the same time may run on the other count, which changes their speed only.
void set_blas_threads(int n) {
  static std::atomic<int> current{0};
  static std::mutex changing;
  if (current.load(std::memory_order_acquire) == n) return;
  const std::lock_guard<std::mutex> lock(changing);
  if (current.load(std::memory_order_relaxed) == n) return;
  openblas_set_num_threads(n);
  current.store(n, std::memory_order_release);
}

// OpenBLAS's workers spin, yielding, for about 0.1 s after a call that used them. (They also spin for as
// long after they start, as the library loads: not declared, because a busy process that the count would
// then hide made the pool wake workers for it in the first 0.2 s; the pool stays on one thread instead.)
constexpr auto kBlasSpin = std::chrono::milliseconds(200);

// The threads a large product can run on: OpenBLAS's threads, unlike our pool, slow down many times when
// another process holds a core, so the kernel's count of runnable threads decides.
int blas_threads_free(int threads) {
  const int others = runnable_elsewhere();
  if (others < 0) return threads;
  const int free = std::clamp(available_cpus() - others, 1, threads);
  if (free > 1) expect_spinning_threads(free - 1, kBlasSpin);
  return free;
}

// CBLAS takes sizes and strides as int.
template <typename T>
bool fits_blas(const Strided<T>& x) {
  return std::max({x.rows, x.cols, x.row_stride, x.col_stride}) <= INT_MAX;
}

// y = alpha * op(m) v + beta * y, for a matrix operand stored `stored_rows` x `stored_cols`; the output is
// zeroed first when beta == 0, so that nothing it held (NaN included) is read.
template <typename T>
void blas_gemv(CBLAS_TRANSPOSE trans, int64_t stored_rows, int64_t stored_cols, const GemmOperand<T>& m, const T* v,
               int64_t v_inc, T* y, int64_t y_inc, int64_t y_len, T alpha, T beta) {
  const auto i = [](int64_t n) { return static_cast<int>(n); };
  if (beta == T(0))
    for (int64_t k = 0; k < y_len; ++k) y[k * y_inc] = T(0);
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemv(CblasColMajor, trans, i(stored_rows), i(stored_cols), alpha, m.data, i(m.ld), v, i(v_inc), beta, y,
                i(y_inc));
  } else {
    cblas_dgemv(CblasColMajor, trans, i(stored_rows), i(stored_cols), alpha, m.data, i(m.ld), v, i(v_inc), beta, y,
                i(y_inc));
  }
}

CBLAS_TRANSPOSE cblas_trans(bool trans) { return trans ? CblasTrans : CblasNoTrans; }

// c (column-major, ld elements apart) = alpha * a b + beta * c; beta == 0 does not read c. A product with
// one row or one column is a matrix-vector product: GEMV reads the matrix in place, where GEMM would
// first pack it (most of the time of a batch-1 linear layer).
template <typename T>
void blas_gemm(T* c, int64_t ld, const Strided<const T>& a, const Strided<const T>& b, T alpha, T beta,
               int threads) {
  set_blas_threads(threads);
  const GemmOperand<T> x(a), y(b);
  const auto i = [](int64_t v) { return static_cast<int>(v); };
  if (b.cols == 1 && b.row_stride > 0) {  // c = a b: a column
    return blas_gemv(cblas_trans(x.trans), x.trans ? a.cols : a.rows, x.trans ? a.rows : a.cols, x, b.data,
                     b.row_stride, c, 1, a.rows, alpha, beta);
  }
  if (a.rows == 1 && a.col_stride > 0) {  // c^T = b^T a^T: a row, ld apart in c
    return blas_gemv(cblas_trans(!y.trans), y.trans ? b.cols : b.rows, y.trans ? b.rows : b.cols, y, a.data,
                     a.col_stride, c, ld, b.cols, alpha, beta);
  }
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasColMajor, cblas_trans(x.trans), cblas_trans(y.trans), i(a.rows), i(b.cols), i(a.cols), alpha,
                x.data, i(x.ld), y.data, i(y.ld), beta, c, i(ld));
  } else {
    cblas_dgemm(CblasColMajor, cblas_trans(x.trans), cblas_trans(y.trans), i(a.rows), i(b.cols), i(a.cols), alpha,
                x.data, i(x.ld), y.data, i(y.ld), beta, c, i(ld));
  }
}
#endif

// out = beta * self + alpha * (a @ b) for one matrix (or a block of rows or columns of one). M is the
// type the products are summed in (product_t).
template <typename T>
struct Gemm {
  using M = product_t<T>;
  Strided<T> out;
  Strided<const T> self, a, b;
  bool use_self = false;
  M beta{}, alpha{};
  int blas_threads = 1;  // OpenBLAS's own threads for this one product

  Gemm transposed() const { return {out.t(), self.t(), b.t(), a.t(), use_self, beta, alpha, blas_threads}; }
  Gemm row_block(int64_t begin, int64_t n) const {
    return {out.row_block(begin, n), self.row_block(begin, n), a.row_block(begin, n), b, use_self, beta, alpha};
  }
  Gemm col_block(int64_t begin, int64_t n) const {
    return {out.col_block(begin, n), self.col_block(begin, n), a, b.col_block(begin, n), use_self, beta, alpha};
  }

  // out = self, along out's longer side inside (a batch-1 layer's output is one row of a few hundred
  // columns). Eigen's assignment from a map with two run-time strides went column by column: 128 loops
  // of one element for a batch-1 linear layer's broadcast bias.
  void copy_self(int64_t ld) const {
    const bool along_rows = out.cols > out.rows;
    const int64_t lines = along_rows ? out.rows : out.cols, length = along_rows ? out.cols : out.rows;
    const int64_t out_line = along_rows ? 1 : ld, out_step = along_rows ? ld : 1;
    const int64_t self_line = along_rows ? self.row_stride : self.col_stride;
    const int64_t self_step = along_rows ? self.col_stride : self.row_stride;
    for (int64_t l = 0; l < lines; ++l) {
      T* to = out.data + l * out_line;
      const T* from = self.data + l * self_line;
      if (out_step == 1 && self_step == 1) std::copy_n(from, length, to);
      else
        for (int64_t i = 0; i < length; ++i) to[i * out_step] = from[i * self_step];
    }
  }

  void run() const {
    if (out.rows == 0 || out.cols == 0) return;
    const int64_t ld = out.col_major_ld();
    if (ld == 0) {
      // GEMM writes column-major: a row-major result is the column-major transpose of b^T a^T.
      if (out.row_major_ld() != 0) return transposed().run();
      Matrix<T> result(out.rows, out.cols);
      Gemm inner = *this;
      inner.out = {result.data(), out.rows, out.cols, 1, out.rows};
      inner.run();
      for (int64_t j = 0; j < out.cols; ++j)
        for (int64_t i = 0; i < out.rows; ++i) out.data[i * out.row_stride + j * out.col_stride] = result(i, j);
      return;
    }
    OutMap<T> c(out.data, out.rows, out.cols, Eigen::OuterStride<>(ld));
    if constexpr (std::is_same_v<T, M>) {
      // An outer product (k = 1, e.g. a per-sample weight gradient) is written in one pass; GEMM would
      // first clear c and then add the product to it.
      if (a.cols == 1 && !use_self) {
        for (int64_t j = 0; j < out.cols; ++j) {
          const M s = alpha * b.data[j * b.col_stride];
          T* column = out.data + j * ld;
          for (int64_t i = 0; i < out.rows; ++i) column[i] = s * a.data[i * a.row_stride];
        }
        return;
      }
      const bool in_place = self.data == out.data && self.row_stride == out.row_stride &&
                            self.col_stride == out.col_stride;
      if (a.cols > 0 && alpha != M(0)) {
#ifdef MT_WITH_DNNL
        if constexpr (std::is_same_v<T, float>) {
          if (on_engine<T>(GemmEngine::kOneDNN)) {
            if (use_self && !in_place) copy_self(ld);
            return dnnl_gemm(out.data, ld, a, b, alpha, use_self ? beta : M(0));
          }
        }
#endif
#ifdef MT_WITH_BLAS
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          if (on_engine<T>(GemmEngine::kOpenBLAS) && fits_blas(out) && fits_blas(a) && fits_blas(b)) {
            if (use_self && !in_place) copy_self(ld);
            return blas_gemm(out.data, ld, a, b, alpha, use_self ? beta : M(0), blas_threads);
          }
        }
#endif
      }
      if (!use_self) c.setZero();  // what Eigen's `c = a * b` does first anyway
      else if (!in_place) c = beta * self.any_map();
      else if (beta != M(1)) c *= beta;
      add_product<M>(c, a, b, alpha);
    } else {
      // 16-bit types: multiply copies in M, round once.
      Matrix<M> result = use_self ? Matrix<M>(beta * self.any_map().template cast<M>())
                                  : Matrix<M>(Matrix<M>::Zero(out.rows, out.cols));
      const Matrix<M> a_m = widened<M>(a), b_m = widened<M>(b);
      add_product<M>(OutMap<M>(result.data(), out.rows, out.cols, Eigen::OuterStride<>(out.rows)), dense(a_m),
                     dense(b_m), alpha);
      c = result.template cast<T>();
    }
  }
};

// Below this many multiply-adds (about a 100^3 product) a product stays on one thread: handing half of it
// to a worker costs more than it saves.
constexpr int64_t kGemmParallelWork = 1 << 20;
// From this many (about 150 us on one core) a product is worth waking a sleeping worker for; smaller
// ones use only a worker that is awake.
constexpr int64_t kGemmWakeWork = 1 << 22;
// Blocks of a split product have at least this many multiply-adds, beyond one per thread.
constexpr int64_t kGemmBlockWork = 1 << 24;
// From this many (a 320^3 product, about 0.4 ms on one core) a float or double product runs on
// OpenBLAS's threads instead of blocks on ours: they share one packed copy of each operand, where every
// block packs its own, and scaled 2x on two cores where our blocks scaled 1.5x. Below it, their spinning
// after the call costs more than the sharing saves.
constexpr int64_t kBlasThreadsWork = 1 << 25;

template <typename T, typename C = compute_t<T>>
const C* compute_data(const TensorBase& t) {
  return reinterpret_cast<const C*>(t.data_ptr<T>());
}

template <typename T>
void gemm_typed(const TensorBase& out, const TensorBase& self, const TensorBase& a, const TensorBase& b, const Scalar& beta,
                const Scalar& alpha) {
  using C = compute_t<T>;
  using M = product_t<C>;
  const int64_t d = out.dim() - 2;  // 1 for a batch
  const int64_t batch = d ? out.size(0) : 1;
  const int64_t m = out.size(d), n = out.size(d + 1), k = a.size(d + 1);
  auto matrix = [d](const TensorBase& t, auto* data) {
    return Strided<std::remove_pointer_t<decltype(data)>>{data, t.size(d), t.size(d + 1), t.stride(d), t.stride(d + 1)};
  };
  auto batch_stride = [d](const TensorBase& t) { return d ? t.stride(0) : 0; };

  Gemm<C> first{matrix(out, const_cast<C*>(compute_data<T>(out))), {}, matrix(a, compute_data<T>(a)),
                matrix(b, compute_data<T>(b)), false, static_cast<M>(beta.to<opmath_t<T>>()),
                static_cast<M>(alpha.to<opmath_t<T>>())};
  if (self.defined() && first.beta != M(0)) {
    first.self = matrix(self, compute_data<T>(self));
    first.use_self = true;
  }
  if (out.numel() == 0) return;

  // Tasks: each matrix of the batch, cut into `splits` blocks along its longer side unless the batch
  // alone divides evenly among the threads.
  const int64_t work = batch * m * n * std::max<int64_t>(k, 1);
  const bool wake = work >= kGemmWakeWork;
  const int threads = work < kGemmParallelWork ? 1 : parallel_threads(wake);
  const bool serial = threads == 1;
#ifdef MT_WITH_BLAS
  if (on_engine<C>(GemmEngine::kOpenBLAS) && batch == 1 && !serial && work >= kBlasThreadsWork) {
    first.blas_threads = blas_threads_free(threads);
    if (first.blas_threads > 1) return first.run();
  }
#endif
  // Where other threads compete for the cores, large products get up to kChunksPerThread blocks per
  // thread, so that a worker that loses its core in the middle of one holds the caller up for that block
  // only; each block stays large enough for the GEMM to run at full speed. On free cores, one block per
  // thread: every block packs its own copy of the operand the blocks share (8 blocks of a 512^3 float
  // product ran 1.6x faster than one thread, 2 blocks 1.9x).
  const int64_t splits = serial || batch % threads == 0 ? 1
                         : work < 2 * kGemmBlockWork || runnable_elsewhere() == 0
                             ? threads
                             : std::clamp<int64_t>(work / kGemmBlockWork, threads, int64_t{threads} * kChunksPerThread);
  const bool by_cols = n >= m;
  const int64_t extent = by_cols ? n : m;
  const int64_t block = (((extent + splits - 1) / splits) + 7) / 8 * 8;
  const int64_t tasks = batch * splits;
  parallel_for(0, tasks, serial ? tasks : 1, wake, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t i = task / splits, part = task % splits;
      Gemm<C> g = first;
      g.out.data += i * batch_stride(out);
      g.a.data += i * batch_stride(a);
      g.b.data += i * batch_stride(b);
      if (g.use_self) g.self.data += i * batch_stride(self);
      const int64_t lo = std::min(extent, part * block), len = std::min(extent, lo + block) - lo;
      if (len == 0) continue;
      if (splits == 1) g.run();
      else if (by_cols) g.col_block(lo, len).run();
      else g.row_block(lo, len).run();
    }
  });
}

void gemm_kernel(const TensorBase& out, const TensorBase& self, const TensorBase& a, const TensorBase& b, const Scalar& beta,
                 const Scalar& alpha) {
  // PyTorch's names for the CPU loops of addmm/mm and of bmm.
  const char* name = out.dim() == 3 ? "bmm" : "addmm_impl_cpu_";
  dispatch_numeric_types(out.dtype(), name, [&]<typename T>() { gemm_typed<T>(out, self, a, b, beta, alpha); });
}

// Calls f with an Eigen vector map of t's elements: a plain one when they are contiguous.
template <typename T, typename F>
void with_vector(const TensorBase& t, F&& f) {
  using C = compute_t<T>;
  using Vector = Eigen::Matrix<C, Dyn, 1>;
  using StridedVector = Eigen::Map<const Vector, Eigen::Unaligned, Eigen::InnerStride<>>;
  const C* data = compute_data<T>(t);
  if (t.stride(0) == 1) f(Eigen::Map<const Vector>(data, t.numel()));
  else f(StridedVector(data, t.numel(), Eigen::InnerStride<>(t.stride(0))));
}

void dot_kernel(const TensorBase& out, const TensorBase& a, const TensorBase& b) {
  dispatch_numeric_types(a.dtype(), "dot", [&]<typename T>() {
    using M = product_t<compute_t<T>>;
    M sum{};
    with_vector<T>(a, [&](const auto& x) {
      with_vector<T>(b, [&](const auto& y) {
        if constexpr (std::is_same_v<compute_t<T>, M>) sum = x.dot(y);
        else sum = x.template cast<M>().dot(y.template cast<M>());
      });
    });
    *out.data_ptr<T>() = static_cast<T>(sum);
  });
}

}  // namespace

MT_REGISTER_STUB(gemm_stub, kCPU, gemm_kernel);
MT_REGISTER_STUB(dot_stub, kCPU, dot_kernel);

}  // namespace mt
