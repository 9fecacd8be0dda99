// mt::vmap itself: in_dims/out_dims handling, nesting, chunking, the interpreter stack's TLS
// footprint, the loop fallback, and every error a user can cause.
#include <gtest/gtest.h>

#include <string>

#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "functorch/BatchedFallback.h"
#include "functorch/Interpreter.h"
#include "vmap_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/dot.h"
#include "ops/api/exp.h"
#include "ops/api/linear.h"
#include "ops/api/matmul.h"
#include "ops/api/mm.h"
#include "ops/api/mul.h"
#include "ops/api/neg.h"
#include "ops/api/randn.h"
#include "ops/api/sin.h"
#include "ops/api/sum.h"
#include "ops/api/tanh.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::Dims;
using mt_test::expect_same;
using mt_test::expect_vmap_matches_loop;
using mt_test::loop_and_stack;
using Inputs = std::vector<Tensor>;

using mt_test::message_of;

Tensor add_fn(const Inputs& a) { return mt::add(a[0], a[1]); }

TEST(Vmap, SingleInputAtDimZeroMatchesTheLoop) {
  expect_vmap_matches_loop([](const Inputs& a) { return mt::sin(a[0]); }, {mt::randn({4, 3})}, Dims{0});
}

TEST(Vmap, DefaultInDimsBatchEveryInputAlongDimZero) {
  const Tensor x = mt::randn({5, 3}), y = mt::randn({5, 3});
  expect_same(mt::vmap(add_fn)({x, y}), mt::add(x, y));
}

TEST(Vmap, InDimsAtDifferentPositionsNegativeAndUnbatched) {
  const Tensor x = mt::randn({3, 5}), y = mt::randn({2, 3, 5}), w = mt::randn({3});
  expect_vmap_matches_loop(add_fn, {x, y}, Dims{1, -1});
  expect_vmap_matches_loop(add_fn, {x, w}, Dims{1, std::nullopt});
  expect_vmap_matches_loop(add_fn, {w, x}, Dims{std::nullopt, -1});
}

TEST(Vmap, OutDimsPlacesTheBatchDim) {
  const Tensor x = mt::randn({4, 2, 3});
  const auto f = [](const Inputs& a) { return mt::mul(a[0], 2.0); };
  expect_vmap_matches_loop(f, {x}, Dims{0}, 1);
  expect_vmap_matches_loop(f, {x}, Dims{1}, 2);
  expect_vmap_matches_loop(f, {x}, Dims{0}, -1);
}

TEST(Vmap, OutputThatIgnoresTheBatchIsExpanded) {
  const Tensor x = mt::randn({4, 3}), w = mt::randn({3});
  const Tensor out = mt::vmap([&](const Inputs&) { return w; })({x});
  expect_same(out, w.unsqueeze(0).expand({4, 3}));
}

TEST(Vmap, FunctionsReturningSeveralTensors) {
  const Tensor x = mt::randn({4, 3});
  const auto outs = mt::vmap([](const Inputs& a) { return std::vector<Tensor>{mt::exp(a[0]), mt::sum(a[0])}; })({x});
  ASSERT_EQ(outs.size(), 2u);
  expect_same(outs[0], mt::exp(x));
  expect_same(outs[1], mt::sum(x, std::vector<int64_t>{1}));
}

