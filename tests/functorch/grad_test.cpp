// The autograd-based transforms on their own: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian,
// against hand-derived derivatives and finite differences, and every error a user can cause.
#include <gtest/gtest.h>

#include "autograd/Autograd.h"
#include "autograd/InferenceMode.h"
#include "functorch/BatchedTensorImpl.h"
#include "functorch/Grad.h"
#include "functorch/Interpreter.h"
#include "functorch/TensorWrapper.h"
#include "vmap_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/arange.h"
#include "ops/api/argmax.h"
#include "ops/api/cos.h"
#include "ops/api/div.h"
#include "ops/api/dot.h"
#include "ops/api/exp.h"
#include "ops/api/eye.h"
#include "ops/api/full.h"
#include "ops/api/log_softmax.h"
#include "ops/api/matmul.h"
#include "ops/api/mul.h"
#include "ops/api/mv.h"
#include "ops/api/neg.h"
#include "ops/api/norm.h"
#include "ops/api/ones.h"
#include "ops/api/pow.h"
#include "ops/api/randn.h"
#include "ops/api/sin.h"
#include "ops/api/stack.h"
#include "ops/api/sub.h"
#include "ops/api/sum.h"
#include "ops/api/tanh.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::expect_same;
using mt_test::message_of;
using Inputs = std::vector<Tensor>;

Tensor sum_sin(const Inputs& a) { return mt::sum(mt::sin(a[0])); }

// The diagonal matrix of a vector, by hand.
Tensor diag(const Tensor& v) { return mt::mul(mt::eye(v.numel(), v.dtype()), v.unsqueeze(0)); }

TEST(Grad, GradOfSumOfSinIsCos) {
  const Tensor x = mt::randn({5});
  expect_same(mt::grad(sum_sin)({x}), mt::cos(x));
}

TEST(Grad, ArgnumsPicksInputsAndWrapsNegativeOnes) {
  const Tensor x = mt::randn({3}), y = mt::randn({3});
  const auto f = [](const Inputs& a) { return mt::sum(mt::mul(mt::mul(a[0], a[0]), a[1])); };
  expect_same(mt::grad(f)({x, y}), mt::mul(mt::mul(x, y), 2.0));
  expect_same(mt::grad(f, 1)({x, y}), mt::mul(x, x));
  expect_same(mt::grad(f, -1)({x, y}), mt::mul(x, x));
  const std::vector<Tensor> both = mt::grad(f, std::vector<int64_t>{1, 0})({x, y});
  ASSERT_EQ(both.size(), 2u);
  expect_same(both[0], mt::mul(x, x));
  expect_same(both[1], mt::mul(mt::mul(x, y), 2.0));
}

TEST(Grad, InputsItDoesNotDependOnGetZeros) {
  const Tensor x = mt::randn({3}), y = mt::randn({2});
  expect_same(mt::grad([](const Inputs& a) { return mt::sum(a[0]); }, 1)({x, y}), mt::zeros({2}));
  // A constant output: nothing at this level requires grad.
  const Tensor c = mt::randn({});
  expect_same(mt::grad([&](const Inputs&) { return c; })({x}), mt::zeros({3}));
}

TEST(Grad, GradAndValueReturnsTheValueToo) {
  const Tensor x = mt::randn({4});
  auto [g, value] = mt::grad_and_value(sum_sin)({x});
  expect_same(g, mt::cos(x));
  expect_same(value, mt::sum(mt::sin(x)));
  EXPECT_FALSE(value.requires_grad());
}

TEST(Grad, HasAuxReturnsTheAuxiliaryOutputsUnwrapped) {
  const Tensor x = mt::randn({4});
  const auto f = [](const Inputs& a) { return mt::WithAux{mt::sum(mt::exp(a[0])), {mt::exp(a[0])}}; };
  auto [g, aux] = mt::grad(f, 0, /*has_aux=*/true)({x});
  expect_same(g, mt::exp(x));
  ASSERT_EQ(aux.size(), 1u);
  expect_same(aux[0], mt::exp(x));
  auto [g2, value_and_aux] = mt::grad_and_value(f, 0, true)({x});
  expect_same(g2, mt::exp(x));
  expect_same(value_and_aux.first, mt::sum(mt::exp(x)));
  expect_same(value_and_aux.second[0], mt::exp(x));
}

