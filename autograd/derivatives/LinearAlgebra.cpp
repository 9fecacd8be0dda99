// Derivatives of the matrix products with kernels of their own: mm, bmm, addmm, dot (matmul, linear
// and outer are compositions of these).
#include "autograd/derivatives/Formulas.h"

namespace mt::autograd {

namespace {

Tensor mm(DispatchKeySet ks, const Tensor& self, const Tensor& mat2) {
  Tensor out = below_autograd([&] { return ops::mm::redispatch(ks & after_autograd_keyset, self, mat2); });
  if (compute_requires_grad({self, mat2})) {
    record("MmBackward0", {self, mat2}, {out},
           [s = SavedVariable(requires_grad(mat2) ? self : Tensor()),
            m = SavedVariable(requires_grad(self) ? mat2 : Tensor())](const variable_list& g) {
             const Tensor self_v = s.unpack(), mat2_v = m.unpack();
             return variable_list{mat2_v.defined() ? g[0].mm(mat2_v.t()) : Tensor(),
                                  self_v.defined() ? self_v.t().mm(g[0]) : Tensor()};
           });
  }
  return out;
}

Tensor bmm(DispatchKeySet ks, const Tensor& self, const Tensor& mat2) {
  Tensor out = below_autograd([&] { return ops::bmm::redispatch(ks & after_autograd_keyset, self, mat2); });
  if (compute_requires_grad({self, mat2})) {
    record("BmmBackward0", {self, mat2}, {out},
           [s = SavedVariable(requires_grad(mat2) ? self : Tensor()),
            m = SavedVariable(requires_grad(self) ? mat2 : Tensor())](const variable_list& g) {
             const Tensor self_v = s.unpack(), mat2_v = m.unpack();
             return variable_list{mat2_v.defined() ? g[0].bmm(mat2_v.transpose(1, 2)) : Tensor(),
                                  self_v.defined() ? self_v.transpose(1, 2).bmm(g[0]) : Tensor()};
           });
  }
  return out;
}

Tensor addmm(DispatchKeySet ks, const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  Tensor out =
      below_autograd([&] { return ops::addmm::redispatch(ks & after_autograd_keyset, self, mat1, mat2, beta, alpha); });
  if (compute_requires_grad({self, mat1, mat2})) {
    record("AddmmBackward0", {self, mat1, mat2}, {out},
           [m1 = SavedVariable(requires_grad(mat2) ? mat1 : Tensor()),
            m2 = SavedVariable(requires_grad(mat1) ? mat2 : Tensor()), self_sizes = self.sizes().vec(), beta,
            alpha](const variable_list& g) {
             const Tensor mat1_v = m1.unpack(), mat2_v = m2.unpack();
             return variable_list{sum_to(g[0] * beta, self_sizes),
                                  mat2_v.defined() ? g[0].mm(mat2_v.t()) * alpha : Tensor(),
                                  mat1_v.defined() ? mat1_v.t().mm(g[0]) * alpha : Tensor()};
           });
  }
  return out;
}

Tensor dot(DispatchKeySet ks, const Tensor& self, const Tensor& tensor) {
  Tensor out = below_autograd([&] { return ops::dot::redispatch(ks & after_autograd_keyset, self, tensor); });
  if (compute_requires_grad({self, tensor})) {
    record("DotBackward0", {self, tensor}, {out},
           [s = SavedVariable(requires_grad(tensor) ? self : Tensor()),
            t = SavedVariable(requires_grad(self) ? tensor : Tensor())](const variable_list& g) {
             const Tensor self_v = s.unpack(), tensor_v = t.unpack();
             return variable_list{tensor_v.defined() ? tensor_v * g[0] : Tensor(),
                                  self_v.defined() ? self_v * g[0] : Tensor()};
           });
  }
  return out;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("mm", MT_FN(mm));
  m.impl("bmm", MT_FN(bmm));
  m.impl("addmm", MT_FN(addmm));
  m.impl("dot", MT_FN(dot));
}

}  // namespace mt::autograd
