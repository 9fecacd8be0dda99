// Derivatives of the unary pointwise ops and activations: the input's gradient is the output's
// gradient times f'(self). Where PyTorch saves the result (exp, tanh, sigmoid, sqrt...), these save the
// input and recompute it (see autograd/SavedVariable.h).
#include "autograd/derivatives/Formulas.h"

namespace mt::autograd {

namespace {

using Derivative = Tensor (*)(const Tensor& self);

template <typename Op>
Tensor unary(const char* name, Derivative derivative, DispatchKeySet ks, const Tensor& self) {
  Tensor out = below_autograd([&] { return Op::redispatch(ks & after_autograd_keyset, self); });
  if (compute_requires_grad({self})) {
    record(name, {self}, {out}, [s = SavedVariable(self), derivative](const variable_list& g) {
      return variable_list{g[0] * derivative(s.unpack())};
    });
  }
  return out;
}

Tensor sigmoid_of(const Tensor& x) { return x.sigmoid(); }

Tensor exp(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::exp>("ExpBackward0", [](const Tensor& x) { return x.exp(); }, ks, self);
}
Tensor log(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::log>("LogBackward0", [](const Tensor& x) { return x.pow(-1); }, ks, self);
}
Tensor log1p(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::log1p>("Log1PBackward0", [](const Tensor& x) { return (x + 1).pow(-1); }, ks, self);
}
Tensor sqrt(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::sqrt>("SqrtBackward0", [](const Tensor& x) { return x.rsqrt() * 0.5; }, ks, self);
}
Tensor rsqrt(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::rsqrt>("RsqrtBackward0", [](const Tensor& x) { return x.pow(-1.5) * -0.5; }, ks, self);
}
Tensor sin(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::sin>("SinBackward0", [](const Tensor& x) { return x.cos(); }, ks, self);
}
Tensor cos(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::cos>("CosBackward0", [](const Tensor& x) { return -x.sin(); }, ks, self);
}
Tensor tanh(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::tanh>("TanhBackward0", [](const Tensor& x) {
    const Tensor t = x.tanh();
    return -(t * t) + 1;
  }, ks, self);
}
Tensor sigmoid(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::sigmoid>("SigmoidBackward0", [](const Tensor& x) {
    const Tensor s = sigmoid_of(x);
    return s * (-s + 1);
  }, ks, self);
}
Tensor silu(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::silu>("SiluBackward0", [](const Tensor& x) {
    const Tensor s = sigmoid_of(x);
    return s * (x * (-s + 1) + 1);
  }, ks, self);
}
// relu and abs have piecewise-constant derivatives (0 at 0, as in PyTorch).
Tensor relu(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::relu>("ReluBackward0", [](const Tensor& x) { return x.gt(0).to(x.dtype()); }, ks, self);
}
Tensor abs(DispatchKeySet ks, const Tensor& self) {
  return unary<ops::abs>("AbsBackward0", [](const Tensor& x) { return x.sign(); }, ks, self);
}

Tensor pow_Tensor_Scalar(DispatchKeySet ks, const Tensor& self, const Scalar& exponent) {
  Tensor out = below_autograd([&] { return ops::pow_Tensor_Scalar::redispatch(ks & after_autograd_keyset, self, exponent); });
  if (compute_requires_grad({self})) {
    record("PowBackward0", {self}, {out}, [s = SavedVariable(self), exponent](const variable_list& g) {
      const double e = exponent.toDouble();
      if (e == 0) return variable_list{g[0] * 0};
      return variable_list{g[0] * s.unpack().pow(e - 1) * e};
    });
  }
  return out;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("exp", MT_FN(exp));
  m.impl("log", MT_FN(log));
  m.impl("log1p", MT_FN(log1p));
  m.impl("sqrt", MT_FN(sqrt));
  m.impl("rsqrt", MT_FN(rsqrt));
  m.impl("sin", MT_FN(sin));
  m.impl("cos", MT_FN(cos));
  m.impl("tanh", MT_FN(tanh));
  m.impl("sigmoid", MT_FN(sigmoid));
  m.impl("silu", MT_FN(silu));
  m.impl("relu", MT_FN(relu));
  m.impl("abs", MT_FN(abs));
  m.impl("pow.Tensor_Scalar", MT_FN(pow_Tensor_Scalar));
}

}  // namespace mt::autograd