TEST(Grad, CapturedTensorsAreConstantsAndOuterAutogradStillSeesThem) {
  const Tensor x = mt::randn({3});
  const Tensor c = mt::randn({3}).requires_grad_();
  const Tensor g = mt::grad([&](const Inputs& a) { return mt::sum(mt::mul(a[0], c)); })({x});
  expect_same(g.detach(), c.detach());
  EXPECT_FALSE(c.grad().defined());
  // The gradient is c itself as far as the ordinary (outermost) autograd is concerned.
  ASSERT_TRUE(g.requires_grad());
  mt::sum(mt::mul(g, 3.0)).backward();
  expect_same(c.grad(), mt::full({3}, 3.0));
}

TEST(Grad, NoGradOutsideDoesNotStopTheTransformButStopsOuterRecording) {
  const Tensor x = mt::randn({3}).requires_grad_();
  mt::NoGradGuard no_grad;
  const Tensor g = mt::grad(sum_sin)({x});
  expect_same(g, mt::cos(x.detach()));
  EXPECT_FALSE(g.requires_grad());
}

TEST(Grad, InPlaceOpsOnTensorsMadeInsideAreRecorded) {
  const Tensor x = mt::randn({4});
  const auto f = [](const Inputs& a) {
    Tensor y = mt::mul(a[0], 1.0);
    y.mul_(3.0);
    y.select(0, 0).zero_();  // through a view: CopySlices at this level
    return mt::sum(mt::mul(y, y));
  };
  Tensor expected = mt::mul(x, 18.0);
  expected.select(0, 0).zero_();
  expect_same(mt::grad(f)({x}), expected);
}

TEST(Grad, GradOfGradIsTheSecondDerivative) {
  const Tensor x = mt::randn({});
  const auto d2 = mt::grad(mt::grad(sum_sin));
  expect_same(d2({x}), mt::neg(mt::sin(x)));
  const auto d3 = mt::grad(mt::grad(mt::grad(sum_sin)));
  expect_same(d3({x}), mt::neg(mt::cos(x)));
}

// Siskind & Pearlmutter's perturbation confusion: d/dx [x * d/dy (x + y)] at y = 0 is 1 (a single tape
// that confused the two perturbations would give 2).
TEST(Grad, NoPerturbationConfusion) {
  const Tensor x0 = mt::tensor(1.0), y0 = mt::tensor(0.0);
  const auto outer = [&](const Inputs& a) {
    const Tensor x = a[0];
    const Tensor inner = mt::grad([&](const Inputs& b) { return mt::add(x, b[0]); })({y0});
    return mt::mul(x, inner);
  };
  EXPECT_DOUBLE_EQ(mt::grad(outer)({x0}).item<double>(), 1.0);
}

TEST(Grad, MutatingACapturedTensorIsAnError) {
  const Tensor x = mt::randn({3});
  Tensor captured = mt::zeros({3});
  const std::string msg = message_of<mt::RuntimeError>([&] {
    mt::grad([&](const Inputs& a) {
      captured.add_(a[0]);
      return mt::sum(a[0]);
    })({x});
  });
  EXPECT_TRUE(contains(msg, "attempted to call in-place operation (mt::add_.Tensor) that would mutate a captured Tensor"))
      << msg;
  expect_same(captured, mt::zeros({3}));
  // A view of a captured tensor is captured too.
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] {
                         mt::grad([&](const Inputs& a) {
                           captured.select(0, 1).fill_(1.0);
                           return mt::sum(a[0]);
                         })({x});
                       }),
                       "mt::fill_.Scalar"));
  expect_same(captured, mt::zeros({3}));
}

