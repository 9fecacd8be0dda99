// Dispatch modes: both positions, nesting, the handler's own mode popped while it runs, rewriting an
// op, modes inside transforms, exceptions, and the shipped OpCounter and LoggingMode.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>

#include <microtorch/framework.h>

#include "dispatch/dispatch_test_helpers.h"
#include "dispatch/modes/DispatchMode.h"
#include "dispatch/modes/LoggingMode.h"
#include "dispatch/modes/OpCounter.h"
#include "ops/api/add.h"
#include "ops/api/cos.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/exp.h"
#include "ops/api/gelu.h"
#include "ops/api/ones.h"
#include "ops/api/outer.h"
#include "ops/api/randn.h"
#include "ops/api/relu.h"
#include "ops/api/sin.h"
#include "ops/api/sub.h"
#include "ops/api/sum.h"

namespace {

using mt::DispatchModeGuard;
using mt::DispatchModePosition;
using mt::Tensor;
using Inputs = std::vector<Tensor>;

void expect_near(const Tensor& actual, const Tensor& expected, double tol) {
  ASSERT_EQ(actual.sizes().vec(), expected.sizes().vec());
  EXPECT_LE(mt::sub(actual, expected).abs().max().item<double>(), tol) << actual << "\n" << expected;
}

bool key_included(mt::DispatchKey k) { return mt::tls_local_dispatch_key_set().included_.has(k); }

// One SGD step of a 2-8-3 MLP on a batch of 4.
void train_step() {
  mt::Generator g(0);
  auto model = std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Linear>(2, 8, true, &g),
                                                    std::make_shared<mt::nn::ReLU>(),
                                                    std::make_shared<mt::nn::Linear>(8, 3, true, &g));
  mt::optim::SGD sgd(model->parameters(), {.lr = 0.1});
  const Tensor x = mt::randn({4, 2}, &g), y = mt::tensor<int64_t>({0, 1, 2, 1});
  sgd.zero_grad();
  mt::cross_entropy_loss(model->forward(x), y).backward();
  sgd.step();
}

TEST(DispatchModes, KeysAreIncludedOnlyWhileAModeIsPushed) {
  EXPECT_FALSE(key_included(mt::DispatchKey::DispatchMode));
  {
    DispatchModeGuard guard(std::make_shared<mt::OpCounter>());
    EXPECT_TRUE(key_included(mt::DispatchKey::DispatchMode));
    EXPECT_FALSE(key_included(mt::DispatchKey::PreDispatch));
    DispatchModeGuard pre(std::make_shared<mt::OpCounter>(), DispatchModePosition::PreDispatch);
    EXPECT_TRUE(key_included(mt::DispatchKey::PreDispatch));
    EXPECT_EQ(mt::dispatch_mode_stack_size(), 1u);
    EXPECT_EQ(mt::dispatch_mode_stack_size(DispatchModePosition::PreDispatch), 1u);
  }
  EXPECT_FALSE(key_included(mt::DispatchKey::DispatchMode));
  EXPECT_FALSE(key_included(mt::DispatchKey::PreDispatch));
}

TEST(DispatchModes, DefaultSeesWhatExecutesAndPreDispatchWhatTheUserCalled) {
  auto executed = std::make_shared<mt::OpCounter>();
  auto called = std::make_shared<mt::OpCounter>();
  {
    DispatchModeGuard pre(called, DispatchModePosition::PreDispatch);
    DispatchModeGuard guard(executed);
    train_step();
  }
  // linear and cross_entropy_loss are compositions: the user calls them, the kernels run their parts.
  EXPECT_EQ(called->count("mt::linear"), 2);
  EXPECT_EQ(called->count("mt::relu"), 1);
  EXPECT_EQ(called->count("mt::cross_entropy_loss"), 1);
  EXPECT_EQ(executed->count("mt::linear"), 0);
  EXPECT_EQ(executed->count("mt::cross_entropy_loss"), 0);
  EXPECT_EQ(executed->count("mt::relu"), 1);
  EXPECT_EQ(executed->count("mt::log_softmax.int"), 0);
  EXPECT_EQ(executed->count("mt::_log_softmax"), 1);
  // The forward products, and the backward's: two per layer but none for the first layer's input.
  EXPECT_EQ(executed->count("mt::addmm") + executed->count("mt::mm"), 2 + 3);
  // The SGD update of the four parameters.
  EXPECT_EQ(executed->count("mt::add_.Tensor"), 4);
  EXPECT_GT(executed->total(), called->count("mt::linear") + called->count("mt::relu"));
}

