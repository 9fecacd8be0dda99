// Derivatives of the parametric activations (leaky_relu, elu, softplus, hardtanh, hardsigmoid, hardswish,
// mish, log_sigmoid) and their in-place forms, as PyTorch's *_backward formulas, written with
// differentiable ops so that their gradients have gradients too. (selu, celu, relu6 and glu are
// compositions and differentiate through their parts.)
#include <functional>

#include "autograd/derivatives/Formulas.h"
#include "ops/api/elu.h"
#include "ops/api/hardsigmoid.h"
#include "ops/api/hardswish.h"
#include "ops/api/hardtanh.h"
#include "ops/api/leaky_relu.h"
#include "ops/api/log_sigmoid.h"
#include "ops/api/mish.h"
#include "ops/api/softplus.h"
#include "ops/api/where.h"

namespace mt::autograd {

namespace {

// The gradient from the incoming gradient g and the input x.
using ActivationGrad = std::function<Tensor(const Tensor& g, const Tensor& x)>;

// grad(g, x), with x saved.
BackwardFunction::Formula activation_formula(ActivationGrad grad, const Tensor& x) {
  return [x = SavedVariable(x), grad = std::move(grad)](const variable_list& g) {
    return variable_list{grad(g[0], x.unpack())};
  };
}

template <typename Op, typename... Args>
Tensor activation(const char* node, ActivationGrad grad, DispatchKeySet ks, const Tensor& self, const Args&... args) {
  return differentiable<Op>(
      node, {self}, [&] { return activation_formula(std::move(grad), self); }, ks, self, args...);
}
template <typename Op, typename... Args>
Tensor& activation_(const char* node, ActivationGrad grad, DispatchKeySet ks, Tensor& self, const Args&... args) {
  return differentiable_<Op>(
      node, {self}, [&](const Tensor& original) { return activation_formula(std::move(grad), original); }, ks, self,
      args...);
}

ActivationGrad d_leaky_relu(const Scalar& slope) {
  return [s = slope.toDouble()](const Tensor& g, const Tensor& x) { return mt::where(x > 0, g, g * s); };
}
ActivationGrad d_elu(const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return [a = alpha.toDouble(), s = scale.toDouble(), i = input_scale.toDouble()](const Tensor& g, const Tensor& x) {
    return mt::where(x > 0, g * s, g * (x * i).exp() * (a * s * i));
  };
}
ActivationGrad d_softplus(const Scalar& beta, const Scalar& threshold) {
  return [b = beta.toDouble(), t = threshold.toDouble()](const Tensor& g, const Tensor& x) {
    const Tensor z = x * b;
    return mt::where(z > t, g, g * z.sigmoid());
  };
}
// 0 outside (min, max), at its ends included, as PyTorch's hardtanh_backward.
ActivationGrad d_hardtanh(const Scalar& min, const Scalar& max) {
  return [lo = min.toDouble(), hi = max.toDouble()](const Tensor& g, const Tensor& x) {
    return grad_where((x > lo) & (x < hi), g);
  };
}
Tensor d_hardsigmoid(const Tensor& g, const Tensor& x) { return grad_where((x > -3) & (x < 3), g / 6); }
Tensor d_hardswish(const Tensor& g, const Tensor& x) {
  return mt::where(x < -3, 0.0, mt::where(x <= 3, g * (x / 3 + 0.5), g));
}
// mish(x) = x tanh(softplus(x)): tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2).
Tensor d_mish(const Tensor& g, const Tensor& x) {
  const Tensor t = mt::softplus(x).tanh();
  return g * (t + x * x.sigmoid() * (1 - t * t));
}
Tensor d_log_sigmoid(const Tensor& g, const Tensor& x) { return g * (-x).sigmoid(); }

Tensor leaky_relu(DispatchKeySet ks, const Tensor& self, const Scalar& slope) {
  return activation<ops::leaky_relu>("LeakyReluBackward0", d_leaky_relu(slope), ks, self, slope);
}
Tensor& leaky_relu_(DispatchKeySet ks, Tensor& self, const Scalar& slope) {
  return activation_<ops::leaky_relu_>("LeakyReluBackward0", d_leaky_relu(slope), ks, self, slope);
}
Tensor elu(DispatchKeySet ks, const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return activation<ops::elu>("EluBackward0", d_elu(alpha, scale, input_scale), ks, self, alpha, scale, input_scale);
}
Tensor& elu_(DispatchKeySet ks, Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return activation_<ops::elu_>("EluBackward0", d_elu(alpha, scale, input_scale), ks, self, alpha, scale,
                                input_scale);
}
Tensor softplus(DispatchKeySet ks, const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return activation<ops::softplus>("SoftplusBackward0", d_softplus(beta, threshold), ks, self, beta, threshold);
}
Tensor hardtanh(DispatchKeySet ks, const Tensor& self, const Scalar& min, const Scalar& max) {
  return activation<ops::hardtanh>("HardtanhBackward0", d_hardtanh(min, max), ks, self, min, max);
}
Tensor& hardtanh_(DispatchKeySet ks, Tensor& self, const Scalar& min, const Scalar& max) {
  return activation_<ops::hardtanh_>("HardtanhBackward0", d_hardtanh(min, max), ks, self, min, max);
}
Tensor hardsigmoid(DispatchKeySet ks, const Tensor& self) {
  return activation<ops::hardsigmoid>("HardsigmoidBackward0", d_hardsigmoid, ks, self);
}
Tensor& hardsigmoid_(DispatchKeySet ks, Tensor& self) {
  return activation_<ops::hardsigmoid_>("HardsigmoidBackward0", d_hardsigmoid, ks, self);
}
Tensor hardswish(DispatchKeySet ks, const Tensor& self) {
  return activation<ops::hardswish>("HardswishBackward0", d_hardswish, ks, self);
}
Tensor& hardswish_(DispatchKeySet ks, Tensor& self) {
  return activation_<ops::hardswish_>("HardswishBackward0", d_hardswish, ks, self);
}
Tensor mish(DispatchKeySet ks, const Tensor& self) { return activation<ops::mish>("MishBackward0", d_mish, ks, self); }
Tensor& mish_(DispatchKeySet ks, Tensor& self) { return activation_<ops::mish_>("MishBackward0", d_mish, ks, self); }
Tensor log_sigmoid(DispatchKeySet ks, const Tensor& self) {
  return activation<ops::log_sigmoid>("LogSigmoidBackward0", d_log_sigmoid, ks, self);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("leaky_relu", MT_FN(leaky_relu));
  m.impl("leaky_relu_", MT_FN(leaky_relu_));
  m.impl("elu", MT_FN(elu));
  m.impl("elu_", MT_FN(elu_));
  m.impl("softplus", MT_FN(softplus));
  m.impl("hardtanh", MT_FN(hardtanh));
  m.impl("hardtanh_", MT_FN(hardtanh_));
  m.impl("hardsigmoid", MT_FN(hardsigmoid));
  m.impl("hardsigmoid_", MT_FN(hardsigmoid_));
  m.impl("hardswish", MT_FN(hardswish));
  m.impl("hardswish_", MT_FN(hardswish_));
  m.impl("mish", MT_FN(mish));
  m.impl("mish_", MT_FN(mish_));
  m.impl("log_sigmoid", MT_FN(log_sigmoid));
}

}  // namespace mt::autograd
