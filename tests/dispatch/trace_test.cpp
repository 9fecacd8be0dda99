// The dispatch trace (MT_SHOW_DISPATCH_TRACE / set_dispatch_trace_enabled): one line per call and
// redispatch, "[what] op [keys, highest priority first]", indented two spaces per nesting level.
#include "dispatch/DispatchTrace.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "dispatch_test_helpers.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"

using mt::DispatchKey;
using mt::DispatchKeySet;
using mt::Library;
using mt::Tensor;
using mt_test::op_handle;

namespace {
using IntOfTensor = int64_t(const Tensor&);

// Points the trace at a string stream for the test and restores the previous state afterwards.
class DispatchTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    was_enabled_ = mt::dispatch_trace_enabled();
    mt::set_dispatch_trace_stream(&out_);
  }
  void TearDown() override {
    mt::set_dispatch_trace_enabled(was_enabled_);
    mt::set_dispatch_trace_stream(nullptr);  // back to stderr
  }
  // Runs f with tracing on and returns what it printed.
  template <typename F>
  std::string traced(F&& f) {
    out_.str("");
    mt::set_dispatch_trace_enabled(true);
    try {
      f();
    } catch (...) {
      mt::set_dispatch_trace_enabled(false);
      throw;
    }
    mt::set_dispatch_trace_enabled(false);
    return out_.str();
  }

  std::ostringstream out_;
  bool was_enabled_ = false;
};

// An op with a CPU kernel and an AutogradCPU kernel that redispatches below autograd.
struct LayeredOp {
  explicit LayeredOp(const char* ns) : def(Library::DEF, ns), impl(Library::IMPL, ns), name(std::string(ns) + "::op") {
    def.def("op(Tensor x) -> int");
    impl.impl("op", mt::dispatch(DispatchKey::CPU, [](const Tensor& x) -> int64_t { return x.numel(); }));
    impl.impl("op", mt::dispatch(DispatchKey::AutogradCPU, [n = name](DispatchKeySet ks, const Tensor& x) -> int64_t {
                return op_handle(n).typed<IntOfTensor>().redispatch(ks & mt::after_autograd_keyset, x);
              }));
  }
  Library def, impl;
  std::string name;
};
}  // namespace

TEST_F(DispatchTrace, CallThroughAnAutogradKernelPrintsTheCallThenTheIndentedRedispatch) {
  LayeredOp layered("t_trace_layer");
  const auto op = op_handle("t_trace_layer::op").typed<IntOfTensor>();
  const Tensor t = mt::ones({3});
  int64_t result = 0;
  EXPECT_EQ(traced([&] { result = op.call(t); }),
            "[call] t_trace_layer::op [AutogradCPU, CPU]\n"
            "  [redispatch] t_trace_layer::op [CPU]\n");
  EXPECT_EQ(result, 3);
  // The same call without tracing prints nothing.
  out_.str("");
  EXPECT_EQ(op.call(t), 3);
  EXPECT_EQ(out_.str(), "");
}

TEST_F(DispatchTrace, BoxedCallsAreNamedAsSuch) {
  LayeredOp layered("t_trace_boxed");
  mt::Stack s{mt::IValue(mt::ones({2}))};
  EXPECT_EQ(traced([&] { op_handle("t_trace_boxed::op").callBoxed(s); }),
            "[callBoxed] t_trace_boxed::op [AutogradCPU, CPU]\n"
            "  [redispatch] t_trace_boxed::op [CPU]\n");
  EXPECT_EQ(s.at(0).toInt(), 2);
  s = {mt::IValue(mt::ones({2}))};
  EXPECT_EQ(traced([&] { op_handle("t_trace_boxed::op").redispatchBoxed(DispatchKeySet(DispatchKey::CPU), s); }),
            "[redispatchBoxed] t_trace_boxed::op [CPU]\n");
}

TEST_F(DispatchTrace, NestedOperatorCallsIndentByDepthAndTheKeySetListsEveryKey) {
  Library def(Library::DEF, "t_trace_nested");
  def.def("outer(Tensor x) -> int");
  def.def("inner(Tensor x) -> int");
  Library impl(Library::IMPL, "t_trace_nested");
  impl.impl("inner", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  impl.impl("inner", mt::dispatch(DispatchKey::Meta, [](const Tensor&) -> int64_t { return 2; }));
  // Made before PreDispatch is included: the factories have no PreDispatch kernel.
  const Tensor cpu = mt::ones({1}), meta = mt::empty({1}, mt::Device("meta"));
  impl.impl("outer", mt::dispatch(DispatchKey::CPU, [&meta](const Tensor& x) -> int64_t {
              const auto inner = op_handle("t_trace_nested::inner").typed<IntOfTensor>();
              return inner.call(x) + inner.call(meta);
            }));
  mt::IncludeDispatchKeyGuard pre_dispatch(DispatchKey::PreDispatch);  // a TLS-included key shows up in the set ...
  Library pre(Library::IMPL, "t_trace_nested", DispatchKey::PreDispatch);
  pre.impl("outer", mt::CppFunction::makeFallthrough());  // ... unless it falls through
  pre.impl("inner", [](DispatchKeySet ks, const Tensor& x) -> int64_t {
    return 10 + op_handle("t_trace_nested::inner").typed<IntOfTensor>().redispatch(ks.remove(DispatchKey::PreDispatch), x);
  });
  int64_t result = 0;
  EXPECT_EQ(traced([&] { result = op_handle("t_trace_nested::outer").typed<IntOfTensor>().call(cpu); }),
            "[call] t_trace_nested::outer [AutogradCPU, CPU]\n"  // autograd's fallback for ops without a formula
            "  [redispatchBoxed] t_trace_nested::outer [CPU]\n"
            "    [call] t_trace_nested::inner [PreDispatch, CPU]\n"
            "      [redispatch] t_trace_nested::inner [CPU]\n"
            "    [call] t_trace_nested::inner [PreDispatch, Meta]\n"
            "      [redispatch] t_trace_nested::inner [Meta]\n");
  EXPECT_EQ(result, 11 + 12);
}

TEST_F(DispatchTrace, DepthIsRestoredWhenAKernelThrows) {
  Library def(Library::DEF, "t_trace_throw");
  def.def("outer(Tensor x) -> int");
  def.def("missing(Tensor x) -> int");
  Library impl(Library::IMPL, "t_trace_throw", DispatchKey::CPU);
  impl.impl("outer", [](const Tensor& x) -> int64_t {
    return op_handle("t_trace_throw::missing").typed<IntOfTensor>().call(x);  // no kernel: throws
  });
  const auto outer = op_handle("t_trace_throw::outer").typed<IntOfTensor>();
  const Tensor t = mt::ones({1});
  EXPECT_THROW(traced([&] { outer.call(t); }), mt::NotImplementedError);
  // The failed lookup printed nothing; the next call starts unindented again.
  const std::string once = "[call] t_trace_throw::outer [AutogradCPU, CPU]\n  [redispatchBoxed] t_trace_throw::outer [CPU]\n";
  EXPECT_EQ(out_.str(), once);
  EXPECT_THROW(traced([&] { outer.call(t); }), mt::NotImplementedError);
  EXPECT_EQ(out_.str(), once);
}

TEST_F(DispatchTrace, EnabledFlagIsReadableAndSwitchable) {
  mt::set_dispatch_trace_enabled(true);
  EXPECT_TRUE(mt::dispatch_trace_enabled());
  mt::set_dispatch_trace_enabled(false);
  EXPECT_FALSE(mt::dispatch_trace_enabled());
}