TEST(DispatchModes, TheHandlersOwnModeIsPoppedWhileItRuns) {
  auto counter = std::make_shared<mt::OpCounter>();
  DispatchModeGuard guard(counter);
  mt::add(mt::ones({2}), mt::ones({2}));
  // ones twice and add once: the add the handler runs reaches the kernel, not the counter again.
  EXPECT_EQ(counter->count("mt::add.Tensor"), 1);
  EXPECT_EQ(counter->count("mt::ones"), 2);
  EXPECT_EQ(counter->total(), 3);
}

TEST(DispatchModes, NestedModesSeeTheCallInnerFirst) {
  auto outer = std::make_shared<mt::OpCounter>();
  auto inner = std::make_shared<mt::LoggingMode>();
  const Tensor x = mt::ones({2, 3});
  {
    DispatchModeGuard g1(outer);
    DispatchModeGuard g2(inner);
    mt::sum(x);
  }
  ASSERT_EQ(inner->lines().size(), 1u);
  EXPECT_EQ(inner->lines()[0], "mt::sum(f32[2, 3], None) -> f32[]  DispatchKeySet(CPU, DispatchMode)") << inner->lines()[0];
  EXPECT_EQ(outer->count("mt::sum"), 1);
}

// Replaces relu by gelu: the handler pops the arguments and pushes its own result.
struct ReluToGelu : mt::DispatchMode {
  void dispatch(const mt::OperatorHandle& op, mt::DispatchKeySet, mt::Stack& stack) override {
    if (op.operator_name().str() != "mt::relu") return op.callBoxed(stack);
    const Tensor x = stack.back().toTensor();
    stack.pop_back();
    stack.push_back(mt::gelu(x));
  }
};

TEST(DispatchModes, AModeCanRewriteAnOp) {
  const Tensor x = mt::randn({5});
  for (auto position : {DispatchModePosition::Default, DispatchModePosition::PreDispatch}) {
    DispatchModeGuard guard(std::make_shared<ReluToGelu>(), position);
    expect_near(mt::relu(x), mt::gelu(x), 0);
  }
  // Above autograd, the rewritten op is the one that is differentiated.
  const Tensor leaf = x.clone().requires_grad_();
  Tensor y;
  {
    DispatchModeGuard guard(std::make_shared<ReluToGelu>(), DispatchModePosition::PreDispatch);
    y = mt::relu(leaf);
  }
  mt::sum(y).backward();
  const Tensor reference = x.clone().requires_grad_();
  mt::sum(mt::gelu(reference)).backward();
  expect_near(leaf.grad(), reference.grad(), 1e-6);
}

struct Throwing : mt::DispatchMode {
  void dispatch(const mt::OperatorHandle& op, mt::DispatchKeySet, mt::Stack& stack) override {
    if (op.operator_name().str() == "mt::exp") MT_CHECK_VALUE(false, "no exp in this mode");
    op.callBoxed(stack);
  }
};

TEST(DispatchModes, AnExceptionInAHandlerPropagatesAndLeavesTheStackIntact) {
  auto counter = std::make_shared<mt::OpCounter>();
  DispatchModeGuard outer(counter);
  DispatchModeGuard guard(std::make_shared<Throwing>());
  const Tensor x = mt::ones({2});
  EXPECT_EQ(mt_test::message_of<mt::ValueError>([&] { mt::exp(x); }), "no exp in this mode");
  EXPECT_EQ(mt::dispatch_mode_stack_size(), 2u);
  EXPECT_TRUE(key_included(mt::DispatchKey::DispatchMode));
  mt::sin(x);
  EXPECT_EQ(counter->count("mt::sin"), 1);
}

TEST(DispatchModes, InsideVmapTheDefaultModeSeesPhysicalShapesAndPreDispatchLogicalOnes) {
  auto executed = std::make_shared<mt::LoggingMode>();
  auto called = std::make_shared<mt::LoggingMode>();
  const Tensor x = mt::ones({4, 3});
  {
    DispatchModeGuard pre(called, DispatchModePosition::PreDispatch);
    DispatchModeGuard guard(executed);
    mt::vmap([](const Inputs& a) { return mt::exp(a[0]); })({x});
  }
  ASSERT_EQ(executed->lines().size(), 1u);
  EXPECT_TRUE(mt_test::starts_with(executed->lines()[0], "mt::exp(f32[4, 3]) -> f32[4, 3]")) << executed->lines()[0];
  ASSERT_EQ(called->lines().size(), 1u);
  EXPECT_TRUE(mt_test::starts_with(called->lines()[0], "mt::exp(f32[3]) -> f32[3]")) << called->lines()[0];
}

