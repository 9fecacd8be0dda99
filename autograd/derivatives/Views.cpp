// Derivatives of the view ops: view, expand, transpose, unsqueeze (their gradients are views or
// reductions of the output's gradient).
#include "autograd/derivatives/Formulas.h"

namespace mt::autograd {

namespace {

Tensor view(DispatchKeySet ks, const Tensor& self, IntArrayRef size) {
  Tensor out = below_autograd([&] { return ops::view::redispatch(ks & after_autograd_keyset, self, size); });
  if (compute_requires_grad({self})) {
    record("ViewBackward0", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{g[0].reshape(sizes)};
    });
  }
  return out;
}

Tensor expand(DispatchKeySet ks, const Tensor& self, IntArrayRef size, bool implicit) {
  Tensor out = below_autograd([&] { return ops::expand::redispatch(ks & after_autograd_keyset, self, size, implicit); });
  if (compute_requires_grad({self})) {
    record("ExpandBackward0", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{sum_to(g[0], sizes)};
    });
  }
  return out;
}

Tensor transpose_int(DispatchKeySet ks, const Tensor& self, int64_t dim0, int64_t dim1) {
  Tensor out =
      below_autograd([&] { return ops::transpose_int::redispatch(ks & after_autograd_keyset, self, dim0, dim1); });
  if (compute_requires_grad({self})) {
    record("TransposeBackward0", {self}, {out},
           [dim0, dim1](const variable_list& g) { return variable_list{g[0].transpose(dim0, dim1)}; });
  }
  return out;
}

Tensor unsqueeze(DispatchKeySet ks, const Tensor& self, int64_t dim) {
  Tensor out = below_autograd([&] { return ops::unsqueeze::redispatch(ks & after_autograd_keyset, self, dim); });
  if (compute_requires_grad({self})) {
    record("UnsqueezeBackward0", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{g[0].view(sizes)};
    });
  }
  return out;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("view", MT_FN(view));
  m.impl("expand", MT_FN(expand));
  m.impl("transpose.int", MT_FN(transpose_int));
  m.impl("unsqueeze", MT_FN(unsqueeze));
}

}  // namespace mt::autograd
