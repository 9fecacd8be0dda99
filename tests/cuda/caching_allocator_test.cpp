// CachingAllocatorCore with a fake device: size rounding, small requests sharing 2 MiB segments,
// best-fit reuse and splitting of free blocks per (device, stream), merging of free neighbours, the
// stats, empty_cache (whole free segments only), the out-of-memory retry and its error, and
// concurrent use. Runs in every build: the caching logic knows nothing of CUDA.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tensor/CachingAllocatorCore.h"
#include "ops/api/std.h"

namespace {

using mt::cuda::CachingAllocatorCore;
using mt::cuda::MemoryStats;

constexpr size_t kKiB = 1024;
constexpr size_t kMiB = 1024 * kKiB;
constexpr size_t kGiB = 1024 * kMiB;

// `bytes` past `p`, as a void* so that gtest prints an address, not a string.
void* offset(void* p, size_t bytes) { return static_cast<char*>(p) + bytes; }

// A device with `capacity` bytes (over all devices) that hands out made-up addresses and records
// every call. The core calls it under its lock, so it needs none of its own.
class FakeDevice final : public mt::cuda::RawAllocator {
 public:
  explicit FakeDevice(size_t capacity = SIZE_MAX) : capacity_(capacity) {}

  void* raw_alloc(size_t bytes, int device) override {
    ++alloc_calls;
    if (live_bytes + bytes > capacity_) return nullptr;
    void* ptr = reinterpret_cast<void*>(next_);
    next_ += bytes + 4096;
    live_[ptr] = {bytes, device};
    live_bytes += bytes;
    return ptr;
  }
  void raw_free(void* ptr, int device) override {
    auto it = live_.find(ptr);
    EXPECT_NE(it, live_.end()) << "raw_free of a pointer raw_alloc did not return";
    if (it == live_.end()) return;
    EXPECT_EQ(it->second.second, device) << "raw_free on another device than raw_alloc";
    live_bytes -= it->second.first;
    live_.erase(it);
    freed.insert(ptr);
  }
  bool holds(void* ptr) const { return live_.count(ptr) != 0; }

  int alloc_calls = 0;
  size_t live_bytes = 0;
  std::set<void*> freed;

 private:
  size_t capacity_;
  uintptr_t next_ = 0x10000000;
  std::map<void*, std::pair<size_t, int>> live_;
};

TEST(CachingAllocator, RoundsSmallRequestsTo512BytesAndLargeOnesTo2MiB) {
  EXPECT_EQ(CachingAllocatorCore::round_size(1), 512u);
  EXPECT_EQ(CachingAllocatorCore::round_size(512), 512u);
  EXPECT_EQ(CachingAllocatorCore::round_size(513), 1024u);
  EXPECT_EQ(CachingAllocatorCore::round_size(1 * kMiB), 1 * kMiB);
  EXPECT_EQ(CachingAllocatorCore::round_size(1 * kMiB + 1), 2 * kMiB);
  EXPECT_EQ(CachingAllocatorCore::round_size(2 * kMiB + 1), 4 * kMiB);
  EXPECT_EQ(CachingAllocatorCore::round_size(5 * kMiB), 6 * kMiB);

  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* p = core.allocate(1000, 0);
  EXPECT_EQ(dev.live_bytes, 2 * kMiB);              // the device was asked for a small segment ...
  EXPECT_EQ(core.stats(0).allocated_bytes, 1024u);  // ... of which the request holds the rounded size
  core.free(p);
}

TEST(CachingAllocator, ZeroBytesAndNullptrTouchNothing) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  EXPECT_EQ(core.allocate(0, 0), nullptr);
  core.free(nullptr);
  EXPECT_EQ(dev.alloc_calls, 0);
  EXPECT_EQ(core.stats(0).allocated_bytes, 0u);
  EXPECT_THROW(core.allocate(16, -1), mt::Error);
}