TEST(DispatchModes, InsideGradTheDefaultModeSeesTheBackwardOps) {
  auto counter = std::make_shared<mt::OpCounter>();
  const Tensor x = mt::randn({3});
  Tensor g;
  {
    DispatchModeGuard guard(counter);
    g = mt::grad([](const Inputs& a) { return mt::sum(mt::sin(a[0])); })({x});
  }
  expect_near(g, mt::cos(x), 1e-6);
  EXPECT_EQ(counter->count("mt::sin"), 1);
  EXPECT_EQ(counter->count("mt::cos"), 1);
}

const char* const kOutOfOrder =
    "DispatchModeGuard: a guard was destroyed while a mode pushed after it was still active. Guards must be destroyed "
    "in the reverse order of their creation, as scoped locals are (not held on the heap or in a std::optional); its "
    "mode was taken off the stack and the modes pushed after it stay active.";

// A guard destroyed before a later one neither terminates nor leaves the stack torn: its own mode goes,
// the later one stays and counts, and the misuse is raised by the next op that reaches a mode.
TEST(DispatchModes, AGuardDestroyedOutOfOrderIsRaisedByTheNextOpThatReachesAMode) {
  const Tensor x = mt::ones({2});
  auto first = std::make_shared<mt::OpCounter>(), second = std::make_shared<mt::OpCounter>();
  auto a = std::make_unique<DispatchModeGuard>(first);
  auto b = std::make_unique<DispatchModeGuard>(second);
  a.reset();
  EXPECT_EQ(mt::dispatch_mode_stack_size(), 1u);
  // sin reaches the mode: refused, and nothing ran.
  EXPECT_EQ(mt_test::message_of<mt::RuntimeError>([&] { mt::sin(x); }), kOutOfOrder);
  EXPECT_EQ(second->count("mt::sin"), 0);
  mt::sin(x);  // raised once: the remaining mode works as before
  EXPECT_EQ(second->count("mt::sin"), 1);
  EXPECT_EQ(first->count("mt::sin"), 0);
  b.reset();
  EXPECT_EQ(mt::dispatch_mode_stack_size(), 0u);
  EXPECT_FALSE(key_included(mt::DispatchKey::DispatchMode));
}

// With no mode left to reach, the next guard made raises it (and is not pushed).
TEST(DispatchModes, AGuardDestroyedOutOfOrderIsRaisedByTheNextGuardMade) {
  auto a = std::make_unique<DispatchModeGuard>(std::make_shared<mt::OpCounter>(), DispatchModePosition::PreDispatch);
  auto b = std::make_unique<DispatchModeGuard>(std::make_shared<mt::OpCounter>(), DispatchModePosition::PreDispatch);
  a.reset();
  EXPECT_EQ(mt::dispatch_mode_stack_size(DispatchModePosition::PreDispatch), 1u);
  b.reset();  // in order again: the last mode goes and its key with it
  EXPECT_EQ(mt::dispatch_mode_stack_size(DispatchModePosition::PreDispatch), 0u);
  EXPECT_FALSE(key_included(mt::DispatchKey::PreDispatch));
  EXPECT_EQ(mt_test::message_of<mt::RuntimeError>([] { DispatchModeGuard g(std::make_shared<mt::OpCounter>()); }),
            kOutOfOrder);
  EXPECT_EQ(mt::dispatch_mode_stack_size(), 0u);
  DispatchModeGuard fine(std::make_shared<mt::OpCounter>());
  EXPECT_EQ(mt::dispatch_mode_stack_size(), 1u);
}

TEST(DispatchModes, AGuardDestroyedOnAnotherThreadIsRaisedThere) {
  std::unique_ptr<DispatchModeGuard> made_elsewhere;
  std::thread([&] { made_elsewhere = std::make_unique<DispatchModeGuard>(std::make_shared<mt::OpCounter>()); }).join();
  EXPECT_EQ(mt::dispatch_mode_stack_size(), 0u);  // its mode was pushed on the other thread's stack
  made_elsewhere.reset();
  const std::string message =
      mt_test::message_of<mt::RuntimeError>([] { DispatchModeGuard g(std::make_shared<mt::OpCounter>()); });
  EXPECT_TRUE(mt_test::contains(message, "a guard was destroyed on another thread than the one that made it"))
      << message;
  EXPECT_EQ(mt::dispatch_mode_stack_size(), 0u);
}

TEST(DispatchModes, AGuardWithoutAModeIsAnError) {
  EXPECT_THROW(DispatchModeGuard(nullptr), mt::ValueError);
  EXPECT_EQ(mt::dispatch_mode_stack_size(), 0u);
}

}  // namespace
