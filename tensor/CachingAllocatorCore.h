#pragma once
// The caching logic of the CUDA allocator, PyTorch's CUDACachingAllocator made small. Raw device
// memory comes from a RawAllocator (cudaMalloc/cudaFree in tensor/cuda/CachingAllocator.cpp, a fake
// in the tests), so this file knows nothing of CUDA and is built and tested in every build.
//
// The scheme:
// - A request is rounded up (round_size): to 512 bytes up to 1 MiB ("small"), to 2 MiB above.
// - Memory is taken from the device in segments: a small request gets a 2 MiB segment that later
//   small requests share, a large one a segment of its own rounded size. A segment is cut into
//   blocks, each linked to its neighbours (prev/next) in address order.
// - A free block sits in the free set of its pool, one pool per (device, stream, small or large),
//   ordered by (size, address). A request takes the smallest free block of its pool that is big
//   enough (best fit) and splits off the rest as a new free block when that rest is worth keeping;
//   only when no block fits is the device asked for a new segment.
// - Freeing a block merges it with its free neighbours, so a segment with no live block is one free
//   block again, and only such whole free segments go back to the device (empty_cache, or when the
//   device is out of memory, before one retry).
// Small and large requests never share a segment, so small tensors do not pin large segments.
//
// Not (yet) done: cross-stream use of a block (record_stream), PyTorch's max_split_size and
// expandable segments.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <unordered_map>

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

// Per device. Sizes are of whole blocks (rounded sizes), as in PyTorch's allocated_bytes.
struct MemoryStats {
  size_t allocated_bytes = 0;       // in blocks handed out and not yet freed
  size_t peak_allocated_bytes = 0;
  size_t reserved_bytes = 0;        // in segments held from the device: allocated + cached
  size_t peak_reserved_bytes = 0;
  int64_t num_raw_allocs = 0;       // requests that called raw_alloc (successfully)
  int64_t num_cache_hits = 0;       // requests served from a cached free block
  int64_t num_alloc_retries = 0;    // raw_alloc failures that emptied the cache and retried
};

class CachingAllocatorCore {
 public:
  static constexpr size_t kSmallSize = size_t{1} << 20;      // requests up to 1 MiB ...
  static constexpr size_t kSmallRound = 512;                  // ... are rounded to 512 bytes,
  static constexpr size_t kLargeRound = size_t{2} << 20;      // larger ones to 2 MiB.
  static constexpr size_t kSmallSegment = size_t{2} << 20;    // small requests share segments of this size

  explicit CachingAllocatorCore(RawAllocator& raw) : raw_(raw) {}
  // Returns the whole free segments to the device; segments with blocks still in use are left alone.
  ~CachingAllocatorCore();
  CachingAllocatorCore(const CachingAllocatorCore&) = delete;
  CachingAllocatorCore& operator=(const CachingAllocatorCore&) = delete;

  // The block size a request of `bytes` (> 0) gets; 0 when no size can hold it.
  static size_t round_size(size_t bytes);

  // nullptr for 0 bytes. Throws OutOfMemoryError when raw_alloc fails twice (before and after
  // emptying the cache).
  void* allocate(size_t bytes, int device, StreamId stream = kDefaultStream);
  // Back to the cache of its device and stream, merged with its free neighbours; nullptr is ignored.
  void free(void* ptr);
  // raw_free on every segment with no block in use (of all devices).
  void empty_cache();

  MemoryStats stats(int device) const;
  void reset_peak_stats(int device);

 private:
  struct Block;
  // A pool's free blocks, smallest first and by address among equal sizes, so lower_bound(size) is
  // the best fit. Transparent, to look up by a bare size.
  struct BySizeThenAddress {
    using is_transparent = void;
    bool operator()(const Block* a, const Block* b) const;
    bool operator()(const Block* a, size_t size) const;
    bool operator()(size_t size, const Block* b) const;
  };
  using FreeBlocks = std::set<Block*, BySizeThenAddress>;
  // A piece of a segment, free or handed out. prev/next are its neighbours in the same segment
  // (nullptr at the segment's ends), so a block with neither is a whole segment.
  struct Block {
    char* ptr;
    size_t size;
    int device;
    StreamId stream;
    FreeBlocks* pool;  // where it goes when free
    Block* prev;
    Block* next;
    bool allocated;
  };
  using PoolKey = std::tuple<int, StreamId, bool>;  // device, stream, small

  Block* new_segment(FreeBlocks& pool, size_t size, size_t requested, int device, StreamId stream);
  void split(Block* block, size_t size);
  void merge_free_neighbour(Block* block, Block* neighbour);
  void release_cached(int device);  // device < 0: every device; lock held
  [[noreturn]] void throw_out_of_memory(size_t bytes, int device);

  RawAllocator& raw_;
  // One mutex for everything: allocation is a cold-ish path next to the kernels that use the memory
  // (one lock per tensor created, against microseconds of work per kernel), so clarity wins over
  // finer locking.
  mutable std::mutex mutex_;
  std::unordered_map<void*, Block*> allocated_;  // live blocks by address
  std::map<PoolKey, FreeBlocks> pools_;           // nodes never erased: blocks point into them
  std::map<int, MemoryStats> stats_;
};

}  // namespace mt::cuda