TEST(Grad, Errors) {
  const Tensor x = mt::randn({3});
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::grad([](const Inputs& a) { return mt::sin(a[0]); })({x}); }),
            "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with 1 dims. Maybe you "
            "wanted to use the vjp or jacrev APIs instead?");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::grad(sum_sin, 2)({x, x}); }), "Got argnum=2, but only 2 positional inputs");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::grad(sum_sin, -3)({x, x}); }), "Got argnum=-3, but only 2 positional inputs");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::grad(sum_sin, std::vector<int64_t>{})({x}); }), "argnums must be non-empty");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::grad(sum_sin, std::vector<int64_t>{0, -2})({x, x}); }),
            "argnums elements must be unique, got (0, -2)");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::grad(sum_sin)({}); }),
            "grad_and_value(f)(*args): Expected f to be a function that has non-zero arguments");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::grad(sum_sin)({mt::arange(3)}); }),
            "only Tensors of floating point dtype can require gradients");
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { mt::grad(sum_sin, 0, /*has_aux=*/true)({x}); }),
                       "output of function f should be a tuple: (output, aux) if has_aux is True"));
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] {
                         mt::grad([](const Inputs& a) { return mt::WithAux{mt::sum(a[0]), {}}; })({x});
                       }),
                       "pass has_aux=true"));
  // A failed transform leaves no level behind.
  EXPECT_EQ(mt::functorch::interpreter_stack_depth(), 0);
}

TEST(Vjp, VjpFnMapsCotangentsToVectorJacobianProducts) {
  const Tensor x = mt::randn({3}), y = mt::randn({3});
  auto [out, vjp_fn] = mt::vjp([](const Inputs& a) { return mt::mul(mt::sin(a[0]), a[1]); }, {x, y});
  expect_same(out, mt::mul(mt::sin(x), y));
  const Tensor v = mt::randn({3});
  const std::vector<Tensor> vjps = vjp_fn({v});
  ASSERT_EQ(vjps.size(), 2u);
  expect_same(vjps[0], mt::mul(mt::mul(mt::cos(x), y), v));
  expect_same(vjps[1], mt::mul(mt::sin(x), v));
  // It can be called again.
  expect_same(vjp_fn({mt::ones({3})})[1], mt::sin(x));
}

TEST(Vjp, Errors) {
  const Tensor x = mt::randn({3});
  auto [out, vjp_fn] = mt::vjp([](const Inputs& a) { return mt::sin(a[0]); }, {x});
  EXPECT_EQ(message_of<mt::RuntimeError>([&, &f = vjp_fn] { f({mt::ones({2})}); }),
            "Mismatch in shape: grad_output[0] has a shape of [2] and output[0] has a shape of [3].");
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&, &f = vjp_fn] { f({x, x}); }),
                       "Expected pytree structure of cotangents to be the same"));
}

TEST(Vjp, HasAuxReturnsTheAuxiliaryOutputsUnwrapped) {
  const Tensor x = mt::randn({3}, mt::kFloat64);
  auto [out, vjp_fn, aux] = mt::vjp(
      [](const Inputs& a) {
        const Tensor s = mt::sin(a[0]);
        return mt::WithAux{mt::mul(s, s), {s, mt::argmax(a[0])}};
      },
      {x}, /*has_aux=*/true);
  expect_same(out, mt::mul(mt::sin(x), mt::sin(x)));
  ASSERT_EQ(aux.size(), 2u);
  expect_same(aux[0], mt::sin(x));
  expect_same(aux[1], mt::argmax(x));
  EXPECT_EQ(mt::functorch::maybe_get_wrapper(aux[0]), nullptr);
  // d(sin^2)/dx = 2 sin cos; the aux takes no part in it.
  expect_same(vjp_fn({mt::ones({3}, mt::kFloat64)})[0], mt::mul(mt::mul(mt::sin(x), mt::cos(x)), 2.0), 1e-12);

  // Several outputs with aux.
  auto [outs, vjp_fn2, aux2] = mt::vjp(
      [](const Inputs& a) {
        return mt::OutputsWithAux{{mt::exp(a[0]), mt::sum(a[0])}, {mt::neg(a[0])}};
      },
      {x}, true);
  ASSERT_EQ(outs.size(), 2u);
  expect_same(aux2[0], mt::neg(x));
  const Tensor v = mt::randn({3}, mt::kFloat64);
  expect_same(vjp_fn2({v, mt::ones({}, mt::kFloat64)})[0], mt::add(mt::mul(mt::exp(x), v), 1.0), 1e-12);
}