TEST(CachingAllocator, ReusesAFreedBlockOfTheSameBucketWithoutCallingTheDevice) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* p = core.allocate(1000, 0);
  core.free(p);
  EXPECT_TRUE(dev.holds(p));        // freed to the cache, not to the device
  void* q = core.allocate(600, 0);  // also the 1024-byte bucket
  EXPECT_EQ(q, p);
  EXPECT_EQ(dev.alloc_calls, 1);
  EXPECT_EQ(core.stats(0).num_raw_allocs, 1);
  EXPECT_EQ(core.stats(0).num_cache_hits, 1);

  void* r = core.allocate(2000, 0);  // another size: the next block of the same segment
  EXPECT_EQ(r, offset(p, 1024));
  EXPECT_EQ(dev.alloc_calls, 1);
  core.free(q);
  core.free(r);
}

TEST(CachingAllocator, DoesNotReuseABlockAcrossDevicesOrStreams) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* p = core.allocate(1000, 0);
  core.free(p);
  void* on_device1 = core.allocate(1000, 1);
  void* on_stream7 = core.allocate(1000, 0, /*stream=*/7);
  EXPECT_NE(on_device1, p);
  EXPECT_NE(on_stream7, p);
  EXPECT_EQ(dev.alloc_calls, 3);
  EXPECT_EQ(core.allocate(1000, 0), p);  // the default stream of device 0 gets it back
  EXPECT_EQ(core.stats(0).num_cache_hits, 1);
  EXPECT_EQ(core.stats(1).num_cache_hits, 0);
  core.free(p);
  core.free(on_device1);
  core.free(on_stream7);
}

TEST(CachingAllocator, StatsTrackCurrentAndPeakPerDeviceAndResetPeak) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* a = core.allocate(100, 0);       // 512
  void* b = core.allocate(3 * kMiB, 0);  // 4 MiB
  void* c = core.allocate(10, 1);        // 512 on device 1
  MemoryStats s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 512 + 4 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 2 * kMiB + 4 * kMiB);  // a small segment and b's own segment
  EXPECT_EQ(s.num_raw_allocs, 2);
  EXPECT_EQ(core.stats(1).allocated_bytes, 512u);

  core.free(b);
  s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 512u);
  EXPECT_EQ(s.peak_allocated_bytes, 512 + 4 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 6 * kMiB);  // b is cached, still held from the device
  EXPECT_EQ(s.peak_reserved_bytes, 6 * kMiB);

  core.reset_peak_stats(0);
  s = core.stats(0);
  EXPECT_EQ(s.peak_allocated_bytes, 512u);
  EXPECT_EQ(s.peak_reserved_bytes, 6 * kMiB);           // the peak restarts from the current value
  EXPECT_EQ(core.stats(1).peak_allocated_bytes, 512u);  // other devices untouched

  void* b2 = core.allocate(3 * kMiB, 0);
  s = core.stats(0);
  EXPECT_EQ(b2, b);
  EXPECT_EQ(s.num_cache_hits, 1);
  EXPECT_EQ(s.peak_allocated_bytes, 512 + 4 * kMiB);
  core.free(a);
  core.free(b2);
  core.free(c);
  core.empty_cache();
  s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 0u);
  EXPECT_EQ(s.reserved_bytes, 0u);
  EXPECT_EQ(s.peak_reserved_bytes, 6 * kMiB);
}

TEST(CachingAllocator, EmptyCacheReturnsExactlyTheFreeSegmentsToTheDevice) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* a = core.allocate(100, 0);  // a small segment
  void* b = core.allocate(5 * kMiB, 1);
  void* c = core.allocate(2 * kMiB, 0);  // a large segment, kept
  core.free(a);
  core.free(b);
  core.empty_cache();
  EXPECT_EQ(dev.freed, (std::set<void*>{a, b}));
  EXPECT_TRUE(dev.holds(c));
  EXPECT_EQ(core.stats(0).reserved_bytes, 2 * kMiB);
  EXPECT_EQ(core.stats(1).reserved_bytes, 0u);
  EXPECT_EQ(core.stats(0).allocated_bytes, 2 * kMiB);

  void* a2 = core.allocate(100, 0);  // the cache is empty: a fresh segment
  EXPECT_EQ(dev.alloc_calls, 4);
  core.free(a2);
  core.free(c);
}

