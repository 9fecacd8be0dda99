// Derivatives of the arithmetic ops: add, sub, mul, div (true division), remainder, fmod, neg, and the in-place
// add_, sub_, mul_, div_, remainder_, fmod_ (their node replaces self's grad_fn; a leaf that requires grad refuses
// them).
#include "autograd/derivatives/Formulas.h"
#include "ops/api/add.h"
#include "ops/api/div.h"
#include "ops/api/fmod.h"
#include "ops/api/mul.h"
#include "ops/api/neg.h"
#include "ops/api/remainder.h"
#include "ops/api/sub.h"
#include "ops/api/zeros.h"

namespace mt::autograd {

namespace {

// The gradients of self + sign * alpha * other: alpha == 1 takes no multiplication (under vmap every op
// is eight dispatcher entries), and an input that needs no gradient gets none.
BackwardFunction::Formula add_formula(const Tensor& self, const Tensor& other, const Scalar& alpha, bool subtract) {
  return [self_sizes = self.sizes().vec(), other_sizes = other.sizes().vec(), alpha, subtract,
          self_rg = requires_grad(self), other_rg = requires_grad(other)](const variable_list& g) {
    Tensor other_grad;
    if (other_rg) {
      const Tensor scaled = alpha.to<double>() == 1.0 ? g[0] : g[0] * alpha;
      other_grad = sum_to(subtract ? -scaled : scaled, other_sizes);
    }
    return variable_list{self_rg ? sum_to(g[0], self_sizes) : Tensor(), other_grad};
  };
}

Tensor add_Tensor(DispatchKeySet ks, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return differentiable<ops::add_Tensor>(
      "AddBackward0", {self, other}, [&] { return add_formula(self, other, alpha, false); }, ks, self, other, alpha);
}

Tensor sub_Tensor(DispatchKeySet ks, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return differentiable<ops::sub_Tensor>(
      "SubBackward0", {self, other}, [&] { return add_formula(self, other, alpha, true); }, ks, self, other, alpha);
}

Tensor mul_Tensor(DispatchKeySet ks, const Tensor& self, const Tensor& other) {
  return differentiable<ops::mul_Tensor>(
      "MulBackward0", {self, other},
      [&] {
        // Each input's gradient needs the other input; an input that needs none saves nothing for it.
        const bool self_rg = requires_grad(self), other_rg = requires_grad(other);
        return BackwardFunction::Formula(
            [s = SavedVariable(other_rg ? self : Tensor()), o = SavedVariable(self_rg ? other : Tensor()),
             self_sizes = self.sizes().vec(), other_sizes = other.sizes().vec()](const variable_list& g) {
              const Tensor self_v = s.unpack(), other_v = o.unpack();
              return variable_list{other_v.defined() ? sum_to(g[0] * other_v, self_sizes) : Tensor(),
                                   self_v.defined() ? sum_to(g[0] * self_v, other_sizes) : Tensor()};
            });
      },
      ks, self, other);
}

// self / other: self's gradient needs other, other's needs both; self is saved only when other needs a
// gradient.
BackwardFunction::Formula div_formula(const Tensor& self, const Tensor& other, bool other_rg) {
  return [s = SavedVariable(other_rg ? self : Tensor()), o = SavedVariable(other), self_sizes = self.sizes().vec(),
          other_sizes = other.sizes().vec()](const variable_list& g) {
    const Tensor self_v = s.unpack(), other_v = o.unpack();
    return variable_list{sum_to(g[0] / other_v, self_sizes),
                         self_v.defined() ? sum_to(-g[0] * self_v / (other_v * other_v), other_sizes) : Tensor()};
  };
}

Tensor div_Tensor(DispatchKeySet ks, const Tensor& self, const Tensor& other) {
  return differentiable<ops::div_Tensor>(
      "DivBackward0", {self, other}, [&] { return div_formula(self, other, requires_grad(other)); }, ks, self, other);
}

// Rounded division (trunc, floor) is piecewise constant: zero gradients. Without a rounding mode it is
// true division.
BackwardFunction::Formula rounded_div_formula(const Tensor& self, const Tensor& other) {
  return [self_sizes = self.sizes().vec(), other_sizes = other.sizes().vec()](const variable_list& g) {
    return variable_list{mt::zeros(self_sizes, g[0].options()), mt::zeros(other_sizes, g[0].options())};
  };
}

Tensor div_Tensor_mode(DispatchKeySet ks, const Tensor& self, const Tensor& other,
                       std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return div_Tensor(ks, self, other);
  return differentiable<ops::div_Tensor_mode>(
      "DivBackward1", {self, other}, [&] { return rounded_div_formula(self, other); }, ks, self, other, rounding_mode);
}

// remainder(a, b) = a - floor(a / b) * b and fmod(a, b) = a - trunc(a / b) * b: d/da = 1, d/db = -floor(a / b)
// or -trunc(a / b) (PyTorch's derivatives.yaml). self and other are saved only when other needs a gradient.
BackwardFunction::Formula modulo_formula(const Tensor& self, const Tensor& other, bool other_rg, const char* rounding) {
  return [s = SavedVariable(other_rg ? self : Tensor()), o = SavedVariable(other_rg ? other : Tensor()),
          self_sizes = self.sizes().vec(), other_sizes = other.sizes().vec(), rounding](const variable_list& g) {
    const Tensor self_v = s.unpack(), other_v = o.unpack();
    return variable_list{sum_to(g[0], self_sizes),
                         self_v.defined() ? sum_to(-g[0] * self_v.div(other_v, rounding), other_sizes) : Tensor()};
  };
}

template <typename Op>
Tensor modulo(const char* node, const char* rounding, DispatchKeySet ks, const Tensor& self, const Tensor& other) {
  return differentiable<Op>(
      node, {self, other}, [&] { return modulo_formula(self, other, requires_grad(other), rounding); }, ks, self,
      other);
}

Tensor neg(DispatchKeySet ks, const Tensor& self) {
  return differentiable<ops::neg>(
      "NegBackward0", {self},
      [] { return BackwardFunction::Formula([](const variable_list& g) { return variable_list{-g[0]}; }); }, ks, self);
}

// In-place: the node's first edge is where self's gradient went before the op; afterwards self is
// that node's output. mul_, div_ and the modulos need self's old value for other's gradient, so when
// other requires grad they save a copy of it, made with autograd on (PyTorch's original_self) so that
// the gradient stays differentiable in it. Their formulas save `other` before the op runs: when other
// shares self's memory (y.mul_(y)), the op's own write then shows as a modification of a saved tensor at
// backward, as in PyTorch, instead of a wrong gradient (see operand_to_save_inplace).
Tensor& add__Tensor(DispatchKeySet ks, Tensor& self, const Tensor& other, const Scalar& alpha) {
  return differentiable_<ops::add__Tensor>(
      "AddBackward0", {self, other}, [&] { return add_formula(self, other, alpha, false); }, ks, self, other, alpha);
}

Tensor& sub__Tensor(DispatchKeySet ks, Tensor& self, const Tensor& other, const Scalar& alpha) {
  return differentiable_<ops::sub__Tensor>(
      "SubBackward0", {self, other}, [&] { return add_formula(self, other, alpha, true); }, ks, self, other, alpha);
}

Tensor& mul__Tensor(DispatchKeySet ks, Tensor& self, const Tensor& other) {
  return differentiable_<ops::mul__Tensor>(
      "MulBackward0", {self, other},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(requires_grad(other) ? self.clone() : Tensor()),
                                          o = SavedVariable(operand_to_save_inplace(self, other)),
                                          self_sizes = self.sizes().vec(),
                                          other_sizes = other.sizes().vec()](const variable_list& g) {
          const Tensor self_v = s.unpack();
          return variable_list{sum_to(g[0] * o.unpack(), self_sizes),
                               self_v.defined() ? sum_to(g[0] * self_v, other_sizes) : Tensor()};
        });
      },
      ks, self, other);
}

