// The masks of the derivative formulas select the gradient, as PyTorch's do: an inf gradient arriving from upstream
// (sqrt at 0, or given as grad_outputs) gives 0 where it does not flow, not 0 * inf = NaN; where PyTorch multiplies
// (amax, pow's exponent at base 0), so do these. And PyTorch 2.x's conventions at bounds, ties and NaN inputs: relu,
// maximum/minimum, max/min, max.dim, the inf norm, clamp, where. Hand-worked values; gradcheck and gradgradcheck of
// the formulas where they are smooth.
#include <cmath>
#include <limits>

#include "formulas_test_helpers.h"
#include "ops/api/clamp_min.h"
#include "ops/api/full.h"
#include "ops/api/maximum.h"
#include "ops/api/minimum.h"
#include "ops/api/std.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::values;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor doubles(std::vector<double> v) { return mt::tensor(v, mt::kFloat64).requires_grad_(); }

// The gradients of `out` with respect to `inputs` when the gradient arriving at `out` is inf everywhere.
variable_list grads_of_inf(const Tensor& out, const variable_list& inputs) {
  return mt::autograd::grad({out}, inputs, {mt::full(out.sizes(), kInf, mt::kFloat64)});
}

TEST(MaskFormulas, ReluDropsAnInfGradientWhereSelfIsNotPositive) {
  // x.relu().sqrt().sum().backward(): sqrt's gradient is inf at relu's 0.
  const Tensor x = doubles({-1.0, 0.0, 4.0});
  x.relu().sqrt().sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0, 0.25}));
  const Tensor y = doubles({-1.0, 0.0, 4.0});
  (y * 1.0).relu_().sqrt().sum().backward();
  EXPECT_EQ(values(y.grad()), (std::vector<double>{0, 0, 0.25}));
}

TEST(MaskFormulas, ReluPassesTheGradientAtNaNAsPyTorch) {
  // threshold_backward(grad, result, 0): relu(NaN) is NaN, which is not <= 0.
  const Tensor x = doubles({kNaN, -2.0, 0.0, 3.0});
  EXPECT_EQ(values(mt::autograd::grad({x.relu().sum()}, {x})[0]), (std::vector<double>{1, 0, 0, 1}));
  EXPECT_EQ(values(mt::autograd::grad({(x * 1.0).relu_().sum()}, {x})[0]), (std::vector<double>{1, 0, 0, 1}));
  check([](const variable_list& v) { return v[0].relu() * v[0]; }, {mt_test::rnd_nonzero({2, 3}, 1)});
}

TEST(MaskFormulas, SignGivesZeroForAnInfGradient) {
  const Tensor x = doubles({-2.0, 0.0, 3.0});
  EXPECT_EQ(values(grads_of_inf(x.sign(), {x})[0]), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(values(grads_of_inf((x * 1.0).sign_(), {x})[0]), (std::vector<double>{0, 0, 0}));
}

TEST(MaskFormulas, MaximumMinimumGiveTheLoserZeroAndSplitTies) {
  const Tensor a = doubles({1.0, 2.0, 3.0});
  const Tensor b = doubles({0.0, 2.0, 5.0});
  auto g = grads_of_inf(mt::maximum(a, b), {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{kInf, kInf, 0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{0, kInf, kInf}));
  g = grads_of_inf(mt::minimum(a, b), {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, kInf, kInf}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{kInf, kInf, 0}));
  // Finite: half each at the tie, and sqrt's inf at the loser's 0 stays out: sqrt(maximum(a, 0)) at a = -1, 4.
  const Tensor c = doubles({-1.0, 4.0});
  const Tensor zero = doubles({0.0, 0.0});
  g = mt::autograd::grad({mt::maximum(c, zero * 1.0).sqrt().sum()}, {c, zero});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, 0.25}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{kInf, 0}));
}

