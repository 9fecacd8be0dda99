#include "ops/Activation.h"

#include "dispatch/Library.h"
#include "ops/infra/PointwiseIterators.h"

namespace mt {

MT_DEFINE_STUB(relu_stub, void(TensorIterator&));
MT_DEFINE_STUB(gelu_stub, void(TensorIterator&, GeluApproximation));
MT_DEFINE_STUB(silu_stub, void(TensorIterator&));
MT_DEFINE_STUB(threshold_backward_stub, void(TensorIterator&, const Scalar&));
MT_DEFINE_STUB(activation_stub, void(TensorIterator&, PointwiseActivation, const ActivationParams&));

namespace {

// gelu and silu are defined for floating inputs only (no promotion of integers, as in PyTorch).
void check_floating(const Tensor& self, const char* name) {
  MT_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"", name, "\" not implemented for '", self.dtype(), "'");
}

GeluApproximation parse_approximation(std::string_view approximate) {
  MT_CHECK(approximate == "none" || approximate == "tanh", "approximate argument must be either none or tanh.");
  return approximate == "tanh" ? GeluApproximation::Tanh : GeluApproximation::None;
}

Tensor& relu_impl(Tensor& out, const Tensor& self, bool inplace) {
  MT_CHECK(self.dtype() != kBool, "Boolean inputs not supported for relu");
  TensorIterator iter = unary_iterator(out, self, inplace);
  relu_stub(iter.device().type(), iter);
  return result_of(out, iter);
}

Tensor& gelu_impl(Tensor& out, const Tensor& self, std::string_view approximate, bool inplace) {
  const GeluApproximation kind = parse_approximation(approximate);
  check_floating(self, "gelu");
  TensorIterator iter = unary_iterator(out, self, inplace);
  gelu_stub(iter.device().type(), iter, kind);
  return result_of(out, iter);
}

Tensor& silu_impl(Tensor& out, const Tensor& self, bool inplace) {
  check_floating(self, "silu");
  TensorIterator iter = unary_iterator(out, self, inplace);
  silu_stub(iter.device().type(), iter);
  return result_of(out, iter);
}

// --- the registered kernels, one per overload ------------------------------------------------------------

Tensor relu(const Tensor& self) {
  Tensor out;
  return relu_impl(out, self, false);
}
Tensor& relu_(Tensor& self) { return relu_impl(self, self, true); }
Tensor gelu(const Tensor& self, std::string_view approximate) {
  Tensor out;
  return gelu_impl(out, self, approximate, false);
}
Tensor& gelu_(Tensor& self, std::string_view approximate) { return gelu_impl(self, self, approximate, true); }
Tensor& gelu_out(const Tensor& self, std::string_view approximate, Tensor& out) {
  return gelu_impl(out, self, approximate, false);
}
Tensor silu(const Tensor& self) {
  Tensor out;
  return silu_impl(out, self, false);
}
Tensor& silu_(Tensor& self) { return silu_impl(self, self, true); }

// relu's gradient (PyTorch's threshold_backward): one pass, with no mask tensor in between.
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  MT_CHECK(self.dtype() != kBool && grad_output.dtype() != kBool, "Boolean inputs not supported for threshold_backward");
  Tensor out;
  TensorIterator iter = binary_iterator(out, grad_output, self, false);
  threshold_backward_stub(iter.device().type(), iter, threshold);
  return result_of(out, iter);
}
Tensor& silu_out(const Tensor& self, Tensor& out) { return silu_impl(out, self, false); }

// The parametric family: floating inputs only, but hardtanh (a clamp) takes integers too.
Tensor& activation_impl(PointwiseActivation op, const ActivationParams& params, Tensor& out, const Tensor& self,
                        bool inplace) {
  if (op == PointwiseActivation::Hardtanh) {
    MT_CHECK(self.dtype() != kBool, "Bool inputs not supported for hardtanh");
  } else {
    check_floating(self, activation_name(op));
  }
  TensorIterator iter = unary_iterator(out, self, inplace);
  activation_stub(iter.device().type(), iter, op, params);
  return result_of(out, iter);
}

template <PointwiseActivation op>
Tensor activation(const Tensor& self) {
  Tensor out;
  return activation_impl(op, {}, out, self, false);
}
template <PointwiseActivation op>
Tensor& activation_(Tensor& self) {
  return activation_impl(op, {}, self, self, true);
}
template <PointwiseActivation op>
Tensor& activation_out(const Tensor& self, Tensor& out) {
  return activation_impl(op, {}, out, self, false);
}

