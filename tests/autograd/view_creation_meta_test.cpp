// How a view was made (CreationMeta) decides whether an in-place op may rebase its history, as in
// PyTorch: views made under no_grad or in inference mode, and the outputs of unbind/split/chunk, refuse an
// in-place op with grad mode on (PyTorch's messages, naming our nodes), and a refused op changes nothing.
// Expected gradients are worked by hand.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "autograd/Gradcheck.h"
#include "autograd/Node.h"
#include "autograd_test_helpers.h"
#include "ops/api/cat.h"
#include "ops/api/ones.h"
#include "ops/api/rand.h"
#include "ops/api/t.h"
#include "ops/api/view.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::message_of;
using mt_test::values;

const std::string kNoGradAdvice =
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving "
    "both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked).";
const std::string kInferenceAdvice =
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving "
    "both the view and the inplace either both inside the inference_mode block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked).";
const std::string kMultiOutputAdvice =
    " This view is the output of a function that returns multiple views. Such functions do not allow the output "
    "views to be modified inplace. You should replace the inplace operation by an out-of-place one.";

Tensor leaf(std::initializer_list<double> v) { return mt::tensor(v, mt::kFloat64).requires_grad_(); }

template <typename F>
auto under_no_grad(F&& make) {
  mt::NoGradGuard no_grad;
  return make();
}

// Runs `write` and expects it refused with `message`, leaving `t`'s values and version as they were.
template <typename F>
void expect_refused_unchanged(const Tensor& t, F&& write, const std::string& message) {
  const std::vector<double> before = values(t);
  const uint32_t version = t._version();
  EXPECT_EQ(message_of<mt::RuntimeError>(write), message);
  EXPECT_EQ(values(t), before);
  EXPECT_EQ(t._version(), version);
}

TEST(ViewCreationMeta, ANoGradViewOfATensorThatRequiresGradIsALeafThatRequiresGrad) {
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor y = x * 2.0;
  for (const Tensor& v : {under_no_grad([&] {
                            return x.view({2, 2});
                          }),
                          under_no_grad([&] { return y.slice(0, 1, 3); })}) {
    EXPECT_TRUE(v.requires_grad());
    EXPECT_TRUE(v.is_leaf());
    EXPECT_EQ(v.grad_fn(), nullptr);
  }
}

TEST(ViewCreationMeta, InPlaceOnANoGradViewWithGradModeOnIsRefused) {
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor y = x * 2.0;
  Tensor v = under_no_grad([&] { return y.slice(0, 1, 3); });
  Tensor of_leaf = under_no_grad([&] { return x.select(0, 0); });
  const std::string message =
      "A view was created in no_grad mode and is being modified inplace with grad mode enabled." + kNoGradAdvice;
  expect_refused_unchanged(
      y, [&] { v.mul_(2.0); }, message);
  expect_refused_unchanged(
      y, [&] { v.copy_(mt::zeros({2}, mt::kFloat64)); }, message);
  // Refused as a no_grad view before being refused as a view of a leaf.
  expect_refused_unchanged(
      x, [&] { of_leaf.zero_(); }, message);
}

TEST(ViewCreationMeta, ANoGradViewWrittenWithAnOperandThatRequiresGradIsRefused) {
  const Tensor base = mt::zeros({3}, mt::kFloat64);
  Tensor v = under_no_grad([&] { return base.slice(0, 0, 2); });
  EXPECT_FALSE(v.requires_grad());
  const Tensor w = leaf({5, 6});
  expect_refused_unchanged(
      base, [&] { v.add_(w); },
      "A view was created in no_grad mode and is being modified inplace with grad mode enabled." + kNoGradAdvice);
  v.add_(w.detach());  // nothing to track: allowed
  EXPECT_EQ(values(base), (std::vector<double>{5, 6, 0}));
}

TEST(ViewCreationMeta, ViewAndInPlaceBothInsideNoGradIsAllowedAndUntracked) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor y = x * 2.0;
  {
    mt::NoGradGuard no_grad;
    y.slice(0, 0, 2).mul_(10.0);
  }
  EXPECT_EQ(values(y), (std::vector<double>{20, 40, 6}));
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0") << "the untracked write left y's history alone";
}

