// The derivative of sort.stable, the one sorting kernel (its compositions, ops/composite/Sorting.cpp, are
// differentiated through it): each value's gradient goes back to the position it came from, which the
// indices hold. They are saved: they are an integer output, which autograd never tracks.
#include "autograd/derivatives/Formulas.h"
#include "ops/api/sort.h"
#include "ops/api/zeros.h"

namespace mt::autograd {
namespace {

std::tuple<Tensor, Tensor> sort_stable(DispatchKeySet ks, const Tensor& self, std::optional<bool> stable, int64_t dim,
                                       bool descending) {
  auto [values, indices] = below_autograd(
      [&] { return ops::sort_stable::redispatch(ks & after_autograd_keyset, self, stable, dim, descending); });
  if (compute_requires_grad({self})) {
    record("SortBackward0", {self}, {values},
           [i = SavedVariable(indices), sizes = self.sizes().vec(), dim](const variable_list& g) {
             if (sizes.empty()) return variable_list{g[0]};
             const int64_t d = maybe_wrap_dim(dim, static_cast<int64_t>(sizes.size()));
             return variable_list{zeros(sizes, g[0].options()).scatter(d, i.unpack(), g[0])};
           });
  }
  return {values, indices};
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) { m.impl("sort.stable", MT_FN(sort_stable)); }

}  // namespace mt::autograd
