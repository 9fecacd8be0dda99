// The bitwise ops: not, and, or, xor and the shifts, on integers and bool (no shifts of bool), with
// PyTorch's promotion and its shift semantics past the type's width. C++'s operators call them.
#include "ops/BitwiseOps.h"

#include <string>

#include "dispatch/Library.h"
#include "ops/BinaryOps.h"
#include "ops/api/bitwise_and.h"
#include "ops/api/bitwise_left_shift.h"
#include "ops/api/bitwise_not.h"
#include "ops/api/bitwise_or.h"
#include "ops/api/bitwise_right_shift.h"
#include "ops/api/bitwise_xor.h"
#include "ops/infra/PointwiseIterators.h"

namespace mt {

MT_DEFINE_STUB(bitwise_stub, void(TensorIterator&, Bitwise));
MT_DEFINE_STUB(bitwise_not_stub, void(TensorIterator&));

namespace {

// Integers, and bool but for the shifts. Checked before the loops, so that Meta, which runs none, refuses
// what the CPU and CUDA refuse.
void check_dtype(ScalarType t, const char* name, bool bool_ok) {
  if (is_integral(t, bool_ok)) return;
  detail::throw_error<NotImplementedError>('"', name, "\" not implemented for '", t, "'");
}

Tensor& bitwise_not_impl(Tensor& out, const Tensor& self, bool inplace) {
  TensorIterator iter = unary_iterator(out, self, inplace);
  check_dtype(iter.common_dtype(), "bitwise_not", true);
  bitwise_not_stub(iter.device().type(), iter);
  return result_of(out, iter);
}
Tensor bitwise_not(const Tensor& self) {
  Tensor out;
  return bitwise_not_impl(out, self, false);
}
Tensor& bitwise_not_(Tensor& self) { return bitwise_not_impl(self, self, true); }
Tensor& bitwise_not_out(const Tensor& self, Tensor& out) { return bitwise_not_impl(out, self, false); }

Tensor& bitwise_impl(Bitwise op, Tensor& out, const Tensor& self, const Tensor& other, bool inplace) {
  TensorIterator iter = binary_iterator(out, self, other, inplace);
  check_dtype(iter.common_dtype(), bitwise_name(op), op != Bitwise::LeftShift && op != Bitwise::RightShift);
  bitwise_stub(iter.device().type(), iter, op);
  return result_of(out, iter);
}
template <Bitwise op>
Tensor bitwise(const Tensor& self, const Tensor& other) {
  Tensor out;
  return bitwise_impl(op, out, self, other, false);
}
template <Bitwise op>
Tensor& bitwise_(Tensor& self, const Tensor& other) {
  return bitwise_impl(op, self, self, other, true);
}
template <Bitwise op>
Tensor& bitwise_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return bitwise_impl(op, out, self, other, false);
}

// The Scalar forms are compositions: the scalar becomes a wrapped-number tensor, which promotes as a
// Python number, and the Tensor form runs through the dispatcher.
Tensor bitwise_op(Bitwise op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Bitwise::And: return mt::bitwise_and(a, b);
    case Bitwise::Or: return mt::bitwise_or(a, b);
    case Bitwise::Xor: return mt::bitwise_xor(a, b);
    case Bitwise::LeftShift: return mt::bitwise_left_shift(a, b);
    case Bitwise::RightShift: return mt::bitwise_right_shift(a, b);
  }
  MT_INTERNAL_ASSERT(false);
}
Tensor& bitwise_op_(Bitwise op, Tensor& self, const Tensor& b) {
  switch (op) {
    case Bitwise::And: return self.bitwise_and_(b);
    case Bitwise::Or: return self.bitwise_or_(b);
    case Bitwise::Xor: return self.bitwise_xor_(b);
    case Bitwise::LeftShift: return self.bitwise_left_shift_(b);
    case Bitwise::RightShift: return self.bitwise_right_shift_(b);
  }
  MT_INTERNAL_ASSERT(false);
}
Tensor& bitwise_op_out(Bitwise op, Tensor& out, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Bitwise::And: return mt::bitwise_and_out(out, a, b);
    case Bitwise::Or: return mt::bitwise_or_out(out, a, b);
    case Bitwise::Xor: return mt::bitwise_xor_out(out, a, b);
    case Bitwise::LeftShift: return mt::bitwise_left_shift_out(out, a, b);
    case Bitwise::RightShift: return mt::bitwise_right_shift_out(out, a, b);
  }
  MT_INTERNAL_ASSERT(false);
}

template <Bitwise op>
Tensor bitwise_scalar(const Tensor& self, const Scalar& other) {
  return bitwise_op(op, self, wrapped_scalar_tensor(other, self.device()));
}
template <Bitwise op>
Tensor bitwise_scalar_tensor(const Scalar& self, const Tensor& other) {
  return bitwise_op(op, wrapped_scalar_tensor(self, other.device()), other);
}
template <Bitwise op>
Tensor& bitwise__scalar(Tensor& self, const Scalar& other) {
  return bitwise_op_(op, self, wrapped_scalar_tensor(other, self.device()));
}
template <Bitwise op>
Tensor& bitwise_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bitwise_op_out(op, out, self, wrapped_scalar_tensor(other, self.device()));
}

// and, or and xor name their overloads .Tensor/.Scalar; the shifts .Tensor/.Tensor_Scalar.
struct Overloads {
  const char* tensor_scalar;
  const char* tensor_scalar_out;
};
constexpr Overloads kLogicOverloads{".Scalar", ".Scalar_out"};
constexpr Overloads kShiftOverloads{".Tensor_Scalar", ".Tensor_Scalar_out"};

template <Bitwise op>
void register_tensor_forms(Library& m, const std::string& name) {
  m.impl(name + ".Tensor", MT_FN(bitwise<op>));
  m.impl(name + "_.Tensor", MT_FN(bitwise_<op>));
  m.impl(name + ".Tensor_out", MT_FN(bitwise_out<op>));
}
template <Bitwise op>
void register_scalar_forms(Library& m, const std::string& name, const Overloads& o) {
  m.impl(name + o.tensor_scalar, MT_FN(bitwise_scalar<op>));
  m.impl(name + "_" + o.tensor_scalar, MT_FN(bitwise__scalar<op>));
  m.impl(name + o.tensor_scalar_out, MT_FN(bitwise_scalar_out<op>));
  m.impl(name + ".Scalar_Tensor", MT_FN(bitwise_scalar_tensor<op>));
}

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
  m.impl("bitwise_not", MT_FN(bitwise_not));
  m.impl("bitwise_not_", MT_FN(bitwise_not_));
  m.impl("bitwise_not.out", MT_FN(bitwise_not_out));
  register_tensor_forms<Bitwise::And>(m, "bitwise_and");
  register_tensor_forms<Bitwise::Or>(m, "bitwise_or");
  register_tensor_forms<Bitwise::Xor>(m, "bitwise_xor");
  register_tensor_forms<Bitwise::LeftShift>(m, "bitwise_left_shift");
  register_tensor_forms<Bitwise::RightShift>(m, "bitwise_right_shift");
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  register_scalar_forms<Bitwise::And>(m, "bitwise_and", kLogicOverloads);
  register_scalar_forms<Bitwise::Or>(m, "bitwise_or", kLogicOverloads);
  register_scalar_forms<Bitwise::Xor>(m, "bitwise_xor", kLogicOverloads);
  register_scalar_forms<Bitwise::LeftShift>(m, "bitwise_left_shift", kShiftOverloads);
  register_scalar_forms<Bitwise::RightShift>(m, "bitwise_right_shift", kShiftOverloads);
}

}  // namespace mt
