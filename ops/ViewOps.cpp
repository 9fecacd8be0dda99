// The primitive view ops (view, as_strided, squeeze, unsqueeze, transpose, permute, expand, select,
// slice, diagonal) and clone. Each view is a new TensorImpl over self's StorageImpl with strides
// computed as PyTorch computes them; nothing is copied and no version counter moves.
//
// They are registered at CompositeExplicitAutograd rather than at CPU and Meta: they read and write
// only sizes, strides and the storage offset, never data, so one kernel is right for every backend
// whose tensors are TensorImpls over a StorageImpl (CPU, Meta, CUDA, PrivateUse1), and a new backend
// gets them without registering anything. Being "Explicit", they keep their own autograd formulas.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

#include "dispatch/Library.h"
#include "ops/api/as_strided.h"
#include "ops/api/clone.h"
#include "ops/api/diagonal.h"
#include "ops/api/expand.h"
#include "ops/api/permute.h"
#include "ops/api/select.h"
#include "ops/api/slice.h"
#include "ops/api/squeeze.h"
#include "ops/api/transpose.h"
#include "ops/api/unsqueeze.h"
#include "ops/api/view.h"
#include "ops/Views.h"

namespace mt {

Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  auto impl = TensorImpl::view_of(*self.unsafeGetTensorImpl());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

DimVector infer_view_size(IntArrayRef shape, int64_t numel) {
  DimVector out = to_dim_vector(shape);
  std::optional<size_t> inferred;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      MT_CHECK(!inferred, "only one dimension can be inferred");
      inferred = i;
    } else {
      MT_CHECK(shape[i] >= 0, "invalid shape dimension ", shape[i]);
      known *= shape[i];
    }
  }
  if (inferred && known == 0 && numel == 0) {
    MT_CHECK(false, "cannot reshape tensor of 0 elements into shape ", shape,
             " because the unspecified dimension size -1 can be any value and is ambiguous");
  }
  const bool fits = inferred ? known > 0 && numel % known == 0 : known == numel;
  MT_CHECK(fits, "shape '", shape, "' is invalid for input of size ", numel);
  if (inferred) out[*inferred] = numel / known;
  return out;
}

std::optional<DimVector> compute_view_strides(IntArrayRef sizes, IntArrayRef strides, IntArrayRef new_sizes) {
  DimVector out;
  out.resize(new_sizes.size());
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  if (numel == 0) {
    // No element is ever read, so any strides do; PyTorch keeps them for an unchanged shape.
    if (sizes == new_sizes) return to_dim_vector(strides);
    compute_contiguous_strides(new_sizes, out.data());
    return out;
  }
  // A 0-dim tensor reads like one dim of one element.
  static constexpr int64_t kOne[] = {1};
  if (sizes.empty()) {
    sizes = kOne;
    strides = kOne;
  }
  // Walk the old dims from the innermost in "chunks": runs of dims that step through memory as one
  // dim would (each stride is the next one times the next size; size-1 dims never break a run). The
  // new dims must split every chunk evenly; size-1 new dims go where they are met.
  int64_t nd = static_cast<int64_t>(new_sizes.size()) - 1;
  for (int64_t od = static_cast<int64_t>(sizes.size()) - 1; od >= 0;) {
    const int64_t base = strides[od];
    int64_t chunk_numel = sizes[od];
    int64_t first = od;
    while (first > 0 && (sizes[first - 1] == 1 || strides[first - 1] == chunk_numel * base)) {
      chunk_numel *= sizes[--first];
    }
    int64_t view_numel = 1;
    while (nd >= 0 && (view_numel < chunk_numel || new_sizes[nd] == 1)) {
      out[nd] = view_numel * base;
      view_numel *= new_sizes[nd];
      --nd;
    }
    if (view_numel != chunk_numel) return std::nullopt;
    od = first - 1;
  }
  if (nd != -1) return std::nullopt;
  return out;
}

bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  // Dims of size < 2 do not matter; the others, innermost stride first, must tile memory exactly.
  DimVector dims;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] >= 2) dims.push_back(static_cast<int64_t>(d));
  std::stable_sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (int64_t d : dims) {
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

DimVector memory_order(IntArrayRef sizes, ArrayRef<IntArrayRef> operand_strides) {
  const int64_t n = static_cast<int64_t>(sizes.size());
  // > 0: dim `inner` belongs outside dim `outer`; 0: no operand can tell.
  auto compare = [&](int64_t inner, int64_t outer) {
    for (IntArrayRef strides : operand_strides) {
      const int64_t si = strides[inner], so = strides[outer];
      if (si == 0 || so == 0) continue;
      if (si != so) return si < so ? -1 : 1;
      if (sizes[inner] > sizes[outer]) return 1;
    }
    return 0;
  };
  // Start from row-major order and insertion-sort; an undecided pair is stepped over, not swapped.
  DimVector order;
  for (int64_t d = n - 1; d >= 0; --d) order.push_back(d);
  for (int64_t i = 1; i < n; ++i) {
    int64_t moving = i;
    for (int64_t j = i - 1; j >= 0; --j) {
      const int c = compare(order[j], order[moving]);
      if (c < 0) break;
      if (c > 0) {
        std::swap(order[j], order[moving]);
        moving = j;
      }
    }
  }
  return order;
}

DimVector dense_strides(IntArrayRef sizes, IntArrayRef order) {
  DimVector out;
  out.resize(sizes.size());
  int64_t stride = 1;
  for (int64_t d : order) {
    out[d] = stride;
    stride *= std::max<int64_t>(sizes[d], 1);
  }
  return out;
}

DimVector dense_strides_like(IntArrayRef sizes, IntArrayRef strides) {
  const DimVector order = memory_order(sizes, ArrayRef<IntArrayRef>(strides));
  return dense_strides(sizes, order);
}

DimVector preserve_format_strides(const TensorBase& self) {
  return is_non_overlapping_and_dense(self.sizes(), self.strides()) ? to_dim_vector(self.strides())
                                                                    : dense_strides_like(self.sizes(), self.strides());
}

Tensor narrow_view(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  DimVector sizes = to_dim_vector(self.sizes());
  sizes[dim] = length;
  return make_view(self, sizes, self.strides(), self.storage_offset() + start * self.stride(dim));
}

Tensor expand_view(const Tensor& self, IntArrayRef size) {
  const int64_t n = static_cast<int64_t>(size.size()), old = self.dim();
  MT_CHECK(n >= old, "expand(", self.toString(), ", size=", size, "): the number of sizes provided (", n,
           ") must be greater or equal to the number of dimensions in the tensor (", old, ")");
  DimVector sizes, strides;
  sizes.resize(n);
  strides.resize(n);
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t d = i - (n - old);  // the matching dim of self, or < 0 for a new leading dim
    int64_t extent = d >= 0 ? self.size(d) : 1;
    // A new leading dim of size 1 steps over everything inside it (0 when nothing is inside).
    int64_t stride = d >= 0 ? self.stride(d) : (i + 1 < n ? sizes[i + 1] * strides[i + 1] : 0);
    int64_t target = size[i];
    if (target == -1) {
      MT_CHECK(d >= 0, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ", i);
      target = extent;
    }
    if (target != extent) {
      MT_CHECK(extent == 1, "The expanded size of the tensor (", target, ") must match the existing size (", extent,
               ") at non-singleton dimension ", i, ".  Target sizes: ", size, ".  Tensor sizes: ", self.sizes());
      MT_CHECK(target >= 0, "Trying to create tensor with negative dimension ", target, ": ", size);
      extent = target;
      stride = 0;
    }
    sizes[i] = extent;
    strides[i] = stride;
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

namespace {

Tensor view(const Tensor& self, IntArrayRef size) {
  const DimVector shape = infer_view_size(size, self.numel());
  const std::optional<DimVector> strides = compute_view_strides(self.sizes(), self.strides(), shape);
  MT_CHECK(strides.has_value(),
           "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
           "two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(self, shape, *strides, self.storage_offset());
}

Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride, std::optional<int64_t> storage_offset) {
  MT_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  MT_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  bool empty = false;
  for (size_t d = 0; d < size.size(); ++d) {
    MT_CHECK(size[d] >= 0, "Trying to create tensor with negative dimension ", size[d], ": ", size);
    MT_CHECK(stride[d] >= 0, "as_strided: Negative strides are not supported at the moment, got strides: ", stride);
    empty = empty || size[d] == 0;
  }
  // Every element read must lie inside the storage (an empty view reads nothing). The byte count of the
  // last element is computed with overflow checks: huge strides would otherwise wrap around to a small
  // number and pass.
  const int64_t itemsize = static_cast<int64_t>(self.element_size());
  int64_t needed = 0;
  bool overflow = false;
  if (!empty) {
    int64_t last = offset;
    for (size_t d = 0; d < size.size(); ++d) {
      int64_t span = 0;
      overflow = overflow || __builtin_mul_overflow(size[d] - 1, stride[d], &span) ||
                 __builtin_add_overflow(last, span, &last);
    }
    overflow = overflow || __builtin_add_overflow(last, 1, &last) || __builtin_mul_overflow(last, itemsize, &needed);
  }
  const int64_t available = static_cast<int64_t>(self.unsafeGetTensorImpl()->storage()->nbytes());
  MT_CHECK(!overflow && needed <= available, "setStorage: sizes ", size, ", strides ", stride, ", storage offset ",
           offset, ", and itemsize ", itemsize, " requiring a storage size of ",
           overflow ? "more than " + std::to_string(INT64_MAX) : std::to_string(needed),
           " are out of bounds for storage of size ", available);
  return make_view(self, size, stride, offset);
}

// self without the dims `removed` picks, starting at `storage_offset`.
Tensor remove_dims(const Tensor& self, int64_t storage_offset, const std::function<bool(int64_t)>& removed) {
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (removed(d)) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  return make_view(self, sizes, strides, storage_offset);
}

Tensor squeeze(const Tensor& self) {
  return remove_dims(self, self.storage_offset(), [&](int64_t d) { return self.size(d) == 1; });
}

Tensor squeeze_dim(const Tensor& self, int64_t dim) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  return remove_dims(self, self.storage_offset(), [&](int64_t i) { return i == d && self.size(i) == 1; });
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  const int64_t d = maybe_wrap_dim(dim, self.dim() + 1);
  DimVector sizes = to_dim_vector(self.sizes()), strides = to_dim_vector(self.strides());
  // The new dim steps over the whole dim it is put in front of (1 when it is the innermost).
  const int64_t stride = d == self.dim() ? 1 : self.size(d) * self.stride(d);
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, stride);
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  const int64_t a = maybe_wrap_dim(dim0, self.dim()), b = maybe_wrap_dim(dim1, self.dim());
  DimVector sizes = to_dim_vector(self.sizes()), strides = to_dim_vector(self.strides());
  if (self.dim() > 0) {
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  const int64_t n = self.dim();
  MT_CHECK(static_cast<int64_t>(dims.size()) == n,
           "permute(): number of dimensions in the tensor input does not match the length of the desired ordering "
           "of dimensions i.e. input.dim() = ", n, " is not equal to len(dims) = ", dims.size());
  DimVector sizes, strides;
  SmallVector<bool, 6> seen;
  seen.resize(n);
  for (int64_t dim : dims) {
    const int64_t d = maybe_wrap_dim(dim, n);
    MT_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor expand(const Tensor& self, IntArrayRef size, bool /*implicit: only tells autograd it was broadcasting*/) {
  return expand_view(self, size);
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  MT_CHECK_INDEX(self.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  MT_CHECK_INDEX(index >= -size && index < size, "select(): index ", index, " out of range for tensor of size ",
                 self.sizes(), " at dimension ", d);
  if (index < 0) index += size;
  return remove_dims(self, self.storage_offset() + index * self.stride(d), [d](int64_t i) { return i == d; });
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  MT_CHECK_INDEX(self.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  MT_CHECK(step != 0, "slice step cannot be zero");
  MT_CHECK(step > 0, "slice step must be positive");
  // Python's clamping: negative bounds count from the end, then both are clamped into [0, size].
  const int64_t size = self.size(d);
  auto clamp_bound = [size](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + size : v, 0, size); };
  const int64_t first = clamp_bound(start.value_or(0));
  const int64_t last = std::max(first, end ? clamp_bound(*end) : size);
  DimVector sizes = to_dim_vector(self.sizes()), strides = to_dim_vector(self.strides());
  sizes[d] = (last - first + step - 1) / step;
  strides[d] *= step;
  return make_view(self, sizes, strides, self.storage_offset() + first * self.stride(d));
}

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t a = maybe_wrap_dim(dim1, self.dim()), b = maybe_wrap_dim(dim2, self.dim());
  MT_CHECK(a != b, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t length = std::max<int64_t>(
      offset >= 0 ? std::min(self.size(a), self.size(b) - offset) : std::min(self.size(a) + offset, self.size(b)), 0);
  int64_t storage_offset = self.storage_offset();
  if (length > 0) storage_offset += offset >= 0 ? offset * self.stride(b) : -offset * self.stride(a);
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d == a || d == b) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  sizes.push_back(length);
  strides.push_back(self.stride(a) + self.stride(b));
  return make_view(self, sizes, strides, storage_offset);
}

Tensor clone(const Tensor& self) {
  Tensor out(TensorImpl::empty_strided(self.sizes(), preserve_format_strides(self), self.dtype(), self.device()));
  out.copy_(self);
  return out;
}

void register_kernels(Library& m) {
  m.impl("view", MT_FN(view));
  m.impl("as_strided", MT_FN(as_strided));
  m.impl("squeeze", MT_FN(squeeze));
  m.impl("squeeze.dim", MT_FN(squeeze_dim));
  m.impl("unsqueeze", MT_FN(unsqueeze));
  m.impl("transpose.int", MT_FN(transpose));
  m.impl("permute", MT_FN(permute));
  m.impl("expand", MT_FN(expand));
  m.impl("select.int", MT_FN(select));
  m.impl("slice.Tensor", MT_FN(slice));
  m.impl("diagonal", MT_FN(diagonal));
  // clone is a composition too (allocate, then the copy_ op), so every backend with copy_ has it.
  m.impl("clone", MT_FN(clone));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) { register_kernels(m); }

// PyTorch's C++ a[i]: select along the first dim.
Tensor Tensor::operator[](int64_t index) const { return select(0, index); }

}  // namespace mt
