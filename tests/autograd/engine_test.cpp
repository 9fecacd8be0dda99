// The engine and the autograd metadata: leaves and .grad accumulation, diamonds, retain_graph,
// create_graph (higher order), autograd::grad with unused inputs, hooks, detach, and the errors.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <functional>
#include <string>
#include <vector>

#include "autograd/Autograd.h"
#include "autograd/Node.h"
#include "autograd_test_helpers.h"
#include "ops/api/ones.h"

namespace {

using mt::Tensor;

using mt_test::message_of;
using mt_test::starts_with;
using mt_test::values;

Tensor leaf(std::initializer_list<double> v) { return mt::tensor(v, mt::kFloat64).requires_grad_(); }

TEST(AutogradBasics, LeavesRequireGradAndResultsCarryAGradFn) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor c = mt::tensor({1.0, 1.0, 1.0}, mt::kFloat64);
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.grad_fn(), nullptr);
  EXPECT_FALSE(c.requires_grad());
  const Tensor y = x * c;
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  ASSERT_NE(y.grad_fn(), nullptr);
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
  EXPECT_FALSE((c + c).requires_grad());
}

TEST(AutogradBasics, BackwardAccumulatesIntoLeafGrads) {
  const Tensor x = leaf({1, 2, 3}), w = leaf({4, 5, 6});
  // d/dx sum(x * w + x) = w + 1, d/dw = x
  (x * w + x).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{5, 6, 7}));
  EXPECT_EQ(values(w.grad()), (std::vector<double>{1, 2, 3}));
  (x * w).sum().backward();  // accumulates
  EXPECT_EQ(values(x.grad()), (std::vector<double>{9, 11, 13}));
}

TEST(AutogradBasics, DiamondGraphsSumBothPaths) {
  const Tensor x = leaf({2});
  const Tensor a = x * 3.0, b = x * x;
  const Tensor y = a * b;  // 3x^3 -> 9x^2 = 36
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{36}));
}

TEST(AutogradBasics, BroadcastGradientsAreSummedToTheInputShape) {
  const Tensor a = mt::ones({2, 3}, mt::kFloat64).requires_grad_();
  const Tensor b = mt::tensor({1.0, 2.0, 3.0}, mt::kFloat64).requires_grad_();
  (a * b).sum().backward();
  EXPECT_EQ(values(b.grad()), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(values(a.grad()), (std::vector<double>{1, 2, 3, 1, 2, 3}));
}

TEST(AutogradBasics, SecondBackwardNeedsRetainGraph) {
  const Tensor x = leaf({1, 2});
  const Tensor y = (x * x).sum();
  y.backward(Tensor(), /*retain_graph=*/true);
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{4, 8}));
  const std::string m = message_of<mt::RuntimeError>([&] { y.backward(); });
  EXPECT_TRUE(starts_with(m, "Trying to backward through the graph a second time")) << m;
}

TEST(AutogradBasics, CreateGraphGivesHigherOrderDerivatives) {
  const Tensor x = leaf({3});
  const Tensor y = x * x * x;  // y' = 3x^2 = 27, y'' = 6x = 18, y''' = 6
  const Tensor dy = mt::autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true)[0];
  EXPECT_EQ(values(dy), (std::vector<double>{27}));
  EXPECT_TRUE(dy.requires_grad());
  const Tensor d2y = mt::autograd::grad({dy}, {x}, {}, std::nullopt, true)[0];
  EXPECT_EQ(values(d2y), (std::vector<double>{18}));
  const Tensor d3y = mt::autograd::grad({d2y}, {x})[0];
  EXPECT_EQ(values(d3y), (std::vector<double>{6}));
  EXPECT_FALSE(x.grad().defined()) << "autograd::grad must not touch .grad";
}

TEST(AutogradBasics, GradOfUnusedInputsNeedsAllowUnused) {
  const Tensor x = leaf({1}), unused = leaf({2});
  const Tensor y = x * 2.0;
  const auto grads = mt::autograd::grad({y}, {x, unused}, {}, true, false, /*allow_unused=*/true);
  EXPECT_EQ(values(grads[0]), (std::vector<double>{2}));
  EXPECT_FALSE(grads[1].defined());
  const std::string m = message_of<mt::RuntimeError>([&] { mt::autograd::grad({y}, {unused}); });
  EXPECT_TRUE(starts_with(m, "One of the differentiated Tensors appears to not have been used in the graph.")) << m;
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::autograd::grad({y}, {x, mt::ones({1})}); }),
            "element 1 of the input tensors does not require grad");
}

