// The derivatives of the pointwise ops against finite differences, first and second order: unary math and
// activations (gelu in both approximations) with their in-place forms, pow with a tensor exponent,
// maximum/minimum (ties split evenly), clamp, where, masked_fill, fill_, copy_ and copy, rounded division, addmm_;
// hand-worked values at ties and bounds; in-place errors on leaves.
#include <cmath>

#include "formulas_test_helpers.h"
#include "ops/api/clamp_max.h"
#include "ops/api/clamp_min.h"
#include "ops/api/copy.h"
#include "ops/api/div.h"
#include "ops/api/full.h"
#include "ops/api/gelu.h"
#include "ops/api/maximum.h"
#include "ops/api/minimum.h"
#include "ops/api/ones.h"
#include "ops/api/pow.h"
#include "ops/api/silu.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::rnd;
using mt_test::rnd_nonzero;
using mt_test::values;

using Unary = Tensor (*)(const Tensor&);
using UnaryInPlace = Tensor& (*)(Tensor&);

struct UnaryCase {
  const char* name;
  Unary out_of_place;
  UnaryInPlace in_place;
  bool positive_only;  // log, sqrt, rsqrt...
};

const UnaryCase kUnary[] = {
    {"exp", [](const Tensor& x) { return x.exp(); }, [](Tensor& x) -> Tensor& { return x.exp_(); }, false},
    {"log", [](const Tensor& x) { return x.log(); }, [](Tensor& x) -> Tensor& { return x.log_(); }, true},
    {"log1p", [](const Tensor& x) { return x.log1p(); }, [](Tensor& x) -> Tensor& { return x.log1p_(); }, true},
    {"sqrt", [](const Tensor& x) { return x.sqrt(); }, [](Tensor& x) -> Tensor& { return x.sqrt_(); }, true},
    {"rsqrt", [](const Tensor& x) { return x.rsqrt(); }, [](Tensor& x) -> Tensor& { return x.rsqrt_(); }, true},
    {"sin", [](const Tensor& x) { return x.sin(); }, [](Tensor& x) -> Tensor& { return x.sin_(); }, false},
    {"cos", [](const Tensor& x) { return x.cos(); }, [](Tensor& x) -> Tensor& { return x.cos_(); }, false},
    {"tanh", [](const Tensor& x) { return x.tanh(); }, [](Tensor& x) -> Tensor& { return x.tanh_(); }, false},
    {"sigmoid", [](const Tensor& x) { return x.sigmoid(); }, [](Tensor& x) -> Tensor& { return x.sigmoid_(); }, false},
    {"silu", [](const Tensor& x) { return mt::silu(x); }, [](Tensor& x) -> Tensor& { return mt::silu_(x); }, false},
    {"neg", [](const Tensor& x) { return x.neg(); }, [](Tensor& x) -> Tensor& { return x.neg_(); }, false},
    {"abs", [](const Tensor& x) { return x.abs(); }, [](Tensor& x) -> Tensor& { return x.abs_(); }, false},
    {"relu", [](const Tensor& x) { return x.relu(); }, [](Tensor& x) -> Tensor& { return x.relu_(); }, false},
    {"gelu", [](const Tensor& x) { return mt::gelu(x); }, [](Tensor& x) -> Tensor& { return mt::gelu_(x); }, false},
    {"gelu_tanh", [](const Tensor& x) { return mt::gelu(x, "tanh"); },
     [](Tensor& x) -> Tensor& { return mt::gelu_(x, "tanh"); }, false},
    {"pow_3", [](const Tensor& x) { return x.pow(3); }, [](Tensor& x) -> Tensor& { return x.pow_(3); }, false},
    {"pow_-1.5", [](const Tensor& x) { return x.pow(-1.5); }, [](Tensor& x) -> Tensor& { return x.pow_(-1.5); }, true},
};

