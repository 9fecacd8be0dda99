// autogradNotImplementedInplaceOrViewFallback: a user's in-place or view operator, registered through
// mt::Library with only a CPU kernel and this fallback at ADInplaceOrView, bumps the versions of what it
// writes and records the views it returns (with their CreationMeta), as a generated kernel would; schemas
// whose views are not between the first argument and the first return are refused with PyTorch's messages.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <tuple>

#include "autograd/AutogradMeta.h"
#include "autograd/InplaceOrView.h"
#include "autograd/Node.h"
#include "autograd_test_helpers.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;

struct UserOps {
  mt::Library def{mt::Library::DEF, "t_iov"};
  mt::Library cpu{mt::Library::IMPL, "t_iov", mt::DispatchKey::CPU};
  mt::Library inplace_or_view{mt::Library::IMPL, "t_iov", mt::DispatchKey::ADInplaceOrView};
  UserOps() {
    def.def("scale_(Tensor(a!) self, float factor) -> Tensor(a!)");
    def.def("flat(Tensor(a) self, Tensor other) -> Tensor(a)");
    def.def("rows(Tensor(a) self) -> Tensor(a)[]");
    def.def("second_view(Tensor self, Tensor(b) other) -> (Tensor, Tensor(b))");
    def.def("two_views(Tensor(a) self, Tensor(b) other) -> (Tensor(a), Tensor(b))");
    def.def("two_bases(Tensor(a) self, Tensor(a) other) -> Tensor(a)");
    def.def("accumulate_(Tensor(a!) self, Tensor other) -> Tensor(a!)");  // without the fallback
    cpu.impl("scale_", [](Tensor& self, double factor) -> Tensor& { return self.mul_(factor); });
    cpu.impl("flat", [](const Tensor& self, const Tensor&) { return self.view({-1}); });
    cpu.impl("rows", [](const Tensor& self) { return self.unbind(0); });
    cpu.impl("second_view", [](const Tensor& a, const Tensor& b) { return std::make_tuple(a * 2.0, b.view({-1})); });
    cpu.impl("two_views", [](const Tensor& a, const Tensor& b) { return std::make_tuple(a.view({-1}), b.view({-1})); });
    cpu.impl("two_bases", [](const Tensor& a, const Tensor&) { return a.view({-1}); });
    cpu.impl("accumulate_", [](Tensor& self, const Tensor& other) -> Tensor& { return self.add_(other); });
    for (const char* name : {"scale_", "flat", "rows", "second_view", "two_views", "two_bases"}) {
      inplace_or_view.impl(name, mt::autograd::autogradNotImplementedInplaceOrViewFallback());
    }
  }
  static mt::OperatorHandle op(const char* name) {
    return mt::Dispatcher::singleton().findSchemaOrThrow(std::string("t_iov::") + name, "");
  }
  static void scale_(Tensor& t, double factor) { op("scale_").typed<Tensor&(Tensor&, double)>().call(t, factor); }
  static Tensor flat(const Tensor& t) {
    return op("flat").typed<Tensor(const Tensor&, const Tensor&)>().call(t, mt::zeros({1}));
  }
  static std::vector<Tensor> rows(const Tensor& t) {
    return op("rows").typed<std::vector<Tensor>(const Tensor&)>().call(t);
  }
};

Tensor leaf(std::initializer_list<double> v) { return mt::tensor(v, mt::kFloat64).requires_grad_(); }

TEST(InplaceOrViewFallback, AnInPlaceUserOpBumpsTheVersionOfWhatItWrites) {
  UserOps ops;
  Tensor x = mt::tensor({1., 2.}, mt::kFloat64);
  const uint32_t before = x._version();
  UserOps::scale_(x, 3.0);
  EXPECT_EQ(values(x), (std::vector<double>{3, 6}));
  EXPECT_EQ(x._version(), before + 1) << "bumped once, by the fallback";
  // So a backward that saved the old value refuses it.
  const Tensor w = leaf({1, 2});
  Tensor y = w * 1.0;
  const Tensor z = y * y;
  {
    mt::NoGradGuard no_grad;  // no autograd node: only the version tells
    UserOps::scale_(y, 2.0);
  }
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { z.sum().backward(); }),
                       "one of the variables needed for gradient computation has been modified by an inplace "
                       "operation"));
}

TEST(InplaceOrViewFallback, AnInPlaceUserOpRefusesAnInferenceTensorOutsideInferenceMode) {
  UserOps ops;
  Tensor t;
  {
    mt::InferenceMode guard;
    t = mt::ones({2}, mt::kFloat64);
    UserOps::scale_(t, 2.0);  // inside: allowed
  }
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { UserOps::scale_(t, 2.0); }),
                       "Inplace update to inference tensor outside InferenceMode is not allowed"));
  EXPECT_EQ(values(t), (std::vector<double>{2, 2}));
}

