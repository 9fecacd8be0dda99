#pragma once
// A vector that keeps its first N elements inline, so short sequences (a boxed call's Stack) cost no
// allocation. Supports the subset of std::vector the library uses.
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <new>
#include <utility>

#include "tensor/ArrayRef.h"

namespace mt {

template <typename T, size_t N>
class SmallVector {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = size_t;

  SmallVector() = default;
  SmallVector(std::initializer_list<T> init) {
    reserve(init.size());
    for (const T& v : init) push_back(v);
  }
  SmallVector(const SmallVector& o) {
    reserve(o.size_);
    std::uninitialized_copy(o.begin(), o.end(), data_);
    size_ = o.size_;
  }
  SmallVector(SmallVector&& o) noexcept { take(std::move(o)); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) {
      clear();
      reserve(o.size_);
      std::uninitialized_copy(o.begin(), o.end(), data_);
      size_ = o.size_;
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      clear();
      free_heap();
      take(std::move(o));
    }
    return *this;
  }
  ~SmallVector() {
    clear();
    free_heap();
  }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& at(size_t i) { return data_[i]; }
  T& front() { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  operator ArrayRef<T>() const { return {data_, size_}; }

  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) grow(std::max<size_t>(2 * capacity_, size_ + 1));
    T* p = new (data_ + size_) T(std::forward<Args>(args)...);
    ++size_;
    return *p;
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  void pop_back() { data_[--size_].~T(); }
  void clear() {
    std::destroy(begin(), end());
    size_ = 0;
  }
  void resize(size_t n) {
    reserve(n);
    while (size_ < n) emplace_back();
    while (size_ > n) pop_back();
  }
  T* erase(T* first, T* last) {
    T* new_end = std::move(last, end(), first);
    std::destroy(new_end, end());
    size_ -= static_cast<size_t>(last - first);
    return first;
  }
  T* erase(T* pos) { return erase(pos, pos + 1); }
  T* insert(T* pos, T value) {
    const size_t idx = static_cast<size_t>(pos - data_);
    emplace_back(std::move(value));
    std::rotate(data_ + idx, data_ + size_ - 1, data_ + size_);
    return data_ + idx;
  }

 private:
  bool is_inline() const { return data_ == inline_data(); }
  T* inline_data() { return std::launder(reinterpret_cast<T*>(inline_)); }
  const T* inline_data() const { return std::launder(reinterpret_cast<const T*>(inline_)); }
  void grow(size_t n) {
    T* heap = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(alignof(T))));
    std::uninitialized_move(begin(), end(), heap);
    std::destroy(begin(), end());
    free_heap();
    data_ = heap;
    capacity_ = n;
  }
  void free_heap() {
    if (!is_inline()) ::operator delete(data_, std::align_val_t(alignof(T)));
    data_ = inline_data();
    capacity_ = N;
  }
  void take(SmallVector&& o) {
    if (o.is_inline()) {
      std::uninitialized_move(o.begin(), o.end(), data_);
      size_ = o.size_;
      o.clear();
    } else {
      data_ = o.data_;
      size_ = o.size_;
      capacity_ = o.capacity_;
      o.data_ = o.inline_data();
      o.size_ = 0;
      o.capacity_ = N;
    }
  }

  T* data_ = inline_data();
  size_t size_ = 0;
  size_t capacity_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

}  // namespace mt
