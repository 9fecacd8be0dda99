#include "ops/Activation.h"

#include "dispatch/Library.h"
#include "ops/PointwiseIterators.h"

namespace mt {

MT_DEFINE_STUB(relu_stub, void(TensorIterator&));
MT_DEFINE_STUB(gelu_stub, void(TensorIterator&, GeluApproximation));
MT_DEFINE_STUB(silu_stub, void(TensorIterator&));
MT_DEFINE_STUB(threshold_backward_stub, void(TensorIterator&, const Scalar&));

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

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
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