TEST(InplaceOrViewFallback, AViewUserOpRecordsItsBaseAndItsCreationMeta) {
  UserOps ops;
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor y = (x * 1.0).view({2, 2});
  Tensor f = UserOps::flat(y);
  const auto* meta = mt::autograd::get_autograd_meta(f);
  ASSERT_NE(meta, nullptr);
  ASSERT_NE(meta->view, nullptr);
  EXPECT_TRUE(meta->view->base.is_same(mt::autograd::get_autograd_meta(y)->view->base)) << "the root base";
  EXPECT_EQ(meta->view->creation_meta, mt::autograd::CreationMeta::DEFAULT);
  EXPECT_EQ(f.grad_fn()->name(), "NotImplemented") << "the autograd fallback's node";
  // A DEFAULT view written in place rebases its base's history; the version is shared.
  f.mul_(2.0);
  EXPECT_EQ(y._version(), f._version());
  EXPECT_EQ(values(y), (std::vector<double>{2, 4, 6, 8}));
  EXPECT_EQ(mt::autograd::get_autograd_meta(y)->view->base.grad_fn()->name(), "CopySlices");
  // Made under no_grad, it refuses the write with grad mode on.
  Tensor g;
  {
    mt::NoGradGuard no_grad;
    g = UserOps::flat(y);
  }
  EXPECT_TRUE(g.is_leaf());
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { g.add_(1.0); }),
            "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this "
            "use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view "
            "and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or "
            "both outside (if you want the inplace to be tracked).");
  EXPECT_EQ(values(y), (std::vector<double>{2, 4, 6, 8}));
}

TEST(InplaceOrViewFallback, AListOfViewsAreOutputsOfOneNodeAndRefuseInPlace) {
  UserOps ops;
  const Tensor x = leaf({1, 2, 3, 4});
  const Tensor y = (x * 1.0).view({2, 2});
  std::vector<Tensor> parts = UserOps::rows(y);
  ASSERT_EQ(parts.size(), 2u);
  for (const Tensor& p : parts) {
    const auto* meta = mt::autograd::get_autograd_meta(p);
    ASSERT_NE(meta->view, nullptr);
    EXPECT_EQ(meta->view->creation_meta, mt::autograd::CreationMeta::MULTI_OUTPUT_NODE);
  }
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { parts[1].mul_(2.0); }),
            "Output 1 of NotImplemented is a view and is being modified inplace. This view is the output of a function "
            "that returns multiple views. Such functions do not allow the output views to be modified inplace. You "
            "should replace the inplace operation by an out-of-place one.");
  EXPECT_EQ(values(y), (std::vector<double>{1, 2, 3, 4}));
}

TEST(InplaceOrViewFallback, ViewsBetweenOtherArgumentsAndReturnsAreRefused) {
  UserOps ops;
  const Tensor a = leaf({1});
  const Tensor b = mt::tensor({2.}, mt::kFloat64);
  using Pair = std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&);
  for (const Tensor& first : {a, a.detach()}) {  // with and without an input that requires grad
    EXPECT_EQ(message_of<mt::RuntimeError>([&] { UserOps::op("second_view").typed<Pair>().call(first, b); }),
              "Fallback ADInplaceOrView kernel can only create view relationships between the first input and the "
              "first output (the output can be a vector of tensors). Please change the order of your operator's "
              "parameters so that this is the case.");
  }
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { UserOps::op("two_views").typed<Pair>().call(a, b); }),
            "Fallback ADInplaceOrView kernel expects only a single output in the operator schema to have a non-write "
            "alias annotation (i.e., 'Tensor(a)'). Non-composite functions where multiple outputs are aliased with "
            "inputs aren't supported.Please rewrite your function as a composite function.");
  EXPECT_EQ(message_of<mt::RuntimeError>(
                [&] { UserOps::op("two_bases").typed<Tensor(const Tensor&, const Tensor&)>().call(a, b); }),
            "Fallback ADInplaceOrView kernel expects only a single input in the operator schema to have a non-write "
            "alias annotation (i.e., 'Tensor(a)'). Non-composite functions where multiple inputs are aliased with "
            "outputs aren't supported. Please rewrite your function as a composite function.");
}

TEST(InplaceOrViewFallback, TheAutogradFallbackRefusesANoGradViewWrittenWithAnOperandThatRequiresGrad) {
  UserOps ops;  // accumulate_ has no ADInplaceOrView kernel: the autograd fallback's check is the one
  const Tensor base = mt::zeros({3}, mt::kFloat64);
  Tensor v;
  {
    mt::NoGradGuard no_grad;
    v = base.slice(0, 0, 2);
  }
  const Tensor w = leaf({1, 2});
  EXPECT_EQ(message_of<mt::RuntimeError>(
                [&] { UserOps::op("accumulate_").typed<Tensor&(Tensor&, const Tensor&)>().call(v, w); }),
            "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this "
            "use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view "
            "and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or "
            "both outside (if you want the inplace to be tracked).");
  EXPECT_EQ(values(base), (std::vector<double>{0, 0, 0}));
}

}  // namespace
