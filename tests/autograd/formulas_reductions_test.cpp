// The derivatives of the reductions beyond their OpInfo rows' gradcheck and gradgradcheck
// (tests/opinfo/reduction_test.cpp): prod with zeros, max/min/amax/amin (ties, keepdim, negative dims),
// var/std (corrections), norm (every kind of p), logsumexp at large values; hand-worked values where ties
// split the gradient.
#include <cmath>
#include <limits>

#include "formulas_test_helpers.h"
#include "ops/api/amax.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::rnd;
using mt_test::rnd_nonzero;
using mt_test::values;

TEST(ReductionFormulas, Prod) {
  const variable_list in{rnd_nonzero({2, 3}, 3)};
  check([](const variable_list& x) { return x[0].prod(); }, in);
  check([](const variable_list& x) { return x[0].prod(1); }, in);
  check([](const variable_list& x) { return x[0].prod(-2, true); }, in);
  check([](const variable_list& x) { return x[0].t().prod(0); }, in);
  // Zeros: one zero in a slice gives that element the product of the others, and the others 0; two
  // zeros give every element 0.
  const Tensor x = mt::tensor({{2.0, 0.0, 3.0}, {0.0, 0.0, 5.0}}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({x.prod(1).sum()}, {x})[0]), (std::vector<double>{0, 6, 0, 0, 0, 0}));
  const Tensor y = mt::tensor({4.0, 0.0, -0.5}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({y.prod()}, {y})[0]), (std::vector<double>{0, -2, 0}));
  EXPECT_TRUE(mt::autograd::gradcheck([](const variable_list& v) { return v[0].prod(1); }, {x}));
  EXPECT_EQ(y.prod().grad_fn()->name(), "ProdBackward0");
  EXPECT_EQ(x.prod(0).grad_fn()->name(), "ProdBackward1");
}

// prod's Hessian from its definition: d2 prod(x) / dxi dxj is the product of the elements other than
// i and j, and 0 on the diagonal. Rows of a matrix (prod over a dim) and a whole vector, at points with
// no, one, two and three zeros in a slice.
TEST(ReductionFormulas, ProdSecondDerivativeWithZeros) {
  const std::vector<std::vector<double>> rows = {{2, -3, 0.5, 4}, {2, 0, 0.5, 4}, {0, -3, 0, 4}, {0, 0, 0.5, 0}};
  const int64_t n = 4;
  std::vector<double> flat;
  for (const auto& row : rows) flat.insert(flat.end(), row.begin(), row.end());
  const Tensor x = mt::tensor(flat, mt::kFloat64).reshape({4, n}).detach().requires_grad_();
  const Tensor g = mt::autograd::grad({x.prod(1).sum()}, {x}, {}, std::nullopt, /*create_graph=*/true)[0];
  for (int64_t r = 0; r < 4; ++r) {
    for (int64_t i = 0; i < n; ++i) {
      const std::vector<double> hessian_row = values(mt::autograd::grad({g[r][i]}, {x}, {}, /*retain_graph=*/true)[0]);
      for (int64_t s = 0; s < 4; ++s) {
        for (int64_t j = 0; j < n; ++j) {
          double expected = 0;
          if (s == r && j != i) {
            expected = 1;
            for (int64_t k = 0; k < n; ++k)
              if (k != i && k != j) expected *= rows[r][k];
          }
          EXPECT_EQ(hessian_row[s * n + j], expected) << "row " << r << ", d/dx" << i << " d/dx" << j;
        }
      }
    }
  }
  // The whole-tensor prod of one row with two zeros: only the two zeros' mixed derivative is nonzero.
  const Tensor y = mt::tensor({0.0, 5.0, 0.0, -2.0}, mt::kFloat64).requires_grad_();
  const Tensor gy = mt::autograd::grad({y.prod()}, {y}, {}, std::nullopt, /*create_graph=*/true)[0];
  EXPECT_EQ(values(mt::autograd::grad({gy[0]}, {y}, {}, /*retain_graph=*/true)[0]), (std::vector<double>{0, 0, -10, 0}));
  EXPECT_EQ(values(mt::autograd::grad({gy[1]}, {y})[0]), (std::vector<double>{0, 0, 0, 0}));
}

TEST(ReductionFormulas, MaxMinAmaxAmin) {
  const variable_list in{rnd({3, 4}, 4)};
  check([](const variable_list& x) { return x[0].max(); }, in, /*second=*/false);
  check([](const variable_list& x) { return x[0].min() * x[0].max(); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].max(1)); }, in, false);
  check([](const variable_list& x) { return std::get<0>(x[0].min(-2, true)); }, in, false);
  check([](const variable_list& x) { return std::get<0>(x[0].t().max(-1)) * 2.0; }, in, false);
  check([](const variable_list& x) { return x[0].amax({0}); }, in, false);
  check([](const variable_list& x) { return x[0].amin({-1}, true); }, in, false);
  check([](const variable_list& x) { return x[0].amax({0, 1}); }, in, false);
  check([](const variable_list& x) { return x[0].amax() * x[0].sum(); }, in);
}