TEST(PointwiseFormulas, UnaryOutOfPlaceAndInPlace) {
  for (const UnaryCase& c : kUnary) {
    SCOPED_TRACE(c.name);
    const variable_list in{c.positive_only ? rnd({2, 3}, 1, 0.5, 2.0) : rnd_nonzero({2, 3}, 1)};
    const Unary f = c.out_of_place;
    const UnaryInPlace f_ = c.in_place;
    check([f](const variable_list& x) { return f(x[0]); }, in);
    check([f](const variable_list& x) { return f(x[0].t()); }, in);  // non-contiguous
    check([f_](const variable_list& x) {
      Tensor y = x[0] * 1.0;
      return f_(y) * 1.0;
    }, in);
  }
}

TEST(PointwiseFormulas, GeluMatchesItsClosedFormDerivative) {
  const Tensor x = mt::tensor({-2.0, -0.5, 0.0, 0.7, 3.0}, mt::kFloat64).requires_grad_();
  const std::vector<double> g = values(mt::autograd::grad({mt::gelu(x).sum()}, {x})[0]);
  const std::vector<double> xs = values(x);
  for (size_t i = 0; i < xs.size(); ++i) {
    const double v = xs[i];
    const double expected = 0.5 * (1 + std::erf(v / std::sqrt(2.0))) + v * std::exp(-v * v / 2) / std::sqrt(2 * M_PI);
    EXPECT_NEAR(g[i], expected, 1e-12) << "at " << v;
  }
  // Second derivative 2 phi(x) - x^2 phi(x), at 0 too.
  const auto d1 = mt::autograd::grad({mt::gelu(x).sum()}, {x}, {}, /*retain_graph=*/true, /*create_graph=*/true)[0];
  const std::vector<double> h = values(mt::autograd::grad({d1.sum()}, {x})[0]);
  for (size_t i = 0; i < xs.size(); ++i) {
    const double v = xs[i], phi = std::exp(-v * v / 2) / std::sqrt(2 * M_PI);
    EXPECT_NEAR(h[i], (2 - v * v) * phi, 1e-12) << "at " << v;
  }
  // At 0 the tanh approximation's derivative is 1/2 too.
  const Tensor zero = mt::zeros({1}, mt::kFloat64).requires_grad_();
  EXPECT_NEAR(values(mt::autograd::grad({mt::gelu(zero, "tanh").sum()}, {zero})[0])[0], 0.5, 1e-15);
}

TEST(PointwiseFormulas, SignHasZeroGradient) {
  const Tensor x = rnd_nonzero({4}, 2);
  const Tensor y = x.sign();
  EXPECT_EQ(y.grad_fn()->name(), "SignBackward0");
  EXPECT_EQ(values(mt::autograd::grad({(y * x).sum()}, {x})[0]), values(x.sign()));
  check([](const variable_list& x) { return (x[0] * 1.0).sign_() * x[0]; }, {x}, /*second=*/false);
}

TEST(PointwiseFormulas, SignSavesNothingSoChangingItsInputLaterIsNoError) {
  // As in PyTorch, whose sign saves nothing: only a formula that reads self would see the change.
  const Tensor x = rnd_nonzero({3}, 2);
  Tensor a = x * 1.0;
  const Tensor b = a.sign();
  a.add_(1.0);
  EXPECT_EQ(values(mt::autograd::grad({(b * 2.0).sum()}, {x})[0]), (std::vector<double>{0, 0, 0}));
}

