// embedding as a composition: the rows of `weight` that `indices` name, in the shape of indices plus
// the embedding dim. index_select checks every index before anything is read.
#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/embedding.h"
#include "ops/api/index_select.h"
#include "ops/api/ones.h"
#include "ops/api/ones_like.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

// Gradient-only options act on the lookup's gradient, not its value: `v.detach() + (v - v.detach()) * s`
// equals v exactly but carries the gradient scaled by s. The padding row's lookups get s = 0 (no gradient,
// as in PyTorch) and scale_grad_by_freq divides each lookup's gradient by how often its index occurs.
Tensor scale_gradient(const Tensor& value, const Tensor& scale) {
  const Tensor constant = value.detach();
  return constant + (value - constant) * scale;
}

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                 bool sparse) {
  MT_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  MT_CHECK(indices.dtype() == kInt64 || indices.dtype() == kInt32,
           "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ",
           indices.dtype(), " instead (while checking arguments for embedding)");
  MT_CHECK(!sparse, "embedding: sparse gradients are not supported");
  const Tensor flat = indices.reshape({-1}).to(kInt64);  // scatter_add counts through int64 indices
  Tensor rows = mt::index_select(weight, 0, flat);
  if (weight.requires_grad() && (padding_idx >= 0 || scale_grad_by_freq)) {
    const TensorOptions options = weight.options();
    Tensor scale = mt::ones({flat.numel(), 1}, options);
    if (scale_grad_by_freq) {
      const Tensor counts = mt::zeros({weight.size(0)}, options).scatter_add(0, flat, mt::ones_like(flat, options));
      scale = mt::index_select(counts, 0, flat).pow(-1).unsqueeze(1);
    }
    if (padding_idx >= 0) scale = mt::where(flat.eq(padding_idx).unsqueeze(1), 0.0, scale);
    rows = scale_gradient(rows, scale);
  }
  if (indices.dim() == 1) return rows;
  std::vector<int64_t> shape(indices.sizes().begin(), indices.sizes().end());
  shape.push_back(weight.size(1));
  return rows.view(shape);
}

void register_composites(Library& m) { m.impl("embedding", MT_FN(embedding)); }

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
