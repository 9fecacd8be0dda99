#pragma once
// A Storage is refcounted device memory: the bytes, their size, device and allocator, plus the version
// counter that every tensor viewing these bytes shares (in-place ops bump it; autograd checks it).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "tensor/Allocator.h"
#include "tensor/intrusive_ptr.h"

namespace mt {

namespace detail {
// One allocation holding a TensorImpl, its StorageImpl and (on CPU) the data, so that a new tensor
// costs one malloc. Freed when both objects in it are gone: a view may outlive the TensorImpl that
// made the storage, and a TensorImpl may switch to another storage.
struct SharedBlock {
  std::atomic<int> live_objects{2};
  void release() {
    if (live_objects.fetch_sub(1, std::memory_order_acq_rel) == 1) std::free(this);
  }
};
}  // namespace detail

class StorageImpl final : public intrusive_ptr_target {
 public:
  StorageImpl(DataPtr data, size_t nbytes, Allocator* allocator, detail::SharedBlock* block = nullptr)
      : data_(std::move(data)), nbytes_(nbytes), allocator_(allocator), block_(block) {}

  void* data() const { return data_.get(); }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return data_.device(); }
  Allocator* allocator() const { return allocator_; }
  std::atomic<uint32_t>& version_counter() { return version_; }

 protected:
  void release_resources_and_free() override {
    if (!block_) {
      delete this;
      return;
    }
    detail::SharedBlock* block = block_;
    this->~StorageImpl();
    block->release();
  }

 private:
  DataPtr data_;
  size_t nbytes_;
  Allocator* allocator_;
  detail::SharedBlock* block_;
  std::atomic<uint32_t> version_{0};
};

}  // namespace mt