TEST(PointwiseFormulas, PowWithTensorExponentBroadcasts) {
  const variable_list in{rnd({2, 3}, 3, 0.5, 2.0), rnd({3}, 4, -1.5, 1.5)};
  check([](const variable_list& x) { return x[0].pow(x[1]); }, in);
  check([](const variable_list& x) { return x[1].pow(x[0].t().t()); }, {rnd({2, 3}, 5, -1.0, 1.0), rnd({3}, 6, 0.5, 2.0)});
  check([](const variable_list& x) { return (x[0] * 1.0).pow_(x[1]); }, in);
  // At base 0 with a positive exponent, the exponent's gradient is 0 (not 0 * -inf).
  const Tensor base = mt::zeros({1}, mt::kFloat64).requires_grad_();
  const Tensor e = mt::full({1}, 2.0, mt::kFloat64).requires_grad_();
  const auto g = mt::autograd::grad({base.pow(e).sum()}, {base, e});
  EXPECT_EQ(values(g[0]), std::vector<double>{0.0});
  EXPECT_EQ(values(g[1]), std::vector<double>{0.0});
  EXPECT_EQ(base.pow(e).grad_fn()->name(), "PowBackward1");
}

TEST(PointwiseFormulas, PowOfAScalarBaseTakesItsLogInTheExponentsDtype) {
  // d/dx b^x = b^x log(b) in float64 for a float64 x: the wrapped base 2 is an int64 tensor, whose log alone would be
  // float32 (log 2 rounded there is 3e-8 off, relatively).
  const Tensor x = mt::tensor({0.5, 1.0, -3.0}, mt::kFloat64).requires_grad_();
  const std::vector<double> g = values(mt::autograd::grad({mt::pow(mt::Scalar(2), x).sum()}, {x})[0]);
  const Tensor base = mt::tensor({3, 10, 7}, mt::kInt64);
  const std::vector<double> h = values(mt::autograd::grad({base.pow(x).sum()}, {x})[0]);
  const std::vector<double> xs{0.5, 1.0, -3.0}, bases{3, 10, 7};
  for (size_t i = 0; i < xs.size(); ++i) {
    EXPECT_NEAR(g[i], std::pow(2.0, xs[i]) * std::log(2.0), 1e-15) << "at " << xs[i];
    EXPECT_NEAR(h[i], std::pow(bases[i], xs[i]) * std::log(bases[i]), 1e-14) << "at " << xs[i];
  }
  check([](const variable_list& v) { return mt::pow(mt::Scalar(2.5), v[0]); }, {rnd({2, 3}, 20)});
}

TEST(PointwiseFormulas, MaximumMinimumSplitTies) {
  const variable_list in{rnd({2, 3}, 7), rnd({3}, 8)};
  check([](const variable_list& x) { return mt::maximum(x[0], x[1]); }, in);
  check([](const variable_list& x) { return mt::minimum(x[0].t(), x[1].unsqueeze(1)); }, in);
  const Tensor a = mt::tensor({1.0, 2.0, 3.0}, mt::kFloat64).requires_grad_();
  const Tensor b = mt::tensor({0.0, 2.0, 5.0}, mt::kFloat64).requires_grad_();
  auto g = mt::autograd::grad({mt::maximum(a, b).sum()}, {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{1, 0.5, 0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{0, 0.5, 1}));
  g = mt::autograd::grad({mt::minimum(a, b).sum()}, {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{1, 0.5, 0}));
  // Ties are where finite differences see half a slope too.
  check([](const variable_list& x) { return mt::maximum(x[0], x[1]); }, {a, b}, /*second=*/false);
}

TEST(PointwiseFormulas, ClampScalarAndTensorBounds) {
  const variable_list in{rnd({3, 4}, 9, -2.0, 2.0)};
  check([](const variable_list& x) { return x[0].clamp(-0.5, 0.5); }, in);
  check([](const variable_list& x) { return x[0].clamp(std::nullopt, 0.3); }, in);
  check([](const variable_list& x) { return mt::clamp_min(x[0].t(), -0.1); }, in);
  check([](const variable_list& x) { return (x[0] * 1.0).clamp_(-0.5, 0.5); }, in);
  check([](const variable_list& x) {
    Tensor y = x[0] * 1.0;
    return mt::clamp_max_(y, 0.2);
  }, in);
  const variable_list bounds{rnd({3, 4}, 10, -2.0, 2.0), rnd({4}, 11, -1.0, 0.0), rnd({3, 1}, 12, 0.0, 1.0)};
  check([](const variable_list& x) { return x[0].clamp(std::optional<Tensor>(x[1]), std::optional<Tensor>(x[2])); }, bounds);
  check([](const variable_list& x) { return x[0].clamp(std::optional<Tensor>(x[1]), std::nullopt); }, bounds);
  check([](const variable_list& x) { return mt::clamp_max(x[0], x[2]); }, bounds);
  check([](const variable_list& x) {
    return (x[0] * 1.0).clamp_(std::optional<Tensor>(x[1]), std::optional<Tensor>(x[2]));
  }, bounds);
  // min > max: the result is max, whose gradient it is.
  const Tensor s = mt::tensor({0.0, 5.0}, mt::kFloat64).requires_grad_();
  const Tensor lo = mt::tensor({1.0, 1.0}, mt::kFloat64).requires_grad_();
  const Tensor hi = mt::tensor({-1.0, 2.0}, mt::kFloat64).requires_grad_();
  const auto g = mt::autograd::grad({s.clamp(std::optional<Tensor>(lo), std::optional<Tensor>(hi)).sum()}, {s, lo, hi});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, 0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{0, 0}));
  EXPECT_EQ(values(g[2]), (std::vector<double>{1, 1}));
  const Tensor at_bound = mt::tensor({-1.0, 0.0, 1.0}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({at_bound.clamp(-1.0, 1.0).sum()}, {at_bound})[0]), (std::vector<double>{1, 1, 1}))
      << "the bounds themselves pass the gradient, as in PyTorch";
}

