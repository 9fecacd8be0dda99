// mt::functionalize: each program runs eagerly and functionalized (remove=mutations and
// remove=mutations_and_views) on copies of the same inputs; outputs and mutated inputs must agree, and
// a recording mode below the transform must see no in-place op (but the final copy_ of each mutated
// input) and, for mutations_and_views, no view.
#include <gtest/gtest.h>

#include <microtorch/framework.h>

#include "dispatch/dispatch_test_helpers.h"
#include "dispatch/modes/DispatchMode.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/arange.h"
#include "ops/api/full.h"
#include "ops/api/ne.h"
#include "ops/api/ones.h"
#include "ops/api/ones_like.h"
#include "ops/api/outer.h"
#include "ops/api/randn.h"
#include "ops/api/std.h"
#include "ops/api/zeros.h"

namespace {

using mt::FunctionalizeRemove;
using mt::Tensor;
using mt_test::expect_same;
using Inputs = std::vector<Tensor>;
using Program = std::function<std::vector<Tensor>(const Inputs&)>;

// Records each op that executes, and whether it writes or views an argument.
class Recorder : public mt::DispatchMode {
 public:
  struct Call {
    std::string name;
    bool mutates;
    bool views;
  };
  void dispatch(const mt::OperatorHandle& op, mt::DispatchKeySet, mt::Stack& stack) override {
    const mt::FunctionSchema& s = op.schema();
    const bool views = !s.returns.empty() && s.returns[0].alias && !s.returns[0].alias->is_write;
    calls.push_back({op.operator_name().str(), s.is_mutable(), views});
    op.callBoxed(stack);
  }
  std::vector<Call> calls;
};

std::vector<Tensor> clones(const Inputs& inputs) {
  std::vector<Tensor> out;
  for (const Tensor& t : inputs) out.push_back(t.clone());
  return out;
}

bool changed(const Tensor& after, const Tensor& before) { return mt::ne(after, before).any().item<bool>(); }

std::string names(const std::vector<Recorder::Call>& calls) {
  std::string s;
  for (const auto& c : calls) s += c.name + " ";
  return s;
}

// Runs `f` eagerly and functionalized; compares outputs and inputs; checks the recorded program.
void check_program(const Program& f, const Inputs& inputs, FunctionalizeRemove remove) {
  const Inputs eager_in = clones(inputs);
  const std::vector<Tensor> expected = f(eager_in);
  const Inputs func_in = clones(inputs);
  auto recorder = std::make_shared<Recorder>();
  std::vector<Tensor> actual;
  {
    mt::DispatchModeGuard guard(recorder);
    actual = mt::functionalize(f, remove)(func_in);
  }
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) expect_same(actual[i], expected[i]);
  int64_t mutated_inputs = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    expect_same(func_in[i], eager_in[i]);
    if (changed(eager_in[i], inputs[i])) ++mutated_inputs;
  }
  // Only the write-backs mutate: one copy_ per mutated input, at the end.
  const auto& calls = recorder->calls;
  const size_t body = calls.size() - mutated_inputs;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (i < body) {
      EXPECT_FALSE(calls[i].mutates) << calls[i].name << " in " << names(calls);
    } else {
      EXPECT_EQ(calls[i].name, "mt::copy_") << names(calls);
    }
    if (remove == FunctionalizeRemove::MutationsAndViews && i < body) {
      EXPECT_FALSE(calls[i].views) << calls[i].name << " in " << names(calls);
    }
  }
}

void check_both(const Program& f, const Inputs& inputs) {
  check_program(f, inputs, FunctionalizeRemove::Mutations);
  check_program(f, inputs, FunctionalizeRemove::MutationsAndViews);
}

const Tensor x23 = mt::arange(6, mt::kFloat32).view({2, 3});

TEST(Functionalize, MutationThroughAViewOfAViewReachesTheBaseAndEveryView) {
  check_both(
      [](const Inputs& in) -> std::vector<Tensor> {
        const Tensor y = in[0].clone();
        const Tensor flat = y.view({6});
        const Tensor middle = flat.slice(0, 1, 5);
        const Tensor inner = middle.slice(0, 1, 3);
        inner.add_(10);
        return {y, flat, middle, inner};
      },
      {x23});
}

