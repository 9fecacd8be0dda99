// The losses, as compositions of other ops. cross_entropy_loss, mse_loss, l1_loss and
// binary_cross_entropy_with_logits are CompositeImplicitAutograd: autograd and vmap differentiate and
// batch the ops they are made of; so is nll_loss, over nll_loss_forward. Some pieces sit at
// CompositeExplicitAutograd, where only plain backend tensors arrive: nll_loss_forward/backward (their
// derivatives are formulas, and CPU has a fused kernel), the target check of nll_loss, which reads data,
// and binary_cross_entropy (see there for why it also needs its own derivative).
#include "ops/Loss.h"

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/_nll_loss_check_target.h"
#include "ops/api/abs.h"
#include "ops/api/argmax.h"
#include "ops/api/binary_cross_entropy.h"
#include "ops/api/binary_cross_entropy_backward.h"
#include "ops/api/binary_cross_entropy_with_logits.h"
#include "ops/api/clamp_min.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/exp.h"
#include "ops/api/gather.h"
#include "ops/api/index_select.h"
#include "ops/api/l1_loss.h"
#include "ops/api/log.h"
#include "ops/api/log1p.h"
#include "ops/api/log_softmax.h"
#include "ops/api/logical_and.h"
#include "ops/api/logical_not.h"
#include "ops/api/logical_or.h"
#include "ops/api/mse_loss.h"
#include "ops/api/nll_loss.h"
#include "ops/api/nll_loss_forward.h"
#include "ops/api/where.h"
#include "ops/api/zeros_like.h"
#include "ops/TensorOperators.h"
#include "tensor/TypePromotion.h"

namespace mt {
namespace {

void check_reduction(int64_t reduction) {
  MT_CHECK_VALUE(reduction == Reduction::None || reduction == Reduction::Mean || reduction == Reduction::Sum, reduction,
                 " is not a valid value for reduction (expected Reduction::None, Reduction::Mean or Reduction::Sum)");
}

Tensor apply_reduction(const Tensor& loss, int64_t reduction) {
  if (reduction == Reduction::Mean) return loss.mean();
  if (reduction == Reduction::Sum) return loss.sum();
  return loss;
}

[[noreturn]] void throw_not_implemented(const char* op, ScalarType dtype) {
  detail::throw_error<NotImplementedError>('"', op, "\" not implemented for '", dtype, "'");
}

void check_floating(const char* op, ScalarType dtype) {
  if (!is_floating_point(dtype)) throw_not_implemented(op, dtype);
}

void check_class_weight(const std::optional<Tensor>& weight, int64_t n_classes, const char* prefix) {
  MT_CHECK(!weight || (weight->dim() == 1 && weight->numel() == n_classes), prefix,
           "weight tensor should be defined either for all ", n_classes, " classes or no classes but got weight tensor "
           "of shape: ", weight->sizes());
}

// The per-class weight shaped to broadcast along the class dim (dim 1, or 0 for an unbatched input).
Tensor class_weight_along(const Tensor& weight, const Tensor& input, int64_t class_dim) {
  std::vector<int64_t> shape(input.dim(), 1);
  shape[class_dim] = weight.numel();
  return weight.reshape(shape);
}

// --- nll_loss ------------------------------------------------------------------------------------------

// The weight of each target: weight[c] (1 without a weight), 0 where the target is ignored.
Tensor target_weights(const std::optional<Tensor>& weight, const Tensor& counts, const Tensor& safe_target,
                      ScalarType dtype) {
  if (!weight) return counts.to(dtype);
  return mt::where(counts, mt::index_select(*weight, 0, safe_target.reshape({-1})).reshape(safe_target.sizes()), 0);
}

// Raises PyTorch's "Target 5 is out of bounds." for the first target outside [0, n_classes) that is not
// ignore_index. It reads the data, so it runs where the tensors are plain backend tensors; Meta tensors
// have nothing to read.
void nll_loss_check_target(const Tensor& target, int64_t n_classes, int64_t ignore_index) {
  if (target.is_meta() || target.numel() == 0) return;
  const Tensor bad = mt::logical_and(target != ignore_index, mt::logical_or(target < 0, target >= n_classes));
  if (!bad.any().item<bool>()) return;
  const Tensor first = mt::argmax(bad.to(kInt64).reshape({-1}));
  MT_CHECK_INDEX(false, "Target ", target.reshape({-1}).select(0, first.item<int64_t>()).item<int64_t>(),
                 " is out of bounds.");
}

// The shape checks of nll_loss for every rank of input: (C), (N, C) and (N, C, d1, d2, ...).
void check_nll_shapes(const Tensor& self, const Tensor& target) {
  MT_CHECK_VALUE(self.dim() >= 1, "Expected 1 or more dimensions (got ", self.dim(), ")");
  if (self.dim() >= 2 && target.dim() >= 1) {
    MT_CHECK_VALUE(self.size(0) == target.size(0), "Expected input batch_size (", self.size(0),
                   ") to match target batch_size (", target.size(0), ").");
  }
  if (self.dim() <= 2) {
    MT_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
    MT_CHECK(self.dim() == target.dim() + 1, "size mismatch (got input: ", self.sizes(), ", target: ", target.sizes(),
             ")");
    return;
  }
  if (self.dim() == 4) {
    MT_CHECK(target.dim() == 3, "only batches of spatial targets supported (3D tensors) but got targets of dimension: ",
             target.dim());
  }
  std::vector<int64_t> expected = {self.size(0)};
  for (int64_t d = 2; d < self.dim(); ++d) expected.push_back(self.size(d));
  MT_CHECK(target.sizes() == IntArrayRef(expected), "Expected target size ", IntArrayRef(expected), ", got ",
           target.sizes());
}

}  // namespace

void detail::check_nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                            int64_t reduction) {
  check_reduction(reduction);
  check_nll_shapes(self, target);
  check_floating("nll_loss", self.dtype());
  MT_CHECK(target.dtype() == kInt64, "expected scalar type ", kInt64, " but found ", target.dtype());
  check_class_weight(weight, self.size(self.dim() == 1 ? 0 : 1), "");
  MT_CHECK(!weight || weight->dtype() == self.dtype(), "expected scalar type ", self.dtype(), " but found ",
           weight->dtype());
}

