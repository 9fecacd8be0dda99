// atan2, hypot, copysign, logaddexp, logaddexp2 and xlogy: one iterator that promotes integer inputs to the
// default float, one stub; the functional, in-place and out= forms of each op tagged family=binary_math are
// registered from the generated list. The Scalar overloads are compositions through the Tensor ones.
#include "ops/BinaryMath.h"

#include "dispatch/Library.h"
#include "ops/BinaryOps.h"
#include "ops/api/copysign.h"
#include "ops/api/xlogy.h"
#include "ops/infra/PointwiseIterators.h"

namespace mt {

MT_DEFINE_STUB(binary_math_stub, void(TensorIterator&, BinaryMath));

namespace {

Tensor& binary_math_impl(BinaryMath op, Tensor& out, const Tensor& self, const Tensor& other, bool inplace) {
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .add_input(other)
                            .promote_inputs_to_common_dtype(true)
                            .promote_integer_inputs_to_float(true)
                            .resize_outputs(!inplace)
                            .build();
  binary_math_stub(iter.device().type(), iter, op);
  return result_of(out, iter);
}

template <BinaryMath op>
Tensor binary_math(const Tensor& self, const Tensor& other) {
  Tensor out;
  return binary_math_impl(op, out, self, other, false);
}
template <BinaryMath op>
Tensor& binary_math_(Tensor& self, const Tensor& other) {
  return binary_math_impl(op, self, self, other, true);
}
template <BinaryMath op>
Tensor& binary_math_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return binary_math_impl(op, out, self, other, false);
}

// The Scalar overloads: the scalar becomes a wrapped-number tensor, and the Tensor overload runs through
// the dispatcher.
Tensor copysign_scalar(const Tensor& self, const Scalar& other) {
  return mt::copysign(self, wrapped_scalar_tensor(other, self.device()));
}
Tensor& copysign__scalar(Tensor& self, const Scalar& other) {
  return self.copysign_(wrapped_scalar_tensor(other, self.device()));
}
Tensor& copysign_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return mt::copysign_out(out, self, wrapped_scalar_tensor(other, self.device()));
}
Tensor xlogy_scalar_self(const Scalar& self, const Tensor& other) {
  return mt::xlogy(wrapped_scalar_tensor(self, other.device()), other);
}
Tensor xlogy_scalar_other(const Tensor& self, const Scalar& other) {
  return mt::xlogy(self, wrapped_scalar_tensor(other, self.device()));
}
Tensor& xlogy__scalar_other(Tensor& self, const Scalar& other) {
  return self.xlogy_(wrapped_scalar_tensor(other, self.device()));
}
Tensor& xlogy_scalar_self_out(const Scalar& self, const Tensor& other, Tensor& out) {
  return mt::xlogy_out(out, wrapped_scalar_tensor(self, other.device()), other);
}
Tensor& xlogy_scalar_other_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return mt::xlogy_out(out, self, wrapped_scalar_tensor(other, self.device()));
}

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
#define MT_REGISTER_BINARY_MATH(name, functional, inplace, out)                   \
  m.impl(functional, MT_FN(binary_math<BinaryMath::name>));                      \
  if (inplace[0] != '\0') m.impl(inplace, MT_FN(binary_math_<BinaryMath::name>)); \
  m.impl(out, MT_FN(binary_math_out<BinaryMath::name>));
  MT_BINARY_MATH_OPS(MT_REGISTER_BINARY_MATH)
#undef MT_REGISTER_BINARY_MATH
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("copysign.Scalar", MT_FN(copysign_scalar));
  m.impl("copysign_.Scalar", MT_FN(copysign__scalar));
  m.impl("copysign.Scalar_out", MT_FN(copysign_scalar_out));
  m.impl("xlogy.Scalar_Self", MT_FN(xlogy_scalar_self));
  m.impl("xlogy.Scalar_Other", MT_FN(xlogy_scalar_other));
  m.impl("xlogy_.Scalar_Other", MT_FN(xlogy__scalar_other));
  m.impl("xlogy.OutScalar_Self", MT_FN(xlogy_scalar_self_out));
  m.impl("xlogy.OutScalar_Other", MT_FN(xlogy_scalar_other_out));
}

}  // namespace mt
