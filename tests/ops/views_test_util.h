#pragma once
// Helpers of the view, joining and indexing tests: geometry checks, storage identity, and naive
// coordinate-based references (an element at a multi-index, read through the logical shape only).
#include <functional>
#include <vector>

#include "reference.h"
#include "ops/api/empty.h"
#include "ops/api/t.h"
#include "ops/api/view.h"

namespace mt::testing {

using Coords = std::vector<int64_t>;

inline void expect_geometry(const Tensor& t, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                            int64_t offset) {
  EXPECT_EQ(t.sizes(), IntArrayRef(sizes)) << "sizes " << t.sizes();
  EXPECT_EQ(t.strides(), IntArrayRef(strides)) << "strides " << t.strides();
  EXPECT_EQ(t.storage_offset(), offset);
}

inline bool same_storage(const Tensor& a, const Tensor& b) {
  return a.unsafeGetTensorImpl()->storage().get() == b.unsafeGetTensorImpl()->storage().get();
}

// A view shares the storage and reads from it at its own offset: its first element sits
// `storage_offset` elements into the storage.
inline void expect_view_of(const Tensor& view, const Tensor& base) {
  EXPECT_TRUE(same_storage(view, base));
  EXPECT_FALSE(view.is_same(base));
  if (view.is_meta()) return;
  const char* storage = static_cast<const char*>(base.unsafeGetTensorImpl()->storage()->data());
  EXPECT_EQ(static_cast<const char*>(view.data_ptr()),
            storage + view.storage_offset() * static_cast<int64_t>(view.element_size()));
}

// Calls f(coords) for every multi-index of `shape` in row-major order.
inline void for_each_coord(IntArrayRef shape, const std::function<void(const Coords&)>& f) {
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  Coords c(shape.size(), 0);
  for (int64_t n = 0; n < numel; ++n) {
    f(c);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++c[d] < shape[d]) break;
      c[d] = 0;
    }
  }
}

// t's element at `coords`, found through its logical shape (row-major flat index).
inline double at(const Tensor& t, const Coords& coords) {
  int64_t flat = 0;
  for (int64_t d = 0; d < t.dim(); ++d) flat = flat * t.size(d) + coords[d];
  return element(t, flat);
}

// The values of a tensor of `shape` whose element at c is f(c), in row-major order.
inline std::vector<double> reference(IntArrayRef shape, const std::function<double(const Coords&)>& f) {
  std::vector<double> out;
  for_each_coord(shape, [&](const Coords& c) { out.push_back(f(c)); });
  return out;
}

// 0, 1, 2, ... in `dtype` (booleans alternate), so every position holds a telling value.
inline Tensor iota(std::vector<int64_t> sizes, ScalarType dtype = kFloat32) {
  Tensor out = mt::empty(sizes, TensorOptions(dtype));
  for (int64_t i = 0; i < out.numel(); ++i) {
    switch (dtype) {
      case kBool: out.data_ptr<bool>()[i] = i % 2 != 0; break;
      case kInt64: out.data_ptr<int64_t>()[i] = i; break;
      case kFloat32: out.data_ptr<float>()[i] = static_cast<float>(i); break;
      case kFloat64: out.data_ptr<double>()[i] = static_cast<double>(i); break;
      case kFloat16: out.data_ptr<Half>()[i] = Half(static_cast<float>(i % 2048)); break;
      case kBFloat16: out.data_ptr<BFloat16>()[i] = BFloat16(static_cast<float>(i % 256)); break;
      default: ADD_FAILURE() << "unknown dtype";
    }
  }
  return out;
}

inline const ScalarType kEveryDtype[] = {kBool, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};

inline TensorOptions meta_options(ScalarType dtype = kFloat32) { return TensorOptions(dtype).device(Device("meta")); }

}  // namespace mt::testing