TEST(Vjp, HasAuxMustMatchWhatTheFunctionReturns) {
  const Tensor x = mt::randn({3});
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::vjp([](const Inputs& a) { return mt::sin(a[0]); }, {x}, true); }),
            "vjp(f, *primals): output of function f should be a tuple: (output, aux) if has_aux is True");
  EXPECT_TRUE(
      contains(message_of<mt::RuntimeError>([&] {
                 mt::vjp([](const Inputs& a) { return mt::WithAux{mt::sin(a[0]), {}}; }, {x});
               }),
               "vjp(f, *primals): Expected f(*args) to return its outputs, got (output, aux); pass has_aux=true"));
  EXPECT_EQ(mt::functorch::interpreter_stack_depth(), 0);
}

TEST(Jvp, JvpIsTheJacobianTimesTheTangent) {
  const Tensor x = mt::randn({3}), y = mt::randn({3}), tx = mt::randn({3}), ty = mt::randn({3});
  auto [out, t_out] = mt::jvp([](const Inputs& a) { return mt::mul(mt::sin(a[0]), a[1]); }, {x, y}, {tx, ty});
  expect_same(out, mt::mul(mt::sin(x), y));
  expect_same(t_out, mt::add(mt::mul(mt::mul(mt::cos(x), y), tx), mt::mul(mt::sin(x), ty)));
}

TEST(Jvp, ConstantAndIntegerOutputsHaveZeroTangents) {
  const Tensor x = mt::randn({3});
  auto [outs, tangents] = mt::jvp([](const Inputs& a) { return std::vector<Tensor>{mt::mul(a[0], 2.0), mt::argmax(a[0])}; },
                                  {x}, {mt::ones({3})});
  expect_same(tangents[0], mt::full({3}, 2.0));
  expect_same(tangents[1], mt::zeros_like(outs[1]));
}

// Inside a transform, backward() on its wrappers is refused, as in PyTorch; outside, it works as ever.
TEST(Grad, BackwardInsideATransformIsRefused) {
  const std::string message =
      "backward() called inside a functorch transform. This is not supported, please use functorch.grad or "
      "functorch.vjp instead or call backward() outside of functorch transforms.";
  const Tensor x = mt::randn({3});
  EXPECT_EQ(message_of<mt::RuntimeError>([&] {
              mt::grad([](const Inputs& a) {
                const Tensor loss = mt::sum(mt::mul(a[0], a[0]));
                loss.backward();
                return loss;
              })({x});
            }),
            message);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] {
              mt::vmap([](const Inputs& a) {
                const Tensor y = mt::mul(a[0], 2.0);
                y.backward();
                return y;
              })({x.requires_grad_()});
            }),
            message);
  const Tensor w = mt::randn({3}).requires_grad_();
  mt::sum(mt::mul(w, w)).backward();
  expect_same(w.grad(), mt::mul(w, 2.0).detach());
}

TEST(Jvp, HasAuxReturnsTheAuxiliaryOutputsUnwrapped) {
  const Tensor x = mt::randn({3}, mt::kFloat64), t = mt::randn({3}, mt::kFloat64);
  auto [out, t_out, aux] = mt::jvp(
      [](const Inputs& a) {
        return mt::WithAux{mt::exp(a[0]), {mt::mul(a[0], 3.0)}};
      },
      {x}, {t}, /*has_aux=*/true);
  expect_same(out, mt::exp(x));
  expect_same(t_out, mt::mul(mt::exp(x), t), 1e-12);
  ASSERT_EQ(aux.size(), 1u);
  expect_same(aux[0], mt::mul(x, 3.0));
  EXPECT_EQ(mt::functorch::maybe_get_wrapper(aux[0]), nullptr);
  EXPECT_EQ(
      message_of<mt::RuntimeError>([&] { mt::jvp([](const Inputs& a) { return mt::sin(a[0]); }, {x}, {t}, true); }),
      "jvp(f, primals, tangents): output of function f should be a tuple: (output, aux) if has_aux is True");
}

