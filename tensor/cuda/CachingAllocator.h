#pragma once
// The allocator of CUDA tensors: cudaMalloc/cudaFree behind a CachingAllocatorCore, registered for
// kCUDA when the library is loaded. No CUDA header here; defined only in CUDA builds (MT_WITH_CUDA).
#include "tensor/CachingAllocatorCore.h"

namespace mt::cuda {

// Returns every cached segment with no block in use to its device, as torch.cuda.empty_cache().
void empty_cache();
MemoryStats memory_stats(int device);
void reset_peak_memory_stats(int device);

}  // namespace mt::cuda