TEST(Vmap, OutDimsPerOutput) {
  const Tensor x = mt::randn({4, 2, 3}), w = mt::randn({3});
  const auto f = [&](const Inputs& a) {
    return std::vector<Tensor>{mt::exp(a[0]), mt::sum(a[0], std::vector<int64_t>{1}), mt::mul(w, 2.0)};
  };
  const auto outs = mt::vmap(f, 0, {1, -1, 0})({x});
  ASSERT_EQ(outs.size(), 3u);
  expect_same(outs[0], mt::exp(x).movedim(0, 1));
  expect_same(outs[1], mt::sum(x, std::vector<int64_t>{2}).t());
  expect_same(outs[2], mt::mul(w, 2.0).unsqueeze(0).expand({4, 3}));
  // out_dim None returns an unbatched output as it is, without a batch dim.
  const auto unbatched = mt::vmap(f, 0, {0, 0, std::nullopt})({x});
  expect_same(unbatched[0], mt::exp(x));
  expect_same(unbatched[2], mt::mul(w, 2.0));
  // The same in chunks: batched outputs are concatenated, the unbatched one is the first chunk's.
  mt::VmapOptions options;
  options.out_dims = {2, std::nullopt, std::nullopt};
  options.chunk_size = 3;
  const auto g = [&](const Inputs& a) { return std::vector<Tensor>{mt::sin(a[0]), w, mt::sum(w)}; };
  const auto chunked = mt::vmap(g, 0, options)({x});
  expect_same(chunked[0], mt::sin(x).movedim(0, 2));
  EXPECT_TRUE(chunked[1].is_same(w));
  expect_same(chunked[2], mt::sum(w));
}

TEST(VmapErrors, OutDimsThatDoNotFitTheOutputs) {
  const Tensor x = mt::randn({4, 3});
  const auto two = [](const Inputs& a) { return std::vector<Tensor>{a[0], mt::neg(a[0])}; };
  EXPECT_EQ(message_of<mt::ValueError>([&] {
              mt::vmap(two, 0, {0, 1, 0})({x});
            }),
            "vmap(f, ..., out_dims=(0, 1, 0))(<inputs>): out_dims is not compatible with the structure of `outputs`. "
            "out_dims has 3 entries but outputs has 2 tensors.");
  EXPECT_EQ(message_of<mt::ValueError>([&] {
              mt::vmap(two, 0, {0, std::nullopt})({x});
            }),
            "vmap(f, ...): `f` can not return a BatchedTensor when out_dim is None");
  const std::string m = message_of<mt::IndexError>([&] { mt::vmap(two, 0, {0, -3})({x}); });
  EXPECT_NE(m.find("out_dims=-3 is out of range"), std::string::npos) << m;
  EXPECT_EQ(mt::functorch::interpreter_stack_depth(), 0);
}

TEST(Vmap, NestedVmapOverTwoDims) {
  const Tensor x = mt::randn({2, 3, 4}), w = mt::randn({3});
  const auto inner = [](const Inputs& a) { return mt::mul(mt::sin(a[0]), a[1]); };
  // Outer over x's dim 0; inner over the sample's dim 1 (x's dim 2); w shared by both.
  const auto outer = [&](const Inputs& a) { return mt::vmap(inner, {1, std::nullopt})(a); };
  const Tensor actual = mt::vmap(outer, {0, std::nullopt})({x, w});
  const Tensor expected = loop_and_stack(
      [&](const Inputs& a) { return loop_and_stack(inner, a, Dims{1, std::nullopt}); }, {x, w}, Dims{0, std::nullopt});
  expect_same(actual, expected);
  expect_same(actual, mt::mul(mt::sin(x), w.unsqueeze(1)).transpose(1, 2));
}

TEST(Vmap, NestedVmapMixesLevelsWithCapturedOuterTensors) {
  const Tensor x = mt::randn({2, 3}), y = mt::randn({5, 3});
  // out[i][j] = dot(x[i], y[j]), with x captured from the outer level inside the inner vmap.
  const Tensor out = mt::vmap([&](const Inputs& xi) {
    return mt::vmap([&](const Inputs& yj) { return mt::dot(xi[0], yj[0]); })({y});
  })({x});
  expect_same(out, mt::mm(x, y.t()));
}

TEST(Vmap, ChunkSizeGivesTheSameResult) {
  const Tensor x = mt::randn({7, 3}), y = mt::randn({3});
  mt::VmapOptions options;
  options.chunk_size = 3;
  options.out_dims = 1;
  const Tensor out = mt::vmap(add_fn, {0, std::nullopt}, options)({x, y});
  expect_same(out, mt::add(x, y).t());
}

