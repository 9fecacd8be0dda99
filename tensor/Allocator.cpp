#include "tensor/Allocator.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <utility>

#include "tensor/CPUAllocator.h"
#include "tensor/Error.h"

namespace mt {

namespace {

// Under AddressSanitizer large blocks are freed at once, so that it still finds a use after free.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCacheLargeBlocks = false;
#else
constexpr bool kCacheLargeBlocks = true;
#endif

// A large block: its bytes (a multiple of 64 KiB, so that sizes a little apart share blocks) are written
// in a header of kCPUAlignment bytes before the data, for the deleter, which gets only the block's start.
constexpr size_t kLargeGranule = size_t{1} << 16;

class LargeBlockCache {
 public:
  // A cached block of exactly `bytes`, or null.
  void* take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = free_.find(bytes);
    if (it == free_.end()) return nullptr;
    void* block = it->second;
    free_.erase(it);
    cached_ -= bytes;
    return block;
  }
  void give(void* block, size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (cached_ + bytes <= kCPUCacheLimit) {
        free_.emplace(bytes, block);
        cached_ += bytes;
        return;
      }
    }
    std::free(block);
  }
  size_t empty() {
    std::unordered_multimap<size_t, void*> blocks;
    size_t bytes = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      blocks.swap(free_);
      std::swap(bytes, cached_);
    }
    for (const auto& [size, block] : blocks) std::free(block);
    return bytes;
  }
  size_t cached() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_;
  }

 private:
  std::mutex mutex_;
  std::unordered_multimap<size_t, void*> free_;
  size_t cached_ = 0;
};

LargeBlockCache& large_blocks() {
  static LargeBlockCache* cache = new LargeBlockCache();  // never destroyed: tensors may outlive statics
  return *cache;
}

void free_large_block(void* block) {
  large_blocks().give(block, *static_cast<const size_t*>(block));
}

class CPUAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    if (nbytes == 0) return DataPtr(nullptr, nullptr, nullptr, Device(kCPU));
    if (kCacheLargeBlocks && nbytes >= kCPULargeBlock) {
      const size_t bytes = (nbytes + kCPUAlignment + kLargeGranule - 1) / kLargeGranule * kLargeGranule;
      void* block = large_blocks().take(bytes);
      if (!block) block = std::aligned_alloc(kCPUAlignment, bytes);
      MT_CHECK(block != nullptr, "DefaultCPUAllocator: not enough memory: you tried to allocate ", nbytes, " bytes.");
      *static_cast<size_t*>(block) = bytes;
      return DataPtr(static_cast<char*>(block) + kCPUAlignment, block, &free_large_block, Device(kCPU));
    }
    // aligned_alloc wants a multiple of the alignment.
    const size_t rounded = (nbytes + kCPUAlignment - 1) / kCPUAlignment * kCPUAlignment;
    void* p = std::aligned_alloc(kCPUAlignment, rounded);
    MT_CHECK(p != nullptr, "DefaultCPUAllocator: not enough memory: you tried to allocate ", nbytes, " bytes.");
    return DataPtr(p, p, &std::free, Device(kCPU));
  }
};

class MetaAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t) override { return DataPtr(nullptr, nullptr, nullptr, Device(kMeta)); }
};

CPUAllocator cpu_allocator;
MetaAllocator meta_allocator;

std::array<std::atomic<Allocator*>, 4>& allocators() {
  static std::array<std::atomic<Allocator*>, 4> table{&cpu_allocator, nullptr, &meta_allocator, nullptr};
  return table;
}

}  // namespace

Allocator* get_default_cpu_allocator() { return &cpu_allocator; }

size_t cpu_empty_cache() { return large_blocks().empty(); }
size_t cpu_cached_bytes() { return large_blocks().cached(); }

void Allocator::copy_to_host(void* dst, const void* src, size_t nbytes) const { std::memcpy(dst, src, nbytes); }

Allocator* get_allocator(DeviceType t) {
  Allocator* a = allocators()[static_cast<int>(t)].load(std::memory_order_acquire);
  MT_CHECK(a != nullptr || t != kCUDA,
           "Cannot allocate memory on cuda: microtorch was built without CUDA support (configure with "
           "-DMT_CUDA=ON on a machine with the CUDA toolkit)");
  MT_CHECK(a != nullptr, "No allocator is registered for device type '", t,
           "'; a backend registers one with mt::set_allocator");
  return a;
}

void set_allocator(DeviceType t, Allocator* allocator) {
  allocators()[static_cast<int>(t)].store(allocator, std::memory_order_release);
}

}  // namespace mt
