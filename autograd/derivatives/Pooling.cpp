// The derivative of max_pool2d_with_indices: each window's gradient goes to the position of its maximum
// (its index), summed where windows overlap on one; a scatter_add, so differentiable again. The indices
// are an integer output, which autograd never tracks. max_pool2d composes it.
#include "autograd/derivatives/Formulas.h"
#include "ops/api/max_pool2d_with_indices.h"
#include "ops/api/scatter_add.h"

namespace mt::autograd {

namespace {

std::tuple<Tensor, Tensor> max_pool2d_with_indices(DispatchKeySet ks, const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                                   bool ceil_mode) {
  auto [values, indices] = below_autograd([&] {
    return ops::max_pool2d_with_indices::redispatch(ks & after_autograd_keyset, self, kernel_size, stride, padding,
                                                    dilation, ceil_mode);
  });
  if (compute_requires_grad({self})) {
    record("MaxPool2DWithIndicesBackward0", {self}, {values},
           [i = SavedVariable(indices), sizes = self.sizes().vec()](const variable_list& g) {
             // Every plane flattened: an index is a position in its plane.
             std::vector<int64_t> planes(sizes.begin(), sizes.end() - 2);
             planes.push_back(sizes[sizes.size() - 2] * sizes.back());
             const Tensor grad =
                 zeros(planes, g[0].options()).scatter_add(-1, i.unpack().flatten(-2), g[0].flatten(-2));
             return variable_list{grad.view(sizes)};
           });
  }
  return {values, indices};
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) { m.impl("max_pool2d_with_indices", MT_FN(max_pool2d_with_indices)); }

}  // namespace mt::autograd