TEST(AutogradBasics, GradNeedsInputs) {
  const Tensor x = leaf({1});
  EXPECT_EQ(message_of<mt::ValueError>([&] { mt::autograd::grad({x * 2.0}, {}); }), "grad requires non-empty inputs.");
  // The outputs are checked first, as in PyTorch.
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::autograd::grad({mt::ones({1})}, {}); }),
            "element 0 of tensors does not require grad and does not have a grad_fn");
}

TEST(AutogradBasics, GradWithRespectToANonLeafStopsThere) {
  const Tensor x = leaf({2});
  const Tensor h = x * x;        // 4
  const Tensor y = h * h * 0.5;  // dy/dh = h = 4
  EXPECT_EQ(values(mt::autograd::grad({y}, {h})[0]), (std::vector<double>{4}));
}

TEST(AutogradBasics, HooksSeeAndReplaceGradients) {
  const Tensor x = leaf({1, 2});
  const Tensor h = x * 2.0;
  std::vector<double> seen;
  h.register_hook([&seen](const Tensor& g) {
    seen = values(g);
    return g * 10.0;
  });
  x.register_hook([](const Tensor& g) { return g + 1.0; });
  h.sum().backward();
  EXPECT_EQ(seen, (std::vector<double>{1, 1}));
  EXPECT_EQ(values(x.grad()), (std::vector<double>{21, 21}));
  EXPECT_EQ(message_of<mt::RuntimeError>([] { mt::ones({1}).register_hook([](const Tensor& g) { return g; }); }),
            "cannot register a hook on a tensor that doesn't require gradient");
}

TEST(AutogradErrors, AHookMayNotChangeTheGradientsSizeTypeOrDevice) {
  using Hook = std::function<Tensor(const Tensor&)>;
  const std::vector<std::pair<Hook, std::string>> cases{
      {[](const Tensor& g) { return g.slice(0, 0, 2); }, "hook has changed the size of value (was [3] got [2])"},
      {[](const Tensor& g) { return g.to(mt::kFloat32); },
       "hook has changed the type of value (was mt.float64 got mt.float32)"},
  };
  for (const auto& [hook, message] : cases) {
    const Tensor x = leaf({1, 2, 3});
    x.register_hook(hook);  // on a leaf: AccumulateGrad runs it
    EXPECT_EQ(message_of<mt::RuntimeError>([&] { (x * 3.0).sum().backward(); }), message);
    EXPECT_FALSE(x.grad().defined());
    const Tensor y = leaf({1, 2, 3}) * 1.0;
    y.register_hook(hook);  // on a non-leaf: the node's pre-hook
    EXPECT_EQ(message_of<mt::RuntimeError>([&] { (y * 3.0).sum().backward(); }), message);
  }
}

TEST(AutogradBasics, RetainGradKeepsANonLeafGradient) {
  const Tensor x = leaf({1, 2});
  const Tensor h = x * 3.0;
  h.retain_grad();
  (h * h).sum().backward();
  EXPECT_EQ(values(h.grad()), (std::vector<double>{6, 12}));
  EXPECT_EQ(values(x.grad()), (std::vector<double>{18, 36}));
}

TEST(AutogradBasics, DetachSharesDataButNotHistory) {
  const Tensor x = leaf({1, 2});
  const Tensor y = x * 2.0;
  const Tensor d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_EQ(d.data_ptr(), y.data_ptr());
  EXPECT_EQ(d._version(), y._version());
  Tensor z = x * 3.0;
  z.detach_();
  EXPECT_FALSE(z.requires_grad());
  EXPECT_TRUE(z.is_leaf());
}