// loss[n, d1, ...] = -weight[c] * self[n, c, d1, ...] with c = target[n, d1, ...]; ignored targets add
// nothing, and Mean divides by total_weight, the summed weights of the targets that count. In ops that
// have kernels on every backend; CPU has a fused kernel of its own (ops/cpu/LossKernel.cpp).
std::tuple<Tensor, Tensor> detail::nll_loss_forward_decomposed(const Tensor& self, const Tensor& target,
                                                               const std::optional<Tensor>& weight, int64_t reduction,
                                                               int64_t ignore_index) {
  check_nll_loss(self, target, weight, reduction);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  mt::_nll_loss_check_target(target, self.size(class_dim), ignore_index);
  const Tensor counts = target != ignore_index;
  const Tensor safe_target = mt::where(counts, target, 0);  // ignored targets read class 0, then drop out
  const Tensor picked = mt::where(counts, mt::gather(self, class_dim, safe_target.unsqueeze(class_dim)).squeeze(class_dim), 0);
  const Tensor w = target_weights(weight, counts, safe_target, self.dtype());
  const Tensor loss = -(picked * w);
  const Tensor total_weight = w.sum();
  if (reduction == Reduction::None) return {loss, total_weight};
  if (reduction == Reduction::Sum) return {loss.sum(), total_weight};
  return {loss.sum() / total_weight, total_weight};
}

// d loss / d self: -weight[c] * grad at each target's class (over total_weight for Mean), 0 elsewhere.
Tensor detail::nll_loss_backward_decomposed(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction,
                                            int64_t ignore_index, const Tensor& total_weight) {
  check_nll_loss(self, target, weight, reduction);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor counts = target != ignore_index;
  const Tensor safe_target = mt::where(counts, target, 0);
  const Tensor w = target_weights(weight, counts, safe_target, self.dtype());
  const Tensor grad = reduction == Reduction::Mean ? grad_output / total_weight : grad_output;
  const Tensor values = mt::where(counts, -(w * grad), 0);
  return mt::zeros_like(self).scatter(class_dim, safe_target.unsqueeze(class_dim), values.unsqueeze(class_dim));
}

namespace {

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                int64_t ignore_index) {
  return std::get<0>(mt::nll_loss_forward(self, target, weight, reduction, ignore_index));
}

// --- cross_entropy_loss ----------------------------------------------------------------------------------

