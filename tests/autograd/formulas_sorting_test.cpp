// The derivatives of sort and its compositions against finite differences, first and second order (the
// backward is linear in the gradient), and hand-worked values: each sorted value's gradient returns to its
// position; median() of all elements shares it among the elements equal to the result, as PyTorch does.
#include <cmath>
#include <limits>

#include "formulas_test_helpers.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::grad_of;
using mt_test::rnd;
using mt_test::values;

TEST(SortingFormulas, SortAndItsCompositionsAgainstFiniteDifferences) {
  const variable_list in{rnd({3, 5}, 1)};
  check([](const variable_list& x) { return std::get<0>(x[0].sort()); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].sort(0, /*descending=*/true)); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].t().sort(std::optional<bool>(true), 1)); }, in);
  check([](const variable_list& x) { return x[0].msort(); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].topk(2)); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].topk(2, 0, /*largest=*/false)); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].kthvalue(3, 1, /*keepdim=*/true)); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].median(0)); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].nanmedian(1)); }, in);
  check([](const variable_list& x) { return x[0].median(); }, in);
  check([](const variable_list& x) { return x[0].nanmedian(); }, in);
  check([](const variable_list& x) { return std::get<0>(x[0].sort()); }, {rnd({}, 2)});
}

TEST(SortingFormulas, HandWorkedGradients) {
  const Tensor x = mt::tensor({3.0, 1.0, 2.0}, mt::kFloat64).requires_grad_();
  // sorted = [x1, x2, x0]; sum(w * sorted) gives x1 the weight 1, x2 the weight 2, x0 the weight 3.
  const Tensor w = mt::tensor({1.0, 2.0, 3.0}, mt::kFloat64);
  const Tensor sorted = std::get<0>(x.sort());
  EXPECT_EQ(sorted.grad_fn()->name(), "SortBackward0");
  EXPECT_EQ(values(mt::autograd::grad({(sorted * w).sum()}, {x})[0]), (std::vector<double>{3, 1, 2}));
  EXPECT_EQ(grad_of([](const variable_list& v) { return std::get<0>(v[0].topk(1)); }, x),
            (std::vector<double>{1, 0, 0}));
  // Ties: median.dim gives the gradient to the index it returns; median() shares it among the equal elements.
  const Tensor t = mt::tensor({1.0, 2.0, 2.0, 3.0}, mt::kFloat64).requires_grad_();
  const auto [v, i] = t.median(0);
  EXPECT_EQ(values(mt::autograd::grad({v}, {t})[0])[i.item<int64_t>()], 1.0);
  const Tensor m = t.median();
  EXPECT_EQ(m.grad_fn()->name(), "MedianBackward0");
  EXPECT_EQ(values(mt::autograd::grad({m}, {t})[0]), (std::vector<double>{0, 0.5, 0.5, 0}));
  const Tensor n = mt::tensor({std::nan(""), 2.0, 5.0}, mt::kFloat64).requires_grad_();
  EXPECT_EQ(values(mt::autograd::grad({n.nanmedian()}, {n})[0]), (std::vector<double>{0, 1, 0}));
}

}  // namespace
