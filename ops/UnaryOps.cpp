#include "ops/UnaryOps.h"

#include <string>

#include "dispatch/Library.h"
#include "ops/infra/PointwiseIterators.h"

namespace mt {

#define MT_DEFINE_UNARY_STUB(name, floating, check) MT_DEFINE_STUB(name##_stub, UnaryFn);
MT_UNARY_OPS(MT_DEFINE_UNARY_STUB)
#undef MT_DEFINE_UNARY_STUB
MT_DEFINE_STUB(round_decimals_stub, RoundDecimalsFn);

namespace {

// What the shared code needs to know about one unary op.
struct UnaryOp {
  const char* name;
  const DispatchStub<UnaryFn>* stub;
  bool floating;                   // computes in float_op_dtype(input), else in the input's dtype
  void (*check)(const char* name, ScalarType input);  // rejects input dtypes before anything is written
};

void any_dtype(const char*, ScalarType) {}
void check_neg(const char*, ScalarType t) {
  MT_CHECK(t != kBool,
           "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
           "the `~` or `logical_not()` operator instead.");
}
// abs and the roundings (which copy an integer unchanged) have no bool kernel in PyTorch.
void not_bool(const char* name, ScalarType t) {
  MT_CHECK_NOT_IMPLEMENTED(t != kBool, '"', name, "\" not implemented for '", t, "'");
}
// frac(x) = x - trunc(x) is defined for floating types only.
void floating_only(const char* name, ScalarType t) {
  MT_CHECK_NOT_IMPLEMENTED(is_floating_point(t), '"', name, "\" not implemented for '", t, "'");
}

Tensor& unary_impl(Tensor& out, const Tensor& self, const UnaryOp& op, bool inplace) {
  op.check(op.name, self.dtype());
  const Tensor input = op.floating ? as_dtype(self, float_op_dtype(self.dtype())) : self;
  TensorIterator iter = unary_iterator(out, input, inplace);
  (*op.stub)(iter.device().type(), iter);
  return result_of(out, iter);
}

// The registered kernels: functional, in-place and out= forms of each op.
template <const UnaryOp& op>
Tensor unary(const Tensor& self) {
  Tensor out;
  return unary_impl(out, self, op, false);
}
template <const UnaryOp& op>
Tensor& unary_(Tensor& self) {
  return unary_impl(self, self, op, true);
}
template <const UnaryOp& op>
Tensor& unary_out(const Tensor& self, Tensor& out) {
  return unary_impl(out, self, op, false);
}

#define MT_UNARY_OP(name, floating, check) constexpr UnaryOp k_##name{#name, &name##_stub, floating, check};
MT_UNARY_OPS(MT_UNARY_OP)
#undef MT_UNARY_OP

// round(x, decimals): x scaled by 10^decimals, rounded half to even and scaled back, as PyTorch; with
// decimals == 0 it is round(x), which copies integers. Other decimals have no integer loop (PyTorch's).
Tensor& round_decimals_impl(Tensor& out, const Tensor& self, int64_t decimals, bool inplace) {
  if (decimals == 0) return unary_impl(out, self, k_round, inplace);
  MT_CHECK_NOT_IMPLEMENTED(is_floating_point(self.dtype()), "\"round\" not implemented for '", self.dtype(), "'");
  TensorIterator iter = unary_iterator(out, self, inplace);
  round_decimals_stub(iter.device().type(), iter, decimals);
  return result_of(out, iter);
}
Tensor round_decimals(const Tensor& self, int64_t decimals) {
  Tensor out;
  return round_decimals_impl(out, self, decimals, false);
}
Tensor& round_decimals_(Tensor& self, int64_t decimals) { return round_decimals_impl(self, self, decimals, true); }
Tensor& round_decimals_out(const Tensor& self, int64_t decimals, Tensor& out) {
  return round_decimals_impl(out, self, decimals, false);
}

template <const UnaryOp& op>
void register_op(Library& m) {
  const std::string name = op.name;
  m.impl(name, MT_FN(unary<op>));
  m.impl(name + "_", MT_FN(unary_<op>));
  m.impl(name + ".out", MT_FN(unary_out<op>));
}

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
#define MT_REGISTER_UNARY_OP(name, floating, check) register_op<k_##name>(m);
  MT_UNARY_OPS(MT_REGISTER_UNARY_OP)
#undef MT_REGISTER_UNARY_OP
  m.impl("round.decimals", MT_FN(round_decimals));
  m.impl("round_.decimals", MT_FN(round_decimals_));
  m.impl("round.decimals_out", MT_FN(round_decimals_out));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