TEST(Functionalize, MutationThroughSelectSliceAndTranspose) {
  check_both(
      [](const Inputs& in) -> std::vector<Tensor> {
        const Tensor y = in[0].clone();
        const Tensor row = y.select(0, 1);
        const Tensor col = y.select(1, 0);  // a sibling view, sharing y[1][0] with row
        row.mul_(2);
        const Tensor t = y.transpose(0, 1);
        t.select(0, 2).sub_(100);  // y[:, 2]
        y.slice(1, 0, 2).add_(in[1]);
        return {y, row, col, t};
      },
      {x23, mt::tensor<float>({0.5f, -0.5f})});
}

// unbind and split return several views (CompositeExplicitAutograd, for autograd): they decompose.
TEST(Functionalize, MutationThroughTheOutputsOfUnbindAndSplit) {
  check_both(
      [](const Inputs& in) -> std::vector<Tensor> {
        const Tensor y = in[0].clone();
        const std::vector<Tensor> rows = y.unbind(0);
        const std::vector<Tensor> cols = y.split(2, 1);
        rows[1].mul_(2);
        cols[1].sub_(100);  // y[:, 2]
        y.split_with_sizes({1, 1}, 0)[0].add_(in[1]);
        return {y, rows[0], rows[1], cols[0], cols[1]};
      },
      {x23, mt::tensor<float>({0.5f, -0.5f, 2.f})});
}

TEST(Functionalize, AViewTakenBeforeTheBaseIsMutatedSeesTheMutation) {
  check_both(
      [](const Inputs& in) -> std::vector<Tensor> {
        const Tensor y = in[0].clone();
        const Tensor d = y.unsqueeze(0).squeeze(0).diagonal();
        const Tensor p = y.permute({1, 0}).unsqueeze(2);
        y.exp_();
        return {d, p, d.sum()};
      },
      {mt::randn({3, 3})});
}

// A functional tensor shows the strides it has in eager mode, even for inputs that are not dense: reshape
// copies an expanded or permuted input, and view refuses it with eager mode's error.
TEST(Functionalize, ReshapeOfAnExpandedOrPermutedInputCopiesAsInEagerMode) {
  const Program f = [](const Inputs& in) -> std::vector<Tensor> {
    return {in[0].expand({4, 3}).reshape({-1}), in[1].reshape({-1}), in[2].reshape({-1}), in[2].contiguous(),
            in[2].t().reshape({3, 2})};
  };
  const Inputs inputs = {mt::arange(3, mt::kFloat32), x23.t(), mt::arange(3, mt::kFloat32).view({1, 3}).expand({2, 3})};
  const std::vector<Tensor> expected = f(inputs);
  for (FunctionalizeRemove remove : {FunctionalizeRemove::Mutations, FunctionalizeRemove::MutationsAndViews}) {
    const std::vector<Tensor> actual = mt::functionalize(f, remove)(inputs);
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i) expect_same(actual[i], expected[i]);
    const Program g = [](const Inputs& in) -> std::vector<Tensor> { return {in[0].view({-1})}; };
    try {
      mt::functionalize(g, remove)({inputs[2]});
      ADD_FAILURE() << "view of an expanded input did not raise";
    } catch (const mt::Error& e) {
      EXPECT_NE(std::string(e.what()).find("view size is not compatible with input tensor's size and stride"),
                std::string::npos)
          << e.what();
    }
  }
}

// A write through one row of an expanded view reaches every row, which share its memory.
TEST(Functionalize, MutationThroughARowOfAnExpandedViewReachesEveryRow) {
  check_both(
      [](const Inputs& in) -> std::vector<Tensor> {
        const Tensor y = in[0].expand({4, 3});
        y.select(0, 1).add_(10);
        return {y.clone(), y.reshape({-1})};
      },
      {mt::arange(3, mt::kFloat32)});
}

TEST(Functionalize, InputsMutatedDirectlyAndThroughViewsAreWrittenBack) {
  check_both(
      [](const Inputs& in) -> std::vector<Tensor> {
        in[0].add_(1);
        in[0].view({-1}).slice(0, 2, 6, 2).mul_(3);
        in[1].select(0, 0).copy_(in[0].select(0, 1));  // copy_ with a broadcast-free source
        return {in[0].sum(), in[2] * 2};               // in[2] is read only: no write-back
      },
      {x23, mt::zeros({2, 3}), mt::ones({4})});
}

