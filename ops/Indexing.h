#pragma once
// index_select, gather, scatter, scatter_add, one_hot, take, put, tril/triu: the shared part of each
// kernel (argument checks, output allocation; ops/Indexing.cpp, ops/Triangular.cpp) and the per-device
// stubs that hold the loops (ops/cpu/IndexingKernel.cpp). `dim` arguments reaching a stub are wrapped,
// and a 0-dim tensor is treated as one of shape [1].
#include <optional>

#include "ops/infra/DispatchStub.h"
#include "tensor/TensorBase.h"

namespace mt {

// The first element (in row-major order) of the non-empty int64 tensor `index` that lies outside
// [low, high), if any: the bounds checks of the indexing ops, which run before anything is written.
MT_DECLARE_STUB(index_outside_stub,
                void(const TensorBase& index, int64_t low, int64_t high, std::optional<int64_t>& outside));
// The smallest and largest element of a non-empty int64 tensor.
MT_DECLARE_STUB(index_min_max_stub, void(const TensorBase& index, int64_t& min, int64_t& max));

// out[i][j][k] = self[index[i][j][k]][j][k] for dim 0 (and likewise for other dims); out and index
// have one shape, self may be larger in the other dims. index_select passes an expanded index.
MT_DECLARE_STUB(gather_stub, void(const TensorBase& out, const TensorBase& self, int64_t dim, const TensorBase& index));

enum class ScatterOp { Assign, Add };
// self[index[i][j][k]][j][k] = (or +=) src[i][j][k] for dim 0; src has self's dtype.
MT_DECLARE_STUB(scatter_stub,
                void(const TensorBase& self, int64_t dim, const TensorBase& index, const TensorBase& src, ScatterOp op));
// self[index[i][j][k]][j][k] = value for dim 0.
MT_DECLARE_STUB(scatter_fill_stub, void(const TensorBase& self, int64_t dim, const TensorBase& index, const Scalar& value));

// take and put address self's elements by their row-major ("flat") position, whatever self's strides;
// a position p in [-numel, 0) means p + numel. Their checks that read no data (dtypes, devices, element
// counts), as PyTorch words them; the batching rules run them on the logical tensors.
void check_take(const TensorBase& self, const TensorBase& index);
void check_put(const TensorBase& self, const TensorBase& index, const TensorBase& source);
// Raises IndexError "out of range: tried to access index 10 on a tensor of 6 elements." for the first
// element of the int64 tensor `index` outside [-numel, numel).
void check_flat_bounds(const TensorBase& index, int64_t numel);
// out[i...] = self.flatten()[index[i...]]; out is contiguous with index's shape, the indices in bounds.
MT_DECLARE_STUB(take_stub, void(const TensorBase& out, const TensorBase& self, const TensorBase& index));
// self.flatten()[index[i...]] = (or +=) source.flatten()[k], k being i's row-major position; source has
// self's dtype and index's number of elements, the indices are in bounds.
MT_DECLARE_STUB(put_stub, void(const TensorBase& self, const TensorBase& index, const TensorBase& source, ScatterOp op));

// out = self with the elements above (`upper` false: tril) or below (`upper`: triu) the `diagonal`-th
// diagonal of the last two dims set to zero; out may be self.
MT_DECLARE_STUB(triangular_stub, void(const TensorBase& out, const TensorBase& self, int64_t diagonal, bool upper));

}  // namespace mt