// PyTorch's jvp of the 2-norm at 0 is 0 (the gradient there is taken to be 0), not NaN.
TEST(Jvp, NormAtTheZeroVectorHasAZeroTangent) {
  const Tensor zero = mt::zeros({3}, mt::kFloat64), t = mt::tensor({1.0, -2.0, 0.5}, mt::kFloat64);
  const auto norm = [](const Inputs& a) { return mt::norm(a[0]); };
  const auto norm_dim = [](const Inputs& a) { return mt::norm(a[0], 2, std::vector<int64_t>{1}); };
  expect_same(mt::jvp(norm, {zero}, {t}).second, mt::zeros({}, mt::kFloat64), 0);
  // Row 0 is zero, row 1 is not: (x . t) / |x| there.
  const Tensor rows = mt::tensor({{0.0, 0.0}, {3.0, 4.0}}, mt::kFloat64);
  const Tensor t_rows = mt::tensor({{1.0, 1.0}, {2.0, -1.0}}, mt::kFloat64);
  expect_same(mt::jvp(norm_dim, {rows}, {t_rows}).second, mt::tensor({0.0, 0.4}, mt::kFloat64), 1e-12);
  // Other p at a zero vector, and p = 1.5 at a vector with a zero entry: sign(x) |x|^0.5 / |x|_1.5^0.5 . t.
  for (double p : {3.0, 1.5, 0.5}) {
    SCOPED_TRACE(p);
    const auto norm_p = [p](const Inputs& a) { return mt::norm(a[0], p); };
    expect_same(mt::jvp(norm_p, {zero}, {t}).second, mt::zeros({}, mt::kFloat64), 0);
  }
  const Tensor x = mt::tensor({0.0, 4.0}, mt::kFloat64), tx = mt::tensor({5.0, 1.0}, mt::kFloat64);
  expect_same(mt::jvp([](const Inputs& a) { return mt::norm(a[0], 1.5); }, {x}, {tx}).second,
              mt::full({}, 1.0, mt::kFloat64), 1e-12);
}

TEST(Jvp, Errors) {
  const Tensor x = mt::randn({3});
  const auto f = [](const Inputs& a) { return mt::sin(a[0]); };
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { mt::jvp(f, {x}, {x, x}); }),
                       "Expected primals and tangents to have the same python structure"));
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::jvp(f, {x}, {mt::ones({2})}); }),
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is not "
            "supported. Tensor is of size [3] while the given forward gradient is of size [2].");
}

// InferenceMode turns autograd off, so the transforms refuse to start in it, naming their mode of AD, also
// for inputs made outside it (they used to fail later, about inference tensors saved for backward).
TEST(Transforms, RefuseToRunInsideInferenceMode) {
  const Tensor x = mt::randn({3});
  const auto f = [](const Inputs& a) { return mt::sin(a[0]); };
  mt::InferenceMode guard;
  const std::string reverse = ": reverse-mode AD cannot run inside InferenceMode, which turns autograd off";
  const std::string forward = ": forward-mode AD cannot run inside InferenceMode, which turns autograd off";
  const std::string grad_message = message_of<mt::RuntimeError>([&] { mt::grad(sum_sin)({x}); });
  EXPECT_TRUE(contains(grad_message, "grad_and_value(f)(*args)" + reverse)) << grad_message;
  EXPECT_TRUE(contains(grad_message, "Call grad_and_value(f)(*args) outside InferenceMode")) << grad_message;
  const auto message = [](const std::function<void()>& call) { return message_of<mt::RuntimeError>(call); };
  EXPECT_TRUE(contains(message([&] { mt::vjp(f, {x}); }), "vjp(f, *primals)" + reverse));
  EXPECT_TRUE(contains(message([&] { mt::jacrev(f)({x}); }), "jacrev(f, argnums)(*args)" + reverse));
  EXPECT_TRUE(contains(message([&] { mt::jvp(f, {x}, {x}); }), "jvp(f, primals, tangents)" + forward));
  EXPECT_TRUE(contains(message([&] { mt::jacfwd(f)({x}); }), "jacfwd(f, argnums)(*args)" + forward));
}