TEST(PointwiseFormulas, WhereAndMaskedFill) {
  const Tensor cond = mt::tensor({true, false, true}, mt::kBool);
  const variable_list in{rnd({2, 3}, 13), rnd({3}, 14)};
  check([cond](const variable_list& x) { return mt::where(cond, x[0], x[1]); }, in);
  check([cond](const variable_list& x) { return mt::where(cond, x[1], 2.0) * x[0]; }, in);
  check([cond](const variable_list& x) { return x[0].masked_fill(cond, -1.0); }, in);
  const Tensor value = rnd({}, 15);
  check([cond](const variable_list& x) { return x[0].masked_fill(cond, x[1]); }, {in[0], value});
  check([cond](const variable_list& x) { return (x[0] * 1.0).masked_fill_(cond, 3.0); }, in);
  check([cond](const variable_list& x) { return (x[0] * 1.0).masked_fill_(cond, x[1]); }, {in[0], value});
  const auto g = mt::autograd::grad({in[0].masked_fill(cond, value).sum()}, {in[0], value});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, 1, 0, 0, 1, 0}));
  EXPECT_EQ(values(g[1]), std::vector<double>{4});
}

TEST(PointwiseFormulas, FillZeroAndCopy) {
  const variable_list in{rnd({2, 3}, 16), rnd({3}, 17)};
  check([](const variable_list& x) { return (x[0] * 2.0).fill_(1.5) * x[0]; }, in);
  check([](const variable_list& x) { return (x[0] * 2.0).zero_() + x[0]; }, in);
  check([](const variable_list& x) { return (x[0] * 2.0).copy_(x[1]); }, in);
  check([](const variable_list& x) { return (x[0] * 2.0).fill_(x[1].sum()); }, in);
  const Tensor a = rnd({2, 3}, 18);
  const Tensor src = mt::ones({3}, mt::kFloat32).requires_grad_();
  Tensor y = a * 1.0;
  y.copy_(src);
  EXPECT_EQ(y.grad_fn()->name(), "CopyBackwards");
  const auto g = mt::autograd::grad({(y * 2.0).sum()}, {a, src});
  EXPECT_EQ(values(g[0]), std::vector<double>(6, 0.0));
  EXPECT_EQ(g[1].dtype(), mt::kFloat32) << "src's gradient in src's dtype";
  EXPECT_EQ(values(g[1]), std::vector<double>(3, 4.0)) << "summed over the broadcast dim";
}