TEST(Functionalize, OutArgumentsCopyBroadcastsAndDtypeCasts) {
  check_both(
      [](const Inputs& in) -> std::vector<Tensor> {
        const Tensor y = mt::zeros({2, 3});  // a factory inside the function is functional too
        Tensor row = y.select(0, 0);
        mt::add_out(row, in[0], in[1]);
        y.select(0, 1).copy_(mt::tensor<double>({7.0}));  // broadcast and cast to float
        const Tensor n = mt::zeros({3}, mt::kInt64);
        n.add_(in[2]);  // int64 += int64
        return {y, n};
      },
      {mt::tensor<float>({1, 2, 3}), mt::tensor<float>({10, 20, 30}), mt::tensor<int64_t>({4, 5, 6})});
}

TEST(Functionalize, ItemReadsTheMutatedValue) {
  const auto f = [](const Inputs& in) -> Tensor {
    const Tensor y = in[0].clone();
    y.view({1}).add_(41);
    return mt::full({}, y.item<float>());
  };
  expect_same(mt::functionalize(f)({mt::full({}, 1.0)}), mt::full({}, 42.0));
}

TEST(Functionalize, ViewsStayViewsOfTheOutputUnderRemoveMutations) {
  const auto f = [](const Inputs& in) -> std::vector<Tensor> {
    const Tensor y = in[0].clone();
    const Tensor v = y.select(0, 0);
    v.add_(1);
    return {y, v};
  };
  const std::vector<Tensor> out = mt::functionalize(f)({x23});
  EXPECT_EQ(out[1].unsafeGetTensorImpl()->storage().get(), out[0].unsafeGetTensorImpl()->storage().get());
  const std::vector<Tensor> copies = mt::functionalize(f, FunctionalizeRemove::MutationsAndViews)({x23});
  EXPECT_NE(copies[1].unsafeGetTensorImpl()->storage().get(), copies[0].unsafeGetTensorImpl()->storage().get());
  expect_same(copies[1], out[1]);
}

TEST(Functionalize, PrintingAViewShowsItsCurrentValues) {
  const auto printed = [](const Inputs& in) {
    const Tensor y = in[0].clone();
    const Tensor col = y.select(1, 2);
    y.select(0, 1).add_(100);
    std::ostringstream os;
    os << col;
    return os.str();
  };
  const std::string eager = printed({x23});
  for (FunctionalizeRemove remove : {FunctionalizeRemove::Mutations, FunctionalizeRemove::MutationsAndViews}) {
    std::string inside;
    mt::functionalize(
        [&](const Inputs& in) {
          inside = printed(in);
          return in[0];
        },
        remove)({x23});
    EXPECT_EQ(inside, eager);
  }
}

TEST(Functionalize, NestedFunctionalizeRemovesTheMutationsOfBothLevels) {
  const auto inner = [](const Inputs& in) -> Tensor {
    in[0].select(0, 0).mul_(2);
    return in[0] + 1;
  };
  const auto outer = [&](const Inputs& in) -> Tensor {
    const Tensor y = in[0].clone();
    const Tensor z = mt::functionalize(inner)({y.transpose(0, 1)});  // writes back into y's view
    y.add_(z.t());
    return y;
  };
  const Tensor expected = outer({x23});
  auto recorder = std::make_shared<Recorder>();
  Tensor actual;
  {
    mt::DispatchModeGuard guard(recorder);
    actual = mt::functionalize(mt::functionalize(outer))({x23});
  }
  expect_same(actual, expected);
  for (const auto& c : recorder->calls) EXPECT_FALSE(c.mutates) << c.name << " in " << names(recorder->calls);
}

// --- errors ----------------------------------------------------------------------------------------

std::string eager_error(const Program& f, const Inputs& inputs) {
  try {
    f(clones(inputs));
  } catch (const mt::Error& e) {
    return e.what();
  }
  return "no error";
}