TEST(MaskFormulas, MaximumMinimumPassTheGradientToBothSidesOfANaN) {
  // As PyTorch 2.x: a NaN neither ties nor loses (self == other and self < other are both false).
  const Tensor a = doubles({kNaN, 1.0, kNaN});
  const Tensor b = doubles({1.0, kNaN, kNaN});
  for (bool is_max : {true, false}) {
    SCOPED_TRACE(is_max ? "maximum" : "minimum");
    const Tensor out = is_max ? mt::maximum(a, b) : mt::minimum(a, b);
    const auto g = mt::autograd::grad({out.sum()}, {a, b});
    EXPECT_EQ(values(g[0]), (std::vector<double>{1, 1, 1}));
    EXPECT_EQ(values(g[1]), (std::vector<double>{1, 1, 1}));
  }
  check([](const variable_list& v) { return mt::maximum(v[0], v[1]) * v[0]; },
        {mt_test::rnd({2, 3}, 2), mt_test::rnd({3}, 3)});
}

TEST(MaskFormulas, MaxMinShareAmongTiesAndGiveOthersZero) {
  const Tensor x = doubles({1.0, 3.0, 3.0, 2.0});
  EXPECT_EQ(values(grads_of_inf(x.max(), {x})[0]), (std::vector<double>{0, kInf, kInf, 0}));
  EXPECT_EQ(values(mt::autograd::grad({x.max()}, {x})[0]), (std::vector<double>{0, 0.5, 0.5, 0}));
  const Tensor y = doubles({2.0, 1.0, 5.0, 1.0});
  EXPECT_EQ(values(grads_of_inf(y.min(), {y})[0]), (std::vector<double>{0, kInf, 0, kInf}));
  // sqrt(max(z)) at max(z) = 0: sqrt's inf reaches the maximum only.
  const Tensor z = doubles({-1.0, 0.0});
  z.max().sqrt().backward();
  EXPECT_EQ(values(z.grad()), (std::vector<double>{0, kInf}));
  check([](const variable_list& v) { return v[0].max() * v[0]; }, {mt_test::rnd({2, 3}, 4)});
}

TEST(MaskFormulas, MaxMinOfANaNGoToTheNaNs) {
  // PyTorch's evenly_distribute_backward: where the result is NaN, the NaNs are what was picked.
  const Tensor x = doubles({1.0, kNaN, 3.0, kNaN});
  EXPECT_EQ(values(mt::autograd::grad({x.max()}, {x})[0]), (std::vector<double>{0, 0.5, 0, 0.5}));
  EXPECT_EQ(values(mt::autograd::grad({x.min()}, {x})[0]), (std::vector<double>{0, 0.5, 0, 0.5}));
}

TEST(MaskFormulas, InfNormOfANaNHasAZeroGradient) {
  // PyTorch's norm_backward counts the NaNs among the picked elements, whose sign is 0.
  const Tensor x = doubles({1.0, kNaN, -3.0});
  EXPECT_EQ(values(mt::autograd::grad({x.norm(kInf)}, {x})[0]), (std::vector<double>{0, 0, 0}));
  const Tensor y = doubles({1.0, -3.0, 3.0});
  EXPECT_EQ(values(mt::autograd::grad({y.norm(kInf)}, {y})[0]), (std::vector<double>{0, -0.5, 0.5}));
}

TEST(MaskFormulas, AmaxMultipliesItsMaskAsPyTorchDoes) {
  // PyTorch's scale_grad_by_count is (grad / count) * mask: an inf gradient gives NaN off the maximum.
  const Tensor x = doubles({1.0, 3.0, 3.0});
  const std::vector<double> g = values(grads_of_inf(x.amax({0}), {x})[0]);
  EXPECT_TRUE(std::isnan(g[0]));
  EXPECT_EQ(g[1], kInf);
  EXPECT_EQ(g[2], kInf);
  EXPECT_EQ(values(mt::autograd::grad({x.amax({0})}, {x})[0]), (std::vector<double>{0, 0.5, 0.5}));
}

