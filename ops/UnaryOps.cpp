#include "ops/UnaryOps.h"

#include <string>

#include "dispatch/Library.h"
#include "ops/PointwiseIterators.h"

namespace mt {

MT_DEFINE_STUB(neg_stub, UnaryFn);
MT_DEFINE_STUB(abs_stub, UnaryFn);
MT_DEFINE_STUB(sign_stub, UnaryFn);
MT_DEFINE_STUB(floor_stub, UnaryFn);
MT_DEFINE_STUB(ceil_stub, UnaryFn);
MT_DEFINE_STUB(trunc_stub, UnaryFn);
MT_DEFINE_STUB(round_stub, UnaryFn);
MT_DEFINE_STUB(frac_stub, UnaryFn);
MT_DEFINE_STUB(round_decimals_stub, RoundDecimalsFn);
MT_DEFINE_STUB(exp_stub, UnaryFn);
MT_DEFINE_STUB(log_stub, UnaryFn);
MT_DEFINE_STUB(log1p_stub, UnaryFn);
MT_DEFINE_STUB(sqrt_stub, UnaryFn);
MT_DEFINE_STUB(rsqrt_stub, UnaryFn);
MT_DEFINE_STUB(sin_stub, UnaryFn);
MT_DEFINE_STUB(cos_stub, UnaryFn);
MT_DEFINE_STUB(tanh_stub, UnaryFn);
MT_DEFINE_STUB(sigmoid_stub, UnaryFn);
MT_DEFINE_STUB(expm1_stub, UnaryFn);
MT_DEFINE_STUB(exp2_stub, UnaryFn);
MT_DEFINE_STUB(log2_stub, UnaryFn);
MT_DEFINE_STUB(log10_stub, UnaryFn);
MT_DEFINE_STUB(sinh_stub, UnaryFn);
MT_DEFINE_STUB(cosh_stub, UnaryFn);
MT_DEFINE_STUB(asin_stub, UnaryFn);
MT_DEFINE_STUB(acos_stub, UnaryFn);
MT_DEFINE_STUB(atan_stub, UnaryFn);
MT_DEFINE_STUB(asinh_stub, UnaryFn);
MT_DEFINE_STUB(acosh_stub, UnaryFn);
MT_DEFINE_STUB(atanh_stub, UnaryFn);
MT_DEFINE_STUB(erf_stub, UnaryFn);
MT_DEFINE_STUB(erfc_stub, UnaryFn);
MT_DEFINE_STUB(erfinv_stub, UnaryFn);
MT_DEFINE_STUB(reciprocal_stub, UnaryFn);

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

constexpr UnaryOp kNeg{"neg", &neg_stub, false, check_neg};
constexpr UnaryOp kAbs{"abs", &abs_stub, false, not_bool};
constexpr UnaryOp kSign{"sign", &sign_stub, false, any_dtype};
constexpr UnaryOp kFloor{"floor", &floor_stub, false, not_bool};
constexpr UnaryOp kCeil{"ceil", &ceil_stub, false, not_bool};
constexpr UnaryOp kTrunc{"trunc", &trunc_stub, false, not_bool};
constexpr UnaryOp kRound{"round", &round_stub, false, not_bool};
constexpr UnaryOp kFrac{"frac", &frac_stub, false, floating_only};
constexpr UnaryOp kExp{"exp", &exp_stub, true, any_dtype};
constexpr UnaryOp kLog{"log", &log_stub, true, any_dtype};
constexpr UnaryOp kLog1p{"log1p", &log1p_stub, true, any_dtype};
constexpr UnaryOp kSqrt{"sqrt", &sqrt_stub, true, any_dtype};
constexpr UnaryOp kRsqrt{"rsqrt", &rsqrt_stub, true, any_dtype};
constexpr UnaryOp kSin{"sin", &sin_stub, true, any_dtype};
constexpr UnaryOp kCos{"cos", &cos_stub, true, any_dtype};
constexpr UnaryOp kTanh{"tanh", &tanh_stub, true, any_dtype};
constexpr UnaryOp kSigmoid{"sigmoid", &sigmoid_stub, true, any_dtype};
constexpr UnaryOp kExpm1{"expm1", &expm1_stub, true, any_dtype};
constexpr UnaryOp kExp2{"exp2", &exp2_stub, true, any_dtype};
constexpr UnaryOp kLog2{"log2", &log2_stub, true, any_dtype};
constexpr UnaryOp kLog10{"log10", &log10_stub, true, any_dtype};
constexpr UnaryOp kSinh{"sinh", &sinh_stub, true, any_dtype};
constexpr UnaryOp kCosh{"cosh", &cosh_stub, true, any_dtype};
constexpr UnaryOp kAsin{"asin", &asin_stub, true, any_dtype};
constexpr UnaryOp kAcos{"acos", &acos_stub, true, any_dtype};
constexpr UnaryOp kAtan{"atan", &atan_stub, true, any_dtype};
constexpr UnaryOp kAsinh{"asinh", &asinh_stub, true, any_dtype};
constexpr UnaryOp kAcosh{"acosh", &acosh_stub, true, any_dtype};
constexpr UnaryOp kAtanh{"atanh", &atanh_stub, true, any_dtype};
constexpr UnaryOp kErf{"erf", &erf_stub, true, any_dtype};
constexpr UnaryOp kErfc{"erfc", &erfc_stub, true, any_dtype};
constexpr UnaryOp kErfinv{"erfinv", &erfinv_stub, true, any_dtype};
constexpr UnaryOp kReciprocal{"reciprocal", &reciprocal_stub, true, any_dtype};

// round(x, decimals): x scaled by 10^decimals, rounded half to even and scaled back, as PyTorch; with
// decimals == 0 it is round(x), which copies integers. Other decimals have no integer loop (PyTorch's).
Tensor& round_decimals_impl(Tensor& out, const Tensor& self, int64_t decimals, bool inplace) {
  if (decimals == 0) return unary_impl(out, self, kRound, inplace);
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
  register_op<kNeg>(m);
  register_op<kAbs>(m);
  register_op<kSign>(m);
  register_op<kFloor>(m);
  register_op<kCeil>(m);
  register_op<kTrunc>(m);
  register_op<kRound>(m);
  register_op<kFrac>(m);
  m.impl("round.decimals", MT_FN(round_decimals));
  m.impl("round_.decimals", MT_FN(round_decimals_));
  m.impl("round.decimals_out", MT_FN(round_decimals_out));
  register_op<kExp>(m);
  register_op<kLog>(m);
  register_op<kLog1p>(m);
  register_op<kSqrt>(m);
  register_op<kRsqrt>(m);
  register_op<kSin>(m);
  register_op<kCos>(m);
  register_op<kTanh>(m);
  register_op<kSigmoid>(m);
  register_op<kExpm1>(m);
  register_op<kExp2>(m);
  register_op<kLog2>(m);
  register_op<kLog10>(m);
  register_op<kSinh>(m);
  register_op<kCosh>(m);
  register_op<kAsin>(m);
  register_op<kAcos>(m);
  register_op<kAtan>(m);
  register_op<kAsinh>(m);
  register_op<kAcosh>(m);
  register_op<kAtanh>(m);
  register_op<kErf>(m);
  register_op<kErfc>(m);
  register_op<kErfinv>(m);
  register_op<kReciprocal>(m);
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
