// take_along_dim as gather, as PyTorch's: along a dim, self and indices broadcast against each other in every
// other dim; without one, from the flattened input.
#include <optional>
#include <vector>

#include "dispatch/Library.h"
#include "ops/api/gather.h"
#include "ops/infra/TensorIterator.h"

namespace mt {
namespace {

Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  if (!dim) return mt::gather(self.reshape({-1}), 0, indices.reshape({-1}));
  MT_CHECK(self.dim() == indices.dim(), "torch.take_along_dim(): input and indices should have the same number of "
           "dimensions, but got ", self.dim(), " dimensions for input, and ", indices.dim(), " dimensions for indices");
  MT_CHECK(indices.dtype() == kInt64, "torch.take_along_dim(): dtype of indices should be Long but got ",
           indices.dtype());
  const int64_t d = maybe_wrap_dim(*dim, self.dim());
  std::vector<int64_t> self_sizes = self.sizes().vec(), index_sizes = indices.sizes().vec();
  self_sizes[d] = indices.size(d);
  index_sizes[d] = self.size(d);
  const Tensor index = indices.expand(infer_size(self_sizes, indices.sizes()));
  return mt::gather(self.expand(infer_size(index_sizes, self.sizes())), d, index);
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { m.impl("take_along_dim", MT_FN(take_along_dim)); }

}  // namespace mt
