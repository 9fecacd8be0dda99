#pragma once
// Allocators hand out device memory. Each device type has one registered allocator; CPU memory is
// 64-byte aligned, Meta hands out nothing, and a backend (CUDA, PrivateUse1) registers its own.
#include <cstddef>

#include "tensor/Device.h"

namespace mt {

// Owning pointer to device memory: `deleter(ctx)` frees it (no deleter: nothing to free).
class DataPtr {
 public:
  using Deleter = void (*)(void*);
  DataPtr() = default;
  DataPtr(void* data, void* ctx, Deleter deleter, Device device)
      : data_(data), ctx_(ctx), deleter_(deleter), device_(device) {}
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  DataPtr(DataPtr&& o) noexcept : data_(o.data_), ctx_(o.ctx_), deleter_(o.deleter_), device_(o.device_) {
    o.data_ = o.ctx_ = nullptr;
    o.deleter_ = nullptr;
  }
  DataPtr& operator=(DataPtr&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = o.data_;
      ctx_ = o.ctx_;
      deleter_ = o.deleter_;
      device_ = o.device_;
      o.data_ = o.ctx_ = nullptr;
      o.deleter_ = nullptr;
    }
    return *this;
  }
  ~DataPtr() { reset(); }

  void* get() const { return data_; }
  Device device() const { return device_; }
  void reset() {
    if (deleter_) deleter_(ctx_);
    data_ = ctx_ = nullptr;
    deleter_ = nullptr;
  }

 private:
  void* data_ = nullptr;
  void* ctx_ = nullptr;
  Deleter deleter_ = nullptr;
  Device device_ = Device(kCPU);
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual DataPtr allocate(size_t nbytes) = 0;
  // Copies bytes of this allocator's memory to host memory, once the work that writes them is done:
  // how item() and printing read a device tensor without dispatching an op.
  virtual void copy_to_host(void* dst, const void* src, size_t nbytes) const;
};

constexpr size_t kCPUAlignment = 64;

// The allocator new tensors on `t` use. Registration is for backends, at start-up.
Allocator* get_allocator(DeviceType t);
void set_allocator(DeviceType t, Allocator* allocator);
// The built-in CPU allocator; tensors it serves may share one allocation with their metadata.
Allocator* get_default_cpu_allocator();

}  // namespace mt
