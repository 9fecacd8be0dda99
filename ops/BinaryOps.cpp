#include "ops/BinaryOps.h"

#include "dispatch/Library.h"
#include "ops/api/add.h"
#include "ops/api/any_ops.h"
#include "ops/api/div.h"
#include "ops/api/eq_ops.h"
#include "ops/api/fmod.h"
#include "ops/api/mul.h"
#include "ops/api/remainder.h"
#include "ops/api/sub.h"
#include "ops/api/t.h"

namespace mt {

MT_DEFINE_STUB(add_stub, void(TensorIterator&, const Scalar&));
MT_DEFINE_STUB(mul_stub, void(TensorIterator&));
MT_DEFINE_STUB(div_true_stub, void(TensorIterator&));
MT_DEFINE_STUB(div_trunc_stub, void(TensorIterator&));
MT_DEFINE_STUB(div_floor_stub, void(TensorIterator&));
MT_DEFINE_STUB(remainder_stub, void(TensorIterator&));
MT_DEFINE_STUB(fmod_stub, void(TensorIterator&));

// On the CPU whatever `device` is, as PyTorch's wrapped numbers: a GPU op reads it on the host (Meta
// stays Meta, which has no data to write).
Tensor wrapped_scalar_tensor(const Scalar& s, Device device) {
  Tensor t(TensorImpl::empty({}, s.type(), device.is_meta() ? device : Device(kCPU)));
  if (!device.is_meta()) {
    if (s.isBoolean()) *t.data_ptr<bool>() = s.toBool();
    else if (s.isIntegral(false)) *t.data_ptr<int64_t>() = s.toLong();
    else *t.data_ptr<double>() = s.toDouble();
  }
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

namespace {

enum class DivMode { True, Trunc, Floor };

DivMode parse_rounding_mode(std::optional<std::string_view> mode) {
  if (!mode) return DivMode::True;
  if (*mode == "trunc") return DivMode::Trunc;
  if (*mode == "floor") return DivMode::Floor;
  MT_CHECK_VALUE(false, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode, "'");
  return DivMode::True;
}

// The iterator of a functional or out= call (out may be undefined) or, with `inplace`, of self op= other.
TensorIterator binary_iter(Tensor& out, const Tensor& self, const Tensor& other, bool inplace, bool to_float) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(self)
      .add_input(other)
      .promote_inputs_to_common_dtype(true)
      .promote_integer_inputs_to_float(to_float)
      .resize_outputs(!inplace)
      .build();
}

Tensor& finish(Tensor& out, const TensorIterator& iter) {
  if (!out.defined()) out = iter.output();
  return out;
}

Tensor& add_impl(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha, bool inplace) {
  TensorIterator iter = binary_iter(out, self, other, inplace, false);
  const ScalarType dtype = iter.common_dtype();
  MT_CHECK_TYPE(!alpha.isBoolean() || dtype == kBool, "Boolean alpha only supported for Boolean results.");
  MT_CHECK_TYPE(is_floating_point(dtype) || alpha.isIntegral(true),
                "For integral input tensors, argument alpha must not be a floating point number.");
  add_stub(iter.device().type(), iter, alpha);
  return finish(out, iter);
}

Scalar negated(const Scalar& s) { return s.isFloatingPoint() ? Scalar(-s.toDouble()) : Scalar(-s.toLong()); }

Tensor& sub_impl(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha, bool inplace) {
  MT_CHECK_TYPE(self.dtype() != kBool && other.dtype() != kBool,
                "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a "
                "mask, use the `~` or `logical_not()` operator instead.");
  MT_CHECK_TYPE(!alpha.isBoolean(), "Boolean alpha only supported for Boolean results.");
  return add_impl(out, self, other, negated(alpha), inplace);
}

// The ops whose loop needs nothing but the iterator.
Tensor& stub_impl(DispatchStub<void(TensorIterator&)>& stub, Tensor& out, const Tensor& self, const Tensor& other,
                  bool inplace) {
  TensorIterator iter = binary_iter(out, self, other, inplace, false);
  stub(iter.device().type(), iter);
  return finish(out, iter);
}

// Integer division and modulo by zero raise before anything is written, on every device (a GPU kernel
// cannot raise), so a failed in-place op leaves self as it was. One extra reduction, for integers only.
void check_integer_divisor(const TensorIterator& iter) {
  if (!is_integral(iter.common_dtype(), false) || iter.device().is_meta()) return;
  MT_CHECK(!ops::any::call(ops::eq_Scalar::call(iter.tensor(2), 0)).item().toBool(), "ZeroDivisionError");
}

// remainder and fmod.
Tensor& modulo_impl(DispatchStub<void(TensorIterator&)>& stub, Tensor& out, const Tensor& self, const Tensor& other,
                    bool inplace) {
  TensorIterator iter = binary_iter(out, self, other, inplace, false);
  check_integer_divisor(iter);
  stub(iter.device().type(), iter);
  return finish(out, iter);
}

Tensor& div_impl(Tensor& out, const Tensor& self, const Tensor& other, DivMode mode, bool inplace) {
  // True division always gives a floating result; trunc and floor keep integers integral.
  TensorIterator iter = binary_iter(out, self, other, inplace, mode == DivMode::True);
  const DeviceType device = iter.device().type();
  if (mode == DivMode::True) {
    div_true_stub(device, iter);
    return finish(out, iter);
  }
  check_integer_divisor(iter);
  if (mode == DivMode::Trunc) div_trunc_stub(device, iter);
  else div_floor_stub(device, iter);
  return finish(out, iter);
}

// --- the registered kernels, one per overload ------------------------------------------------------------

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  Tensor out;
  return add_impl(out, self, other, alpha, false);
}
Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha) { return add_impl(self, self, other, alpha, true); }
Tensor& add_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return add_impl(out, self, other, alpha, false);
}
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  Tensor out;
  return sub_impl(out, self, other, alpha, false);
}
Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha) { return sub_impl(self, self, other, alpha, true); }
Tensor& sub_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return sub_impl(out, self, other, alpha, false);
}
Tensor mul(const Tensor& self, const Tensor& other) {
  Tensor out;
  return stub_impl(mul_stub, out, self, other, false);
}
Tensor& mul_(Tensor& self, const Tensor& other) { return stub_impl(mul_stub, self, self, other, true); }
Tensor& mul_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return stub_impl(mul_stub, out, self, other, false);
}
Tensor div(const Tensor& self, const Tensor& other) {
  Tensor out;
  return div_impl(out, self, other, DivMode::True, false);
}
Tensor div_mode(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  Tensor out;
  return div_impl(out, self, other, parse_rounding_mode(mode), false);
}
Tensor& div_(Tensor& self, const Tensor& other) { return div_impl(self, self, other, DivMode::True, true); }
Tensor& div__mode(Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return div_impl(self, self, other, parse_rounding_mode(mode), true);
}
Tensor& div_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return div_impl(out, self, other, DivMode::True, false);
}
Tensor& div_out_mode(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode, Tensor& out) {
  return div_impl(out, self, other, parse_rounding_mode(mode), false);
}
template <DispatchStub<void(TensorIterator&)>& stub>
Tensor modulo(const Tensor& self, const Tensor& other) {
  Tensor out;
  return modulo_impl(stub, out, self, other, false);
}
template <DispatchStub<void(TensorIterator&)>& stub>
Tensor& modulo_(Tensor& self, const Tensor& other) {
  return modulo_impl(stub, self, self, other, true);
}
template <DispatchStub<void(TensorIterator&)>& stub>
Tensor& modulo_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return modulo_impl(stub, out, self, other, false);
}

