// diag, diag_embed and diagflat as compositions: a diagonal plane is where(j - i == offset, the values along
// one of its sides, 0), moved to the requested dims, so every layer handles them through pad, arange, where
// and movedim; diag of a matrix copies its diagonal view.
#include <cstdlib>

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/TensorOperators.h"
#include "ops/api/pad.h"
#include "ops/api/where.h"

namespace mt {
namespace {

// self's last dim (n values) on diagonal `offset` of planes of size n + |offset| at dims dim1 and dim2 of
// the result; zeros elsewhere.
Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t out_dim = self.dim() + 1;
  const int64_t d1 = maybe_wrap_dim(dim1, out_dim), d2 = maybe_wrap_dim(dim2, out_dim);
  MT_CHECK(d1 != d2, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t shift = std::abs(offset), m = self.size(-1) + shift;
  // The values, zero-padded to the plane's side: position i of a row (offset >= 0) or of a column
  // (offset < 0) holds the value the diagonal has there; the padding is never on the diagonal.
  const Tensor line = shift == 0 ? self : mt::pad(self, {0, shift});
  const Tensor positions = arange(m, TensorOptions(kInt64).device(self.device()));
  const Tensor on_diagonal = (positions.unsqueeze(0) - positions.unsqueeze(1)) == offset;  // [i][j]: j - i
  const Tensor values = offset >= 0 ? line.unsqueeze(-1) : line.unsqueeze(-2);
  const Scalar zero = self.dtype() == kBool ? Scalar(false) : Scalar(0);
  return mt::where(on_diagonal, values, zero).movedim({-2, -1}, {d1, d2});
}

// A vector on a diagonal of a square matrix, or a matrix's diagonal as a new vector.
Tensor diag(const Tensor& self, int64_t diagonal) {
  MT_CHECK(self.dim() == 1 || self.dim() == 2, "diag(): Supports 1D or 2D tensors. Got ", self.dim(), "D");
  if (self.dim() == 1) return diag_embed(self, diagonal, 0, 1);
  return self.diagonal(diagonal).clone();
}

// Every element of self, in order, on a diagonal of a square matrix.
Tensor diagflat(const Tensor& self, int64_t offset) { return diag_embed(self.reshape({-1}), offset, 0, 1); }

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("diag", MT_FN(diag));
  m.impl("diag_embed", MT_FN(diag_embed));
  m.impl("diagflat", MT_FN(diagflat));
}

}  // namespace mt
