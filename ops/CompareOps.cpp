#include "ops/CompareOps.h"

#include <string>

#include "dispatch/Library.h"
#include "ops/BinaryOps.h"
#include "ops/api/eq.h"
#include "ops/api/ge.h"
#include "ops/api/gt.h"
#include "ops/api/le.h"
#include "ops/api/logical_not.h"
#include "ops/api/lt.h"
#include "ops/api/ne.h"
#include "ops/infra/PointwiseIterators.h"

namespace mt {

MT_DEFINE_STUB(compare_stub, void(TensorIterator&, Comparison));
MT_DEFINE_STUB(logical_not_stub, void(TensorIterator&));
MT_DEFINE_STUB(logical_and_stub, void(TensorIterator&));
MT_DEFINE_STUB(logical_or_stub, void(TensorIterator&));

namespace {

// Both inputs promote to their common dtype; an allocated result is bool, an out= or in-place one keeps
// its own dtype and receives 0 or 1.
Tensor& compare_impl(Tensor& out, const Tensor& self, const Tensor& other, Comparison op, bool inplace) {
  TensorIterator iter = binary_iterator(out, self, other, inplace, kBool);
  compare_stub(iter.device().type(), iter, op);
  return result_of(out, iter);
}

template <Comparison op>
Tensor compare(const Tensor& self, const Tensor& other) {
  Tensor out;
  return compare_impl(out, self, other, op, false);
}
template <Comparison op>
Tensor& compare_(Tensor& self, const Tensor& other) {
  return compare_impl(self, self, other, op, true);
}
template <Comparison op>
Tensor& compare_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return compare_impl(out, self, other, op, false);
}

// The Scalar overloads are compositions: the scalar becomes a wrapped-number tensor and the Tensor
// overload runs through the dispatcher.
Tensor compare_op(Comparison op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Comparison::Eq: return mt::eq(a, b);
    case Comparison::Ne: return mt::ne(a, b);
    case Comparison::Lt: return mt::lt(a, b);
    case Comparison::Le: return mt::le(a, b);
    case Comparison::Gt: return mt::gt(a, b);
    case Comparison::Ge: return mt::ge(a, b);
  }
  MT_INTERNAL_ASSERT(false);
}
Tensor& compare_op_(Comparison op, Tensor& self, const Tensor& b) {
  switch (op) {
    case Comparison::Eq: return self.eq_(b);
    case Comparison::Ne: return self.ne_(b);
    case Comparison::Lt: return self.lt_(b);
    case Comparison::Le: return self.le_(b);
    case Comparison::Gt: return self.gt_(b);
    case Comparison::Ge: return self.ge_(b);
  }
  MT_INTERNAL_ASSERT(false);
}
Tensor& compare_op_out(Comparison op, Tensor& out, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Comparison::Eq: return mt::eq_out(out, a, b);
    case Comparison::Ne: return mt::ne_out(out, a, b);
    case Comparison::Lt: return mt::lt_out(out, a, b);
    case Comparison::Le: return mt::le_out(out, a, b);
    case Comparison::Gt: return mt::gt_out(out, a, b);
    case Comparison::Ge: return mt::ge_out(out, a, b);
  }
  MT_INTERNAL_ASSERT(false);
}

template <Comparison op>
Tensor compare_scalar(const Tensor& self, const Scalar& other) {
  return compare_op(op, self, wrapped_scalar_tensor(other, self.device()));
}
template <Comparison op>
Tensor& compare__scalar(Tensor& self, const Scalar& other) {
  return compare_op_(op, self, wrapped_scalar_tensor(other, self.device()));
}
template <Comparison op>
Tensor& compare_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return compare_op_out(op, out, self, wrapped_scalar_tensor(other, self.device()));
}

Tensor& logical_not_impl(Tensor& out, const Tensor& self, bool inplace) {
  TensorIterator iter =
      TensorIteratorConfig().add_output(out).add_input(self).output_dtype(kBool).resize_outputs(!inplace).build();
  logical_not_stub(iter.device().type(), iter);
  return result_of(out, iter);
}
Tensor logical_not(const Tensor& self) {
  Tensor out;
  return logical_not_impl(out, self, false);
}
Tensor& logical_not_(Tensor& self) { return logical_not_impl(self, self, true); }
Tensor& logical_not_out(const Tensor& self, Tensor& out) { return logical_not_impl(out, self, false); }

template <const DispatchStub<void(TensorIterator&)>& stub>
Tensor& logical_binary_impl(Tensor& out, const Tensor& self, const Tensor& other, bool inplace) {
  TensorIterator iter = binary_iterator(out, self, other, inplace, kBool);
  stub(iter.device().type(), iter);
  return result_of(out, iter);
}
template <const DispatchStub<void(TensorIterator&)>& stub>
Tensor logical_binary(const Tensor& self, const Tensor& other) {
  Tensor out;
  return logical_binary_impl<stub>(out, self, other, false);
}
template <const DispatchStub<void(TensorIterator&)>& stub>
Tensor& logical_binary_(Tensor& self, const Tensor& other) {
  return logical_binary_impl<stub>(self, self, other, true);
}
template <const DispatchStub<void(TensorIterator&)>& stub>
Tensor& logical_binary_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return logical_binary_impl<stub>(out, self, other, false);
}

template <Comparison op>
void register_comparison(Library& m, const std::string& name) {
  m.impl(name + ".Tensor", MT_FN(compare<op>));
  m.impl(name + "_.Tensor", MT_FN(compare_<op>));
  m.impl(name + ".Tensor_out", MT_FN(compare_out<op>));
}
template <Comparison op>
void register_scalar_comparison(Library& m, const std::string& name) {
  m.impl(name + ".Scalar", MT_FN(compare_scalar<op>));
  m.impl(name + "_.Scalar", MT_FN(compare__scalar<op>));
  m.impl(name + ".Scalar_out", MT_FN(compare_scalar_out<op>));
}

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
  register_comparison<Comparison::Eq>(m, "eq");
  register_comparison<Comparison::Ne>(m, "ne");
  register_comparison<Comparison::Lt>(m, "lt");
  register_comparison<Comparison::Le>(m, "le");
  register_comparison<Comparison::Gt>(m, "gt");
  register_comparison<Comparison::Ge>(m, "ge");
  m.impl("logical_not", MT_FN(logical_not));
  m.impl("logical_not_", MT_FN(logical_not_));
  m.impl("logical_not.out", MT_FN(logical_not_out));
  m.impl("logical_and", MT_FN(logical_binary<logical_and_stub>));
  m.impl("logical_and_", MT_FN(logical_binary_<logical_and_stub>));
  m.impl("logical_and.out", MT_FN(logical_binary_out<logical_and_stub>));
  m.impl("logical_or", MT_FN(logical_binary<logical_or_stub>));
  m.impl("logical_or_", MT_FN(logical_binary_<logical_or_stub>));
  m.impl("logical_or.out", MT_FN(logical_binary_out<logical_or_stub>));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  register_scalar_comparison<Comparison::Eq>(m, "eq");
  register_scalar_comparison<Comparison::Ne>(m, "ne");
  register_scalar_comparison<Comparison::Lt>(m, "lt");
  register_scalar_comparison<Comparison::Le>(m, "le");
  register_scalar_comparison<Comparison::Gt>(m, "gt");
  register_scalar_comparison<Comparison::Ge>(m, "ge");
}

}  // namespace mt
