#pragma once
// A non-owning view of a contiguous array, like PyTorch's ArrayRef. Unlike std::span it binds to an
// initializer list, so `t.view({2, 3})` works; the list only lives until the end of the full expression.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <vector>

namespace mt {

template <typename T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}
  constexpr ArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  constexpr ArrayRef(const T* begin, const T* end) : data_(begin), size_(end - begin) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& v) : data_(v.data()), size_(v.size()) {}
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N>& a) : data_(a.data()), size_(N) {}
  template <size_t N>
  constexpr ArrayRef(const T (&a)[N]) : data_(a), size_(N) {}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  constexpr ArrayRef(const std::initializer_list<T>& l) : data_(l.begin()), size_(l.size()) {}
#pragma GCC diagnostic pop

  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  constexpr const T& front() const { return data_[0]; }
  constexpr const T& back() const { return data_[size_ - 1]; }
  constexpr ArrayRef slice(size_t start, size_t n) const { return {data_ + start, n}; }
  constexpr ArrayRef slice(size_t start) const { return {data_ + start, size_ - start}; }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

  bool operator==(ArrayRef o) const {
    if (size_ != o.size_) return false;
    for (size_t i = 0; i < size_; ++i)
      if (!(data_[i] == o.data_[i])) return false;
    return true;
  }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

using IntArrayRef = ArrayRef<int64_t>;

// Prints "[2, 3]" as PyTorch prints sizes.
template <typename T>
std::ostream& operator<<(std::ostream& os, ArrayRef<T> a) {
  os << "[";
  for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os << "]";
}

}  // namespace mt
