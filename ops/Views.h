#pragma once
// The geometry behind the view ops: a view is a new TensorImpl over the same StorageImpl with its own
// sizes, strides and offset. These helpers compute that geometry as PyTorch does, so other ops
// (cat, repeat, the indexing kernels) can make views without a trip through the dispatcher.
#include <optional>

#include "tensor/SmallVector.h"
#include "tensor/TensorBase.h"

namespace mt {

class Tensor;

using DimVector = SmallVector<int64_t, 6>;

inline DimVector to_dim_vector(IntArrayRef a) {
  DimVector v;
  v.reserve(a.size());
  for (int64_t x : a) v.push_back(x);
  return v;
}

// A tensor sharing self's storage (and so its version counter) with the given geometry. Nothing is
// checked: callers have proved the geometry stays inside the storage.
Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);

// `shape` with its one allowed -1 replaced so the product is `numel`, or PyTorch's error
// ("shape '[5, -1]' is invalid for input of size 24", "only one dimension can be inferred", ...).
DimVector infer_view_size(IntArrayRef shape, int64_t numel);

// Strides that let a tensor of (sizes, strides) be read as `new_sizes` without copying, or nullopt
// when some new dim would have to span memory the old dims do not lay out evenly.
std::optional<DimVector> compute_view_strides(IntArrayRef sizes, IntArrayRef strides, IntArrayRef new_sizes);

// Whether the elements fill a block of memory exactly once, in some order of the dims.
bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides);
// The dims of `sizes`, innermost first, in the order the operands lay them out in memory (PyTorch's
// TensorIterator dim reordering). For two dims the first operand whose strides tell them apart
// decides: a stride of 0 (broadcast) says nothing, and equal strides put the smaller dim inside. Dims
// no operand orders stay in row-major order.
DimVector memory_order(IntArrayRef sizes, ArrayRef<IntArrayRef> operand_strides);
// Dense strides that lay the dims out in `order` (innermost first).
DimVector dense_strides(IntArrayRef sizes, IntArrayRef order);
// Dense strides that keep the order of the dims in memory that `strides` has.
DimVector dense_strides_like(IntArrayRef sizes, IntArrayRef strides);
// PyTorch's preserve_format, the strides of a new tensor like self (clone, to, the *_like factories):
// self's own when they are dense, else dense ones in self's order (clone of a stepped transpose stays
// transposed).
DimVector preserve_format_strides(const TensorBase& self);

// self.expand(size) (with its errors), made here rather than through the dispatcher: for a kernel's own use
// (addmm's broadcast bias), where the view stays out of autograd's sight.
Tensor expand_view(const Tensor& self, IntArrayRef size);

// The view self[..., start:start+length:1, ...] along an already wrapped dim.
Tensor narrow_view(const Tensor& self, int64_t dim, int64_t start, int64_t length);

}  // namespace mt
