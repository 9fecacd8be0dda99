#pragma once
// Sizes and strides of a tensor, stored inline for up to kInlineDims dims so that the common tensor
// needs no allocation for its shape; more dims spill to one heap array holding both.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "tensor/ArrayRef.h"

namespace mt {

class SizesAndStrides {
 public:
  static constexpr size_t kInlineDims = 5;

  SizesAndStrides() = default;
  SizesAndStrides(const SizesAndStrides& o) { copy_from(o); }
  SizesAndStrides& operator=(const SizesAndStrides& o) {
    if (this != &o) {
      resize(o.size_);
      std::memcpy(sizes_data(), o.sizes_data(), size_ * sizeof(int64_t));
      std::memcpy(strides_data(), o.strides_data(), size_ * sizeof(int64_t));
    }
    return *this;
  }
  ~SizesAndStrides() {
    if (!is_inline()) delete[] heap_;
  }

  size_t size() const { return size_; }
  IntArrayRef sizes() const { return {sizes_data(), size_}; }
  IntArrayRef strides() const { return {strides_data(), size_}; }
  int64_t* sizes_data() { return is_inline() ? inline_.sizes : heap_; }
  int64_t* strides_data() { return is_inline() ? inline_.strides : heap_ + size_; }
  const int64_t* sizes_data() const { return is_inline() ? inline_.sizes : heap_; }
  const int64_t* strides_data() const { return is_inline() ? inline_.strides : heap_ + size_; }

  // Sets both at once; sizes and strides must have the same length.
  void set(IntArrayRef sizes, IntArrayRef strides) {
    resize(sizes.size());
    std::copy(sizes.begin(), sizes.end(), sizes_data());
    std::copy(strides.begin(), strides.end(), strides_data());
  }

  // Keeps the first min(old, new) entries of each.
  void resize(size_t n) {
    if (n == size_) return;
    const bool was_inline = is_inline();
    const bool now_inline = n <= kInlineDims;
    const size_t keep = std::min(n, size_);
    if (was_inline && now_inline) {
      size_ = n;
      return;
    }
    int64_t tmp[2 * kInlineDims];
    int64_t* new_heap = now_inline ? nullptr : new int64_t[2 * n];
    int64_t* dst_sizes = now_inline ? tmp : new_heap;
    int64_t* dst_strides = now_inline ? tmp + kInlineDims : new_heap + n;
    std::memcpy(dst_sizes, sizes_data(), keep * sizeof(int64_t));
    std::memcpy(dst_strides, strides_data(), keep * sizeof(int64_t));
    if (!was_inline) delete[] heap_;
    size_ = n;
    if (now_inline) {
      std::memcpy(inline_.sizes, tmp, keep * sizeof(int64_t));
      std::memcpy(inline_.strides, tmp + kInlineDims, keep * sizeof(int64_t));
    } else {
      heap_ = new_heap;
    }
  }

 private:
  bool is_inline() const { return size_ <= kInlineDims; }
  void copy_from(const SizesAndStrides& o) {
    size_ = 0;
    resize(o.size_);
    std::memcpy(sizes_data(), o.sizes_data(), size_ * sizeof(int64_t));
    std::memcpy(strides_data(), o.strides_data(), size_ * sizeof(int64_t));
  }

  size_t size_ = 0;
  union {
    struct {
      int64_t sizes[kInlineDims];
      int64_t strides[kInlineDims];
    } inline_;
    int64_t* heap_;  // 2 * size_: sizes then strides
  };
};

}  // namespace mt
