// copy_ for the CUDA key, which every copy that touches a GPU reaches (the CUDA key outranks the
// CPU key): on one device it is the copy loop; between devices the data is first made contiguous in
// the destination's dtype and shape on the side where that is cheapest, then moved as one block.
// Large host <-> device blocks go through pinned staging buffers in chunks, so that copying into
// pinned memory and the DMA transfer overlap (PyTorch leaves this to the driver's own staging).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "dispatch/Library.h"
#include "ops/Copy.h"
#include "ops/infra/TensorIterator.h"
#include "ops/Views.h"
#include "tensor/cuda/CUDAContext.h"

namespace mt {
namespace {

constexpr size_t kStagingChunk = size_t{4} << 20;
// Below this a plain cudaMemcpy (staged by the driver) is as fast and takes no lock.
constexpr size_t kStagedCopyMin = size_t{1} << 20;

// Two pinned buffers used in turn: while the DMA engine moves one, the host fills or drains the other.
class PinnedStaging {
 public:
  static PinnedStaging& get() {
    static auto* staging = new PinnedStaging();  // never freed: the CUDA runtime may be gone at exit
    return *staging;
  }

  void host_to_device(void* dst, const void* src, size_t nbytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    ensure_buffers();
    for (size_t off = 0, i = 0; off < nbytes; off += kStagingChunk, ++i) {
      const size_t len = std::min(kStagingChunk, nbytes - off);
      Buffer& b = buffers_[i % 2];
      MT_CUDA_CHECK(cudaEventSynchronize(b.done));  // its previous transfer has left the buffer
      std::memcpy(b.data, static_cast<const char*>(src) + off, len);
      MT_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(dst) + off, b.data, len, cudaMemcpyHostToDevice, nullptr));
      MT_CUDA_CHECK(cudaEventRecord(b.done, nullptr));
    }
    MT_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  void device_to_host(void* dst, const void* src, size_t nbytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    ensure_buffers();
    const size_t chunks = (nbytes + kStagingChunk - 1) / kStagingChunk;
    auto start = [&](size_t i) {
      const size_t off = i * kStagingChunk;
      Buffer& b = buffers_[i % 2];
      MT_CUDA_CHECK(cudaMemcpyAsync(b.data, static_cast<const char*>(src) + off, std::min(kStagingChunk, nbytes - off),
                                    cudaMemcpyDeviceToHost, nullptr));
      MT_CUDA_CHECK(cudaEventRecord(b.done, nullptr));
    };
    start(0);
    for (size_t i = 0; i < chunks; ++i) {
      if (i + 1 < chunks) start(i + 1);
      Buffer& b = buffers_[i % 2];
      MT_CUDA_CHECK(cudaEventSynchronize(b.done));
      const size_t off = i * kStagingChunk;
      std::memcpy(static_cast<char*>(dst) + off, b.data, std::min(kStagingChunk, nbytes - off));
    }
  }

 private:
  struct Buffer {
    void* data = nullptr;
    cudaEvent_t done = nullptr;
  };

  void ensure_buffers() {
    if (buffers_[0].data) return;
    for (Buffer& b : buffers_) {
      MT_CUDA_CHECK(cudaHostAlloc(&b.data, kStagingChunk, cudaHostAllocPortable));
      MT_CUDA_CHECK(cudaEventCreateWithFlags(&b.done, cudaEventDisableTiming));
    }
  }

  std::mutex mutex_;
  Buffer buffers_[2];
};

void host_to_device(void* dst, const void* src, size_t nbytes) {
  if (nbytes >= kStagedCopyMin) return PinnedStaging::get().host_to_device(dst, src, nbytes);
  MT_CUDA_CHECK(cudaMemcpy(dst, src, nbytes, cudaMemcpyHostToDevice));
}

void device_to_host(void* dst, const void* src, size_t nbytes) {
  if (nbytes >= kStagedCopyMin) return PinnedStaging::get().device_to_host(dst, src, nbytes);
  MT_CUDA_CHECK(cudaMemcpy(dst, src, nbytes, cudaMemcpyDeviceToHost));
}

// src broadcast to `like`'s shape and converted to its dtype, as a new contiguous tensor on src's
// device; src itself when it already is that.
Tensor contiguous_like(const Tensor& src, const Tensor& like) {
  if (src.dtype() == like.dtype() && src.sizes() == like.sizes() && src.is_contiguous()) return src;
  Tensor out(TensorImpl::empty(like.sizes(), like.dtype(), src.device()));
  copy_into(out, src);
  return out;
}

Tensor& copy_cuda(Tensor& self, const Tensor& src, bool /*non_blocking: every copy completes before returning*/) {
  const bool cpu_scalar = src.is_cpu() && src.dim() == 0;
  if (self.device() == src.device() || (self.is_cuda() && cpu_scalar)) {
    copy_into(self, src);
    return self;
  }
  const auto shape = infer_size(self.sizes(), src.sizes());
  MT_CHECK(IntArrayRef(shape.data(), shape.size()) == self.sizes(), "copy_: output with shape ", self.sizes(),
           " doesn't match the broadcast shape ", IntArrayRef(shape.data(), shape.size()));
  if (self.numel() == 0) return self;
  const size_t nbytes = static_cast<size_t>(self.numel()) * self.element_size();
  const Tensor staged = contiguous_like(src, self);
  // The block lands in self when self is row-major, else in a row-major tensor copied into self.
  const Tensor landing =
      self.is_contiguous() ? self : Tensor(TensorImpl::empty(self.sizes(), self.dtype(), self.device()));
  if (src.is_cuda() && self.is_cuda()) {
    MT_CUDA_CHECK(
        cudaMemcpyPeer(landing.data_ptr(), self.device().index(), staged.data_ptr(), src.device().index(), nbytes));
  } else if (self.is_cuda()) {
    MT_CHECK(src.is_cpu(), "copy_: cannot copy from ", src.device(), " to ", self.device());
    cuda::CUDAGuard guard(self.device().index());
    host_to_device(landing.data_ptr(), staged.data_ptr(), nbytes);
  } else {
    MT_CHECK(self.is_cpu(), "copy_: cannot copy from ", src.device(), " to ", self.device());
    cuda::CUDAGuard guard(src.device().index());
    device_to_host(landing.data_ptr(), staged.data_ptr(), nbytes);
  }
  if (!landing.is_same(self)) copy_into(self, landing);
  return self;
}

}  // namespace

MT_LIBRARY_IMPL(mt, CUDA, m) { m.impl("copy_", MT_FN(copy_cuda)); }

}  // namespace mt