TEST(ReductionFormulas, TiesShareTheGradientEvenly) {
  const Tensor x = mt::tensor({{1.0, 3.0, 3.0}, {2.0, 2.0, 2.0}}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({x.max()}, {x})[0]), (std::vector<double>{0, 0.5, 0.5, 0, 0, 0}));
  const std::vector<double> amax = values(mt::autograd::grad({x.amax({1}).sum()}, {x})[0]);
  const std::vector<double> expected{0, 0.5, 0.5, 1.0 / 3, 1.0 / 3, 1.0 / 3};
  for (size_t i = 0; i < amax.size(); ++i) EXPECT_DOUBLE_EQ(amax[i], expected[i]) << i;
  EXPECT_EQ(values(mt::autograd::grad({x.amin({0}).sum()}, {x})[0]), (std::vector<double>{1, 0, 0, 0, 1, 1}));
  // max.dim sends the whole gradient to the index it returns.
  const auto [vals, idx] = x.max(1);
  const std::vector<double> g = values(mt::autograd::grad({vals.sum()}, {x})[0]);
  double row0 = g[0] + g[1] + g[2], row1 = g[3] + g[4] + g[5];
  EXPECT_EQ(row0, 1.0);
  EXPECT_EQ(row1, 1.0);
  EXPECT_EQ(g[3 + mt_test::values(idx)[1]], 1.0);
  EXPECT_EQ(vals.grad_fn()->name(), "MaxBackward0");
  EXPECT_FALSE(idx.requires_grad());
  // Two-way ties are where finite differences see half a slope too.
  check([](const variable_list& v) { return v[0].amax({1}); },
        {mt::tensor({{1.0, 3.0, 3.0}}, mt::kFloat64).requires_grad_()}, /*second=*/false);
}

TEST(ReductionFormulas, VarStd) {
  const variable_list in{rnd({3, 4}, 5)};
  check([](const variable_list& x) { return x[0].var(); }, in);
  check([](const variable_list& x) { return x[0].var(std::vector<int64_t>{1}); }, in);
  check([](const variable_list& x) { return x[0].var(std::vector<int64_t>{0}, mt::Scalar(0), true); }, in);
  check([](const variable_list& x) { return x[0].t().var(std::vector<int64_t>{-1}, mt::Scalar(2)); }, in);
  check([](const variable_list& x) { return x[0].std(); }, in);
  check([](const variable_list& x) { return x[0].std(std::vector<int64_t>{0, 1}, mt::Scalar(0), true); }, in);
  check([](const variable_list& x) { return x[0].std(std::vector<int64_t>{-2}); }, in);
  // Hand-worked: var([1, 3]) = 2 (correction 1); d/dx = 2 (x - 2) / 1 = [-2, 2].
  const Tensor v = mt::tensor({1.0, 3.0}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({v.var()}, {v})[0]), (std::vector<double>{-2, 2}));
  // std of a constant has gradient 0, not nan.
  const Tensor c = mt::ones({3}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({c.std()}, {c})[0]), (std::vector<double>{0, 0, 0}));
}

TEST(ReductionFormulas, NormForEveryP) {
  const variable_list in{rnd_nonzero({3, 4}, 6)};
  const double inf = std::numeric_limits<double>::infinity();
  for (double p : {1.0, 2.0, 3.0, 1.5, 0.5, inf, -inf}) {
    SCOPED_TRACE(p);
    const bool smooth = p != 1.0 && !std::isinf(p);
    check([p](const variable_list& x) { return x[0].norm(p); }, in, smooth);
    check([p](const variable_list& x) { return x[0].norm(p, {1}); }, in, smooth);
    check([p](const variable_list& x) { return x[0].norm(p, {-2}, true); }, in, smooth);
    check([p](const variable_list& x) { return x[0].t().norm(p, {0, 1}, false, mt::kFloat64); }, in, smooth);
  }
  check([](const variable_list& x) { return x[0].norm(std::nullopt, {1}); }, in);
  const Tensor x = mt::tensor({3.0, -4.0}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({x.norm()}, {x})[0]), (std::vector<double>{0.6, -0.8}));
  EXPECT_EQ(values(mt::autograd::grad({x.norm(0)}, {x})[0]), (std::vector<double>{0, 0}));
  EXPECT_EQ(values(mt::autograd::grad({x.norm(inf)}, {x})[0]), (std::vector<double>{0, -1}));
  const Tensor z = mt::zeros({2}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({z.norm()}, {z})[0]), (std::vector<double>{0, 0})) << "0 at a zero norm";
  // For 1 < p < 2 a zero element gets 0 (sign(x) |x|^(p-1)), not 0 * inf: |[0, 4]|_1.5 = 4, and the
  // other element gets 4^0.5 / 4^0.5.
  const Tensor y = mt::tensor({0.0, 4.0}, mt::kFloat64).requires_grad_();
  const std::vector<double> g = values(mt::autograd::grad({y.norm(1.5)}, {y})[0]);
  EXPECT_EQ(g[0], 0.0);
  EXPECT_NEAR(g[1], 1.0, 1e-12);
}

// Large values: the gradient is a softmax, without overflow.
TEST(ReductionFormulas, LogsumexpGradientAtLargeValuesIsASoftmax) {
  const Tensor big = mt::tensor({1000.0, 1000.0}, mt::kFloat64).requires_grad_();
  for (double g : values(mt::autograd::grad({big.logsumexp({0})}, {big})[0])) EXPECT_NEAR(g, 0.5, 1e-12);
}

}  // namespace
