#include "ops/WhereFill.h"

#include "dispatch/Library.h"
#include "ops/BinaryOps.h"
#include "ops/Factories.h"
#include "ops/api/full_like.h"
#include "ops/api/masked_fill.h"
#include "ops/api/t.h"
#include "ops/api/where.h"
#include "ops/infra/PointwiseIterators.h"
#include "tensor/TypePromotion.h"

namespace mt {

MT_DEFINE_STUB(where_stub, void(TensorIterator&));
MT_DEFINE_STUB(fill_stub, void(TensorIterator&, const Scalar&));

namespace {

// out = condition ? self : other, in `dtype`; self and other must already have it. The condition keeps
// its bool dtype, so the iterator does not promote; `dtype` alone decides the result's.
Tensor& where_impl(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other, ScalarType dtype,
                   bool inplace) {
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(condition)
                            .add_input(self)
                            .add_input(other)
                            .output_dtype(dtype)
                            .resize_outputs(!inplace)
                            .name("where")
                            .build();
  where_stub(iter.device().type(), iter);
  return result_of(out, iter);
}

Tensor& where_promoted(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other) {
  MT_CHECK(condition.dtype() == kBool, "where expected condition to be a boolean tensor, but got a tensor with dtype ",
           condition.dtype());
  const ScalarType dtype = result_type(self, other);
  const Tensor a = as_dtype(self, dtype), b = as_dtype(other, dtype);
  return where_impl(out, condition, a, b, dtype, false);
}

Tensor& fill_scalar(Tensor& self, const Scalar& value) {
  check_value_fits(value, self.dtype());
  TensorIterator iter = TensorIterator::nullary_op(self);
  fill_stub(iter.device().type(), iter, value);
  return self;
}

void check_mask(const Tensor& mask) {
  MT_CHECK(mask.dtype() == kBool, "masked_fill_ only supports boolean masks, but got mask with dtype ", mask.dtype());
}

// The fill value as a 0-dim tensor of self's dtype, so masked_fill is where(mask, value, self).
Tensor fill_value(const Tensor& self, const Scalar& value) {
  Tensor t(TensorImpl::empty({}, self.dtype(), self.device()));
  return fill_scalar(t, value);
}
Tensor fill_value(const Tensor& self, const Tensor& value) {
  MT_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
           value.dim(), " dimension(s).");
  return as_dtype(value, self.dtype());
}

// --- the registered kernels, one per overload ------------------------------------------------------------

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  Tensor out;
  return where_promoted(out, condition, self, other);
}
Tensor& where_out(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out) {
  return where_promoted(out, condition, self, other);
}

// The result keeps self's dtype and has the broadcast shape of self and mask; in place, the mask
// broadcasts to self.
template <typename Value>
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Value& value) {
  check_mask(mask);
  const Tensor v = fill_value(self, value);
  Tensor out;
  return where_impl(out, mask, v, self, self.dtype(), false);
}
template <typename Value>
Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Value& value) {
  check_mask(mask);
  const Tensor v = fill_value(self, value);
  return where_impl(self, mask, v, self, self.dtype(), true);
}

// Compositions.
Tensor where_scalar_self(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return mt::where(condition, wrapped_scalar_tensor(self, condition.device()), other);
}
Tensor where_scalar_other(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return mt::where(condition, self, wrapped_scalar_tensor(other, condition.device()));
}
Tensor where_scalar(const Tensor& condition, const Scalar& self, const Scalar& other) {
  return mt::where(condition, wrapped_scalar_tensor(self, condition.device()),
                   wrapped_scalar_tensor(other, condition.device()));
}
// A 0-dim value broadcast into self is copy_, which converts and, under autograd, sends its gradient.
Tensor& fill_tensor(Tensor& self, const Tensor& value) {
  MT_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
           " dimensions.");
  return self.copy_(value);
}
Tensor& zero_fill(Tensor& self) { return self.fill_(0); }
Tensor filled(const Tensor& self, const Scalar& value) { return mt::full_like(self, value); }

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
  m.impl("where.self", MT_FN(where));
  m.impl("where.self_out", MT_FN(where_out));
  m.impl("masked_fill.Scalar", MT_FN(masked_fill<Scalar>));
  m.impl("masked_fill.Tensor", MT_FN(masked_fill<Tensor>));
  m.impl("masked_fill_.Scalar", MT_FN(masked_fill_<Scalar>));
  m.impl("masked_fill_.Tensor", MT_FN(masked_fill_<Tensor>));
  m.impl("fill_.Scalar", MT_FN(fill_scalar));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("where.ScalarSelf", MT_FN(where_scalar_self));
  m.impl("where.ScalarOther", MT_FN(where_scalar_other));
  m.impl("where.Scalar", MT_FN(where_scalar));
  m.impl("fill_.Tensor", MT_FN(fill_tensor));
  m.impl("zero_", MT_FN(zero_fill));
  m.impl("fill.Scalar", MT_FN(filled));
}

}  // namespace mt
