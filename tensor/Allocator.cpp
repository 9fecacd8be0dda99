#include "tensor/Allocator.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "tensor/Error.h"

namespace mt {

namespace {

class CPUAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    if (nbytes == 0) return DataPtr(nullptr, nullptr, nullptr, Device(kCPU));
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
