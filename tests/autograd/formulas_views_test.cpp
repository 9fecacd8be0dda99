// The derivatives of the view ops (squeeze, permute, select, slice, diagonal, as_strided, and the
// compositions built on them) against finite differences, first and second order, on non-contiguous
// inputs and negative dims; node names and hand-worked gradients.
#include "formulas_test_helpers.h"
#include "ops/api/full.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::rnd;
using mt_test::values;

// Views are linear: their second derivatives are zero, so gradgradcheck checks the first backward's
// linearity in grad_output (still a real check of the backward's own derivative).
TEST(ViewFormulas, SqueezeAndPermute) {
  const variable_list in{rnd({2, 1, 3, 1}, 1)};
  check([](const variable_list& x) { return x[0].squeeze() * 2.0; }, in);
  check([](const variable_list& x) { return x[0].squeeze(1); }, in);
  check([](const variable_list& x) { return x[0].squeeze(-1); }, in);
  check([](const variable_list& x) { return x[0].squeeze(0); }, in);  // size 2: no-op
  check([](const variable_list& x) { return x[0].permute({3, 0, -2, 1}); }, in);
  const variable_list in3{rnd({2, 3, 4}, 2)};
  check([](const variable_list& x) { return x[0].transpose(0, 2).permute({1, 2, 0}) * x[0].permute({1, 0, 2}); }, in3);
  check([](const variable_list& x) { return x[0].movedim(0, -1); }, in3);
}

TEST(ViewFormulas, SelectAndSlice) {
  const variable_list in{rnd({3, 4, 5}, 3)};
  check([](const variable_list& x) { return x[0].select(1, 2); }, in);
  check([](const variable_list& x) { return x[0].select(-1, -1); }, in);
  check([](const variable_list& x) { return x[0].t().select(0, 0); }, {rnd({3, 4}, 4)});  // non-contiguous
  check([](const variable_list& x) { return x[0].slice(1, 1, 3); }, in);
  check([](const variable_list& x) { return x[0].slice(-1, 0, 5, 2); }, in);
  check([](const variable_list& x) { return x[0].slice(0, -2); }, in);
  check([](const variable_list& x) { return x[0].slice(2, std::nullopt, -1, 3); }, in);
  check([](const variable_list& x) { return x[0].narrow(1, 1, 2).transpose(0, 2).slice(0, 1, 4, 2); }, in);
  // split and unbind (each one node with several outputs) composed with them.
  check([](const variable_list& x) {
    const auto parts = x[0].split(2, 1);
    return parts[0] * parts[1];
  }, in);
  check([](const variable_list& x) {
    const auto parts = x[0].unbind(0);
    return parts[0] - parts[2] * 2.0;
  }, in);
}

TEST(ViewFormulas, SelectGradientIsOneHotRow) {
  const Tensor x = rnd({2, 3}, 5);
  EXPECT_EQ(values(mt::autograd::grad({x.select(1, 1).sum()}, {x})[0]), (std::vector<double>{0, 1, 0, 0, 1, 0}));
  EXPECT_EQ(x.select(0, 1).grad_fn()->name(), "SelectBackward0");
  EXPECT_EQ(x.slice(0, 1).grad_fn()->name(), "SliceBackward0");
  EXPECT_EQ(x.permute({1, 0}).grad_fn()->name(), "PermuteBackward0");
  EXPECT_EQ(x.unsqueeze(0).squeeze().grad_fn()->name(), "SqueezeBackward0");
  EXPECT_EQ(x.unsqueeze(0).squeeze(0).grad_fn()->name(), "SqueezeBackward1");
  EXPECT_EQ(x.diagonal().grad_fn()->name(), "DiagonalBackward0");
  EXPECT_EQ(values(mt::autograd::grad({x.slice(1, 0, 3, 2).sum()}, {x})[0]), (std::vector<double>{1, 0, 1, 1, 0, 1}));
}