// An empty batch maps to empty outputs, as a loop over no samples would stack (PyTorch too).
TEST(Vmap, AnEmptyBatchGivesEmptyOutputs) {
  const Tensor x = mt::randn({0, 3}), w = mt::randn({3, 2});
  const Tensor sums = mt::vmap([](const Inputs& a) { return a[0].sum(); })({x});
  EXPECT_EQ(sums.sizes(), mt::IntArrayRef({0}));
  const Tensor products = mt::vmap([](const Inputs& a) { return mt::matmul(a[0], a[1]); }, {0, std::nullopt})({x, w});
  EXPECT_EQ(products.sizes(), mt::IntArrayRef({0, 2}));
  mt::VmapOptions options;
  options.out_dims = 1;
  const Tensor constant = mt::vmap([](const Inputs& a) { return mt::mul(a[1], 2.0); }, {0, std::nullopt}, options)({x, w});
  EXPECT_EQ(constant.sizes(), mt::IntArrayRef({3, 0, 2}));
  options.chunk_size = 0;
  EXPECT_EQ(message_of<mt::ValueError>([&] { mt::vmap([](const Inputs& a) { return a[0]; }, {0}, options)({x}); }),
            "vmap: chunk_size should be a positive integer or None, got 0.");
}

TEST(Vmap, FrontAndBackKeysAreIncludedOnlyWhileATransformIsActive) {
  using mt::DispatchKey;
  EXPECT_FALSE(mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchDynamicLayerFrontMode));
  EXPECT_FALSE(mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchDynamicLayerBackMode));
  bool front = false, back = false;
  int64_t depth = 0;
  mt::vmap([&](const Inputs& a) {
    front = mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchDynamicLayerFrontMode);
    back = mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchDynamicLayerBackMode);
    depth = mt::functorch::interpreter_stack_depth();
    return a[0];
  })({mt::randn({2})});
  EXPECT_TRUE(front);
  EXPECT_TRUE(back);
  EXPECT_EQ(depth, 1);
  EXPECT_FALSE(mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchDynamicLayerFrontMode));
  EXPECT_EQ(mt::functorch::interpreter_stack_depth(), 0);
}

TEST(Vmap, TheStackIsRestoredWhenTheFunctionThrows) {
  EXPECT_THROW(mt::vmap([](const Inputs& a) -> Tensor { throw mt::ValueError("boom " + a[0].toString()); })(
                   {mt::randn({2})}),
               mt::ValueError);
  EXPECT_EQ(mt::functorch::interpreter_stack_depth(), 0);
  EXPECT_FALSE(mt::tls_is_dispatch_key_included(mt::DispatchKey::FuncTorchDynamicLayerFrontMode));
}

TEST(Vmap, InsideVmapTensorsShowTheirPerSampleShape) {
  std::vector<int64_t> seen;
  mt::vmap([&](const Inputs& a) {
    seen = a[0].sizes().vec();
    return a[0];
  }, {1})({mt::randn({2, 5, 3})});
  EXPECT_EQ(seen, (std::vector<int64_t>{2, 3}));
}

// --- the loop fallback ---------------------------------------------------------------------------------

struct CapturedWarnings {
  CapturedWarnings() {
    previous = mt::functorch::set_vmap_fallback_warning_handler([this](const std::string& m) { messages.push_back(m); });
  }
  ~CapturedWarnings() { mt::functorch::set_vmap_fallback_warning_handler(previous); }
  std::vector<std::string> messages;
  mt::functorch::VmapWarningHandler previous;
};

// Two operators no layer has a rule for, defined here so that the fallback is tested whatever rules
// the library grows: out = self * 2 + other, and self *= factor (in place).
Tensor twice_plus_cpu(const Tensor& self, const Tensor& other) {
  mt::ExcludeDispatchKeyGuard below_autograd(mt::autograd_dispatch_keyset_with_ADInplaceOrView);
  return mt::add(mt::mul(self, 2), other);
}
Tensor& scale_cpu(Tensor& self, const Tensor& factor) {
  mt::ExcludeDispatchKeyGuard below_autograd(mt::autograd_dispatch_keyset_with_ADInplaceOrView);
  self.mul_(factor);
  return self;
}