TEST(CachingAllocator, OutOfMemoryEmptiesTheCacheAndRetriesOnce) {
  FakeDevice dev(6 * kMiB);
  CachingAllocatorCore core(dev);
  void* a = core.allocate(3 * kMiB, 0);  // 4 MiB
  core.free(a);                          // cached, too small for b
  void* b = core.allocate(5 * kMiB, 0);  // 6 MiB: fails, the cache is emptied, the retry succeeds
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(dev.alloc_calls, 3);
  EXPECT_EQ(dev.freed, (std::set<void*>{a}));
  const MemoryStats s = core.stats(0);
  EXPECT_EQ(s.num_alloc_retries, 1);
  EXPECT_EQ(s.allocated_bytes, 6 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 6 * kMiB);
  core.free(b);
}

TEST(CachingAllocator, OutOfMemoryErrorNamesTheRequestTheDeviceAndTheStats) {
  FakeDevice dev(4 * kMiB);
  CachingAllocatorCore core(dev);
  void* a = core.allocate(2 * kMiB, 1);
  void* cached = core.allocate(100, 1);
  core.free(cached);
  try {
    core.allocate(3 * kGiB, 1);
    FAIL() << "expected OutOfMemoryError";
  } catch (const mt::cuda::OutOfMemoryError& e) {
    EXPECT_STREQ(e.what(),
                 "CUDA out of memory. Tried to allocate 3.00 GiB (3221225472 bytes) (GPU 1; 2.00 MiB already "
                 "allocated; 2.00 MiB reserved in total by microtorch; its cache of freed blocks was emptied "
                 "before the last try)");
  }
  EXPECT_EQ(dev.alloc_calls, 4);  // a, cached, and the two tries
  EXPECT_EQ(core.stats(1).allocated_bytes, 2 * kMiB);
  EXPECT_EQ(core.stats(1).num_alloc_retries, 1);
  EXPECT_TRUE(dev.holds(a));

  // A request too large for any bucket is out of memory too, not an overflow.
  EXPECT_THROW(core.allocate(SIZE_MAX - 10, 0), mt::cuda::OutOfMemoryError);
  // Small sizes are printed in bytes and KiB.
  FakeDevice tiny(0);
  CachingAllocatorCore tiny_core(tiny);
  try {
    tiny_core.allocate(1536, 0);
    FAIL() << "expected OutOfMemoryError";
  } catch (const mt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("Tried to allocate 1.50 KiB (1536 bytes) (GPU 0; 0 bytes already "
                                         "allocated; 0 bytes reserved"),
              std::string::npos)
        << e.what();
  }
  core.free(a);
}

TEST(CachingAllocator, SmallRequestsPackIntoOne2MiBSegment) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  std::vector<void*> blocks;
  for (int i = 0; i < 100; ++i) blocks.push_back(core.allocate(1 * kKiB, 0));
  EXPECT_EQ(dev.alloc_calls, 1);
  for (size_t i = 0; i < blocks.size(); ++i) EXPECT_EQ(blocks[i], offset(blocks[0], i * kKiB));
  MemoryStats s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 100 * kKiB);
  EXPECT_EQ(s.reserved_bytes, 2 * kMiB);
  EXPECT_EQ(s.num_raw_allocs, 1);
  EXPECT_EQ(s.num_cache_hits, 99);

  // 2 MiB / 1 KiB = 2048 blocks fill the segment exactly; the next one needs a second segment.
  while (blocks.size() < 2048) blocks.push_back(core.allocate(1 * kKiB, 0));
  EXPECT_EQ(dev.alloc_calls, 1);
  EXPECT_EQ(blocks.back(), offset(blocks[0], 2 * kMiB - kKiB));
  blocks.push_back(core.allocate(1 * kKiB, 0));
  EXPECT_EQ(dev.alloc_calls, 2);
  s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 2 * kMiB + kKiB);
  EXPECT_EQ(s.reserved_bytes, 4 * kMiB);
  for (void* p : blocks) core.free(p);
  core.empty_cache();
  EXPECT_EQ(dev.live_bytes, 0u);
}

