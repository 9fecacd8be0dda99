#pragma once
// The caching logic of the CUDA allocator, in the spirit of PyTorch's CUDACachingAllocator but small:
// requests are rounded up to size buckets, a freed block goes back to a free list keyed by
// (device, stream, bucket) instead of to the device, and the next request of that bucket on that
// device and stream reuses it. Raw device memory comes from a RawAllocator (cudaMalloc/cudaFree in
// tensor/cuda/CachingAllocator.cpp, a fake in the tests), so this file knows nothing of CUDA and is
// built and tested in every build.
//
// Not (yet) done: splitting a large cached block to serve a smaller request, and cross-stream use
// of a block (record_stream). Blocks are only reused within their exact bucket.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "tensor/Error.h"

namespace mt::cuda {

// A stream is an opaque key (a cudaStream_t cast to an integer later); 0 is the device's default
// stream, the only one there is for now.
using StreamId = uintptr_t;
constexpr StreamId kDefaultStream = 0;

// Raised when the device has no memory left even after the cache was emptied, like PyTorch's
// torch.OutOfMemoryError (a RuntimeError).
class OutOfMemoryError : public RuntimeError {
  using RuntimeError::RuntimeError;
};

// Where the memory really comes from. raw_alloc returns nullptr when the device is out of memory
// (any other failure throws); both are called with the allocator's lock held.
class RawAllocator {
 public:
  virtual ~RawAllocator() = default;
  virtual void* raw_alloc(size_t bytes, int device) = 0;
  virtual void raw_free(void* ptr, int device) = 0;
};

// Per device. Sizes are of whole blocks (bucket sizes), as in PyTorch's allocated_bytes.
struct MemoryStats {
  size_t allocated_bytes = 0;       // in blocks handed out and not yet freed
  size_t peak_allocated_bytes = 0;
  size_t reserved_bytes = 0;        // held from the device: allocated + cached
  size_t peak_reserved_bytes = 0;
  int64_t num_raw_allocs = 0;       // requests that called raw_alloc (successfully)
  int64_t num_cache_hits = 0;       // requests served from a cached block
  int64_t num_alloc_retries = 0;    // raw_alloc failures that emptied the cache and retried
};

class CachingAllocatorCore {
 public:
  static constexpr size_t kSmallSize = size_t{1} << 20;      // requests up to 1 MiB ...
  static constexpr size_t kSmallRound = 512;                  // ... are rounded to 512 bytes,
  static constexpr size_t kLargeRound = size_t{2} << 20;      // larger ones to 2 MiB.

  explicit CachingAllocatorCore(RawAllocator& raw) : raw_(raw) {}
  // Returns the cached blocks to the device; blocks still in use are left alone.
  ~CachingAllocatorCore();
  CachingAllocatorCore(const CachingAllocatorCore&) = delete;
  CachingAllocatorCore& operator=(const CachingAllocatorCore&) = delete;

  // The bucket a request of `bytes` (> 0) falls in.
  static size_t round_size(size_t bytes);

  // nullptr for 0 bytes. Throws OutOfMemoryError when raw_alloc fails twice (before and after
  // emptying the cache).
  void* allocate(size_t bytes, int device, StreamId stream = kDefaultStream);
  // Back to the cache of its device and stream; nullptr is ignored.
  void free(void* ptr);
  // raw_free on every cached block (of all devices).
  void empty_cache();

  MemoryStats stats(int device) const;
  void reset_peak_stats(int device);

 private:
  struct Block {
    size_t size;  // the bucket
    int device;
    StreamId stream;
  };
  using PoolKey = std::tuple<int, StreamId, size_t>;  // device, stream, bucket

  void release_cached(int device);  // device < 0: every device; lock held
  [[noreturn]] void throw_out_of_memory(size_t bytes, int device);

  RawAllocator& raw_;
  // One mutex for everything: allocation is a cold-ish path next to the kernels that use the memory
  // (one lock per tensor created, against microseconds of work per kernel), so clarity wins over
  // finer locking.
  mutable std::mutex mutex_;
  std::unordered_map<void*, Block> allocated_;
  std::map<PoolKey, std::vector<void*>> cached_;
  std::map<int, MemoryStats> stats_;
};

}  // namespace mt::cuda