TEST(MaskFormulas, PowsExponentMultipliesItsMaskAsPyTorchDoes) {
  // PyTorch's pow_backward_exponent is grad * where(self == 0 & exponent >= 0, 0, result * log(self)).
  const Tensor base = mt::zeros({2}, mt::kFloat64);
  const Tensor e = doubles({2.0, 0.0});
  const std::vector<double> g = values(grads_of_inf(base.pow(e), {e})[0]);
  EXPECT_TRUE(std::isnan(g[0]) && std::isnan(g[1]));
  EXPECT_EQ(values(mt::autograd::grad({base.pow(e).sum()}, {e})[0]), (std::vector<double>{0, 0}));
}

TEST(MaskFormulas, MaxDimSendsAnInfGradientToTheIndexOnly) {
  const Tensor x = mt::tensor({1.0, 5.0, 4.0, 2.0}, mt::kFloat64).reshape({2, 2}).requires_grad_();
  EXPECT_EQ(values(grads_of_inf(std::get<0>(x.max(1)), {x})[0]), (std::vector<double>{0, kInf, kInf, 0}));
  EXPECT_EQ(values(grads_of_inf(std::get<0>(x.min(0, /*keepdim=*/true)), {x})[0]),
            (std::vector<double>{kInf, 0, 0, kInf}));
}

TEST(MaskFormulas, ClampSelectsWithItsBoundsIncluded) {
  // PyTorch 2.x: at a bound the gradient is self's.
  const Tensor x = doubles({-2.0, -1.0, 0.0, 1.0, 2.0});
  EXPECT_EQ(values(grads_of_inf(x.clamp(-1.0, 1.0), {x})[0]), (std::vector<double>{0, kInf, kInf, kInf, 0}));
  EXPECT_EQ(values(grads_of_inf(mt::clamp_min(x, 0.0), {x})[0]), (std::vector<double>{0, 0, kInf, kInf, kInf}));
  EXPECT_EQ(values(grads_of_inf((x * 1.0).clamp_(std::nullopt, 0.0), {x})[0]),
            (std::vector<double>{kInf, kInf, kInf, 0, 0}));
  // Tensor bounds: self keeps the gradient at a tie with a bound; the bound gets it only where it was taken.
  const Tensor lo = doubles({-1.0, -1.0, -1.0, -1.0, -1.0});
  const Tensor hi = doubles({1.0, 1.0, 1.0, 1.0, 1.0});
  const auto g = grads_of_inf(x.clamp(std::optional<Tensor>(lo), std::optional<Tensor>(hi)), {x, lo, hi});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, kInf, kInf, kInf, 0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{kInf, 0, 0, 0, 0}));
  EXPECT_EQ(values(g[2]), (std::vector<double>{0, 0, 0, 0, kInf}));
  const auto g_min = grads_of_inf(mt::clamp_min(x, lo), {x, lo});
  EXPECT_EQ(values(g_min[0]), (std::vector<double>{0, kInf, kInf, kInf, kInf}));
  EXPECT_EQ(values(g_min[1]), (std::vector<double>{kInf, 0, 0, 0, 0}));
  // A NaN self passes its gradient to nothing.
  const Tensor n = doubles({kNaN});
  EXPECT_EQ(values(mt::autograd::grad({n.clamp(-1.0, 1.0).sum()}, {n})[0]), std::vector<double>{0});
}

TEST(MaskFormulas, WhereAndMaskedFillSelect) {
  const Tensor cond = mt::tensor({true, false}, mt::kBool);
  const Tensor a = doubles({1.0, 2.0});
  const Tensor b = doubles({3.0, 4.0});
  const auto g = grads_of_inf(mt::where(cond, a, b), {a, b});
  EXPECT_EQ(values(g[0]), (std::vector<double>{kInf, 0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{0, kInf}));
  const Tensor value = doubles({7.0});
  const auto f = grads_of_inf(a.masked_fill(cond, value.view({})), {a, value});
  EXPECT_EQ(values(f[0]), (std::vector<double>{0, kInf}));
  EXPECT_EQ(values(f[1]), std::vector<double>{kInf});
}

}  // namespace
