#pragma once
// CUDA device management, as PyTorch's c10/cuda: how many devices there are, which one is current,
// and a guard that switches the current device for a scope. The header includes no CUDA header, so
// code built without the toolkit's include path (tests, consumers) can use it; the definitions are
// only in CUDA builds (MT_WITH_CUDA).

namespace mt::cuda {

// 0 when there is no usable GPU (no device, no driver, a driver too old for the runtime); never throws.
int device_count();
bool is_available();
// Raises "CUDA is not available: <why>" (the reason the CUDA runtime gives) when device_count() == 0.
void check_cuda_available();

int current_device();
void set_device(int device);
// Waits until every kernel and copy queued on the current device has finished (torch.cuda.synchronize).
void synchronize();

// Makes `device` current for its scope and restores the previous device when it ends.
class CUDAGuard {
 public:
  explicit CUDAGuard(int device);
  ~CUDAGuard();
  CUDAGuard(const CUDAGuard&) = delete;
  CUDAGuard& operator=(const CUDAGuard&) = delete;

  int original_device() const { return original_; }
  int current_device() const { return current_; }

 private:
  int original_;
  int current_;
};

namespace detail {
// `error` is a cudaError_t.
[[noreturn, gnu::cold, gnu::noinline]] void throw_cuda_error(int error, const char* expr, const char* file, int line);
}  // namespace detail

}  // namespace mt::cuda

// Raises mt::Error naming the call and the CUDA runtime's message when `expr` (a CUDA runtime call
// returning cudaError_t) does not return cudaSuccess.
#define MT_CUDA_CHECK(expr)                                                                         \
  do {                                                                                              \
    const int mt_cuda_error_ = static_cast<int>(expr);                                              \
    if (__builtin_expect(mt_cuda_error_ != 0, 0)) {                                                 \
      ::mt::cuda::detail::throw_cuda_error(mt_cuda_error_, #expr, __FILE__, __LINE__);              \
    }                                                                                               \
  } while (0)
