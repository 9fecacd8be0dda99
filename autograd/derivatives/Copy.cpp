// Derivatives of the ops that copy values: clone, contiguous (a clone into row-major order when self is
// not contiguous already), _to_copy (behind to), and copy_ and its functional form copy (self's value
// gets no gradient; src gets the gradient, summed to its shape and converted to its dtype). A copy into
// an integer or bool dtype is not differentiable: it records nothing and its result does not require
// grad, as in PyTorch (x.to(kInt64), int_tensor.copy_(x)).
#include "autograd/derivatives/Formulas.h"
#include "ops/api/_to_copy_ops.h"
#include "ops/api/clone.h"
#include "ops/api/contiguous.h"
#include "ops/api/copy.h"
#include "ops/api/zeros_like.h"

namespace mt::autograd {

namespace {

Tensor clone(DispatchKeySet ks, const Tensor& self) {
  return differentiable<ops::clone>(
      "CloneBackward0", {self},
      [] { return BackwardFunction::Formula([](const variable_list& g) { return variable_list{g[0]}; }); }, ks, self);
}

// contiguous, _to_copy, copy_ and copy stay by hand: whether they record depends on their output (a new
// tensor, a floating dtype) or on self's dtype.

Tensor contiguous(DispatchKeySet ks, const Tensor& self) {
  Tensor out = below_autograd([&] { return ops::contiguous::redispatch(ks & after_autograd_keyset, self); });
  if (!out.is_same(self) && compute_requires_grad({self})) {
    record("CloneBackward0", {self}, {out}, [](const variable_list& g) { return variable_list{g[0]}; });
  }
  return out;
}

Tensor to_copy(DispatchKeySet ks, const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
               bool non_blocking) {
  Tensor out = below_autograd(
      [&] { return ops::_to_copy::redispatch(ks & after_autograd_keyset, self, dtype, device, non_blocking); });
  if (compute_requires_grad({self}) && is_floating_point(out.dtype())) {
    // The gradient goes back to self's dtype and device.
    record("ToCopyBackward0", {self}, {out},
           [options = self.options()](const variable_list& g) { return variable_list{g[0].to(options)}; });
  }
  return out;
}

BackwardFunction::Formula copy_formula(const Tensor& src) {
  return [src_sizes = src.sizes().vec(), src_options = src.options()](const variable_list& g) {
    return variable_list{mt::zeros_like(g[0]), sum_to(g[0], src_sizes).to(src_options)};
  };
}

Tensor& copy_(DispatchKeySet ks, Tensor& self, const Tensor& src, bool non_blocking) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self, src}) && is_floating_point(self.dtype());
  below_autograd(
      [&]() -> Tensor& { return ops::copy_::redispatch(ks & after_autograd_keyset, self, src, non_blocking); });
  if (rg) record("CopyBackwards", {self, src}, {self}, copy_formula(src));
  return self;
}

Tensor copy(DispatchKeySet ks, const Tensor& self, const Tensor& src, bool non_blocking) {
  Tensor out =
      below_autograd([&] { return ops::copy::redispatch(ks & after_autograd_keyset, self, src, non_blocking); });
  if (compute_requires_grad({self, src}) && is_floating_point(out.dtype()))
    record("CopyBackward0", {self, src}, {out}, copy_formula(src));
  return out;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("clone", MT_FN(clone));
  m.impl("contiguous", MT_FN(contiguous));
  m.impl("_to_copy", MT_FN(to_copy));
  m.impl("copy_", MT_FN(copy_));
  m.impl("copy", MT_FN(copy));
}

}  // namespace mt::autograd