TEST(ViewFormulas, Diagonal) {
  const variable_list in{rnd({3, 4, 2}, 6)};
  check([](const variable_list& x) { return x[0].diagonal(); }, in);
  check([](const variable_list& x) { return x[0].diagonal(1, 0, 1); }, in);
  check([](const variable_list& x) { return x[0].diagonal(-1, 1, 0); }, in);
  check([](const variable_list& x) { return x[0].diagonal(0, -1, 0); }, in);
  check([](const variable_list& x) { return x[0].transpose(0, 1).diagonal(1, 2, 1); }, in);
  const Tensor m = rnd({3, 3}, 7);
  EXPECT_EQ(values(mt::autograd::grad({m.diagonal(1).sum()}, {m})[0]), (std::vector<double>{0, 1, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(ViewFormulas, AsStrided) {
  const variable_list in{rnd({3, 4}, 8)};
  check([](const variable_list& x) { return x[0].as_strided({2, 2}, {4, 1}, 1); }, in);
  check([](const variable_list& x) { return x[0].as_strided({3, 3}, {1, 1}); }, in);  // overlapping output
  check([](const variable_list& x) { return x[0].t().as_strided({2, 3}, {1, 4}, 2); }, in);
  const Tensor x = rnd({4}, 9);
  // Output elements 0,1 / 1,2 / 2,3 overlap: x[1] and x[2] are read twice.
  EXPECT_EQ(values(mt::autograd::grad({x.as_strided({3, 2}, {1, 1}).sum()}, {x})[0]), (std::vector<double>{1, 2, 2, 1}));
}

TEST(ViewFormulas, AsStridedOfAnOverlappingTensorSharesEachPositionsGradient) {
  // x holds a's four values three times over; y reads each once, so y = sum_i c_i a_i.
  const Tensor a = mt::tensor({1.0, 2.0, 3.0, 4.0}, mt::kFloat64).requires_grad_();
  const Tensor c = mt::tensor({1.0, -2.0, 0.5, 3.0}, mt::kFloat64);
  const Tensor x = a.expand({3, 4});
  const Tensor y = (x.as_strided({4}, {1}) * c).sum();
  EXPECT_EQ(values(mt::autograd::grad({y}, {a}, {}, /*retain_graph=*/true)[0]), (std::vector<double>{1, -2, 0.5, 3}));
  // The three elements of x at each position share its gradient.
  const std::vector<double> third{1.0 / 3, -2.0 / 3, 0.5 / 3, 1.0};
  std::vector<double> expected;
  for (int r = 0; r < 3; ++r) expected.insert(expected.end(), third.begin(), third.end());
  EXPECT_EQ(values(mt::autograd::grad({y}, {x})[0]), expected);
}

TEST(ViewFormulas, ViewsOfViewsAndReshapes) {
  const variable_list in{rnd({2, 3, 4}, 10)};
  check([](const variable_list& x) { return x[0].flatten(1).select(1, 5) * x[0].select(2, 1).select(1, 2); }, in);
  check([](const variable_list& x) { return x[0].unflatten(2, {2, 2}).diagonal(0, -1, -2); }, in);
  check([](const variable_list& x) { return x[0].expand({2, 2, 3, 4}).permute({3, 2, 1, 0}).reshape({-1}); }, in);
}

TEST(ViewFormulas, ABroadcastViewOfAChangedBaseSumsItsGradient) {
  // The view's history is rebuilt from the base's (AsStridedBackward0); its elements share one position, whose
  // gradient is their sum: v = 2x three times, so d sum(v) / dx = 6.
  const Tensor x = mt::full({}, 1.5, mt::kFloat64).requires_grad_();
  Tensor b = x * 1.0;
  const Tensor v = b.expand({3});
  b.mul_(2.0);
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  EXPECT_EQ(values(mt::autograd::grad({v.sum()}, {x})[0]), std::vector<double>{6});
  check([](const variable_list& in) {
    Tensor base = in[0] * 1.0;
    const Tensor view = base.expand({3, 2});
    base.mul_(in[0]);
    return view * view.select(0, 1);
  }, {rnd({2}, 30)});
}

TEST(ViewFormulas, SignInPlaceOnTheBaseOfAnExpandGivesAZeroGradient) {
  // The program: PyTorch gives x.grad = 0, where this raised an internal-overlap error.
  const Tensor x = mt::tensor({1.0, -2.0, 3.0}, mt::kFloat64).requires_grad_();
  Tensor s0 = x.sum();
  const Tensor s1 = s0.expand_as(x);
  s0.sign_();
  s1.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0, 0}));
}

}  // namespace