// A naive double-precision Jacobian by central differences, shape out.shape + in.shape.
Tensor finite_difference_jacobian(const std::function<Tensor(const Tensor&)>& f, const Tensor& x) {
  const double eps = 1e-6;
  const Tensor x64 = x.to(mt::kFloat64).contiguous();
  const Tensor out = f(x64);
  std::vector<Tensor> columns;
  for (int64_t j = 0; j < x64.numel(); ++j) {
    Tensor plus = x64.clone(), minus = x64.clone();
    plus.view({-1}).select(0, j).add_(eps);
    minus.view({-1}).select(0, j).sub_(eps);
    columns.push_back(mt::div(mt::sub(f(plus), f(minus)), 2 * eps));
  }
  std::vector<int64_t> shape = out.sizes().vec();
  shape.insert(shape.end(), x.sizes().begin(), x.sizes().end());
  return mt::stack(columns, -1).reshape(shape);
}

Tensor mlp_like(const Tensor& x, const Tensor& w) {
  return mt::log_softmax(mt::tanh(mt::matmul(w, x)), 0);
}

TEST(Jacobians, JacrevAndJacfwdMatchFiniteDifferences) {
  const Tensor x = mt::randn({4}, mt::kFloat64), w = mt::randn({3, 4}, mt::kFloat64);
  const auto f = [&](const Inputs& a) { return mlp_like(a[0], a[1]); };
  const Tensor expected_x = finite_difference_jacobian([&](const Tensor& v) { return mlp_like(v, w); }, x);
  const Tensor expected_w = finite_difference_jacobian([&](const Tensor& v) { return mlp_like(x, v); }, w);
  expect_same(mt::jacrev(f)({x, w}), expected_x, 1e-7);
  expect_same(mt::jacfwd(f)({x, w}), expected_x, 1e-7);
  const std::vector<Tensor> both = mt::jacrev(f, std::vector<int64_t>{0, 1})({x, w});
  expect_same(both[0], expected_x, 1e-7);
  expect_same(both[1], expected_w, 1e-7);  // [3] + [3, 4]
  expect_same(mt::jacfwd(f, std::vector<int64_t>{0, 1})({x, w})[1], expected_w, 1e-7);
}

TEST(Jacobians, ScalarInputsAndOutputs) {
  const Tensor x = mt::randn({});
  expect_same(mt::jacrev([](const Inputs& a) { return mt::exp(a[0]); })({x}), mt::exp(x));
  expect_same(mt::jacfwd([](const Inputs& a) { return mt::exp(a[0]); })({x}), mt::exp(x));
  const Tensor v = mt::randn({3});
  expect_same(mt::jacrev(sum_sin)({v}), mt::cos(v));
  expect_same(mt::jacfwd(sum_sin)({v}), mt::cos(v));
}

TEST(Jacobians, HessianOfAQuadraticFormIsTheSymmetrizedMatrix) {
  const Tensor a = mt::randn({3, 3}, mt::kFloat64), x = mt::randn({3}, mt::kFloat64);
  const auto quadratic = [&](const Inputs& in) { return mt::dot(in[0], mt::matmul(a, in[0])); };
  expect_same(mt::hessian(quadratic)({x}), mt::add(a, a.t()), 1e-10);
  const auto cubic = [](const Inputs& in) { return mt::sum(mt::pow(in[0], 3)); };
  expect_same(mt::hessian(cubic)({x}), mt::mul(mt::eye(3, mt::kFloat64), mt::mul(x, 6.0)), 1e-10);
}

