// The derivatives of add and sub with alpha (d/dself = 1, d/dother = +-alpha), of remainder (d/da = 1,
// d/db = -floor(a / b)), out of place and in place, and of the
// compositions behind a scalar on the left (3 - x, 2 / x, 7 % x): hand-worked values, then finite
// differences first and second order, away from remainder's jumps (where a / b is an integer).
#include "formulas_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/remainder.h"
#include "ops/api/rsub.h"
#include "ops/api/sub.h"
#include "ops/api/where.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::rnd;
using mt_test::values;

// a with |a| in [2.4, 2.7) and both signs, b in [1.05, 1.15): a / b stays inside (2, 2.58) or (-2.58, -2),
// so floor(a / b) is constant around every point.
variable_list remainder_inputs(std::vector<int64_t> a_sizes, std::vector<int64_t> b_sizes, uint64_t seed) {
  const Tensor magnitude = rnd(a_sizes, seed, 2.4, 2.7).detach();
  const Tensor sign = mt::where(rnd(a_sizes, seed + 1).gt(0), 1.0, -1.0);
  return {(magnitude * sign).requires_grad_(), rnd(b_sizes, seed + 2, 1.05, 1.15)};
}

// Hand-worked for alpha 1 (no multiplication) and 2.5, broadcast other, out of place and in place, and with
// one side only requiring grad; then finite differences.
TEST(ArithmeticFormulas, AddAndSubWithAlpha) {
  for (double alpha : {1.0, 2.5}) {
    SCOPED_TRACE(alpha);
    for (bool subtract : {false, true}) {
      const Tensor a = mt::tensor({1.0, 2.0, 3.0, 4.0}, mt::kFloat64).reshape({2, 2}).requires_grad_();
      const Tensor b = mt::tensor({5.0, 6.0}, mt::kFloat64).requires_grad_();
      const Tensor y = subtract ? mt::sub(a, b, alpha) : mt::add(a, b, alpha);
      EXPECT_EQ(y.grad_fn()->name(), subtract ? "SubBackward0" : "AddBackward0");
      const auto g = mt::autograd::grad({y.sum()}, {a, b});
      const double db = (subtract ? -2.0 : 2.0) * alpha;  // other broadcasts over 2 rows
      EXPECT_EQ(values(g[0]), (std::vector<double>{1, 1, 1, 1}));
      EXPECT_EQ(values(g[1]), (std::vector<double>{db, db}));
      Tensor z = a * 1.0;
      if (subtract) z.sub_(b, alpha);
      else z.add_(b, alpha);
      EXPECT_EQ(values(mt::autograd::grad({z.sum()}, {b})[0]), (std::vector<double>{db, db}));
      EXPECT_EQ(values(mt::autograd::grad({mt::add(a.detach(), b, alpha).sum()}, {b})[0]),
                (std::vector<double>{2 * alpha, 2 * alpha}));
      EXPECT_EQ(values(mt::autograd::grad({mt::sub(a, b.detach(), alpha).sum()}, {a})[0]), (std::vector<double>{1, 1, 1, 1}));
    }
    check([alpha](const variable_list& x) { return mt::add(x[0], x[1], alpha); }, {rnd({2, 3}, 40), rnd({3}, 41)});
    check([alpha](const variable_list& x) { return mt::sub(x[0], x[1], alpha); }, {rnd({2, 3}, 42), rnd({2, 3}, 43)});
  }
}

TEST(ArithmeticFormulas, RemainderHandWorked) {
  const Tensor a = mt::tensor({5.5, -5.5, 7.0}, mt::kFloat64).requires_grad_();
  const Tensor b = mt::tensor({2.0, 2.0, -3.0}, mt::kFloat64).requires_grad_();
  const Tensor y = mt::remainder(a, b);
  EXPECT_EQ(y.grad_fn()->name(), "RemainderBackward0");
  const auto g = mt::autograd::grad({y.sum()}, {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{-2, 3, 3}));  // -floor(2.75), -floor(-2.75), -floor(-2.33)
}

TEST(ArithmeticFormulas, RemainderMatchesFiniteDifferences) {
  check([](const variable_list& x) { return mt::remainder(x[0], x[1]); }, remainder_inputs({2, 3}, {2, 3}, 1));
  check([](const variable_list& x) { return x[0] % x[1]; }, remainder_inputs({2, 3}, {3}, 4));
  // Only one side requires grad: the other gets none and nothing is saved for it.
  const variable_list in = remainder_inputs({4}, {4}, 7);
  check([&](const variable_list& x) { return mt::remainder(x[0], in[1].detach()); }, {in[0]});
  check([&](const variable_list& x) { return mt::remainder(in[0].detach(), x[0]); }, {in[1]});
}

TEST(ArithmeticFormulas, RemainderInPlaceUsesSelfsOldValue) {
  check([](const variable_list& x) { return (x[0] * 1.0).remainder_(x[1]); }, remainder_inputs({2, 3}, {3}, 10));
  const Tensor a = mt::tensor({5.5, -5.5}, mt::kFloat64).requires_grad_();
  const Tensor b = mt::tensor({2.0, 2.0}, mt::kFloat64).requires_grad_();
  Tensor y = a * 1.0;
  y.remainder_(b);
  EXPECT_EQ(values(y), (std::vector<double>{1.5, 0.5}));
  EXPECT_EQ(y.grad_fn()->name(), "RemainderBackward0");
  const auto g = mt::autograd::grad({y.sum()}, {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{1, 1}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{-2, 3})) << "floor of the old self over b, not of the result";
  Tensor leaf = rnd({2}, 13);
  EXPECT_EQ(mt_test::message_of<mt::Error>([&] { leaf.remainder_(2.0); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
}

TEST(ArithmeticFormulas, ScalarOnTheLeftDifferentiatesThroughItsParts) {
  const Tensor x = mt::tensor({0.5, -2.0}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({(3 - x).sum()}, {x})[0]), (std::vector<double>{-1, -1}));
  EXPECT_EQ(values(mt::autograd::grad({mt::rsub(x, 1.0, 2.5).sum()}, {x})[0]), (std::vector<double>{-2.5, -2.5}));
  EXPECT_EQ(values(mt::autograd::grad({(2 / x).sum()}, {x})[0]), (std::vector<double>{-8, -0.5}));  // -2 / x^2
  EXPECT_EQ(values(mt::autograd::grad({(7 % x).sum()}, {x})[0]), (std::vector<double>{-14, 4}));  // -floor(7 / x)
  check([](const variable_list& v) { return 2.5 / v[0]; }, {mt_test::rnd_nonzero({3}, 14)});
  check([](const variable_list& v) { return mt::rsub(v[0], v[1], 3); }, {rnd({2, 3}, 15), rnd({3}, 16)});
  check([](const variable_list& v) { return mt::remainder(v[0], 1.0); }, {rnd({3}, 17, 0.1, 0.9)});
}

}  // namespace