// Targets that are class probabilities (same shape as the input): -sum(p * log_softmax(x)) over the
// class dim, the classes weighted; Mean divides by the number of samples, not by weights.
Tensor cross_entropy_probabilities(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                   int64_t reduction, int64_t ignore_index, double label_smoothing) {
  MT_CHECK(is_floating_point(target.dtype()), "Expected floating point type for target with class probabilities, got ",
           target.dtype());
  MT_CHECK(ignore_index < 0, "ignore_index is not supported for floating point target");
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  check_class_weight(weight, n_classes, "cross_entropy: ");
  const Tensor log_p = mt::log_softmax(self, class_dim);
  const Tensor p = label_smoothing > 0 ? target * (1 - label_smoothing) + label_smoothing / n_classes : target;
  Tensor terms = log_p * p;
  if (weight) terms = terms * class_weight_along(*weight, self, class_dim);
  if (reduction == Reduction::None) return -terms.sum(class_dim);
  if (reduction == Reduction::Sum) return -terms.sum();
  // No samples: 0 / 0, NaN as in PyTorch.
  const int64_t samples = n_classes == 0 ? 0 : self.numel() / n_classes;
  return -terms.sum() / static_cast<double>(samples);
}

// Class-index targets with label smoothing: (1 - s) * nll_loss + s / C * (the loss against a uniform
// target), both reduced alike; the uniform part skips ignored targets and weighs classes as nll_loss.
Tensor cross_entropy_smoothed(const Tensor& log_p, const Tensor& target, const std::optional<Tensor>& weight,
                              int64_t reduction, int64_t ignore_index, double label_smoothing) {
  const int64_t class_dim = log_p.dim() == 1 ? 0 : 1;
  const int64_t n_classes = log_p.size(class_dim);
  const Tensor nll = mt::nll_loss(log_p, target, weight, reduction, ignore_index);
  const Tensor ignored = target == ignore_index;
  const Tensor weighted = weight ? log_p * class_weight_along(*weight, log_p, class_dim) : log_p;
  const Tensor smooth = (-weighted.sum(class_dim)).masked_fill(ignored, 0);
  Tensor uniform;
  if (reduction == Reduction::None) {
    uniform = smooth;
  } else if (reduction == Reduction::Sum) {
    uniform = smooth.sum();
  } else if (weight) {
    const Tensor safe_target = mt::where(ignored, 0, target);
    const Tensor target_weight = mt::index_select(*weight, 0, safe_target.reshape({-1})).reshape(target.sizes());
    uniform = smooth.sum() / target_weight.masked_fill(ignored, 0).sum();
  } else {
    uniform = smooth.sum() / mt::logical_not(ignored).sum();
  }
  return (1 - label_smoothing) * nll + uniform * (label_smoothing / n_classes);
}

// The input's dim 1 (dim 0 when unbatched) holds the classes; a target of the input's shape holds class
// probabilities, any other target class indices.
Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                          int64_t reduction, int64_t ignore_index, double label_smoothing) {
  check_reduction(reduction);
  MT_CHECK(label_smoothing >= 0.0 && label_smoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: ",
           label_smoothing);
  if (self.sizes() == target.sizes()) {
    return cross_entropy_probabilities(self, target, weight, reduction, ignore_index, label_smoothing);
  }
  const Tensor log_p = mt::log_softmax(self, self.dim() == 1 ? 0 : 1);
  if (label_smoothing > 0.0) {
    return cross_entropy_smoothed(log_p, target, weight, reduction, ignore_index, label_smoothing);
  }
  return mt::nll_loss(log_p, target, weight, reduction, ignore_index);
}

// --- regression losses ------------------------------------------------------------------------------------

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  check_reduction(reduction);
  const ScalarType dtype = result_type(self, target);
  check_floating("mse_loss", dtype);
  // In the result dtype first: a bool input is a number here, where sub would refuse it.
  const Tensor diff = self.to(dtype) - target.to(dtype);
  return apply_reduction(diff * diff, reduction);
}

Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  check_reduction(reduction);
  return apply_reduction(mt::abs(self - target), reduction);
}

// --- binary cross entropy ---------------------------------------------------------------------------------

void check_same_size(const Tensor& self, const Tensor& target) {
  MT_CHECK_VALUE(self.sizes() == target.sizes(), "Using a target size (", target.sizes(),
                 ") that is different to the input size (", self.sizes(),
                 ") is deprecated. Please ensure they have the same size.");
}