// The Scalar overloads are compositions: the scalar becomes a wrapped-number tensor.
Tensor add_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return mt::add(self, wrapped_scalar_tensor(other, self.device()), alpha);
}
Tensor& add__scalar(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return self.add_(wrapped_scalar_tensor(other, self.device()), alpha);
}
Tensor sub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return mt::sub(self, wrapped_scalar_tensor(other, self.device()), alpha);
}
Tensor& sub__scalar(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return self.sub_(wrapped_scalar_tensor(other, self.device()), alpha);
}
Tensor mul_scalar(const Tensor& self, const Scalar& other) {
  return mt::mul(self, wrapped_scalar_tensor(other, self.device()));
}
Tensor& mul__scalar(Tensor& self, const Scalar& other) { return self.mul_(wrapped_scalar_tensor(other, self.device())); }
Tensor div_scalar(const Tensor& self, const Scalar& other) {
  return mt::div(self, wrapped_scalar_tensor(other, self.device()));
}
Tensor& div__scalar(Tensor& self, const Scalar& other) { return self.div_(wrapped_scalar_tensor(other, self.device())); }
Tensor remainder_scalar(const Tensor& self, const Scalar& other) {
  return mt::remainder(self, wrapped_scalar_tensor(other, self.device()));
}
Tensor& remainder__scalar(Tensor& self, const Scalar& other) {
  return self.remainder_(wrapped_scalar_tensor(other, self.device()));
}
Tensor& remainder_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return mt::remainder_out(out, self, wrapped_scalar_tensor(other, self.device()));
}
Tensor remainder_scalar_tensor(const Scalar& self, const Tensor& other) {
  return mt::remainder(wrapped_scalar_tensor(self, other.device()), other);
}
Tensor& remainder_scalar_tensor_out(const Scalar& self, const Tensor& other, Tensor& out) {
  return mt::remainder_out(out, wrapped_scalar_tensor(self, other.device()), other);
}
Tensor fmod_scalar(const Tensor& self, const Scalar& other) {
  return mt::fmod(self, wrapped_scalar_tensor(other, self.device()));
}
Tensor& fmod__scalar(Tensor& self, const Scalar& other) { return self.fmod_(wrapped_scalar_tensor(other, self.device())); }
Tensor& fmod_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return mt::fmod_out(out, self, wrapped_scalar_tensor(other, self.device()));
}
// rsub(self, other) = other - alpha * self, PyTorch's spelling of `3 - x`.
Tensor rsub_tensor(const Tensor& self, const Tensor& other, const Scalar& alpha) { return mt::sub(other, self, alpha); }
Tensor rsub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return mt::sub(wrapped_scalar_tensor(other, self.device()), self, alpha);
}

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
  m.impl("add.Tensor", MT_FN(add));
  m.impl("add_.Tensor", MT_FN(add_));
  m.impl("add.out", MT_FN(add_out));
  m.impl("sub.Tensor", MT_FN(sub));
  m.impl("sub_.Tensor", MT_FN(sub_));
  m.impl("sub.out", MT_FN(sub_out));
  m.impl("mul.Tensor", MT_FN(mul));
  m.impl("mul_.Tensor", MT_FN(mul_));
  m.impl("mul.out", MT_FN(mul_out));
  m.impl("div.Tensor", MT_FN(div));
  m.impl("div.Tensor_mode", MT_FN(div_mode));
  m.impl("div_.Tensor", MT_FN(div_));
  m.impl("div_.Tensor_mode", MT_FN(div__mode));
  m.impl("div.out", MT_FN(div_out));
  m.impl("div.out_mode", MT_FN(div_out_mode));
  m.impl("remainder.Tensor", MT_FN(modulo<remainder_stub>));
  m.impl("remainder_.Tensor", MT_FN(modulo_<remainder_stub>));
  m.impl("remainder.Tensor_out", MT_FN(modulo_out<remainder_stub>));
  m.impl("fmod.Tensor", MT_FN(modulo<fmod_stub>));
  m.impl("fmod_.Tensor", MT_FN(modulo_<fmod_stub>));
  m.impl("fmod.Tensor_out", MT_FN(modulo_out<fmod_stub>));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("add.Scalar", MT_FN(add_scalar));
  m.impl("add_.Scalar", MT_FN(add__scalar));
  m.impl("sub.Scalar", MT_FN(sub_scalar));
  m.impl("sub_.Scalar", MT_FN(sub__scalar));
  m.impl("mul.Scalar", MT_FN(mul_scalar));
  m.impl("mul_.Scalar", MT_FN(mul__scalar));
  m.impl("div.Scalar", MT_FN(div_scalar));
  m.impl("div_.Scalar", MT_FN(div__scalar));
  m.impl("remainder.Scalar", MT_FN(remainder_scalar));
  m.impl("remainder_.Scalar", MT_FN(remainder__scalar));
  m.impl("remainder.Scalar_out", MT_FN(remainder_scalar_out));
  m.impl("remainder.Scalar_Tensor", MT_FN(remainder_scalar_tensor));
  m.impl("remainder.Scalar_Tensor_out", MT_FN(remainder_scalar_tensor_out));
  m.impl("fmod.Scalar", MT_FN(fmod_scalar));
  m.impl("fmod_.Scalar", MT_FN(fmod__scalar));
  m.impl("fmod.Scalar_out", MT_FN(fmod_scalar_out));
  m.impl("rsub.Tensor", MT_FN(rsub_tensor));
  m.impl("rsub.Scalar", MT_FN(rsub_scalar));
}

}  // namespace mt
