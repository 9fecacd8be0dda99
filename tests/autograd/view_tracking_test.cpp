// Views and in-place ops under autograd: a view remembers its base; writing a view in place rewrites the
// base's history (CopySlices) and views taken earlier follow the base's new history; views of leaves
// refuse in-place writes. Expected gradients are worked by hand.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "autograd/AutogradMeta.h"
#include "autograd/Gradcheck.h"
#include "autograd/Node.h"
#include "autograd_test_helpers.h"
#include "ops/api/rand.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::message_of;
using mt_test::values;

Tensor leaf(std::initializer_list<double> v) { return mt::tensor(v, mt::kFloat64).requires_grad_(); }

TEST(ViewTracking, ViewsRememberTheirRootBase) {
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor y = x * 1.0;
  const Tensor v = y.view({2, 2}).t();
  const auto* meta = mt::autograd::get_autograd_meta(v);
  ASSERT_NE(meta, nullptr);
  ASSERT_NE(meta->view, nullptr);
  EXPECT_TRUE(meta->view->base.is_same(y)) << "a view of a view points at the root base";
  EXPECT_EQ(mt::autograd::get_autograd_meta(y)->view, nullptr);
  EXPECT_EQ(mt::autograd::get_autograd_meta(x.detach()), nullptr) << "detach is not a differentiable view";
}

TEST(ViewTracking, InPlaceOnAViewRewritesTheBaseHistory) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor y = x * 2.0;  // y = 2x
  Tensor v = y.view({3});
  v.mul_(x);  // y = 2x * x
  EXPECT_EQ(y.grad_fn()->name(), "CopySlices");
  EXPECT_EQ(values(y), (std::vector<double>{2, 8, 18}));
  y.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{4, 8, 12}));  // d(2x^2)/dx = 4x
}

TEST(ViewTracking, InPlaceOnAPartialViewLeavesTheRestOfTheGradientAlone) {
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor w = leaf({10});
  const Tensor y = x * 1.0;
  Tensor column = y.view({2, 2}).t().select(0, 0);  // {y0, y2}, strided
  column.mul_(w);                                    // y = {10 x0, x1, 10 x2, x3}
  (y * mt::tensor({1.0, 2.0, 3.0, 4.0}, mt::kFloat64)).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{10, 2, 30, 4}));
  EXPECT_EQ(values(w.grad()), (std::vector<double>{1 * 1 + 3 * 3}));
}

TEST(ViewTracking, WritingASliceOfAPlainTensorMakesItRequireGrad) {
  const Tensor w = leaf({5, 7});
  Tensor buffer = mt::zeros({2, 2}, mt::kFloat64);
  Tensor row = buffer.select(0, 1);
  row.mul_(0.0).add_(w);  // buffer = [[0, 0], w]
  EXPECT_TRUE(buffer.requires_grad());
  EXPECT_EQ(values(buffer), (std::vector<double>{0, 0, 5, 7}));
  (buffer * mt::tensor({{1.0, 2.0}, {3.0, 4.0}}, mt::kFloat64)).sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{3, 4}));
}

TEST(ViewTracking, EarlierViewsFollowTheBaseAfterItChangesInPlace) {
  const Tensor x = leaf({1, 2});
  const Tensor y = x * 1.0;
  const Tensor v = y.view({2});  // taken before the write
  y.mul_(3.0);
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  (v * v).sum().backward();  // v = 3x: d/dx (9x^2) = 18x
  EXPECT_EQ(values(x.grad()), (std::vector<double>{18, 36}));
}

TEST(ViewTracking, AViewOfAPlainTensorRequiresGradOnceItsBaseDoes) {
  const Tensor w = leaf({2, 3});
  Tensor base = mt::zeros({2}, mt::kFloat64);
  const Tensor v = base.view({1, 2});
  EXPECT_FALSE(v.requires_grad());
  base.add_(w);
  EXPECT_TRUE(v.requires_grad());
  (v * 2.0).sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{2, 2}));
}

TEST(ViewTracking, InPlaceOnAViewOfALeafIsRefused) {
  const Tensor x = leaf({1, 2});
  Tensor v = x.view({2});
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { v.mul_(2.0); }),
            "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(values(x), (std::vector<double>{1, 2})) << "the refused write changed nothing";
  mt::NoGradGuard no_grad;
  v.mul_(2.0);  // initialising a parameter through a view is fine without grad
  EXPECT_EQ(values(x), (std::vector<double>{2, 4}));
}

TEST(ViewTracking, DetachInPlaceOfAViewIsRefused) {
  const Tensor y = leaf({1, 2}) * 1.0;
  Tensor v = y.view({2});
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { v.detach_(); }), "Can't detach views in-place. Use detach() instead.");
}

TEST(ViewTracking, ContiguousOfAContiguousTensorIsNotAViewOfItself) {
  const Tensor x = leaf({1, 2});
  const Tensor y = x * 1.0;
  const Tensor c = y.contiguous();
  EXPECT_TRUE(c.is_same(y));
  EXPECT_EQ(mt::autograd::get_autograd_meta(y)->view, nullptr);
}

TEST(ViewTracking, GradientsThroughCopySlicesMatchFiniteDifferences) {
  mt::Generator g(3);
  const Tensor x = (mt::rand({3, 2}, &g, mt::kFloat64) + 0.5).requires_grad_();
  const Tensor w = (mt::rand({2}, &g, mt::kFloat64) + 0.5).requires_grad_();
  const auto f = [](const mt::autograd::variable_list& in) {
    Tensor y = in[0] * in[0];
    y.select(0, 1).mul_(in[1]);
    y.t().select(0, 0).add_(in[1].sum());
    return y * 3.0;
  };
  EXPECT_TRUE(mt::autograd::gradcheck(f, {x, w}));
}

}  // namespace
