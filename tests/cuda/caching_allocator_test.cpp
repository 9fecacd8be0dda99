// CachingAllocatorCore with a fake device: bucket rounding, reuse of freed blocks per (device,
// stream, bucket), the stats, empty_cache, the out-of-memory retry and its error, and concurrent use.
// Runs in every build: the caching logic knows nothing of CUDA.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tensor/CachingAllocatorCore.h"

namespace {

using mt::cuda::CachingAllocatorCore;
using mt::cuda::MemoryStats;

constexpr size_t kKiB = 1024;
constexpr size_t kMiB = 1024 * kKiB;
constexpr size_t kGiB = 1024 * kMiB;

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
  EXPECT_EQ(dev.live_bytes, 1024u);  // the device was asked for the whole bucket
  EXPECT_EQ(core.stats(0).allocated_bytes, 1024u);
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
  EXPECT_TRUE(dev.holds(p));  // freed to the cache, not to the device
  void* q = core.allocate(600, 0);  // also the 1024-byte bucket
  EXPECT_EQ(q, p);
  EXPECT_EQ(dev.alloc_calls, 1);
  EXPECT_EQ(core.stats(0).num_raw_allocs, 1);
  EXPECT_EQ(core.stats(0).num_cache_hits, 1);

  void* r = core.allocate(2000, 0);  // another bucket: a new block
  EXPECT_NE(r, p);
  EXPECT_EQ(dev.alloc_calls, 2);
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
  void* a = core.allocate(100, 0);        // 512
  void* b = core.allocate(3 * kMiB, 0);   // 4 MiB
  void* c = core.allocate(10, 1);         // 512 on device 1
  MemoryStats s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 512 + 4 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 512 + 4 * kMiB);
  EXPECT_EQ(s.num_raw_allocs, 2);
  EXPECT_EQ(core.stats(1).allocated_bytes, 512u);

  core.free(b);
  s = core.stats(0);
  EXPECT_EQ(s.allocated_bytes, 512u);
  EXPECT_EQ(s.peak_allocated_bytes, 512 + 4 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 512 + 4 * kMiB);  // b is cached, still held from the device
  EXPECT_EQ(s.peak_reserved_bytes, 512 + 4 * kMiB);

  core.reset_peak_stats(0);
  s = core.stats(0);
  EXPECT_EQ(s.peak_allocated_bytes, 512u);
  EXPECT_EQ(s.peak_reserved_bytes, 512 + 4 * kMiB);  // the peak restarts from the current value
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
  EXPECT_EQ(s.peak_reserved_bytes, 512 + 4 * kMiB);
}

TEST(CachingAllocator, EmptyCacheReturnsExactlyTheCachedBlocksToTheDevice) {
  FakeDevice dev;
  CachingAllocatorCore core(dev);
  void* a = core.allocate(100, 0);
  void* b = core.allocate(5 * kMiB, 1);
  void* c = core.allocate(100, 0);
  core.free(a);
  core.free(b);
  core.empty_cache();
  EXPECT_EQ(dev.freed, (std::set<void*>{a, b}));
  EXPECT_TRUE(dev.holds(c));
  EXPECT_EQ(core.stats(0).reserved_bytes, 512u);
  EXPECT_EQ(core.stats(1).reserved_bytes, 0u);
  EXPECT_EQ(core.stats(0).allocated_bytes, 512u);

  void* a2 = core.allocate(100, 0);  // the cache is empty: a fresh block
  EXPECT_EQ(dev.alloc_calls, 4);
  core.free(a2);
  core.free(c);
}

TEST(CachingAllocator, OutOfMemoryEmptiesTheCacheAndRetriesOnce) {
  FakeDevice dev(4 * kMiB);
  CachingAllocatorCore core(dev);
  void* a = core.allocate(3 * kMiB, 0);  // 4 MiB: the whole device
  core.free(a);                          // cached
  void* b = core.allocate(1 * kMiB + 1, 0);  // 2 MiB: fails, the cache is emptied, the retry succeeds
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(dev.alloc_calls, 3);
  EXPECT_EQ(dev.freed, (std::set<void*>{a}));
  const MemoryStats s = core.stats(0);
  EXPECT_EQ(s.num_alloc_retries, 1);
  EXPECT_EQ(s.allocated_bytes, 2 * kMiB);
  EXPECT_EQ(s.reserved_bytes, 2 * kMiB);
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