TEST(CachingAllocator, SmallAndLargeRequestsNeverShareASegment) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* large = core.allocate(8 * kMiB, 0);
  core.free(large);
  void* small = core.allocate(100, 0);  // the free 8 MiB block is in the large pool: a small segment
  EXPECT_EQ(dev.alloc_calls, 2);
  EXPECT_EQ(core.stats(0).reserved_bytes, 10 * kMiB);
  core.free(small);
  small = core.allocate(1 * kMiB, 0);             // the largest small request: from the small segment
  void* large2 = core.allocate(1 * kMiB + 1, 0);  // the smallest large one: from the 8 MiB block
  EXPECT_EQ(dev.alloc_calls, 2);
  EXPECT_EQ(large2, large);
  core.free(small);
  core.free(large2);
}

TEST(CachingAllocator, ALargeFreeBlockIsSplitToServeSmallerLargeRequests) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* a = core.allocate(8 * kMiB, 0);
  core.free(a);
  MemoryStats s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 0u);
  EXPECT_EQ(s.reserved_bytes, 8 * kMiB);

  void* b = core.allocate(3 * kMiB, 0);  // 4 MiB, from the front of a; the rest stays free
  EXPECT_EQ(b, a);
  EXPECT_EQ(dev.alloc_calls, 1);
  s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 4 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 8 * kMiB);
  EXPECT_EQ(s.num_cache_hits, 1);

  void* c = core.allocate(2 * kMiB, 0);  // from the rest, split again
  void* d = core.allocate(2 * kMiB, 0);  // the last 2 MiB, exactly
  EXPECT_EQ(c, offset(a, 4 * kMiB));
  EXPECT_EQ(d, offset(a, 6 * kMiB));
  EXPECT_EQ(dev.alloc_calls, 1);
  s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 8 * kMiB);
  EXPECT_EQ(s.peak_allocated_bytes, 8 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 8 * kMiB);
  EXPECT_EQ(s.num_raw_allocs, 1);
  EXPECT_EQ(s.num_cache_hits, 3);

  void* e = core.allocate(2 * kMiB, 0);  // segment used up: a new one
  EXPECT_EQ(dev.alloc_calls, 2);
  EXPECT_EQ(core.stats(0).reserved_bytes, 10 * kMiB);
  for (void* p : {b, c, d, e}) core.free(p);
}

TEST(CachingAllocator, BestFitTakesTheSmallestFreeBlockThatIsBigEnough) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* big = core.allocate(10 * kMiB, 0);
  void* fits = core.allocate(4 * kMiB, 0);
  void* small = core.allocate(2 * kMiB, 0);
  for (void* p : {big, fits, small}) core.free(p);
  EXPECT_EQ(core.allocate(3 * kMiB, 0), fits);                   // 4 MiB: not the 10 MiB block, not the 2 MiB one
  EXPECT_EQ(core.allocate(5 * kMiB, 0), big);                    // 6 MiB: only the 10 MiB block is big enough
  EXPECT_EQ(core.allocate(4 * kMiB, 0), offset(big, 6 * kMiB));  // its 4 MiB rest, before a new segment
  EXPECT_EQ(dev.alloc_calls, 3);
  core.free(fits);
  core.free(big);
  core.free(offset(big, 6 * kMiB));
  core.empty_cache();
  EXPECT_EQ(dev.live_bytes, 0u);
}

