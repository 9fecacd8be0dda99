// flip as a composition: an index_select with reversed positions per flipped dim, so every layer (CUDA,
// Meta, autograd, vmap) handles it through index_select.
#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/arange.h"
#include "ops/ReduceOps.h"

namespace mt {
namespace {

Tensor flip_default(const Tensor& self, IntArrayRef dims) {
  // Refuses a dim named twice, as PyTorch does.
  const DimMask mask = make_dim_mask(dims, self.dim(), /*empty_means_all=*/false);
  Tensor out;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!(mask >> d & 1) || self.size(d) < 2) continue;
    const Tensor reversed = arange(self.size(d) - 1, -1, -1, TensorOptions().dtype(kInt64).device(self.device()));
    out = (out.defined() ? out : self).index_select(d, reversed);
  }
  return out.defined() ? out : self.clone();
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { m.impl("flip", MT_FN(flip_default)); }

}  // namespace mt