Tensor& div__Tensor(DispatchKeySet ks, Tensor& self, const Tensor& other) {
  return differentiable_<ops::div__Tensor>(
      "DivBackward0", {self, other},
      [&] {
        const bool other_rg = requires_grad(other);
        return div_formula(other_rg ? self.clone() : self, operand_to_save_inplace(self, other), other_rg);
      },
      ks, self, other);
}

template <typename Op>
Tensor& modulo_(const char* node, const char* rounding, DispatchKeySet ks, Tensor& self, const Tensor& other) {
  return differentiable_<Op>(
      node, {self, other},
      [&] {
        const bool other_rg = requires_grad(other);
        return modulo_formula(other_rg ? self.clone() : self, operand_to_save_inplace(self, other), other_rg, rounding);
      },
      ks, self, other);
}

Tensor remainder_Tensor(DispatchKeySet ks, const Tensor& self, const Tensor& other) {
  return modulo<ops::remainder_Tensor>("RemainderBackward0", "floor", ks, self, other);
}
Tensor& remainder__Tensor(DispatchKeySet ks, Tensor& self, const Tensor& other) {
  return modulo_<ops::remainder__Tensor>("RemainderBackward0", "floor", ks, self, other);
}
Tensor fmod_Tensor(DispatchKeySet ks, const Tensor& self, const Tensor& other) {
  return modulo<ops::fmod_Tensor>("FmodBackward0", "trunc", ks, self, other);
}
Tensor& fmod__Tensor(DispatchKeySet ks, Tensor& self, const Tensor& other) {
  return modulo_<ops::fmod__Tensor>("FmodBackward0", "trunc", ks, self, other);
}

Tensor& div__Tensor_mode(DispatchKeySet ks, Tensor& self, const Tensor& other,
                         std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return div__Tensor(ks, self, other);
  return differentiable_<ops::div__Tensor_mode>(
      "DivBackward1", {self, other}, [&] { return rounded_div_formula(self, other); }, ks, self, other, rounding_mode);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("add_.Tensor", MT_FN(add__Tensor));
  m.impl("sub_.Tensor", MT_FN(sub__Tensor));
  m.impl("mul_.Tensor", MT_FN(mul__Tensor));
  m.impl("div_.Tensor", MT_FN(div__Tensor));
  m.impl("add.Tensor", MT_FN(add_Tensor));
  m.impl("sub.Tensor", MT_FN(sub_Tensor));
  m.impl("mul.Tensor", MT_FN(mul_Tensor));
  m.impl("div.Tensor", MT_FN(div_Tensor));
  m.impl("div.Tensor_mode", MT_FN(div_Tensor_mode));
  m.impl("div_.Tensor_mode", MT_FN(div__Tensor_mode));
  m.impl("remainder.Tensor", MT_FN(remainder_Tensor));
  m.impl("remainder_.Tensor", MT_FN(remainder__Tensor));
  m.impl("fmod.Tensor", MT_FN(fmod_Tensor));
  m.impl("fmod_.Tensor", MT_FN(fmod__Tensor));
  m.impl("neg", MT_FN(neg));
}

}  // namespace mt::autograd
