// Reading the elements of a batched tensor inside vmap: item() is refused with PyTorch's message (its
// memory holds the whole batch, not one sample), and printing shows the wrapper and the batch it holds,
// also through the wrappers of grad and functionalize around it.
#include <gtest/gtest.h>

#include <sstream>

#include "functorch/Grad.h"
#include "functorch/functionalize/Functionalize.h"
#include "vmap_test_helpers.h"
#include "ops/api/mul.h"
#include "ops/api/ones.h"
#include "ops/api/randn.h"
#include "ops/api/sum.h"

namespace {

using mt::Tensor;
using mt_test::message_of;
using Inputs = std::vector<Tensor>;

const char* const kItemMessage =
    "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() on a Tensor, "
    "please try to rewrite what you're doing with other operations. If error is occurring somewhere inside "
    "microtorch internals, please file a bug report.";

std::string printed(const Tensor& t) {
  std::ostringstream ss;
  ss << t;
  return ss.str();
}

TEST(BatchedTensor, ItemInsideVmapIsRefusedInsteadOfReadingTheFirstSample) {
  const Tensor x = mt::tensor({1.0, 2.0, 3.0});
  EXPECT_EQ(message_of<mt::RuntimeError>(
                [&] { mt::vmap([](const Inputs& a) { return mt::mul(a[0], a[0].item<double>()); })({x}); }),
            kItemMessage);
  // A sample computed from the batch, and one of a tensor batched along another dim.
  EXPECT_EQ(message_of<mt::RuntimeError>([&] {
              mt::vmap([](const Inputs& a) {
                mt::sum(a[0]).item();
                return a[0];
              })({mt::randn({4, 3})});
            }),
            kItemMessage);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] {
              mt::vmap(
                  [](const Inputs& a) {
                    a[0].select(0, 0).item();
                    return a[0];
                  },
                  1)({mt::randn({2, 5})});
            }),
            kItemMessage);
}

TEST(BatchedTensor, ItemIsRefusedThroughTheWrappersAroundABatchedTensor) {
  const Tensor x = mt::randn({4, 3});
  const auto reads = [](const Inputs& a) {
    const Tensor s = mt::sum(mt::mul(a[0], a[0]));
    s.item();
    return s;
  };
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::vmap(mt::grad(reads))({x}); }), kItemMessage);
  EXPECT_EQ(message_of<mt::RuntimeError>(
                [&] { mt::grad([&](const Inputs& a) { return mt::sum(mt::vmap(reads)({a[0]})); })({x}); }),
            kItemMessage);
  // Outside vmap, and for a tensor captured from outside it, item() reads the value as ever.
  EXPECT_DOUBLE_EQ(mt::grad([](const Inputs& a) {
                     const Tensor s = mt::sum(a[0]);
                     EXPECT_DOUBLE_EQ(s.item<double>(), 6.0);
                     return s;
                   })({mt::ones({6})})
                       .sum()
                       .item<double>(),
                   6.0);
  const Tensor w = mt::tensor({2.0});
  const Tensor out = mt::vmap([&](const Inputs& a) { return mt::mul(a[0], w.item<double>()); })({x});
  mt_test::expect_same(out, mt::mul(x, 2.0));
}

TEST(BatchedTensor, PrintingShowsTheWrapperAndTheWholeBatch) {
  const Tensor x = mt::tensor({{1.0, 2.0}, {3.0, 4.0}});
  std::string inside, transposed;
  mt::vmap([&](const Inputs& a) {
    inside = printed(a[0]);
    return a[0];
  })({x});
  EXPECT_EQ(inside,
            "BatchedTensor(lvl=1, bdim=0, value=\n"
            "    tensor([[1., 2.],\n"
            "            [3., 4.]])\n"
            ")");
  mt::vmap(
      [&](const Inputs& a) {
        transposed = printed(a[0]);
        return a[0];
      },
      1)({x});
  EXPECT_EQ(transposed,
            "BatchedTensor(lvl=1, bdim=1, value=\n"
            "    tensor([[1., 2.],\n"
            "            [3., 4.]])\n"
            ")");
}

TEST(BatchedTensor, NestedVmapsPrintEveryLevel) {
  const Tensor x = mt::tensor({{1.0, 2.0}, {3.0, 4.0}});
  std::string inner;
  mt::vmap([&](const Inputs& a) {
    return mt::vmap([&](const Inputs& b) {
      inner = printed(b[0]);
      return b[0];
    })(a);
  })({x});
  EXPECT_EQ(inner,
            "BatchedTensor(lvl=2, bdim=0, value=\n"
            "    BatchedTensor(lvl=1, bdim=0, value=\n"
            "        tensor([[1., 2.],\n"
            "                [3., 4.]])\n"
            "    )\n"
            ")");
}

TEST(BatchedTensor, GradAndFunctionalizeWrappersPrintTheBatchedTensorTheyHold) {
  const Tensor x = mt::tensor({1.0, -2.0});
  const std::string expected = "BatchedTensor(lvl=1, bdim=0, value=\n    tensor([ 1., -2.])\n)";
  std::string through_grad, through_functionalize;
  mt::vmap(mt::grad([&](const Inputs& a) {
    through_grad = printed(a[0]);
    return mt::sum(a[0]);
  }))({x});
  EXPECT_EQ(through_grad, expected);
  mt::vmap(mt::functionalize([&](const Inputs& a) {
    through_functionalize = printed(a[0]);
    return a[0];
  }))({x});
  EXPECT_EQ(through_functionalize, expected);
  // A grad wrapper around a plain tensor prints as that tensor.
  std::string plain;
  mt::grad([&](const Inputs& a) {
    plain = printed(a[0]);
    return mt::sum(a[0]);
  })({x});
  EXPECT_EQ(plain, "tensor([ 1., -2.])");
}

}  // namespace