TEST(AutogradErrors, RequiresGradRules) {
  EXPECT_EQ(message_of<mt::RuntimeError>([] { mt::ones({1}, mt::kInt64).requires_grad_(); }),
            "only Tensors of floating point dtype can require gradients");
  const Tensor y = leaf({1}) * 2.0;
  EXPECT_TRUE(starts_with(message_of<mt::RuntimeError>([&] { y.requires_grad_(false); }),
                          "you can only change requires_grad flags of leaf variables."));
  EXPECT_TRUE(starts_with(message_of<mt::RuntimeError>([] { mt::ones({2}).requires_grad_().sum().backward(mt::ones({3})); }),
                          "Mismatch in shape: grad_output[0] has a shape of [3] and output[0] has a shape of []."));
  EXPECT_EQ(message_of<mt::RuntimeError>([] { mt::ones({2}).requires_grad_().backward(); }),
            "grad can be implicitly created only for scalar outputs");
  EXPECT_EQ(message_of<mt::RuntimeError>([] { mt::ones({1}).backward(); }),
            "element 0 of tensors does not require grad and does not have a grad_fn");
}

TEST(AutogradErrors, InPlaceOnALeafThatRequiresGradIsRefusedUnlessGradModeIsOff) {
  const Tensor w = leaf({1, 2});
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { w.add_(1); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { w.relu_(); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(values(w), (std::vector<double>{1, 2})) << "a refused update changes nothing";
  {
    mt::NoGradGuard no_grad;  // how optimizers update parameters
    w.sub_(mt::tensor({0.5, 0.5}, mt::kFloat64));
  }
  EXPECT_EQ(values(w), (std::vector<double>{0.5, 1.5}));
  EXPECT_EQ(w._version(), 1u);
}

TEST(AutogradBasics, InPlaceOnANonLeafMovesItsHistory) {
  const Tensor x = leaf({1, 2});
  Tensor h = x * 2.0;
  h.mul_(x);  // h = 2x^2, dh/dx = 4x
  EXPECT_EQ(h.grad_fn()->name(), "MulBackward0");
  h.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{4, 8}));
}

TEST(AutogradErrors, ModifyingASavedTensorInPlaceIsCaughtAtBackward) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor a = x * 1.0;
  const Tensor y = a * a;  // saves a
  EXPECT_EQ(a._version(), 0u);
  a.mul_(2);
  EXPECT_EQ(a._version(), 1u);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { y.sum().backward(); }),
            "one of the variables needed for gradient computation has been modified by an inplace operation: "
            "[mt.DoubleTensor [3]], which is output 0 of MulBackward0, is at version 1; expected version 0 instead. "
            "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True).");
}

// An in-place op whose other operand shares self's memory overwrites that operand as it runs, so its
// saved value is stale: as in PyTorch, backward refuses (the true gradient of y * y would be 2 y, the stale
// one y + y^2). Operands that do not share self's memory are unaffected.
TEST(AutogradErrors, AnInPlaceOpReadingItsOwnOutputIsCaughtAtBackward) {
  const std::string modified = "one of the variables needed for gradient computation has been modified by an inplace";
  using InPlace = void (*)(Tensor&);
  const std::vector<std::pair<const char*, InPlace>> cases{
      {"mul_", [](Tensor& y) { y.mul_(y); }},
      {"div_", [](Tensor& y) { y.div_(y); }},
      {"pow_", [](Tensor& y) { y.pow_(y); }},
      {"mul_ of a view", [](Tensor& y) { y.view({4}).mul_(y.view({2, 2}).reshape({4})); }},
      {"mul_ of disjoint slices of one base", [](Tensor& y) { y.slice(0, 0, 2).mul_(y.slice(0, 2, 4)); }},
  };
  for (const auto& [name, op] : cases) {
    SCOPED_TRACE(name);
    const Tensor x = leaf({0.5, 1.5, 2, 3});
    Tensor y = x * 1.0;
    op(y);
    EXPECT_TRUE(starts_with(message_of<mt::RuntimeError>([&] { y.sum().backward(); }), modified));
  }
  const Tensor m = mt::tensor(std::vector<double>{1, 2, 3, 4}, mt::kFloat64).view({2, 2}).requires_grad_();
  Tensor y = m * 1.0;
  y.addmm_(y, m);
  EXPECT_TRUE(starts_with(message_of<mt::RuntimeError>([&] { y.sum().backward(); }), modified));

  // Distinct operands: d/dx of sum(x * 3x) = 6x.
  const Tensor x = leaf({0.5, 1.5, 2, 3});
  Tensor a = x * 1.0;
  a.mul_(x * 3.0);
  a.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 9, 12, 18}));
}

}  // namespace