// -w * (y * log(x) + (1 - y) * log(1 - x)) with each log clamped at -100, as PyTorch does, so that x = 0
// or 1 gives a finite loss. At CompositeExplicitAutograd, not Implicit: differentiating this composition
// gives 0 * inf = NaN where a log is clamped (x = 0 or 1, which a saturated float sigmoid produces), so
// autograd must use binary_cross_entropy_backward instead; and the range check reads the data.
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                            int64_t reduction) {
  check_reduction(reduction);
  check_same_size(self, target);
  check_floating("binary_cross_entropy", self.dtype());
  MT_CHECK(target.dtype() == self.dtype(), "Found dtype ", target.dtype(), " but expected ", self.dtype());
  if (!self.is_meta() && self.numel() > 0) {
    MT_CHECK(mt::logical_and(self >= 0, self <= 1).all().item<bool>(), "all elements of input should be between 0 and 1");
  }
  Tensor loss = (target - 1) * mt::clamp_min(mt::log1p(-self), -100) - target * mt::clamp_min(mt::log(self), -100);
  if (weight) loss = loss * weight->to(loss.dtype());  // the loss keeps the input's dtype, as in PyTorch
  return apply_reduction(loss, reduction);
}

// The gradient of binary_cross_entropy with respect to self: grad * w * (x - y) / max(x * (1 - x), 1e-12)
// (divided by the element count for Mean), finite at x = 0 and 1.
Tensor binary_cross_entropy_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                     const std::optional<Tensor>& weight, int64_t reduction) {
  check_reduction(reduction);
  constexpr double kEpsilon = 1e-12;
  Tensor grad = grad_output * (self - target) / mt::clamp_min((-self + 1) * self, kEpsilon);
  if (weight) grad = grad * weight->to(grad.dtype());
  if (reduction == Reduction::Mean) grad = grad / static_cast<double>(self.numel());
  return grad;
}

// (1 - y) * x + L * log(1 + exp(-x)) with L = 1 + (pos_weight - 1) * y. The log term is written as
// log1p(exp(-|x|)) + max(-x, 0), so that it neither overflows nor loses precision for any x, with the two
// sides of x = 0 picked by `where`: through abs and relu, whose derivatives are 0 at 0, the gradient at
// a zero logit (a zero-initialised last layer) would lose its sigmoid(0) = 1/2.
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight, int64_t reduction) {
  check_reduction(reduction);
  MT_CHECK_VALUE(self.sizes() == target.sizes(), "Target size (", target.sizes(), ") must be the same as input size (",
                 self.sizes(), ")");
  check_floating("binary_cross_entropy_with_logits", result_type(self, target));
  const Tensor positive = self > 0;
  const Tensor log_sigmoid_neg =  // -log(sigmoid(x))
      mt::log1p(mt::exp(mt::where(positive, -self, self))) - self.masked_fill(positive, 0);
  // The weights do not promote the loss, as in PyTorch.
  const Tensor scaled =
      pos_weight ? ((pos_weight->to(log_sigmoid_neg.dtype()) - 1) * target + 1) * log_sigmoid_neg : log_sigmoid_neg;
  Tensor loss = (-target + 1) * self + scaled;
  if (weight) loss = loss * weight->to(loss.dtype());
  return apply_reduction(loss, reduction);
}

void register_implicit(Library& m) {
  m.impl("nll_loss", MT_FN(nll_loss));
  m.impl("cross_entropy_loss", MT_FN(cross_entropy_loss));
  m.impl("mse_loss", MT_FN(mse_loss));
  m.impl("l1_loss", MT_FN(l1_loss));
  m.impl("binary_cross_entropy_with_logits", MT_FN(binary_cross_entropy_with_logits));
}

void register_explicit(Library& m) {
  m.impl("_nll_loss_check_target", MT_FN(nll_loss_check_target));
  m.impl("nll_loss_forward", MT_FN(detail::nll_loss_forward_decomposed));
  m.impl("nll_loss_backward", MT_FN(detail::nll_loss_backward_decomposed));
  m.impl("binary_cross_entropy", MT_FN(binary_cross_entropy));
  m.impl("binary_cross_entropy_backward", MT_FN(binary_cross_entropy_backward));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_implicit(m); }
MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) { register_explicit(m); }
// CUDA runs nll_loss_forward/backward as these compositions of its kernels, registered under its own key
// as every operator with a CPU kernel has a CUDA one.
MT_LIBRARY_IMPL(mt, CUDA, m) {
  m.impl("nll_loss_forward", MT_FN(detail::nll_loss_forward_decomposed));
  m.impl("nll_loss_backward", MT_FN(detail::nll_loss_backward_decomposed));
}

}  // namespace mt