class VmapFallback : public ::testing::Test {
 protected:
  VmapFallback() {
    def_.def("twice_plus(Tensor self, Tensor other) -> Tensor");
    def_.def("scale_(Tensor(a!) self, Tensor factor) -> Tensor(a!)");
    impl_.impl("twice_plus", &twice_plus_cpu);
    impl_.impl("scale_", &scale_cpu);
  }
  static Tensor twice_plus(const Tensor& a, const Tensor& b) {
    return mt::Dispatcher::singleton()
        .findSchemaOrThrow("t_vmap_fallback::twice_plus", "")
        .typed<Tensor(const Tensor&, const Tensor&)>()
        .call(a, b);
  }
  static Tensor scale_(Tensor a, const Tensor& b) {
    return mt::Dispatcher::singleton()
        .findSchemaOrThrow("t_vmap_fallback::scale_", "")
        .typed<Tensor&(Tensor&, const Tensor&)>()
        .call(a, b);
  }
  mt::Library def_{mt::Library::DEF, "t_vmap_fallback"};
  mt::Library impl_{mt::Library::IMPL, "t_vmap_fallback", mt::DispatchKey::CPU};
  CapturedWarnings warnings_;
};

TEST_F(VmapFallback, AnOpWithoutARuleLoopsGivesTheRightResultAndWarnsOnce) {
  const auto f = [](const Inputs& a) { return twice_plus(a[0], a[1]); };
  expect_vmap_matches_loop(f, {mt::randn({3, 4}), mt::randn({4})}, Dims{0, std::nullopt});
  expect_vmap_matches_loop(f, {mt::randn({4, 3}), mt::randn({4, 3})}, Dims{1, -1});
  ASSERT_EQ(warnings_.messages.size(), 1u);
  EXPECT_EQ(warnings_.messages[0],
            "There is a performance drop because we have not yet implemented the batching rule for "
            "t_vmap_fallback::twice_plus. Please file us an issue on GitHub so that we can prioritize its "
            "implementation.");
}

TEST_F(VmapFallback, InPlaceOpWithoutARuleWritesIntoTheBatchedSelf) {
  const Tensor x = mt::randn({4, 3}), factor = mt::randn({3});
  Tensor y = x.clone();
  mt::vmap([](const Inputs& a) { return scale_(a[0], a[1]); }, {1, 0})({y, factor});
  expect_same(y, mt::mul(x, factor));
}

TEST_F(VmapFallback, InPlaceIntoAnUnbatchedSelfFromABatchedArgumentIsAnError) {
  const Tensor self = mt::zeros({3}), other = mt::randn({4, 3});
  const std::string m = message_of<mt::RuntimeError>([&] {
    mt::vmap([](const Inputs& a) { return a[0].add_(a[1]); }, {std::nullopt, 0})({self, other});
  });
  EXPECT_NE(m.find("vmap: add_(self, *extra_args) is not possible because there exists a Tensor `other` in "
                   "extra_args that has more elements than `self`."),
            std::string::npos)
      << m;
  expect_same(self, mt::zeros({3}));
}

TEST_F(VmapFallback, CompositeOpsDecomposeInsteadOfLooping) {
  const Tensor x = mt::randn({4, 3}), w = mt::randn({2, 3}), b = mt::randn({2});
  expect_vmap_matches_loop([](const Inputs& a) { return mt::linear(a[0], a[1], a[2]); }, {x, w, b},
                           Dims{0, std::nullopt, std::nullopt});
  expect_vmap_matches_loop([](const Inputs& a) { return mt::matmul(a[0], a[1]); }, {x, w.t()}, Dims{0, std::nullopt});
  EXPECT_TRUE(warnings_.messages.empty()) << warnings_.messages.front();
}

