#pragma once
// Intrusive reference counting: the count lives inside the object, so copying a handle is one atomic
// increment and a tensor needs no separate control block.
#include <atomic>
#include <cstdint>
#include <utility>

namespace mt {

class intrusive_ptr_target {
 public:
  intrusive_ptr_target() = default;
  // Copying an object must not copy its count.
  intrusive_ptr_target(const intrusive_ptr_target&) : refcount_(0) {}
  intrusive_ptr_target& operator=(const intrusive_ptr_target&) { return *this; }

  uint32_t use_count() const { return refcount_.load(std::memory_order_relaxed); }

 protected:
  virtual ~intrusive_ptr_target() = default;
  // Called when the last reference goes away. The default deletes; objects that live inside a shared
  // block (see TensorImpl) override it.
  virtual void release_resources_and_free() { delete this; }

 private:
  template <typename T>
  friend class intrusive_ptr;
  mutable std::atomic<uint32_t> refcount_{0};
};

template <typename T>
class intrusive_ptr {
 public:
  intrusive_ptr() = default;
  intrusive_ptr(std::nullptr_t) {}
  // Takes a new reference to `p`.
  explicit intrusive_ptr(T* p) : ptr_(p) { retain(); }
  intrusive_ptr(const intrusive_ptr& o) : ptr_(o.ptr_) { retain(); }
  intrusive_ptr(intrusive_ptr&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)) {}
  template <typename U>
  intrusive_ptr(intrusive_ptr<U>&& o) noexcept : ptr_(o.release()) {}
  template <typename U>
  intrusive_ptr(const intrusive_ptr<U>& o) : ptr_(o.get()) { retain(); }
  ~intrusive_ptr() { reset(); }

  intrusive_ptr& operator=(const intrusive_ptr& o) {
    intrusive_ptr(o).swap(*this);
    return *this;
  }
  intrusive_ptr& operator=(intrusive_ptr&& o) noexcept {
    intrusive_ptr(std::move(o)).swap(*this);
    return *this;
  }

  template <typename... Args>
  static intrusive_ptr make(Args&&... args) {
    return intrusive_ptr(new T(std::forward<Args>(args)...));
  }
  // Adopts a pointer whose reference was already counted (the inverse of release()).
  static intrusive_ptr reclaim(T* p) {
    intrusive_ptr r;
    r.ptr_ = p;
    return r;
  }

  T* get() const { return ptr_; }
  T* operator->() const { return ptr_; }
  T& operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  uint32_t use_count() const { return ptr_ ? ptr_->use_count() : 0; }
  bool defined() const { return ptr_ != nullptr; }

  T* release() { return std::exchange(ptr_, nullptr); }
  void reset() {
    if (ptr_ && ptr_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      static_cast<intrusive_ptr_target*>(ptr_)->release_resources_and_free();
    ptr_ = nullptr;
  }
  void swap(intrusive_ptr& o) noexcept { std::swap(ptr_, o.ptr_); }

  bool operator==(const intrusive_ptr& o) const { return ptr_ == o.ptr_; }

 private:
  void retain() {
    if (ptr_) ptr_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  T* ptr_ = nullptr;
};

template <typename T, typename... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>::make(std::forward<Args>(args)...);
}

}  // namespace mt
