#pragma once
// What the derivative formulas (the Autograd-key kernels in this folder) share: running the op below
// the autograd layer, recording its node, and reducing a broadcast gradient back to an input's shape.
#include "autograd/AutogradMeta.h"
#include "autograd/BackwardFunction.h"
#include "autograd/GradMode.h"
#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "ops/Functions.h"
#include "ops/Operators.h"
#include "ops/TensorOperators.h"

namespace mt::autograd {

// Runs `f` (the op's redispatch) with the autograd layers excluded, so that ops its kernels call
// from the top record nothing either.
template <typename F>
decltype(auto) below_autograd(F&& f) {
  ExcludeDispatchKeyGuard guard(autograd_dispatch_keyset_with_ADInplaceOrView);
  return f();
}

// In-place ops: a leaf that requires grad must not change under autograd (PyTorch's rule).
inline void check_inplace(const Tensor& self) {
  if (!GradMode::is_enabled() || !requires_grad(self)) return;
  MT_CHECK(!self.is_leaf(), "a leaf Variable that requires grad is being used in an in-place operation.");
  const AutogradMeta* meta = get_autograd_meta(self);
  MT_CHECK(!(meta->view && meta->view->base.is_leaf() && requires_grad(meta->view->base)),
           "a view of a leaf Variable that requires grad is being used in an in-place operation.");
}

// Sums a gradient over the dims that broadcasting added or expanded, to `sizes`.
inline Tensor sum_to(const Tensor& grad, IntArrayRef sizes) {
  if (grad.sizes() == sizes) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (d < lead || (sizes[d - lead] == 1 && grad.size(d) != 1)) dims.push_back(d);
  }
  Tensor summed = dims.empty() ? grad : grad.sum(dims, /*keepdim=*/true);
  return summed.view(sizes);
}

}  // namespace mt::autograd