TEST(ViewCreationMeta, AViewOfANoGradViewNamesItsOwnNode) {
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor y = x * 2.0;
  const Tensor v = under_no_grad([&] { return y.view({2, 2}); });
  Tensor w = v.select(0, 1);
  ASSERT_NE(w.grad_fn(), nullptr);
  EXPECT_EQ(w.grad_fn()->name(), "SelectBackward0");
  expect_refused_unchanged(
      y, [&] { w.add_(1.0); },
      "Output 0 of SelectBackward0 is a view of a view which was created in no_grad mode and is "
      "being modified inplace with grad mode enabled." +
          kNoGradAdvice);
}

TEST(ViewCreationMeta, AWriteThroughTheBaseMakesANoGradViewRefuseToBeUsed) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor y = x * 2.0;
  const Tensor v = under_no_grad([&] { return y.slice(0, 0, 2); });
  y.mul_(x);  // tracked: v's history would have to be rebased
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { (void)(v * 2.0); }),
            "A view was created in no_grad mode and its base or another view of its base has been modified inplace "
            "with grad mode enabled." +
                kNoGradAdvice);
}

TEST(ViewCreationMeta, AnInferenceModeViewOfANormalTensorRefusesInPlaceOutside) {
  for (const bool rg : {true, false}) {
    const Tensor s = mt::ones({1, 2, 3}, mt::kFloat64).requires_grad_(rg);
    const Tensor a = s.clone();
    Tensor view_out;
    {
      mt::InferenceMode guard;
      view_out = a.view({2, 3});
      EXPECT_FALSE(view_out.is_inference());
      EXPECT_EQ(view_out.requires_grad(), rg);
      EXPECT_TRUE(view_out.is_leaf());
      Tensor tmp = view_out.view({1, 6});
      EXPECT_EQ(tmp.requires_grad(), rg);
      EXPECT_TRUE(tmp.is_leaf());
      tmp.add_(1.0);  // view -> view -> in-place, all inside: allowed
      EXPECT_EQ(a._version(), tmp._version());
    }
    EXPECT_EQ(values(a), std::vector<double>(6, 2.0));
    if (rg) {
      expect_refused_unchanged(
          a, [&] { view_out.add_(2.0); },
          "A view was created in inference mode and is being modified inplace in normal mode." + kInferenceAdvice);
    } else {
      view_out.add_(2.0);
      EXPECT_EQ(values(a), std::vector<double>(6, 4.0));
    }
  }
}

TEST(ViewCreationMeta, OutputsOfUnbindSplitAndChunkRefuseInPlace) {
  const Tensor x = leaf({1, 2, 3, 4, 5, 6});
  const Tensor y = (x * 1.0).view({3, 2});
  std::vector<Tensor> unbound = y.unbind(0);
  std::vector<Tensor> split = y.split(2, 0);
  std::vector<Tensor> sized = y.split_with_sizes({1, 2}, 0);
  std::vector<Tensor> chunks = y.chunk(2, 1);
  const std::string is_a_view = " is a view and is being modified inplace.";
  expect_refused_unchanged(
      y, [&] { unbound[1].mul_(2.0); }, "Output 1 of UnbindBackward0" + is_a_view + kMultiOutputAdvice);
  expect_refused_unchanged(
      y, [&] { split[1].zero_(); }, "Output 1 of SplitBackward0" + is_a_view + kMultiOutputAdvice);
  expect_refused_unchanged(
      y, [&] { sized[0].add_(x.slice(0, 0, 2)); },
      "Output 0 of SplitWithSizesBackward0" + is_a_view + kMultiOutputAdvice);
  expect_refused_unchanged(
      y,
      [&] {
        chunks[0].copy_(mt::zeros({3, 1}, mt::kFloat64));
      },
      "Output 0 of SplitBackward0" + is_a_view + kMultiOutputAdvice);
  // A view of such an output inherits the refusal.
  Tensor row = unbound[2].view({1, 2});
  expect_refused_unchanged(
      y, [&] { row.mul_(2.0); }, "Output 0 of ViewBackward0" + is_a_view + kMultiOutputAdvice);
}

TEST(ViewCreationMeta, OutputsOfUnbindMadeOrWrittenUnderNoGrad) {
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor y = x * 1.0;
  std::vector<Tensor> parts = under_no_grad([&] { return y.unbind(0); });
  EXPECT_TRUE(parts[1].is_leaf());
  EXPECT_TRUE(parts[1].requires_grad());
  {
    mt::NoGradGuard no_grad;
    parts[0].mul_(5.0);  // untracked: allowed
  }
  EXPECT_EQ(values(y), (std::vector<double>{5, 2, 3, 4}));
  expect_refused_unchanged(
      y, [&] { parts[1].mul_(2.0); },
      "A view was created in no_grad mode and is being modified inplace with grad mode enabled." + kNoGradAdvice);
  // Made with grad mode on, written inside no_grad: allowed.
  const Tensor z = x * 1.0;
  std::vector<Tensor> tracked = z.split(2);
  {
    mt::NoGradGuard no_grad;
    tracked[1].zero_();
  }
  EXPECT_EQ(values(z), (std::vector<double>{1, 2, 0, 0}));
}