TEST(CachingAllocator, FreeingNeighboursMergesASegmentBackIntoOneBlock) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  // A large segment cut in four; freed in an order that merges with the next block, the previous
  // block, and both at once.
  void* whole = core.allocate(8 * kMiB, 0);
  core.free(whole);
  void* q[4];
  for (void*& p : q) p = core.allocate(2 * kMiB, 0);
  EXPECT_EQ(q[3], offset(whole, 6 * kMiB));
  for (int i : {1, 3, 0, 2}) core.free(q[i]);
  EXPECT_EQ(core.allocate(8 * kMiB, 0), whole);  // one free block again: a hit, no new segment
  MemoryStats s = core.stats(0);
  EXPECT_EQ(dev.alloc_calls, 1);
  EXPECT_EQ(s.num_cache_hits, 5);
  EXPECT_EQ(s.allocated_bytes, 8 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 8 * kMiB);
  core.free(whole);

  // A small segment cut in four 512 KiB blocks: free blocks that are not neighbours do not merge.
  void* b[4];
  for (void*& p : b) p = core.allocate(512 * kKiB, 0);
  EXPECT_EQ(dev.alloc_calls, 2);
  core.free(b[0]);
  core.free(b[2]);
  void* other = core.allocate(1 * kMiB, 0);  // two free 512 KiB blocks, but apart: a new segment
  EXPECT_EQ(dev.alloc_calls, 3);
  core.free(other);
  core.free(b[1]);  // now b[0..2] are one free 1.5 MiB block
  EXPECT_EQ(core.allocate(1 * kMiB, 0), b[0]);
  EXPECT_EQ(dev.alloc_calls, 3);
  core.free(b[0]);
  core.free(b[3]);
  s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 0u);
  EXPECT_EQ(s.reserved_bytes, 8 * kMiB + 4 * kMiB);
  core.empty_cache();  // every segment is whole again, so all go back
  EXPECT_EQ(dev.live_bytes, 0u);
  EXPECT_EQ(core.stats(0).reserved_bytes, 0u);
}

TEST(CachingAllocator, EmptyCacheKeepsSegmentsWithABlockInUse) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* small_segment = core.allocate(100, 0);
  void* live_small = core.allocate(100, 0);  // same segment
  void* large_segment = core.allocate(6 * kMiB, 0);
  core.free(large_segment);
  void* live_large = core.allocate(2 * kMiB, 0);  // the front of the large segment
  void* free_segment = core.allocate(4 * kMiB, 0, /*stream=*/3);
  core.free(small_segment);
  core.free(free_segment);
  EXPECT_EQ(live_large, large_segment);
  EXPECT_EQ(core.stats(0).reserved_bytes, 2 * kMiB + 6 * kMiB + 4 * kMiB);

  core.empty_cache();
  EXPECT_EQ(dev.freed, (std::set<void*>{free_segment}));
  MemoryStats s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 512 + 2 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 2 * kMiB + 6 * kMiB);
  EXPECT_EQ(s.peak_reserved_bytes, 12 * kMiB);

  // The free parts of the kept segments still serve requests.
  void* again = core.allocate(100, 0);
  EXPECT_EQ(again, small_segment);
  EXPECT_EQ(core.allocate(4 * kMiB, 0), offset(large_segment, 2 * kMiB));
  EXPECT_EQ(dev.alloc_calls, 3);
  core.free(offset(large_segment, 2 * kMiB));

  core.free(live_small);
  core.free(again);
  core.free(live_large);
  core.empty_cache();
  EXPECT_EQ(dev.freed, (std::set<void*>{free_segment, small_segment, large_segment}));
  EXPECT_EQ(core.stats(0).reserved_bytes, 0u);
}

