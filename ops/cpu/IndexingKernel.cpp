// CPU loops of the indexing ops (gather, scatter, take, put, index bounds, one_hot's range) and of
// tril/triu. Each walks the elements of one shape (the index's, or the matrix rows') with an offset per
// operand, where self's offset skips `dim` and the index element supplies the position along it (take
// and put: the row-major position in all of self).
#include <algorithm>
#include <array>

#include "ops/Indexing.h"
#include "ops/infra/Parallel.h"
#include "ops/ScalarMath.h"
#include "ops/Views.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

// A shape to walk in row-major order, with the element strides of N operands over it.
template <size_t N>
struct Walk {
  DimVector sizes;
  std::array<DimVector, N> strides;
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
};

// Strides of t over `ndim` dims; a 0-dim tensor reads as one element.
DimVector strides_of(const TensorBase& t, int64_t ndim) {
  DimVector s = t.dim() == 0 ? DimVector{0} : to_dim_vector(t.strides());
  s.resize(ndim);
  return s;
}

// Walks index's shape; `restrided` operands get their strides with the one along `dim` zeroed, so
// their offset points at the start of the line the index element selects from.
template <size_t N>
Walk<N> index_walk(const TensorBase& index, int64_t dim, const std::array<const TensorBase*, N>& operands,
                   const std::array<bool, N>& restrided) {
  Walk<N> w;
  w.sizes = index.dim() == 0 ? DimVector{1} : to_dim_vector(index.sizes());
  for (size_t k = 0; k < N; ++k) {
    w.strides[k] = strides_of(*operands[k], static_cast<int64_t>(w.sizes.size()));
    if (restrided[k]) w.strides[k][dim] = 0;
  }
  return w;
}

int64_t dim_stride(const TensorBase& t, int64_t dim) { return t.dim() == 0 ? 0 : t.stride(dim); }

// Calls f(linear, offsets) for the elements [begin, end) of w's row-major order, where offsets[k] is
// operand k's element offset.
template <size_t N, typename F>
void walk(const Walk<N>& w, int64_t begin, int64_t end, const F& f) {
  const int64_t nd = static_cast<int64_t>(w.sizes.size());
  DimVector coord;
  coord.resize(nd);
  std::array<int64_t, N> off{};
  for (int64_t d = nd - 1, rest = begin; d >= 0; --d) {
    coord[d] = rest % w.sizes[d];
    rest /= w.sizes[d];
    for (size_t k = 0; k < N; ++k) off[k] += coord[d] * w.strides[k][d];
  }
  const int64_t in = nd - 1;
  while (begin < end) {
    const int64_t run = std::min(w.sizes[in] - coord[in], end - begin);
    for (int64_t i = 0; i < run; ++i) {
      f(begin + i, off);
      for (size_t k = 0; k < N; ++k) off[k] += w.strides[k][in];
    }
    begin += run;
    coord[in] += run;
    for (int64_t d = in; d > 0 && coord[d] == w.sizes[d]; --d) {
      for (size_t k = 0; k < N; ++k) off[k] += w.strides[k][d - 1] - coord[d] * w.strides[k][d];
      coord[d] = 0;
      ++coord[d - 1];
    }
  }
}

template <size_t N, typename F>
void parallel_walk(const Walk<N>& w, int64_t grain, const F& f) {
  parallel_for(0, w.numel(), grain, [&](int64_t begin, int64_t end) { walk(w, begin, end, f); });
}

void index_outside_kernel(const TensorBase& index, int64_t low, int64_t high, std::optional<int64_t>& outside) {
  const int64_t* idx = index.data_ptr<int64_t>();
  const auto w = index_walk<1>(index, 0, {&index}, {false});
  walk(w, 0, w.numel(), [&](int64_t, const std::array<int64_t, 1>& off) {
    const int64_t i = idx[off[0]];
    if (!outside && (i < low || i >= high)) outside = i;
  });
}

void index_min_max_kernel(const TensorBase& index, int64_t& min, int64_t& max) {
  const int64_t* idx = index.data_ptr<int64_t>();
  const auto w = index_walk<1>(index, 0, {&index}, {false});
  min = max = idx[0];
  walk(w, 0, w.numel(), [&](int64_t, const std::array<int64_t, 1>& off) {
    min = std::min(min, idx[off[0]]);
    max = std::max(max, idx[off[0]]);
  });
}

void gather_kernel(const TensorBase& out, const TensorBase& self, int64_t dim, const TensorBase& index) {
  const auto w = index_walk<3>(index, dim, {&out, &index, &self}, {false, false, true});
  const int64_t step = dim_stride(self, dim);
  const int64_t* idx = index.data_ptr<int64_t>();
  dispatch_all_types(self.dtype(), "gather", [&]<typename T>() {
    T* o = out.data_ptr<T>();
    const T* s = self.data_ptr<T>();
    parallel_walk(w, kParallelGrain,
                  [&](int64_t, const std::array<int64_t, 3>& off) { o[off[0]] = s[off[2] + idx[off[1]] * step]; });
  });
}

template <typename T>
void combine(T& dst, T v, ScatterOp op) {
  if (op == ScatterOp::Assign) {
    dst = v;
  } else if constexpr (std::is_same_v<T, bool>) {
    dst = dst || v;
  } else {
    dst = static_cast<T>(wrapping_add(opmath_t<T>(dst), opmath_t<T>(v)));
  }
}