// --- errors ----------------------------------------------------------------------------------------------

TEST(VmapErrors, InDimsOfTheWrongLength) {
  const std::string m = message_of<mt::ValueError>([&] { mt::vmap(add_fn, {0})({mt::randn({2}), mt::randn({2})}); });
  EXPECT_NE(m.find("in_dims is not compatible with the structure of `inputs`"), std::string::npos) << m;
}

TEST(VmapErrors, InDimOutOfRangeForAnInput) {
  const std::string m = message_of<mt::ValueError>([&] { mt::vmap(add_fn, {0, 2})({mt::randn({2}), mt::randn({2, 3})}); });
  EXPECT_NE(m.find("Got in_dim=2 for input 1, but that input is a Tensor of dimensionality 2 so expected in_dim to "
                   "satisfy -2 <= in_dim < 2."),
            std::string::npos)
      << m;
}

TEST(VmapErrors, DifferentBatchSizes) {
  const std::string m = message_of<mt::ValueError>([&] { mt::vmap(add_fn)({mt::randn({3}), mt::randn({4})}); });
  EXPECT_EQ(m, "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [3, 4] for the "
               "mapped dimension");
}

TEST(VmapErrors, NoBatchedInputs) {
  const std::string m = message_of<mt::ValueError>(
      [&] { mt::vmap(add_fn, {std::nullopt, std::nullopt})({mt::randn({3}), mt::randn({3})}); });
  EXPECT_NE(m.find("at least one input must be batched"), std::string::npos) << m;
}

TEST(VmapErrors, FunctionReturningAnUndefinedTensor) {
  const std::string m = message_of<mt::TypeError>([&] { mt::vmap([](const Inputs&) { return Tensor(); })({mt::randn({3})}); });
  EXPECT_NE(m.find("must only return Tensors"), std::string::npos) << m;
}

TEST(VmapErrors, OutDimsOutOfRange) {
  const std::string m = message_of<mt::IndexError>(
      [&] { mt::vmap([](const Inputs& a) { return a[0]; }, 0, 3)({mt::randn({3, 2})}); });
  EXPECT_NE(m.find("out_dims=3 is out of range"), std::string::npos) << m;
}

TEST(VmapErrors, BatchedTensorUsedAfterItsVmapReturned) {
  Tensor escaped;
  mt::vmap([&](const Inputs& a) {
    escaped = a[0];
    return a[0];
  })({mt::randn({3, 2})});
  const std::string m = message_of<mt::RuntimeError>([&] { mt::sin(escaped); });
  EXPECT_NE(m.find("outside of the vmap that made it"), std::string::npos) << m;
}

}  // namespace

namespace {

TEST(VmapAutograd, GradientsFlowThroughVmapToTheInputs) {
  const Tensor x = mt::randn({4, 3}).requires_grad_(), w = mt::randn({3, 2}).requires_grad_();
  const Tensor y = mt::vmap([](const Inputs& a) { return mt::sum(mt::tanh(mt::matmul(a[0], a[1]))); },
                            {0, std::nullopt})({x, w});
  mt::sum(y).backward();
  const Tensor xr = x.detach().requires_grad_(), wr = w.detach().requires_grad_();
  mt::sum(mt::tanh(mt::mm(xr, wr))).backward();
  expect_same(x.grad(), xr.grad());
  expect_same(w.grad(), wr.grad());
}

}  // namespace

namespace {

TEST(VmapErrors, TensorEscapedFromAnInnerVmapUsedInTheOuterOne) {
  Tensor escaped;
  const std::string m = message_of<mt::RuntimeError>([&] {
    mt::vmap([&](const Inputs& a) {
      mt::vmap([&](const Inputs& b) {
        escaped = b[0];
        return b[0];
      })({a[0]});
      return mt::sin(escaped);
    })({mt::randn({2, 3})});
  });
  EXPECT_NE(m.find("got a batched tensor of a vmap that already returned"), std::string::npos) << m;
}

}  // namespace