std::string functionalized_error(const Program& f, const Inputs& inputs, FunctionalizeRemove remove) {
  try {
    mt::functionalize(f, remove)(clones(inputs));
  } catch (const mt::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(FunctionalizeErrors, InvalidInPlaceOpsFailAsInEagerModeAndLeaveTheInputAlone) {
  const std::vector<std::pair<Program, Inputs>> cases = {
      {[](const Inputs& in) -> std::vector<Tensor> {
         return {in[0].add_(mt::ones({4, 2, 3}))};
       },
       {x23}},
      {[](const Inputs& in) -> std::vector<Tensor> { return {in[0].select(0, 0).mul_(in[1])}; },
       {mt::zeros({2, 3}, mt::kInt64), mt::ones({3})}},
  };
  for (const auto& [f, inputs] : cases) {
    const std::string eager = eager_error(f, inputs);
    ASSERT_NE(eager, "no error");
    for (FunctionalizeRemove remove : {FunctionalizeRemove::Mutations, FunctionalizeRemove::MutationsAndViews}) {
      const Inputs in = clones(inputs);
      EXPECT_EQ(functionalized_error(f, in, remove), eager);
    }
  }
  const Tensor x = x23.clone();
  EXPECT_THROW(mt::functionalize([](const Inputs& in) { return in[0].add_(mt::ones({4, 2, 3})); })({x}), mt::Error);
  expect_same(x, x23);
}

TEST(FunctionalizeErrors, MutatingACapturedTensorWithAFunctionalOne) {
  const Tensor captured = mt::zeros({2, 3});
  const std::string message =
      functionalized_error([&](const Inputs& in) -> std::vector<Tensor> { return {captured.add_(in[0])}; }, {x23},
                           FunctionalizeRemove::Mutations);
  EXPECT_TRUE(
      mt_test::starts_with(message, "mutating a non-functional tensor with a functional tensor is not allowed."))
      << message;
  expect_same(captured, mt::zeros({2, 3}));
}

// A user's operators: a functional one runs on the values like any other op; an in-place one
// without a functional variant (an op of the same name, without `_`, taking the same arguments) is
// refused with its name.
MT_LIBRARY(t_functionalize, m) {
  m.def("twice(Tensor x) -> Tensor");
  m.def("halve_(Tensor(a!) x) -> Tensor(a!)");
}
MT_LIBRARY_IMPL(t_functionalize, CPU, m) {
  m.impl("twice", [](const Tensor& x) { return x * 2; });
  m.impl("halve_", [](Tensor& x) -> Tensor& { return x.div_(2); });
}

TEST(FunctionalizeErrors, AUsersInPlaceOpWithoutAFunctionalVariant) {
  auto& dispatcher = mt::Dispatcher::singleton();
  const auto twice = dispatcher.findSchemaOrThrow("t_functionalize::twice", "").typed<Tensor(const Tensor&)>();
  const auto halve_ = dispatcher.findSchemaOrThrow("t_functionalize::halve_", "").typed<Tensor&(Tensor&)>();
  expect_same(mt::functionalize([&](const Inputs& in) { return twice.call(in[0]); })({x23}), x23 * 2);
  try {
    mt::functionalize([&](const Inputs& in) {
      Tensor y = in[0].clone();
      return halve_.call(y);
    })({x23});
    FAIL() << "no error";
  } catch (const mt::NotImplementedError& e) {
    EXPECT_TRUE(mt_test::starts_with(e.what(),
                                     "functionalize: t_functionalize::halve_ mutates its arguments and has "
                                     "no functional variant (halve with the same arguments)"))
        << e.what();
  }
}

// As in eager mode, out= may resize only an empty out; resizing an empty view is not supported.
TEST(FunctionalizeErrors, OutArgumentsThatAreViews) {
  const auto add_into = [](int64_t rows) {
    return [rows](const Inputs& in) {
      const Tensor y = mt::zeros({2, 3});
      Tensor out = y.slice(0, 0, rows);
      return mt::add_out(out, in[0], in[0]);
    };
  };
  const std::string eager =
      eager_error([&](const Inputs& in) -> std::vector<Tensor> { return {add_into(1)(in)}; }, {x23});
  EXPECT_TRUE(mt_test::contains(eager, "doesn't match the broadcast shape")) << eager;
  EXPECT_EQ(functionalized_error([&](const Inputs& in) -> std::vector<Tensor> { return {add_into(1)(in)}; }, {x23},
                                 FunctionalizeRemove::Mutations),
            eager);
  try {
    mt::functionalize(add_into(0))({x23});
    FAIL() << "no error";
  } catch (const mt::NotImplementedError& e) {
    EXPECT_TRUE(mt_test::contains(e.what(), "resized a view of another tensor (from [0, 3] to [2, 3])")) << e.what();
  }
}

TEST(FunctionalizeErrors, AnEscapedFunctionalTensor) {
  Tensor escaped;
  mt::functionalize([&](const Inputs& in) {
    escaped = in[0].mul(2);
    return in[0];
  })({x23});
  try {
    (void)(escaped + 1);
    FAIL() << "no error";
  } catch (const mt::Error& e) {
    EXPECT_TRUE(mt_test::contains(e.what(), "functionalize() call that already returned")) << e.what();
  }
}

// --- composition -----------------------------------------------------------------------------------

// y = 2 x^T (laid out like x^T: not contiguous), then y[1] *= 3 in place, loss = sum(y^2):
// d/dx = 8 x, times 9 on column 1 of x (row 1 of y). The view has a non-zero offset and a stride that
// only eager geometry gives it, which autograd above functionalize relies on.
Tensor mutating_loss(const Inputs& in) {
  const Tensor y = in[0].t() * 2;
  y.select(0, 1).mul_(3);
  return (y * y).sum();
}

Tensor mutating_loss_grad(const Tensor& x) {
  const Tensor scale = mt::ones_like(x);
  scale.select(1, 1).fill_(9);
  return x * scale * 8;
}

TEST(FunctionalizeComposition, GradOfFunctionalize) {
  const Tensor x = mt::randn({2, 3});
  for (FunctionalizeRemove remove : {FunctionalizeRemove::Mutations, FunctionalizeRemove::MutationsAndViews})
    expect_same(mt::grad(mt::functionalize(mutating_loss, remove))({x}), mutating_loss_grad(x));
}

TEST(FunctionalizeComposition, FunctionalizeOfGrad) {
  const Tensor x = mt::randn({2, 3});
  for (FunctionalizeRemove remove : {FunctionalizeRemove::Mutations, FunctionalizeRemove::MutationsAndViews}) {
    auto recorder = std::make_shared<Recorder>();
    Tensor g;
    {
      mt::DispatchModeGuard guard(recorder);
      g = mt::functionalize(mt::grad(mutating_loss), remove)({x});
    }
    expect_same(g, mutating_loss_grad(x));
    for (const auto& c : recorder->calls) EXPECT_FALSE(c.mutates) << c.name;
  }
}

TEST(FunctionalizeComposition, VmapOfFunctionalizeAndFunctionalizeOfVmap) {
  const auto f = [](const Inputs& in) -> Tensor {
    const Tensor y = in[0].clone();
    y.select(0, 1).add_(in[1]);
    y.transpose(0, 1).select(0, 0).mul_(-1);
    return y;
  };
  const Inputs inputs = {mt::randn({4, 2, 3}), mt::randn({4, 3})};
  const Tensor expected = mt_test::loop_and_stack(f, inputs, {0, 0});
  for (FunctionalizeRemove remove : {FunctionalizeRemove::Mutations, FunctionalizeRemove::MutationsAndViews}) {
    expect_same(mt::vmap(mt::functionalize(f, remove))(inputs), expected);
    auto recorder = std::make_shared<Recorder>();
    Tensor actual;
    {
      mt::DispatchModeGuard guard(recorder);
      actual = mt::functionalize(mt::vmap(f), remove)(inputs);
    }
    expect_same(actual, expected);
    for (const auto& c : recorder->calls) EXPECT_FALSE(c.mutates) << c.name << " in " << names(recorder->calls);
  }
}

TEST(FunctionalizeComposition, VmapOfFunctionalizeWritesBackABatchedInput) {
  const auto f = [](const Inputs& in) -> Tensor {
    in[0].select(0, 0).add_(in[1]);
    return in[0].sum();
  };
  const Tensor x = mt::randn({5, 2, 3}), b = mt::randn({5, 3});
  const Tensor expected_x = x.clone();
  expected_x.select(1, 0).add_(b);
  const Tensor actual_x = x.clone();
  const Tensor sums = mt::vmap(mt::functionalize(f))({actual_x, b});
  expect_same(actual_x, expected_x);
  expect_same(sums, expected_x.sum({1, 2}));
}

}  // namespace
