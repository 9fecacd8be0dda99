// Derivatives of the matrix products with kernels of their own: mm, bmm, addmm (and addmm_), dot (matmul, linear
// and outer are compositions of these).
#include "autograd/derivatives/Formulas.h"
#include "ops/api/addmm.h"
#include "ops/api/bmm.h"
#include "ops/api/dot.h"
#include "ops/api/mm.h"

namespace mt::autograd {

namespace {

// A matrix stored column-major (the transposed view of a row-major one, like linear's weight.t()).
bool column_major(const Tensor& m) {
  return m.dim() == 2 && m.stride(0) == 1 && m.stride(1) == m.size(0) && m.size(0) > 1;
}

// d(self @ mat2)/d(self) = g @ mat2^T, and d/d(mat2) = self^T @ g. Each is computed in the layout of the
// input it is for, so that the gradient of a transposed weight arrives contiguous in the weight's own
// layout after TransposeBackward (PyTorch's mm_mat1_backward / mm_mat2_backward do the same).
Tensor mm_mat1_backward(const Tensor& g, const Tensor& mat2, bool mat1_column_major) {
  return mat1_column_major ? mat2.mm(g.t()).t() : g.mm(mat2.t());
}
Tensor mm_mat2_backward(const Tensor& g, const Tensor& mat1, bool mat2_column_major) {
  return mat2_column_major ? g.t().mm(mat1).t() : mat1.t().mm(g);
}

Tensor scaled(const Tensor& t, const Scalar& factor) {
  if (!t.defined() || factor.toDouble() == 1.0) return t;
  return t * factor;
}

Tensor mm(DispatchKeySet ks, const Tensor& self, const Tensor& mat2) {
  return differentiable<ops::mm>(
      "MmBackward0", {self, mat2},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(requires_grad(mat2) ? self : Tensor()),
                                          m = SavedVariable(requires_grad(self) ? mat2 : Tensor()),
                                          self_cm = column_major(self),
                                          mat2_cm = column_major(mat2)](const variable_list& g) {
          const Tensor self_v = s.unpack(), mat2_v = m.unpack();
          return variable_list{mat2_v.defined() ? mm_mat1_backward(g[0], mat2_v, self_cm) : Tensor(),
                               self_v.defined() ? mm_mat2_backward(g[0], self_v, mat2_cm) : Tensor()};
        });
      },
      ks, self, mat2);
}

Tensor bmm(DispatchKeySet ks, const Tensor& self, const Tensor& mat2) {
  return differentiable<ops::bmm>(
      "BmmBackward0", {self, mat2},
      [&] {
        return BackwardFunction::Formula(
            [s = SavedVariable(requires_grad(mat2) ? self : Tensor()),
             m = SavedVariable(requires_grad(self) ? mat2 : Tensor())](const variable_list& g) {
              const Tensor self_v = s.unpack(), mat2_v = m.unpack();
              return variable_list{mat2_v.defined() ? g[0].bmm(mat2_v.transpose(1, 2)) : Tensor(),
                                   self_v.defined() ? self_v.transpose(1, 2).bmm(g[0]) : Tensor()};
            });
      },
      ks, self, mat2);
}

Tensor addmm(DispatchKeySet ks, const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  return differentiable<ops::addmm>(
      "AddmmBackward0", {self, mat1, mat2},
      [&] {
        return BackwardFunction::Formula([m1 = SavedVariable(requires_grad(mat2) ? mat1 : Tensor()),
                                          m2 = SavedVariable(requires_grad(mat1) ? mat2 : Tensor()),
                                          self_sizes = self.sizes().vec(), beta, alpha, mat1_cm = column_major(mat1),
                                          mat2_cm = column_major(mat2)](const variable_list& g) {
          const Tensor mat1_v = m1.unpack(), mat2_v = m2.unpack();
          return variable_list{sum_to(scaled(g[0], beta), self_sizes),
                               mat2_v.defined() ? scaled(mm_mat1_backward(g[0], mat2_v, mat1_cm), alpha) : Tensor(),
                               mat1_v.defined() ? scaled(mm_mat2_backward(g[0], mat1_v, mat2_cm), alpha) : Tensor()};
        });
      },
      ks, self, mat1, mat2, beta, alpha);
}

// The formula is addmm's. mat1 and mat2 are saved before the op, so that the op's write shows at backward
// if one of them shares self's memory.
Tensor& addmm_(DispatchKeySet ks, Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
               const Scalar& alpha) {
  return differentiable_<ops::addmm_>(
      "AddmmBackward0", {self, mat1, mat2},
      [&] {
        return BackwardFunction::Formula(
            [m1 = SavedVariable(requires_grad(mat2) ? operand_to_save_inplace(self, mat1) : Tensor()),
             m2 = SavedVariable(requires_grad(mat1) ? operand_to_save_inplace(self, mat2) : Tensor()), beta, alpha,
             mat1_cm = column_major(mat1), mat2_cm = column_major(mat2)](const variable_list& g) {
              const Tensor mat1_v = m1.unpack(), mat2_v = m2.unpack();
              return variable_list{
                  scaled(g[0], beta),
                  mat2_v.defined() ? scaled(mm_mat1_backward(g[0], mat2_v, mat1_cm), alpha) : Tensor(),
                  mat1_v.defined() ? scaled(mm_mat2_backward(g[0], mat1_v, mat2_cm), alpha) : Tensor()};
            });
      },
      ks, self, mat1, mat2, beta, alpha);
}

Tensor dot(DispatchKeySet ks, const Tensor& self, const Tensor& tensor) {
  return differentiable<ops::dot>(
      "DotBackward0", {self, tensor},
      [&] {
        return BackwardFunction::Formula(
            [s = SavedVariable(requires_grad(tensor) ? self : Tensor()),
             t = SavedVariable(requires_grad(self) ? tensor : Tensor())](const variable_list& g) {
              const Tensor self_v = s.unpack(), tensor_v = t.unpack();
              return variable_list{tensor_v.defined() ? tensor_v * g[0] : Tensor(),
                                   self_v.defined() ? self_v * g[0] : Tensor()};
            });
      },
      ks, self, tensor);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("mm", MT_FN(mm));
  m.impl("bmm", MT_FN(bmm));
  m.impl("addmm", MT_FN(addmm));
  m.impl("addmm_", MT_FN(addmm_));
  m.impl("dot", MT_FN(dot));
}

}  // namespace mt::autograd