TEST(CachingAllocator, OutOfMemoryRetryFreesOnlyTheWholeFreeSegments) {
  FakeDevice dev(8 * kMiB);
  CachingAllocatorCore core(dev);
  void* a = core.allocate(100, 0);       // small segment S (2 MiB)
  void* b = core.allocate(3 * kMiB, 0);  // large segment (4 MiB)
  void* c = core.allocate(200, 0);       // in S, after a
  MemoryStats s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 512 + 4 * kMiB + 512);
  EXPECT_EQ(s.reserved_bytes, 6 * kMiB);
  core.free(a);  // S still holds c
  core.free(b);  // b's segment is free
  s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 512u);
  EXPECT_EQ(s.peak_allocated_bytes, 4 * kMiB + 1024);
  EXPECT_EQ(s.reserved_bytes, 6 * kMiB);

  // 6 MiB: b's free 4 MiB block is too small and the device has only 2 MiB left; emptying the cache
  // frees b's segment, not S, and the retry fits.
  void* d = core.allocate(5 * kMiB, 0);
  EXPECT_EQ(dev.freed, (std::set<void*>{b}));
  EXPECT_TRUE(dev.holds(a));
  s = core.stats(0);
  EXPECT_EQ(s.num_alloc_retries, 1);
  EXPECT_EQ(s.num_raw_allocs, 3);
  EXPECT_EQ(s.allocated_bytes, 512 + 6 * kMiB);
  EXPECT_EQ(s.peak_allocated_bytes, 512 + 6 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 8 * kMiB);
  EXPECT_EQ(s.peak_reserved_bytes, 8 * kMiB);

  void* e = core.allocate(100, 0);  // a's place in S: no device call
  EXPECT_EQ(e, a);
  EXPECT_EQ(dev.alloc_calls, 4);

  // Nothing whole is free now: the retry frees nothing and the request fails, changing nothing.
  EXPECT_THROW(core.allocate(2 * kMiB, 0), mt::cuda::OutOfMemoryError);
  EXPECT_EQ(dev.alloc_calls, 6);
  EXPECT_EQ(dev.freed.size(), 1u);
  s = core.stats(0);
  EXPECT_EQ(s.num_alloc_retries, 2);
  EXPECT_EQ(s.num_raw_allocs, 3);
  EXPECT_EQ(s.allocated_bytes, 1024 + 6 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 8 * kMiB);
  for (void* p : {c, d, e}) core.free(p);
}

TEST(CachingAllocator, DestructorReturnsTheFreeSegmentsAndLeavesThoseInUse) {
  FakeDevice dev;
  void* live = nullptr;
  void* free_segment = nullptr;
  {
    CachingAllocatorCore core(dev);
    live = core.allocate(100, 0);
    core.free(core.allocate(200, 0));  // a free block in live's segment
    free_segment = core.allocate(4 * kMiB, 0);
    core.free(free_segment);
  }
  EXPECT_EQ(dev.freed, (std::set<void*>{free_segment}));
  EXPECT_TRUE(dev.holds(live));  // may still be in use by whoever holds it
}

TEST(CachingAllocator, ConcurrentAllocateAndFreeKeepTheStatsConsistent) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  constexpr int kThreads = 4;
  constexpr int kIters = 3000;
  std::mutex live_mutex;
  std::set<void*> live;  // no block may be handed to two owners at once
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const size_t sizes[] = {100, 700, 5000, 1 * kMiB + 1};
      std::vector<void*> mine;
      for (int i = 0; i < kIters; ++i) {
        void* p = core.allocate(sizes[(i + t) % 4], t % 2);
        {
          std::lock_guard<std::mutex> lock(live_mutex);
          EXPECT_TRUE(live.insert(p).second);
        }
        mine.push_back(p);
        if (mine.size() > 3 || i % 5 == 0) {
          {
            std::lock_guard<std::mutex> lock(live_mutex);
            live.erase(mine.front());
          }
          core.free(mine.front());
          mine.erase(mine.begin());
        }
      }
      for (void* p : mine) {
        {
          std::lock_guard<std::mutex> lock(live_mutex);
          live.erase(p);
        }
        core.free(p);
      }
    });
  }
  for (auto& th : threads) th.join();

  const MemoryStats s0 = core.stats(0), s1 = core.stats(1);
  EXPECT_EQ(s0.allocated_bytes, 0u);
  EXPECT_EQ(s1.allocated_bytes, 0u);
  EXPECT_EQ(s0.num_raw_allocs + s0.num_cache_hits + s1.num_raw_allocs + s1.num_cache_hits, kThreads * kIters);
  EXPECT_EQ(s0.num_raw_allocs + s1.num_raw_allocs, dev.alloc_calls);
  EXPECT_EQ(s0.reserved_bytes + s1.reserved_bytes, dev.live_bytes);
  EXPECT_LE(s0.peak_allocated_bytes, s0.peak_reserved_bytes);
  core.empty_cache();
  EXPECT_EQ(dev.live_bytes, 0u);
  EXPECT_EQ(core.stats(0).reserved_bytes + core.stats(1).reserved_bytes, 0u);
}

}  // namespace