TEST(ViewCreationMeta, AWriteThroughTheBaseMakesAnUnbindOutputRefuseToBeUsed) {
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor y = x * 1.0;
  std::vector<Tensor> parts = y.unbind(0);
  y.mul_(2.0);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { (void)(parts[0] * 2.0); }),
            "Output 0 of UnbindBackward0 is a view and its base or another view of its base has been modified "
            "inplace." +
                kMultiOutputAdvice);
}

TEST(ViewCreationMeta, MultiOutputViewsShareOneNodeAndUnusedOutputsGetZeroGradient) {
  const Tensor x = leaf({1, 2, 3, 4, 5, 6});
  const Tensor m = x.view({2, 3});
  const std::vector<Tensor> cols = m.unbind(1);
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(cols[0].grad_fn(), cols[2].grad_fn());
  EXPECT_EQ(cols[0].grad_fn()->name(), "UnbindBackward0");
  // d/dx of sum(3 * col2): 3 where column 2 is, 0 elsewhere (columns 0 and 1 unused).
  EXPECT_EQ(values(mt::autograd::grad({(cols[2] * 3.0).sum()}, {x})[0]), (std::vector<double>{0, 0, 3, 0, 0, 3}));
  const std::vector<Tensor> pieces = x.split_with_sizes({1, 3, 2});
  EXPECT_EQ(pieces[1].grad_fn()->name(), "SplitWithSizesBackward0");
  EXPECT_EQ(values(mt::autograd::grad({(pieces[1] * pieces[1]).sum()}, {x})[0]),
            (std::vector<double>{0, 4, 6, 8, 0, 0}));
  const std::vector<Tensor> halves = x.chunk(2);
  EXPECT_EQ(values(mt::autograd::grad({halves[0].sum() - halves[1].sum() * 2.0}, {x})[0]),
            (std::vector<double>{1, 1, 1, -2, -2, -2}));
}

TEST(ViewCreationMeta, MultiOutputViewGradientsMatchFiniteDifferences) {
  mt::Generator g(7);
  const Tensor x = (mt::rand({3, 4}, &g, mt::kFloat64) * 2.0 - 1.0).detach().requires_grad_();
  using mt::autograd::variable_list;
  const std::vector<std::function<Tensor(const variable_list&)>> fns{
      [](const variable_list& a) {
        const auto p = a[0].unbind(1);
        return p[0] * p[3] - p[1];
      },
      [](const variable_list& a) {
        const auto p = a[0].t().split(2, 1);  // non-contiguous input, shorter last piece
        return mt::cat({p[1] * p[0].slice(1, 0, 1), p[0]}, 1);
      },
      [](const variable_list& a) {
        const auto p = a[0].split_with_sizes({1, 0, 2}, 0);
        return p[2] * p[2] + p[0].sum();
      },
      [](const variable_list& a) {
        const auto p = a[0].chunk(3, -1);
        return p[1] * p[0];
      },
  };
  for (const auto& f : fns) {
    EXPECT_TRUE(mt::autograd::gradcheck(f, {x}));
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x}));
  }
}

TEST(ViewCreationMeta, MultiOutputViewGradientsUnderVmapOfGradMatchThePerSampleLoop) {
  mt::Generator g(11);
  const Tensor xs = mt::rand({4, 3, 2}, &g, mt::kFloat64) * 2.0 - 1.0;
  auto f = [](const std::vector<Tensor>& a) {
    const auto cols = a[0].unbind(1);
    const auto rows = a[0].split(2, 0);
    return (cols[0] * cols[1]).sum() + (rows[1] * 3.0).sum();
  };
  const Tensor batched = mt::vmap(mt::grad(f))({xs});
  for (int64_t i = 0; i < xs.size(0); ++i) {
    const Tensor x = xs.select(0, i).detach().requires_grad_();
    EXPECT_EQ(values(batched.select(0, i)), values(mt::autograd::grad({f({x})}, {x})[0])) << "sample " << i;
  }
}

}  // namespace
