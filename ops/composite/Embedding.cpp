// embedding as a composition: the rows of `weight` that `indices` name, in the shape of indices plus
// the embedding dim. index_select checks every index before anything is read.
#include "dispatch/Library.h"
#include "ops/Functions.h"

namespace mt {
namespace {

// padding_idx, scale_grad_by_freq and sparse change only the gradient (in PyTorch: no gradient for the
// padding row, gradients scaled by index frequency, a sparse gradient); the forward value is the lookup.
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t /*padding_idx*/, bool /*scale_grad_by_freq*/,
                 bool /*sparse*/) {
  MT_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  MT_CHECK(indices.dtype() == kInt64, "Expected tensor for argument #1 'indices' to have one of the following scalar "
                                      "types: Long; but got ", indices.dtype(), " instead (while checking arguments for embedding)");
  if (indices.dim() == 1) return mt::index_select(weight, 0, indices);
  std::vector<int64_t> shape(indices.sizes().begin(), indices.sizes().end());
  shape.push_back(weight.size(1));
  return mt::index_select(weight, 0, indices.reshape({-1})).view(shape);
}

void register_composites(Library& m) { m.impl("embedding", MT_FN(embedding)); }

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