// f(x, w) = (w x, sum(x^2) w): the Jacobians by hand are w, I-blocks of x, 2 w x^T and sum(x^2) I.
TEST(Jacobians, SeveralOutputsGiveOneJacobianPerOutputAndArgnum) {
  const Tensor x = mt::randn({3}, mt::kFloat64), w = mt::randn({2, 3}, mt::kFloat64);
  const auto f = [](const Inputs& a) {
    return std::vector<Tensor>{mt::mv(a[1], a[0]), mt::mul(mt::sum(mt::mul(a[0], a[0])), a[1])};
  };
  const Tensor sq = mt::sum(mt::mul(x, x));
  const Tensor d0_dx = w;
  const Tensor d1_dx = mt::mul(w.unsqueeze(2), mt::mul(x, 2.0).view({1, 1, 3}));
  const Tensor d1_dw = mt::mul(mt::eye(6, mt::kFloat64).view({2, 3, 2, 3}), sq);
  for (bool forward : {false, true}) {
    SCOPED_TRACE(forward ? "jacfwd" : "jacrev");
    const std::vector<Tensor> one = forward ? mt::jacfwd(f)({x, w}) : mt::jacrev(f)({x, w});
    ASSERT_EQ(one.size(), 2u);
    expect_same(one[0], d0_dx, 1e-12);
    expect_same(one[1], d1_dx, 1e-12);
    const std::vector<std::vector<Tensor>> both =
        forward ? mt::jacfwd(f, std::vector<int64_t>{0, 1})({x, w}) : mt::jacrev(f, std::vector<int64_t>{0, 1})({x, w});
    ASSERT_EQ(both.size(), 2u);
    ASSERT_EQ(both[0].size(), 2u);
    expect_same(both[0][0], d0_dx, 1e-12);
    // d(w x)/dw[i][j] = x[j] at row i.
    expect_same(both[0][1], mt::mul(mt::eye(2, mt::kFloat64).view({2, 2, 1}), x.view({1, 1, 3})), 1e-12);
    expect_same(both[1][0], d1_dx, 1e-12);
    expect_same(both[1][1], d1_dw, 1e-12);
  }
}

TEST(Jacobians, HasAuxReturnsTheAuxBesideTheJacobians) {
  const Tensor x = mt::randn({3}, mt::kFloat64);
  const auto f = [](const Inputs& a) { return mt::WithAux{mt::sin(a[0]), {mt::cos(a[0]), mt::sum(a[0])}}; };
  for (bool forward : {false, true}) {
    SCOPED_TRACE(forward ? "jacfwd" : "jacrev");
    auto [jacobian, aux] = forward ? mt::jacfwd(f, 0, /*has_aux=*/true)({x}) : mt::jacrev(f, 0, true)({x});
    expect_same(jacobian, diag(mt::cos(x)), 1e-12);
    ASSERT_EQ(aux.size(), 2u);
    expect_same(aux[0], mt::cos(x));
    expect_same(aux[1], mt::sum(x));
    EXPECT_EQ(mt::functorch::maybe_get_wrapper(aux[0]), nullptr);
    EXPECT_EQ(mt::functorch::maybe_get_batched(aux[0]), nullptr);
  }
  // Several outputs with aux, and a vector of argnums.
  const auto g = [](const Inputs& a) {
    return mt::OutputsWithAux{{mt::mul(a[0], a[1]), mt::sum(a[0])}, {mt::add(a[0], a[1])}};
  };
  const Tensor y = mt::randn({3}, mt::kFloat64);
  auto [jacobians, aux] = mt::jacrev(g, std::vector<int64_t>{0, 1}, true)({x, y});
  ASSERT_EQ(jacobians.size(), 2u);
  expect_same(jacobians[0][1], diag(x), 1e-12);
  expect_same(jacobians[1][0], mt::ones({3}, mt::kFloat64), 1e-12);
  expect_same(aux[0], mt::add(x, y));
  auto [fwd, fwd_aux] = mt::jacfwd(g, std::vector<int64_t>{0, 1}, true)({x, y});
  expect_same(fwd[0][0], diag(y), 1e-12);
  expect_same(fwd[1][1], mt::zeros({3}, mt::kFloat64), 1e-12);
  expect_same(fwd_aux[0], mt::add(x, y));
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::jacrev(sum_sin, 0, true)({x}); }),
            "jacrev(f, ...)(*args): output of function f should be a tuple: (output, aux) if has_aux is True");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::jacfwd(sum_sin, 0, true)({x}); }),
            "jacfwd(f, ...)(*args): output of function f should be a tuple: (output, aux) if has_aux is True");
}

TEST(Jacobians, Errors) {
  const Tensor x = mt::randn({3});
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::jacrev(sum_sin, 1)({x}); }), "Got argnum=1, but only 1 positional inputs");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::jacfwd(sum_sin, 1)({x}); }), "Got argnum=1, but only 1 positional inputs");
}

}  // namespace
