#include "tensor/CachingAllocatorCore.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

namespace mt::cuda {

namespace {

// "512 bytes", "1.50 KiB", "2.00 GiB", as PyTorch's format_size.
std::string format_size(size_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  int unit = 0;
  while (value >= 1024.0 && unit + 1 < 6) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f %s", value, kUnits[unit]);
  return buf;
}

void update_peak(size_t& peak, size_t current) { peak = std::max(peak, current); }

}  // namespace

CachingAllocatorCore::~CachingAllocatorCore() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached(-1);
}

size_t CachingAllocatorCore::round_size(size_t bytes) {
  const size_t round = bytes <= kSmallSize ? kSmallRound : kLargeRound;
  if (bytes > std::numeric_limits<size_t>::max() - round) return 0;  // no bucket: cannot be served
  return (bytes + round - 1) / round * round;
}

void* CachingAllocatorCore::allocate(size_t bytes, int device, StreamId stream) {
  MT_CHECK(device >= 0, "CachingAllocator: expected a device index >= 0, but got ", device);
  if (bytes == 0) return nullptr;
  const size_t size = round_size(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  if (size == 0) throw_out_of_memory(bytes, device);
  MemoryStats& st = stats_[device];

  void* ptr = nullptr;
  auto pool = cached_.find({device, stream, size});
  if (pool != cached_.end()) {
    ptr = pool->second.back();
    pool->second.pop_back();
    if (pool->second.empty()) cached_.erase(pool);
    ++st.num_cache_hits;
  } else {
    ptr = raw_.raw_alloc(size, device);
    if (ptr == nullptr) {
      ++st.num_alloc_retries;
      release_cached(device);
      ptr = raw_.raw_alloc(size, device);
      if (ptr == nullptr) throw_out_of_memory(bytes, device);
    }
    ++st.num_raw_allocs;
    st.reserved_bytes += size;
    update_peak(st.peak_reserved_bytes, st.reserved_bytes);
  }
  allocated_.emplace(ptr, Block{size, device, stream});
  st.allocated_bytes += size;
  update_peak(st.peak_allocated_bytes, st.allocated_bytes);
  return ptr;
}

void CachingAllocatorCore::free(void* ptr) {
  if (ptr == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocated_.find(ptr);
  MT_INTERNAL_ASSERT(it != allocated_.end(), "CachingAllocator: freeing a pointer it did not allocate");
  const Block block = it->second;
  allocated_.erase(it);
  stats_[block.device].allocated_bytes -= block.size;
  cached_[{block.device, block.stream, block.size}].push_back(ptr);
}

void CachingAllocatorCore::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached(-1);
}

void CachingAllocatorCore::release_cached(int device) {
  for (auto pool = cached_.begin(); pool != cached_.end();) {
    const auto [dev, stream, size] = pool->first;
    if (device >= 0 && dev != device) {
      ++pool;
      continue;
    }
    std::vector<void*>& blocks = pool->second;
    // One at a time, so that a throwing raw_free leaves the stats matching what is still held.
    while (!blocks.empty()) {
      raw_.raw_free(blocks.back(), dev);
      blocks.pop_back();
      stats_[dev].reserved_bytes -= size;
    }
    pool = cached_.erase(pool);
  }
}

MemoryStats CachingAllocatorCore::stats(int device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = stats_.find(device);
  return it == stats_.end() ? MemoryStats{} : it->second;
}

void CachingAllocatorCore::reset_peak_stats(int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  MemoryStats& st = stats_[device];
  st.peak_allocated_bytes = st.allocated_bytes;
  st.peak_reserved_bytes = st.reserved_bytes;
}

void CachingAllocatorCore::throw_out_of_memory(size_t bytes, int device) {
  const MemoryStats& st = stats_[device];
  detail::throw_error<OutOfMemoryError>(
      "CUDA out of memory. Tried to allocate ", format_size(bytes), " (", bytes, " bytes) (GPU ", device, "; ",
      format_size(st.allocated_bytes), " already allocated; ", format_size(st.reserved_bytes),
      " reserved in total by microtorch; its cache of freed blocks was emptied before the last try)");
}

}  // namespace mt::cuda
