// Derivatives of atan2, hypot, copysign, logaddexp, logaddexp2 and xlogy (PyTorch's derivatives.yaml),
// with their in-place forms. Each formula is a pair of partial derivatives written once; the plumbing
// (redispatch, saving the inputs, reducing broadcast gradients) is shared.
#include <utility>

#include "autograd/derivatives/Formulas.h"
#include "ops/api/atan2.h"
#include "ops/api/copysign.h"
#include "ops/api/hypot.h"
#include "ops/api/logaddexp.h"
#include "ops/api/logaddexp2.h"
#include "ops/api/where.h"
#include "ops/api/xlogy.h"
#include "ops/api/zeros_like.h"

namespace mt::autograd {

namespace {

// d out / d self and d out / d other, each times the incoming gradient g.
using Partials = std::pair<Tensor, Tensor> (*)(const Tensor& g, const Tensor& a, const Tensor& b);

BackwardFunction::Formula binary_formula(Partials partials, const Tensor& self, const Tensor& other) {
  return [partials, a = SavedVariable(self), b = SavedVariable(other), self_sizes = self.sizes().vec(),
          other_sizes = other.sizes().vec(), self_rg = requires_grad(self),
          other_rg = requires_grad(other)](const variable_list& g) {
    auto [ga, gb] = partials(g[0], a.unpack(), b.unpack());
    return variable_list{self_rg ? sum_to(ga, self_sizes) : Tensor(), other_rg ? sum_to(gb, other_sizes) : Tensor()};
  };
}

template <typename Op>
Tensor binary(const char* node, Partials partials, DispatchKeySet ks, const Tensor& self, const Tensor& other) {
  return differentiable<Op>(
      node, {self, other}, [&] { return binary_formula(partials, self, other); }, ks, self, other);
}
// The other operand is saved as it is before the op writes self (detached where it shares self's memory).
template <typename Op>
Tensor& binary_(const char* node, Partials partials, DispatchKeySet ks, Tensor& self, const Tensor& other) {
  return differentiable_<Op>(
      node, {self, other},
      [&](const Tensor& original) { return binary_formula(partials, original, operand_to_save_inplace(self, other)); },
      ks, self, other);
}

std::pair<Tensor, Tensor> d_atan2(const Tensor& g, const Tensor& a, const Tensor& b) {
  const Tensor scale = g / (a * a + b * b);
  return {scale * b, -scale * a};
}
std::pair<Tensor, Tensor> d_hypot(const Tensor& g, const Tensor& a, const Tensor& b) {
  const Tensor scale = g / mt::hypot(a, b);
  return {scale * a, scale * b};
}
// copysign(a, b) / a is +-1, and 0 where a is 0; the sign of b moves nothing continuously.
std::pair<Tensor, Tensor> d_copysign(const Tensor& g, const Tensor& a, const Tensor& b) {
  const Tensor flip = mt::where(a == 0, 0.0, mt::copysign(a, b) / a);
  return {g * flip, mt::zeros_like(g)};
}
std::pair<Tensor, Tensor> d_logaddexp(const Tensor& g, const Tensor& a, const Tensor& b) {
  return {g / ((b - a).exp() + 1), g / ((a - b).exp() + 1)};
}
std::pair<Tensor, Tensor> d_logaddexp2(const Tensor& g, const Tensor& a, const Tensor& b) {
  return {g / ((b - a).exp2() + 1), g / ((a - b).exp2() + 1)};
}
// d/dx = log(y), taken as 0 where x = 0 and y <= 0 (where the forward defines 0 * log(0) as 0).
std::pair<Tensor, Tensor> d_xlogy(const Tensor& g, const Tensor& x, const Tensor& y) {
  return {mt::xlogy(g, y).masked_fill((x == 0) & (y <= 0), 0.0), g * x / y};
}

Tensor atan2(DispatchKeySet ks, const Tensor& a, const Tensor& b) {
  return binary<ops::atan2>("Atan2Backward0", d_atan2, ks, a, b);
}
Tensor& atan2_(DispatchKeySet ks, Tensor& a, const Tensor& b) {
  return binary_<ops::atan2_>("Atan2Backward0", d_atan2, ks, a, b);
}
Tensor hypot(DispatchKeySet ks, const Tensor& a, const Tensor& b) {
  return binary<ops::hypot>("HypotBackward0", d_hypot, ks, a, b);
}
Tensor& hypot_(DispatchKeySet ks, Tensor& a, const Tensor& b) {
  return binary_<ops::hypot_>("HypotBackward0", d_hypot, ks, a, b);
}
Tensor copysign(DispatchKeySet ks, const Tensor& a, const Tensor& b) {
  return binary<ops::copysign_Tensor>("CopysignBackward0", d_copysign, ks, a, b);
}
Tensor& copysign_(DispatchKeySet ks, Tensor& a, const Tensor& b) {
  return binary_<ops::copysign__Tensor>("CopysignBackward0", d_copysign, ks, a, b);
}
Tensor logaddexp(DispatchKeySet ks, const Tensor& a, const Tensor& b) {
  return binary<ops::logaddexp>("LogaddexpBackward0", d_logaddexp, ks, a, b);
}
Tensor logaddexp2(DispatchKeySet ks, const Tensor& a, const Tensor& b) {
  return binary<ops::logaddexp2>("Logaddexp2Backward0", d_logaddexp2, ks, a, b);
}
Tensor xlogy(DispatchKeySet ks, const Tensor& x, const Tensor& y) {
  return binary<ops::xlogy_Tensor>("XlogyBackward0", d_xlogy, ks, x, y);
}
Tensor& xlogy_(DispatchKeySet ks, Tensor& x, const Tensor& y) {
  return binary_<ops::xlogy__Tensor>("XlogyBackward0", d_xlogy, ks, x, y);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("atan2", MT_FN(atan2));
  m.impl("atan2_", MT_FN(atan2_));
  m.impl("hypot", MT_FN(hypot));
  m.impl("hypot_", MT_FN(hypot_));
  m.impl("copysign.Tensor", MT_FN(copysign));
  m.impl("copysign_.Tensor", MT_FN(copysign_));
  m.impl("logaddexp", MT_FN(logaddexp));
  m.impl("logaddexp2", MT_FN(logaddexp2));
  m.impl("xlogy.Tensor", MT_FN(xlogy));
  m.impl("xlogy_.Tensor", MT_FN(xlogy_));
}

}  // namespace mt::autograd
