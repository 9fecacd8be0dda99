// Derivatives of the reductions: sum, mean.
#include "autograd/derivatives/Formulas.h"
#include "ops/ReduceOps.h"

namespace mt::autograd {

namespace {

// The gradient of a reduction over `mask`, spread back over self's shape.
Tensor expand_reduced(const Tensor& grad, IntArrayRef self_sizes, DimMask mask, bool keepdim) {
  Tensor g = grad;
  if (!keepdim) {
    for (size_t d = 0; d < self_sizes.size(); ++d)
      if (mask >> d & 1) g = g.unsqueeze(static_cast<int64_t>(d));
  }
  return g.expand(self_sizes);
}

int64_t reduced_count(IntArrayRef sizes, DimMask mask) {
  int64_t n = 1;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (mask >> d & 1) n *= sizes[d];
  return n;
}

Tensor sum(DispatchKeySet ks, const Tensor& self, std::optional<ScalarType> dtype) {
  Tensor out = below_autograd([&] { return ops::sum::redispatch(ks & after_autograd_keyset, self, dtype); });
  if (compute_requires_grad({self})) {
    record("SumBackward0", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{g[0].expand(sizes)};
    });
  }
  return out;
}

Tensor sum_dim(DispatchKeySet ks, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType> dtype) {
  Tensor out = below_autograd(
      [&] { return ops::sum_dim_IntList::redispatch(ks & after_autograd_keyset, self, dim, keepdim, dtype); });
  if (compute_requires_grad({self})) {
    record("SumBackward1", {self}, {out},
           [sizes = self.sizes().vec(), mask = make_dim_mask(dim, self.dim()), keepdim](const variable_list& g) {
             return variable_list{expand_reduced(g[0], sizes, mask, keepdim)};
           });
  }
  return out;
}

Tensor mean(DispatchKeySet ks, const Tensor& self, std::optional<ScalarType> dtype) {
  Tensor out = below_autograd([&] { return ops::mean::redispatch(ks & after_autograd_keyset, self, dtype); });
  if (compute_requires_grad({self})) {
    record("MeanBackward0", {self}, {out}, [sizes = self.sizes().vec(), n = self.numel()](const variable_list& g) {
      return variable_list{g[0].expand(sizes) / static_cast<double>(n)};
    });
  }
  return out;
}

Tensor mean_dim(DispatchKeySet ks, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                std::optional<ScalarType> dtype) {
  Tensor out =
      below_autograd([&] { return ops::mean_dim::redispatch(ks & after_autograd_keyset, self, dim, keepdim, dtype); });
  if (compute_requires_grad({self})) {
    const DimMask mask = make_dim_mask(dim, self.dim());
    record("MeanBackward1", {self}, {out},
           [sizes = self.sizes().vec(), mask, keepdim, n = reduced_count(self.sizes(), mask)](const variable_list& g) {
             return variable_list{expand_reduced(g[0], sizes, mask, keepdim) / static_cast<double>(n)};
           });
  }
  return out;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("sum", MT_FN(sum));
  m.impl("sum.dim_IntList", MT_FN(sum_dim));
  m.impl("mean", MT_FN(mean));
  m.impl("mean.dim", MT_FN(mean_dim));
}

}  // namespace mt::autograd