Tensor leaky_relu(const Tensor& self, const Scalar& slope) {
  Tensor out;
  return activation_impl(PointwiseActivation::LeakyRelu, {slope.toDouble()}, out, self, false);
}
Tensor& leaky_relu_(Tensor& self, const Scalar& slope) {
  return activation_impl(PointwiseActivation::LeakyRelu, {slope.toDouble()}, self, self, true);
}
Tensor& leaky_relu_out(const Tensor& self, const Scalar& slope, Tensor& out) {
  return activation_impl(PointwiseActivation::LeakyRelu, {slope.toDouble()}, out, self, false);
}
ActivationParams elu_params(const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return {alpha.toDouble(), scale.toDouble(), input_scale.toDouble()};
}
Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  Tensor out;
  return activation_impl(PointwiseActivation::Elu, elu_params(alpha, scale, input_scale), out, self, false);
}
Tensor& elu_(Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return activation_impl(PointwiseActivation::Elu, elu_params(alpha, scale, input_scale), self, self, true);
}
Tensor& elu_out(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale, Tensor& out) {
  return activation_impl(PointwiseActivation::Elu, elu_params(alpha, scale, input_scale), out, self, false);
}
Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  Tensor out;
  return activation_impl(PointwiseActivation::Softplus, {beta.toDouble(), threshold.toDouble()}, out, self, false);
}
Tensor& softplus_out(const Tensor& self, const Scalar& beta, const Scalar& threshold, Tensor& out) {
  return activation_impl(PointwiseActivation::Softplus, {beta.toDouble(), threshold.toDouble()}, out, self, false);
}
Tensor hardtanh(const Tensor& self, const Scalar& min, const Scalar& max) {
  Tensor out;
  return activation_impl(PointwiseActivation::Hardtanh, {min.toDouble(), max.toDouble()}, out, self, false);
}
Tensor& hardtanh_(Tensor& self, const Scalar& min, const Scalar& max) {
  return activation_impl(PointwiseActivation::Hardtanh, {min.toDouble(), max.toDouble()}, self, self, true);
}
Tensor& hardtanh_out(const Tensor& self, const Scalar& min, const Scalar& max, Tensor& out) {
  return activation_impl(PointwiseActivation::Hardtanh, {min.toDouble(), max.toDouble()}, out, self, false);
}

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
  using A = PointwiseActivation;
  m.impl("leaky_relu", MT_FN(leaky_relu));
  m.impl("leaky_relu_", MT_FN(leaky_relu_));
  m.impl("leaky_relu.out", MT_FN(leaky_relu_out));
  m.impl("elu", MT_FN(elu));
  m.impl("elu_", MT_FN(elu_));
  m.impl("elu.out", MT_FN(elu_out));
  m.impl("softplus", MT_FN(softplus));
  m.impl("softplus.out", MT_FN(softplus_out));
  m.impl("hardtanh", MT_FN(hardtanh));
  m.impl("hardtanh_", MT_FN(hardtanh_));
  m.impl("hardtanh.out", MT_FN(hardtanh_out));
  m.impl("hardsigmoid", MT_FN(activation<A::Hardsigmoid>));
  m.impl("hardsigmoid_", MT_FN(activation_<A::Hardsigmoid>));
  m.impl("hardsigmoid.out", MT_FN(activation_out<A::Hardsigmoid>));
  m.impl("hardswish", MT_FN(activation<A::Hardswish>));
  m.impl("hardswish_", MT_FN(activation_<A::Hardswish>));
  m.impl("hardswish.out", MT_FN(activation_out<A::Hardswish>));
  m.impl("mish", MT_FN(activation<A::Mish>));
  m.impl("mish_", MT_FN(activation_<A::Mish>));
  m.impl("mish.out", MT_FN(activation_out<A::Mish>));
  m.impl("log_sigmoid", MT_FN(activation<A::LogSigmoid>));
  m.impl("log_sigmoid.out", MT_FN(activation_out<A::LogSigmoid>));
  m.impl("relu", MT_FN(relu));
  m.impl("relu_", MT_FN(relu_));
  m.impl("gelu", MT_FN(gelu));
  m.impl("gelu_", MT_FN(gelu_));
  m.impl("gelu.out", MT_FN(gelu_out));
  m.impl("silu", MT_FN(silu));
  m.impl("silu_", MT_FN(silu_));
  m.impl("silu.out", MT_FN(silu_out));
  m.impl("threshold_backward", MT_FN(threshold_backward));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