// Serial: two index elements may name the same element of self.
void scatter_kernel(const TensorBase& self, int64_t dim, const TensorBase& index, const TensorBase& src, ScatterOp op) {
  const auto w = index_walk<3>(index, dim, {&index, &src, &self}, {false, false, true});
  const int64_t step = dim_stride(self, dim);
  const int64_t* idx = index.data_ptr<int64_t>();
  dispatch_all_types(self.dtype(), "scatter", [&]<typename T>() {
    T* s = self.data_ptr<T>();
    const T* from = src.data_ptr<T>();
    walk(w, 0, w.numel(), [&](int64_t, const std::array<int64_t, 3>& off) {
      combine(s[off[2] + idx[off[0]] * step], from[off[1]], op);
    });
  });
}

void scatter_fill_kernel(const TensorBase& self, int64_t dim, const TensorBase& index, const Scalar& value) {
  const auto w = index_walk<2>(index, dim, {&index, &self}, {false, true});
  const int64_t step = dim_stride(self, dim);
  const int64_t* idx = index.data_ptr<int64_t>();
  dispatch_all_types(self.dtype(), "scatter", [&]<typename T>() {
    T* s = self.data_ptr<T>();
    T v;
    if constexpr (std::is_same_v<T, bool>)
      v = value.toBool();
    else
      v = static_cast<T>(value.to<opmath_t<T>>());
    walk(w, 0, w.numel(), [&](int64_t, const std::array<int64_t, 2>& off) { s[off[1] + idx[off[0]] * step] = v; });
  });
}

// The element offset of each row-major position of a tensor of any strides.
class FlatOffsets {
 public:
  explicit FlatOffsets(const TensorBase& t)
      : sizes_(to_dim_vector(t.sizes())), strides_(to_dim_vector(t.strides())), contiguous_(t.is_contiguous()) {}
  int64_t operator()(int64_t flat) const {
    if (contiguous_) return flat;
    int64_t offset = 0;
    for (int64_t d = static_cast<int64_t>(sizes_.size()) - 1; d >= 0; --d) {
      offset += (flat % sizes_[d]) * strides_[d];
      flat /= sizes_[d];
    }
    return offset;
  }

 private:
  DimVector sizes_, strides_;
  bool contiguous_;
};

// out is contiguous in index's shape: its offset is the walk's position.
void take_kernel(const TensorBase& out, const TensorBase& self, const TensorBase& index) {
  const auto w = index_walk<1>(index, 0, {&index}, {false});
  const FlatOffsets self_offset(self);
  const int64_t numel = self.numel();
  const int64_t* idx = index.data_ptr<int64_t>();
  dispatch_all_types(self.dtype(), "take", [&]<typename T>() {
    T* o = out.data_ptr<T>();
    const T* s = self.data_ptr<T>();
    parallel_walk(w, kParallelGrain, [&](int64_t k, const std::array<int64_t, 1>& off) {
      const int64_t i = idx[off[0]];
      o[k] = s[self_offset(i < 0 ? i + numel : i)];
    });
  });
}

// Serial: two index elements may name the same element of self.
void put_kernel(const TensorBase& self, const TensorBase& index, const TensorBase& source, ScatterOp op) {
  const auto w = index_walk<1>(index, 0, {&index}, {false});
  const FlatOffsets self_offset(self), source_offset(source);
  const int64_t numel = self.numel();
  const int64_t* idx = index.data_ptr<int64_t>();
  dispatch_all_types(self.dtype(), "put_", [&]<typename T>() {
    T* s = self.data_ptr<T>();
    const T* from = source.data_ptr<T>();
    walk(w, 0, w.numel(), [&](int64_t k, const std::array<int64_t, 1>& off) {
      const int64_t i = idx[off[0]];
      combine(s[self_offset(i < 0 ? i + numel : i)], from[source_offset(k)], op);
    });
  });
}

// Walks the rows of the matrices (every dim but the last) and sweeps each row's columns.
void triangular_kernel(const TensorBase& out, const TensorBase& self, int64_t diagonal, bool upper) {
  const int64_t n = self.dim(), rows = self.size(-2), cols = self.size(-1);
  Walk<2> w;
  w.sizes = to_dim_vector(self.sizes());
  w.sizes.pop_back();
  w.strides = {to_dim_vector(out.strides()), to_dim_vector(self.strides())};
  for (auto& s : w.strides) s.pop_back();
  const int64_t out_col = out.stride(n - 1), self_col = self.stride(n - 1);
  dispatch_all_types(self.dtype(), upper ? "triu" : "tril", [&]<typename T>() {
    T* o = out.data_ptr<T>();
    const T* s = self.data_ptr<T>();
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(cols, 1));
    parallel_walk(w, grain, [&](int64_t row, const std::array<int64_t, 2>& off) {
      const int64_t r = row % rows;
      for (int64_t c = 0; c < cols; ++c) {
        // Column c of row r is on the (c - r)-th diagonal.
        const bool keep = upper ? c - r >= diagonal : c - r <= diagonal;
        o[off[0] + c * out_col] = keep ? s[off[1] + c * self_col] : T(0);
      }
    });
  });
}

}  // namespace

MT_REGISTER_STUB(index_outside_stub, kCPU, index_outside_kernel);
MT_REGISTER_STUB(index_min_max_stub, kCPU, index_min_max_kernel);
MT_REGISTER_STUB(gather_stub, kCPU, gather_kernel);
MT_REGISTER_STUB(scatter_stub, kCPU, scatter_kernel);
MT_REGISTER_STUB(scatter_fill_stub, kCPU, scatter_fill_kernel);
MT_REGISTER_STUB(take_stub, kCPU, take_kernel);
MT_REGISTER_STUB(put_stub, kCPU, put_kernel);
MT_REGISTER_STUB(triangular_stub, kCPU, triangular_kernel);

}  // namespace mt