TEST(PointwiseFormulas, FunctionalCopy) {
  const variable_list in{rnd({2, 3}, 21), rnd({3}, 22)};
  check([](const variable_list& x) { return mt::copy(x[0], x[1]); }, in);
  check([](const variable_list& x) { return mt::copy(x[0], x[1] * x[1]) * x[0]; }, in);
  const Tensor a = rnd({2, 3}, 23);
  const Tensor src = mt::ones({3}, mt::kFloat32).requires_grad_();
  const Tensor y = mt::copy(a, src);
  EXPECT_EQ(y.grad_fn()->name(), "CopyBackward0");
  EXPECT_EQ(y.dtype(), mt::kFloat64);
  const auto g = mt::autograd::grad({(y * 2.0).sum()}, {a, src});
  EXPECT_EQ(values(g[0]), std::vector<double>(6, 0.0));
  EXPECT_EQ(g[1].dtype(), mt::kFloat32) << "src's gradient in src's dtype";
  EXPECT_EQ(values(g[1]), std::vector<double>(3, 4.0)) << "summed over the broadcast dim";
}

TEST(PointwiseFormulas, RoundedDivisionHasZeroGradient) {
  const variable_list in{rnd({3}, 19, 1.0, 3.0), rnd({3}, 20, 0.5, 1.0)};
  const auto g = mt::autograd::grad({mt::div(in[0], in[1], "floor").sum()}, {in[0], in[1]});
  EXPECT_EQ(values(g[0]), std::vector<double>(3, 0.0));
  EXPECT_EQ(values(g[1]), std::vector<double>(3, 0.0));
  check([](const variable_list& x) { return mt::div(x[0], x[1], std::nullopt); }, in);
  check([](const variable_list& x) { return (x[0] * 1.0).div_(x[1], "trunc") + x[0]; }, in, /*second=*/false);
}

TEST(PointwiseFormulas, AddmmInPlace) {
  const variable_list in{rnd({2, 4}, 21), rnd({2, 3}, 22), rnd({3, 4}, 23)};
  check([](const variable_list& x) { return (x[0] * 1.0).addmm_(x[1], x[2], 0.5, 2.0); }, in);
}

TEST(PointwiseFormulas, InPlaceOnALeafThatRequiresGradIsAnError) {
  Tensor x = rnd({3}, 24);
  for (const UnaryCase& c : kUnary) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(mt_test::message_of<mt::Error>([&] { c.in_place(x); }),
              "a leaf Variable that requires grad is being used in an in-place operation.");
  }
  EXPECT_EQ(mt_test::message_of<mt::Error>([&] { x.clamp_(0.0, 1.0); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(mt_test::message_of<mt::Error>([&] { x.fill_(1.0); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(mt_test::message_of<mt::Error>([&] { x.copy_(mt::ones({3}, mt::kFloat64)); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(mt_test::message_of<mt::Error>([&] { x.masked_fill_(mt::ones({3}, mt::kBool), 0.0); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  // Under no_grad it is allowed, and nothing is recorded.
  {
    mt::NoGradGuard no_grad;
    x.relu_();
  }
  EXPECT_EQ(x.grad_fn(), nullptr);
}

TEST(PointwiseFormulas, InPlaceSavesSelfsOldValue) {
  // exp_ after a multiplication: the gradient is exp(old value), not exp(new value).
  const Tensor x = mt::tensor({0.5, 1.0}, mt::kFloat64).requires_grad_();
  Tensor y = x * 1.0;
  y.exp_();
  const std::vector<double> g = values(mt::autograd::grad({y.sum()}, {x})[0]);
  EXPECT_NEAR(g[0], std::exp(0.5), 1e-12);
  EXPECT_NEAR(g[1], std::exp(1.0), 1e-12);
  EXPECT_EQ(y.grad_fn()->name(), "ExpBackward0");
}

}  // namespace
