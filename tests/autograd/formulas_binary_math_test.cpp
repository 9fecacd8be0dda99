// The derivatives of fmod (d/da = 1, d/db = -trunc(a / b)), atan2, hypot, copysign, logaddexp, logaddexp2
// and xlogy: hand-worked values, then finite differences first and second order with broadcasting and
// each side alone requiring grad; the in-place forms differentiate through self's old value.
#include <cmath>

#include "formulas_test_helpers.h"
#include "ops/api/atan2.h"
#include "ops/api/copysign.h"
#include "ops/api/fmod.h"
#include "ops/api/hypot.h"
#include "ops/api/logaddexp.h"
#include "ops/api/logaddexp2.h"
#include "ops/api/xlogy.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::rnd;
using mt_test::values;

TEST(BinaryMathFormulas, HandWorkedGradients) {
  const Tensor a = mt::tensor({3.0, -1.0}, mt::kFloat64).requires_grad_();
  const Tensor b = mt::tensor({4.0, 1.0}, mt::kFloat64).requires_grad_();
  // atan2: d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2).
  auto g = mt::autograd::grad({mt::atan2(a, b).sum()}, {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{4.0 / 25, 0.5}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{-3.0 / 25, 0.5}));
  // hypot: a / h and b / h, with h = 5 and sqrt(2).
  g = mt::autograd::grad({mt::hypot(a, b).sum()}, {a, b});
  EXPECT_NEAR(values(g[0])[0], 0.6, 1e-15);
  EXPECT_NEAR(values(g[1])[1], 1 / std::sqrt(2.0), 1e-15);
  // copysign(a, b): a's sign is b's, so d/da is +1 or -1; b gets 0.
  g = mt::autograd::grad({mt::copysign(a, -b).sum()}, {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{-1, 1}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{0, 0}));
  // logaddexp: the softmax weights of the two.
  g = mt::autograd::grad({mt::logaddexp(a, b).sum()}, {a, b});
  EXPECT_NEAR(values(g[0])[0], 1 / (1 + std::exp(1.0)), 1e-15);
  EXPECT_NEAR(values(g[1])[1], 1 / (1 + std::exp(-2.0)), 1e-15);
  g = mt::autograd::grad({mt::logaddexp2(a, b).sum()}, {a, b});
  EXPECT_NEAR(values(g[0])[0], 1 / 3.0, 1e-15);  // 1 / (1 + 2^(4 - 3))
  // xlogy: log(y) and x / y; at x = 0, y = 0 the x-derivative is 0, not -inf.
  const Tensor x = mt::tensor({0.0, 2.0}, mt::kFloat64).requires_grad_();
  const Tensor y = mt::tensor({0.0, 4.0}, mt::kFloat64).requires_grad_();
  g = mt::autograd::grad({mt::xlogy(x, y).sum()}, {x, y});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, std::log(4.0)}));
  EXPECT_EQ(values(g[1])[1], 0.5);
  // fmod: -trunc(a / b) for b.
  const Tensor n = mt::tensor({7.5, -7.5}, mt::kFloat64).requires_grad_();
  const Tensor d = mt::tensor({2.0, 2.0}, mt::kFloat64).requires_grad_();
  const Tensor r = mt::fmod(n, d);
  EXPECT_EQ(r.grad_fn()->name(), "FmodBackward0");
  g = mt::autograd::grad({r.sum()}, {n, d});
  EXPECT_EQ(values(g[0]), (std::vector<double>{1, 1}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{-3, 3}));
}

TEST(BinaryMathFormulas, MatchFiniteDifferences) {
  const variable_list ab = {rnd({2, 3}, 1), rnd({3}, 2)};
  check([](const variable_list& v) { return mt::atan2(v[0], v[1]); }, ab);
  check([](const variable_list& v) { return mt::hypot(v[0], v[1]); }, ab);
  check([](const variable_list& v) { return mt::copysign(v[0], v[1]); }, ab);
  check([](const variable_list& v) { return mt::logaddexp(v[0], v[1]); }, ab);
  check([](const variable_list& v) { return mt::logaddexp2(v[0], v[1]); }, ab);
  check([](const variable_list& v) { return mt::xlogy(v[0], v[1]); }, {rnd({2, 3}, 3), rnd({3}, 4, 0.5, 2.0)});
  check([](const variable_list& v) { return mt::xlogy(2.5, v[0]); }, {rnd({3}, 5, 0.5, 2.0)});
  check([](const variable_list& v) { return mt::copysign(v[0], -1.0); }, {rnd({3}, 6)});
  // fmod away from its jumps (where a / b is an integer).
  check([](const variable_list& v) { return mt::fmod(v[0], v[1]); },
        {rnd({2, 3}, 7, 2.4, 2.7), rnd({3}, 8, 1.05, 1.15)});
  check([](const variable_list& v) { return mt::fmod(v[0], 0.7); }, {rnd({3}, 9, 0.1, 0.6)});
  // One side alone.
  const Tensor fixed = rnd({3}, 10).detach();
  check([&](const variable_list& v) { return mt::atan2(fixed, v[0]); }, {rnd({3}, 11)});
  check([&](const variable_list& v) { return mt::hypot(v[0], fixed); }, {rnd({3}, 12)});
}

TEST(BinaryMathFormulas, InPlaceFormsUseSelfsOldValue) {
  check([](const variable_list& v) { return (v[0] * 1.0).atan2_(v[1]); }, {rnd({2, 3}, 20), rnd({3}, 21)});
  check([](const variable_list& v) { return (v[0] * 1.0).hypot_(v[1]); }, {rnd({2, 3}, 22), rnd({3}, 23)});
  check([](const variable_list& v) { return (v[0] * 1.0).copysign_(v[1]); }, {rnd({3}, 24), rnd({3}, 25)});
  check([](const variable_list& v) { return (v[0] * 1.0).xlogy_(v[1]); }, {rnd({3}, 26), rnd({3}, 27, 0.5, 2.0)});
  check([](const variable_list& v) { return (v[0] * 1.0).fmod_(v[1]); },
        {rnd({3}, 28, 2.4, 2.7), rnd({3}, 29, 1.05, 1.15)});
  Tensor leaf = rnd({2}, 30);
  EXPECT_EQ(mt_test::message_of<mt::Error>([&] { leaf.hypot_(leaf); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
}

}  // namespace
