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

bool CachingAllocatorCore::BySizeThenAddress::operator()(const Block* a, const Block* b) const {
  if (a->size != b->size) return a->size < b->size;
  return std::less<char*>()(a->ptr, b->ptr);
}
bool CachingAllocatorCore::BySizeThenAddress::operator()(const Block* a, size_t size) const { return a->size < size; }
bool CachingAllocatorCore::BySizeThenAddress::operator()(size_t size, const Block* b) const { return size < b->size; }

CachingAllocatorCore::~CachingAllocatorCore() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached(-1);
  // What is left belongs to segments still in use: their memory stays with the device (the caller
  // may still use it), only the bookkeeping goes. Every block is in exactly one of these.
  for (auto& [key, pool] : pools_) {
    for (Block* block : pool) delete block;
  }
  for (auto& [ptr, block] : allocated_) delete block;
}

size_t CachingAllocatorCore::round_size(size_t bytes) {
  const size_t round = bytes <= kSmallSize ? kSmallRound : kLargeRound;
  if (bytes > std::numeric_limits<size_t>::max() - round) return 0;  // no size holds it: cannot be served
  return (bytes + round - 1) / round * round;
}

void* CachingAllocatorCore::allocate(size_t bytes, int device, StreamId stream) {
  MT_CHECK(device >= 0, "CachingAllocator: expected a device index >= 0, but got ", device);
  if (bytes == 0) return nullptr;
  const size_t size = round_size(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  if (size == 0) throw_out_of_memory(bytes, device);
  MemoryStats& st = stats_[device];
  const bool small = size <= kSmallSize;
  FreeBlocks& pool = pools_[{device, stream, small}];

  Block* block = nullptr;
  auto best_fit = pool.lower_bound(size);
  if (best_fit != pool.end()) {
    block = *best_fit;
    pool.erase(best_fit);
    ++st.num_cache_hits;
  } else {
    block = new_segment(pool, small ? kSmallSegment : size, bytes, device, stream);
  }
  // PyTorch's rule: a small pool keeps any rest (a multiple of 512 bytes); a large pool only a rest
  // of more than 1 MiB, as only large requests look there (with 2 MiB rounding, any rest at all).
  const size_t rest = block->size - size;
  if (small ? rest >= kSmallRound : rest > kSmallSize) split(block, size);

  block->allocated = true;
  allocated_.emplace(block->ptr, block);
  st.allocated_bytes += block->size;
  update_peak(st.peak_allocated_bytes, st.allocated_bytes);
  return block->ptr;
}

// A fresh segment of `size` bytes as one block, not yet in any set; on failure, empties the cache
// and tries once more before reporting the `requested` bytes as out of memory.
CachingAllocatorCore::Block* CachingAllocatorCore::new_segment(FreeBlocks& pool, size_t size, size_t requested,
                                                                int device, StreamId stream) {
  MemoryStats& st = stats_[device];
  void* ptr = raw_.raw_alloc(size, device);
  if (ptr == nullptr) {
    ++st.num_alloc_retries;
    release_cached(device);
    ptr = raw_.raw_alloc(size, device);
    if (ptr == nullptr) throw_out_of_memory(requested, device);
  }
  ++st.num_raw_allocs;
  st.reserved_bytes += size;
  update_peak(st.peak_reserved_bytes, st.reserved_bytes);
  return new Block{static_cast<char*>(ptr), size, device, stream, &pool, nullptr, nullptr, false};
}

// Keeps the first `size` bytes in `block` (not in a set) and makes the rest a free block after it.
void CachingAllocatorCore::split(Block* block, size_t size) {
  Block* rest = new Block{block->ptr + size, block->size - size, block->device, block->stream,
                          block->pool,       block,              block->next,   false};
  if (block->next != nullptr) block->next->prev = rest;
  block->next = rest;
  block->size = size;
  block->pool->insert(rest);
}

void CachingAllocatorCore::free(void* ptr) {
  if (ptr == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocated_.find(ptr);
  MT_INTERNAL_ASSERT(it != allocated_.end(), "CachingAllocator: freeing a pointer it did not allocate");
  Block* block = it->second;
  allocated_.erase(it);
  stats_[block->device].allocated_bytes -= block->size;
  block->allocated = false;
  // Merging before inserting: the set is ordered by size, which merging changes.
  if (block->prev != nullptr && !block->prev->allocated) merge_free_neighbour(block, block->prev);
  if (block->next != nullptr && !block->next->allocated) merge_free_neighbour(block, block->next);
  block->pool->insert(block);
}

// `block` (free, not in a set) takes over the bytes of its free `neighbour`, which goes away.
void CachingAllocatorCore::merge_free_neighbour(Block* block, Block* neighbour) {
  block->pool->erase(neighbour);
  if (neighbour == block->prev) {
    block->ptr = neighbour->ptr;
    block->prev = neighbour->prev;
    if (block->prev != nullptr) block->prev->next = block;
  } else {
    block->next = neighbour->next;
    if (block->next != nullptr) block->next->prev = block;
  }
  block->size += neighbour->size;
  delete neighbour;
}

void CachingAllocatorCore::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached(-1);
}

void CachingAllocatorCore::release_cached(int device) {
  for (auto& [key, pool] : pools_) {
    const int dev = std::get<0>(key);
    if (device >= 0 && dev != device) continue;
    for (auto it = pool.begin(); it != pool.end();) {
      Block* block = *it;
      const bool whole_segment = block->prev == nullptr && block->next == nullptr;
      if (!whole_segment) {
        ++it;
        continue;
      }
      // raw_free first, so that a throwing raw_free leaves the stats matching what is still held.
      raw_.raw_free(block->ptr, dev);
      it = pool.erase(it);
      stats_[dev].reserved_bytes -= block->size;
      delete block;
    }
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
