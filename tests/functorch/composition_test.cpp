// Transforms nested in every order the issue names: vmap(grad), grad(vmap), grad(grad), vmap(vmap),
// vmap(jacrev), jacfwd(jacrev), each against a loop of the inner transform or a hand-derived result.
#include <gtest/gtest.h>

#include "functorch/Grad.h"
#include "functorch/Interpreter.h"
#include "vmap_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/cos.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/dot.h"
#include "ops/api/exp.h"
#include "ops/api/eye.h"
#include "ops/api/matmul.h"
#include "ops/api/mul.h"
#include "ops/api/one_hot.h"
#include "ops/api/ones_like.h"
#include "ops/api/pow.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/sin.h"
#include "ops/api/softmax.h"
#include "ops/api/stack.h"
#include "ops/api/sub.h"
#include "ops/api/sum.h"
#include "ops/api/tanh.h"

namespace {

using mt::Tensor;
using mt_test::expect_same;
using mt_test::loop_and_stack;
using Inputs = std::vector<Tensor>;

// A linear classifier's cross-entropy on one sample: w [C, D], b [C], x [D], y [] (class index).
Tensor sample_loss(const Inputs& a) {
  const Tensor logits = mt::add(mt::matmul(a[0], a[2]), a[1]);
  return mt::cross_entropy_loss(logits.unsqueeze(0), a[3].unsqueeze(0));
}

TEST(Composition, VmapOfGradGivesPerSampleGradients) {
  const Tensor w = mt::randn({3, 5}), b = mt::randn({3}), x = mt::randn({6, 5}), y = mt::randint(3, {6});
  const auto per_sample = mt::vmap(mt::grad(sample_loss, std::vector<int64_t>{0, 1}), {std::nullopt, std::nullopt, 0, 0});
  const std::vector<Tensor> grads = per_sample({w, b, x, y});
  ASSERT_EQ(grads.size(), 2u);
  for (int64_t i = 0; i < 6; ++i) {
    const std::vector<Tensor> one = mt::grad(sample_loss, std::vector<int64_t>{0, 1})({w, b, x[i], y[i]});
    expect_same(grads[0][i], one[0]);
    expect_same(grads[1][i], one[1]);
  }
  // And by hand: d/dlogits = softmax - onehot, so dW = (p - e_y) x^T.
  const Tensor p = mt::softmax(mt::add(mt::matmul(x[2], w.t()), b), 0);
  const Tensor dlogits = mt::sub(p, mt::one_hot(y[2], 3).to(mt::kFloat32));
  expect_same(grads[0][2], mt::mul(dlogits.unsqueeze(1), x[2].unsqueeze(0)));
}

// In-place ops on a view inside grad rebase its history through CopySlices (as_strided) under vmap.
TEST(Composition, VmapOfGradThroughInPlaceOpsOnViews) {
  const auto f = [](const Inputs& a) {
    Tensor y = mt::mul(a[0], 1.0);
    y.mul_(3.0);
    y.select(0, 0).mul_(a[0].select(0, 1));
    return mt::sum(mt::mul(y, y));
  };
  const Tensor x = mt::randn({5, 4});
  expect_same(mt::vmap(mt::grad(f))({x}), loop_and_stack([&](const Inputs& a) { return mt::grad(f)(a); }, {x}, {0}));
}

// repeat decomposes into views and a copy at the grad level; vmap then batches those.
TEST(Composition, VmapOfGradThroughRepeat) {
  const auto f = [](const Inputs& a) { return mt::sum(mt::mul(a[0].repeat({2, 3}), a[0].repeat({2, 3}))); };
  const Tensor x = mt::randn({5, 4});
  const Tensor g = mt::vmap(mt::grad(f))({x});
  expect_same(g, loop_and_stack([&](const Inputs& a) { return mt::grad(f)(a); }, {x}, {0}));
  expect_same(g, mt::mul(x, 12.0));  // each element appears 6 times: d/dx sum 6 x^2 = 12 x
}

TEST(Composition, GradOfVmap) {
  const Tensor x = mt::randn({4, 3});
  const auto f = [](const Inputs& a) { return mt::sum(mt::vmap([](const Inputs& r) { return mt::dot(r[0], r[0]); })(a)); };
  expect_same(mt::grad(f)({x}), mt::mul(x, 2.0));
  // The batched input is captured by an inner vmap over another argument.
  const Tensor w = mt::randn({3});
  const auto g = [&](const Inputs& a) {
    const Tensor& x_ = a[0];
    return mt::sum(mt::vmap([&](const Inputs& r) { return mt::mul(mt::dot(r[0], x_), r[0]); })({mt::stack({w, w}, 0)}));
  };
  // sum over 2 rows of (w . x) w: gradient 2 * sum(w) * w.
  expect_same(mt::grad(g)({mt::randn({3})}), mt::mul(w, 2.0 * mt::sum(w).item<double>()));
}

TEST(Composition, VmapOfVmapOfGrad) {
  const Tensor x = mt::randn({2, 3, 4});
  const Tensor out = mt::vmap(mt::vmap(mt::grad([](const Inputs& a) { return mt::sum(mt::exp(a[0])); })))({x});
  expect_same(out, mt::exp(x));
}

TEST(Composition, VmapOfVmap) {
  const Tensor x = mt::randn({2, 3, 4}), y = mt::randn({4, 3});
  const auto inner = [](const Inputs& a) { return mt::mul(a[0], a[1]); };
  const Tensor out = mt::vmap(mt::vmap(inner, {0, 0}), {0, std::nullopt})({x, y.t()});
  expect_same(out, mt::mul(x, y.t().unsqueeze(0)));
}

TEST(Composition, GradOfGradOfAProduct) {
  // f(x, y) = x^2 y^3: d2f/dxdy = 6 x y^2.
  const Tensor x = mt::tensor(1.5), y = mt::tensor(-0.5);
  const auto f = [](const Inputs& a) { return mt::mul(mt::mul(a[0], a[0]), mt::pow(a[1], 3)); };
  const Tensor dxdy = mt::grad(mt::grad(f, 0), 1)({x, y});
  EXPECT_NEAR(dxdy.item<double>(), 6 * 1.5 * 0.25, 1e-6);
}

TEST(Composition, VmapOfJacrevGivesBatchedJacobians) {
  const Tensor w = mt::randn({3, 4}), xs = mt::randn({5, 4});
  const auto f = [](const Inputs& a) { return mt::tanh(mt::matmul(a[1], a[0])); };
  const Tensor batched = mt::vmap(mt::jacrev(f), {0, std::nullopt})({xs, w});
  const Tensor looped = loop_and_stack([&](const Inputs& a) { return mt::jacrev(f)(a); }, {xs, w}, {0, std::nullopt});
  expect_same(batched, looped);
  // d tanh(Wx)/dx = diag(1 - tanh^2) W.
  const Tensor t = mt::tanh(mt::matmul(w, xs[1]));
  expect_same(batched[1], mt::mul(mt::sub(mt::ones_like(t), mt::mul(t, t)).unsqueeze(1), w));
}

TEST(Composition, JacfwdOfJacrevIsTheHessian) {
  const Tensor x = mt::randn({3}, mt::kFloat64);
  // f = sum(sin(x) * x): H = diag(2 cos x - x sin x).
  const auto f = [](const Inputs& a) { return mt::sum(mt::mul(mt::sin(a[0]), a[0])); };
  const Tensor expected =
      mt::mul(mt::eye(3, mt::kFloat64), mt::sub(mt::mul(mt::cos(x), 2.0), mt::mul(x, mt::sin(x))));
  expect_same(mt::jacfwd(mt::jacrev(f))({x}), expected, 1e-10);
  expect_same(mt::jacrev(mt::jacrev(f))({x}), expected, 1e-10);
  expect_same(mt::vmap(mt::hessian(f))({mt::stack({x, x}, 0)})[1], expected, 1e-10);
}

TEST(Composition, HessianVectorProductByJvpOfGrad) {
  const Tensor a = mt::randn({3, 3}, mt::kFloat64), x = mt::randn({3}, mt::kFloat64), v = mt::randn({3}, mt::kFloat64);
  const auto quadratic = [&](const Inputs& in) { return mt::mul(mt::dot(in[0], mt::matmul(a, in[0])), 0.5); };
  auto [g, hv] = mt::jvp(mt::grad(quadratic), {x}, {v});
  const Tensor sym = mt::mul(mt::add(a, a.t()), 0.5);
  expect_same(g, mt::matmul(sym, x), 1e-10);
  expect_same(hv, mt::matmul(sym, v), 1e-10);
}

TEST(Composition, AWrapperThatEscapesActsAsItsValue) {
  const Tensor x = mt::randn({3});
  Tensor escaped;
  mt::grad([&](const Inputs& a) {
    escaped = mt::mul(a[0], 2.0);
    return mt::sum(escaped);
  })({x});
  EXPECT_EQ(mt::functorch::interpreter_stack_depth(), 0);
  expect_same(mt::add(escaped, 1.0), mt::add(mt::mul(x, 2.0), 1.0));
  // Also inside a later transform.
  expect_same(mt::grad([&](const Inputs& a) { return mt::sum(mt::mul(a[0], escaped)); })({x}), mt::mul(x, 2.0));
}

}  // namespace
