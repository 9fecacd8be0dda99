// Derivatives of the losses with kernels of their own: nll_loss_forward (self through the op
// nll_loss_backward) and nll_loss_backward, which is linear in grad_output; binary_cross_entropy (self
// through the op binary_cross_entropy_backward, target as PyTorch's binary_cross_entropy_target_backward)
// and binary_cross_entropy_backward itself, for second derivatives. The other losses are compositions.
#include "autograd/derivatives/Formulas.h"
#include "ops/api/binary_cross_entropy.h"
#include "ops/api/binary_cross_entropy_backward.h"
#include "ops/api/clamp_min.h"
#include "ops/api/nll_loss_backward.h"
#include "ops/api/nll_loss_forward.h"
#include "ops/api/ones.h"

namespace mt::autograd {

namespace {

// w / N for Mean, w otherwise (w = 1 without a weight).
Tensor scale_of(const Tensor& like, const Tensor& weight, int64_t reduction) {
  Tensor c = weight.defined() ? weight : ones({}, like.options());
  if (reduction == Reduction::Mean) c = c / static_cast<double>(like.numel());
  return c;
}

std::optional<Tensor> optional_of(const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; }

// As PyTorch: the class weights are not differentiable, and asking for their gradient is an error, where a
// silent zero would train nothing.
void check_weight_not_differentiable(const std::optional<Tensor>& weight) {
  MT_CHECK(!weight || !compute_requires_grad({*weight}), "the derivative for 'weight' is not implemented.");
}

std::tuple<Tensor, Tensor> nll_loss_forward(DispatchKeySet ks, const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction,
                                            int64_t ignore_index) {
  check_weight_not_differentiable(weight);
  auto [out, total_weight] = below_autograd([&] {
    return ops::nll_loss_forward::redispatch(ks & after_autograd_keyset, self, target, weight, reduction, ignore_index);
  });
  if (compute_requires_grad({self})) {
    record("NllLossBackward0", {self}, {out},
           [s = SavedVariable(self), t = SavedVariable(target), w = SavedVariable(weight ? *weight : Tensor()),
            tw = SavedVariable(total_weight), reduction, ignore_index](const variable_list& g) {
             return variable_list{mt::nll_loss_backward(g[0], s.unpack(), t.unpack(), optional_of(w.unpack()),
                                                        reduction, ignore_index, tw.unpack())};
           });
  }
  return {out, total_weight};
}

// nll_loss_backward is linear in grad_output and constant in self: its derivative along grad_output is
// nll_loss of the incoming gradient, along self zero.
Tensor nll_loss_backward(DispatchKeySet ks, const Tensor& grad_output, const Tensor& self, const Tensor& target,
                         const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                         const Tensor& total_weight) {
  check_weight_not_differentiable(weight);
  return differentiable<ops::nll_loss_backward>(
      "NllLossBackwardBackward0", {grad_output, self},
      [&] {
        return BackwardFunction::Formula([t = SavedVariable(target), w = SavedVariable(weight ? *weight : Tensor()),
                                          reduction, ignore_index](const variable_list& g) {
          return variable_list{
              std::get<0>(mt::nll_loss_forward(g[0], t.unpack(), optional_of(w.unpack()), reduction, ignore_index)),
              Tensor()};
        });
      },
      ks, grad_output, self, target, weight, reduction, ignore_index, total_weight);
}

Tensor binary_cross_entropy(DispatchKeySet ks, const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight, int64_t reduction) {
  return differentiable<ops::binary_cross_entropy>(
      "BinaryCrossEntropyBackward0", {self, target},
      [&] {
        return BackwardFunction::Formula(
            [s = SavedVariable(self), t = SavedVariable(target), w = SavedVariable(weight ? *weight : Tensor()),
             reduction, self_rg = requires_grad(self), target_rg = requires_grad(target)](const variable_list& g) {
              const Tensor self_v = s.unpack(), target_v = t.unpack(), weight_v = w.unpack();
              const std::optional<Tensor> weight_opt =
                  weight_v.defined() ? std::optional<Tensor>(weight_v) : std::nullopt;
              // d/dy of -w (y log x + (1 - y) log(1 - x)) = -w (log x - log(1 - x)) = -w logit(x).
              Tensor grad_target;
              if (target_rg) {
                grad_target = sum_to(-(self_v.log() - (-self_v).log1p()) * g[0] * scale_of(self_v, weight_v, reduction),
                                     target_v.sizes());
              }
              return variable_list{
                  self_rg ? mt::binary_cross_entropy_backward(g[0], self_v, target_v, weight_opt, reduction) : Tensor(),
                  grad_target};
            });
      },
      ks, self, target, weight, reduction);
}

// binary_cross_entropy_backward(go, x, y) = go * c * (x - y) / D, with D = x (1 - x) and c = w (/ N):
// d/dgo = c (x - y) / D; d/dx = go c (D - (x - y)(1 - 2x)) / D^2; d/dy = -go c / D.
Tensor binary_cross_entropy_backward(DispatchKeySet ks, const Tensor& grad_output, const Tensor& self,
                                     const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction) {
  return differentiable<ops::binary_cross_entropy_backward>(
      "BinaryCrossEntropyBackwardBackward0", {grad_output, self, target},
      [&] {
        return BackwardFunction::Formula([go = SavedVariable(grad_output), s = SavedVariable(self),
                                          t = SavedVariable(target), w = SavedVariable(weight ? *weight : Tensor()),
                                          reduction](const variable_list& g) {
          const Tensor go_v = go.unpack(), x = s.unpack(), y = t.unpack();
          const Tensor c = scale_of(x, w.unpack(), reduction);
          const Tensor d = mt::clamp_min((-x + 1) * x, 1e-12);
          const Tensor gc = g[0] * c;
          return variable_list{sum_to(gc * (x - y) / d, go_v.sizes()),
                               sum_to(gc * go_v * (d - (x - y) * (-x * 2 + 1)) / (d * d), x.sizes()),
                               sum_to(-(gc * go_v) / d, y.sizes())};
        });
      },
      ks, grad_output, self, target, weight, reduction);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("nll_loss_forward", MT_FN(nll_loss_forward));
  m.impl("nll_loss_backward", MT_FN(nll_loss_backward));
  m.impl("binary_cross_entropy", MT_FN(binary_cross_entropy));
  m.impl("binary_cross_entropy_backward", MT_FN(binary_cross_entropy_backward));
}

}  // namespace mt::autograd
