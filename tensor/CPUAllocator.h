#pragma once
// The CPU allocator's cache of large blocks (tensor/Allocator.cpp). CPU blocks of kCPULargeBlock bytes and
// more are cached when freed and handed out again for the same size (PyTorch's CUDA caching allocator, for
// the CPU's large blocks only): glibc gives them back to the kernel (mmap above a threshold that tops out at
// 32 MiB), and faulting their pages in again in every training step cost more than a convolution's
// arithmetic. At most kCPUCacheLimit bytes wait in the cache; the rest is freed. Smaller tensors share one
// allocation with their metadata (TensorImpl::empty).
#include <cstddef>

namespace mt {

constexpr size_t kCPULargeBlock = size_t{1} << 20;
constexpr size_t kCPUCacheLimit = size_t{1} << 30;

// Frees the cached blocks (torch.cuda.empty_cache, for the CPU) and returns how many bytes they held.
size_t cpu_empty_cache();
// The bytes the cache holds now.
size_t cpu_cached_bytes();

}  // namespace mt
