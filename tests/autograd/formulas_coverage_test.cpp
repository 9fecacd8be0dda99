// Every registered operator whose outputs can be floating point has a derivative: an Autograd kernel, a
// CompositeImplicitAutograd kernel (differentiated through its parts), or it is on the short list of
// non-differentiable ops below. An op without one reaches the Autograd fallback, whose node raises
// "the derivative for ... is not implemented." at backward: tested here too, with out= ops refusing
// inputs that require grad, and gradgradcheck catching a backward that is not differentiable.
#include <set>
#include <string>

#include "autograd/BackwardFunction.h"
#include "dispatch/Library.h"
#include "formulas_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/empty.h"
#include "ops/api/exp.h"
#include "ops/api/full_like.h"
#include "ops/api/logical_not.h"
#include "ops/api/ones.h"
#include "ops/api/ones_like.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::message_of;
using mt_test::rnd;
using mt_test::values;

// Non-differentiable by nature: bool/integer results, or values that do not depend on the input's values.
// Each has a fallthrough Autograd kernel (autograd/derivatives/NonDifferentiable.cpp), so it costs nothing.
const std::set<std::string> kNonDifferentiable = {
    "mt::eq.Tensor",      "mt::ne.Tensor",     "mt::lt.Tensor",     "mt::le.Tensor",       "mt::gt.Tensor",
    "mt::ge.Tensor",      "mt::eq.Tensor_out", "mt::ne.Tensor_out", "mt::lt.Tensor_out",   "mt::le.Tensor_out",
    "mt::gt.Tensor_out",  "mt::ge.Tensor_out", "mt::logical_not",   "mt::logical_not.out", "mt::logical_and",
    "mt::logical_and.out", "mt::logical_or",   "mt::logical_or.out", "mt::argmax",         "mt::argmin",
    "mt::all",            "mt::all.dim",       "mt::all.dims",      "mt::any",             "mt::any.dim",
    "mt::any.dims",       "mt::one_hot",       "mt::empty_like",    "mt::zeros_like",      "mt::ones_like",
    "mt::full_like",      "mt::rand_like",     "mt::randn_like",    "mt::detach",          "mt::new_empty_strided",
    "mt::bitwise_not",    "mt::bitwise_not_",  "mt::bitwise_not.out",
    "mt::bitwise_and.Tensor", "mt::bitwise_and_.Tensor", "mt::bitwise_and.Tensor_out",
    "mt::bitwise_or.Tensor", "mt::bitwise_or_.Tensor", "mt::bitwise_or.Tensor_out",
    "mt::bitwise_xor.Tensor", "mt::bitwise_xor_.Tensor", "mt::bitwise_xor.Tensor_out",
    "mt::bitwise_left_shift.Tensor", "mt::bitwise_left_shift_.Tensor", "mt::bitwise_left_shift.Tensor_out",
    "mt::bitwise_right_shift.Tensor", "mt::bitwise_right_shift_.Tensor", "mt::bitwise_right_shift.Tensor_out",
};

bool returns_tensor(const mt::FunctionSchema& s) {
  for (const auto& r : s.returns)
    if (r.type.kind == mt::TypeKind::Tensor) return true;
  return false;
}

bool has_out_argument(const mt::FunctionSchema& s) {
  for (const auto& a : s.arguments)
    if (a.is_out()) return true;
  return false;
}

std::string autograd_cpu_row(const mt::OperatorHandle& op) {
  return mt_test::dump_rows(op.dumpComputedTable(), {mt::DispatchKey::AutogradCPU});
}

TEST(FormulaCoverage, EveryOperatorWithFloatOutputsHasADerivative) {
  auto& d = mt::Dispatcher::singleton();
  std::vector<std::string> missing, fallthrough_but_not_listed;
  size_t checked = 0;
  for (const mt::OperatorName& name : d.getAllOpNames()) {
    if (name.ns != "mt") continue;
    const mt::OperatorHandle op = *d.findSchema(name);
    const mt::FunctionSchema& s = op.schema();
    // Factories without tensor arguments never see the Autograd key; out= variants are refused by the
    // fallback when an input requires grad (tested below).
    if (!returns_tensor(s) || s.num_tensor_like_args() == 0 || has_out_argument(s)) continue;
    ++checked;
    const std::string row = autograd_cpu_row(op);
    const bool listed = kNonDifferentiable.count(name.str()) > 0;
    if (mt_test::contains(row, "fallthrough") && !listed) fallthrough_but_not_listed.push_back(name.str());
    const bool has_formula = op.hasKernelForDispatchKey(mt::DispatchKey::Autograd) ||
                             op.hasKernelForDispatchKey(mt::DispatchKey::AutogradCPU) ||
                             op.hasKernelForDispatchKey(mt::DispatchKey::CompositeImplicitAutograd);
    if (!has_formula && !listed) missing.push_back(name.str());
    if (listed) {
      EXPECT_TRUE(mt_test::contains(row, "fallthrough")) << name.str() << " is listed but has " << row;
    }
  }
  EXPECT_GT(checked, 150u);
  EXPECT_TRUE(missing.empty()) << "no derivative formula for: " << ::testing::PrintToString(missing);
  EXPECT_TRUE(fallthrough_but_not_listed.empty())
      << "fallthrough at Autograd but not known as non-differentiable: " << ::testing::PrintToString(fallthrough_but_not_listed);
}

TEST(FormulaCoverage, NonDifferentiableOpsGiveOutputsThatDoNotRequireGrad) {
  const Tensor x = rnd({2, 3}, 1);
  for (const Tensor& y : {x.gt(0), x.eq(x), x.argmax(), x.all(), mt::logical_not(x), mt::zeros_like(x),
                          mt::ones_like(x), mt::full_like(x, 2.0), x.detach()}) {
    EXPECT_FALSE(y.requires_grad());
    EXPECT_EQ(y.grad_fn(), nullptr);
  }
  // The in-place comparisons that overwrite a float tensor pass a zero gradient, as in PyTorch.
  Tensor h = x * 1.0;
  h.gt_(mt::zeros({3}, mt::kFloat64));
  EXPECT_EQ(values(mt::autograd::grad({(h * x).sum()}, {x})[0]), values(h));
  EXPECT_EQ(h.grad_fn()->name(), "ZeroGradBackward0");
}

// PyTorch's logical_*_ write through their out= forms, which autograd does not see: a leaf that requires
// grad, or a view of one, may be written (PyTorch 2.x allows it; the comparisons' in-place forms do not).
TEST(FormulaCoverage, LogicalInPlaceOpsMayWriteALeafThatRequiresGrad) {
  Tensor x = mt::tensor({0.0, 2.0, -1.0}).requires_grad_();
  const int64_t version = x._version();
  x.logical_and_(mt::tensor({1.0, 1.0, 0.0}));
  EXPECT_EQ(values(x), (std::vector<double>{0, 1, 0}));
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.grad_fn(), nullptr);
  EXPECT_GT(x._version(), version);
  x.logical_or_(mt::tensor({0.0, 0.0, 3.0}));
  EXPECT_EQ(values(x), (std::vector<double>{0, 1, 1}));
  Tensor v = x.slice(0, 0, 2);
  v.logical_not_();
  EXPECT_EQ(values(x), (std::vector<double>{1, 0, 1}));
  EXPECT_TRUE(x.is_leaf());
  try {
    x.gt_(0.5);
    ADD_FAILURE() << "gt_ on a leaf that requires grad did not raise";
  } catch (const mt::Error& e) {
    EXPECT_STREQ(e.what(), "a leaf Variable that requires grad is being used in an in-place operation.");
  }
  // On a tensor with history they record a node that passes no gradient, like the comparisons.
  Tensor h = x * 2.0;
  h.logical_not_();
  EXPECT_EQ(h.grad_fn()->name(), "ZeroGradBackward0");
  EXPECT_EQ(values(mt::autograd::grad({(h * 1.0).sum()}, {x})[0]), (std::vector<double>{0, 0, 0}));
}

// An op with a kernel but no formula, as a test library registers it.
struct NoFormulaOps {
  mt::Library def{mt::Library::DEF, "t_formula_cov"};
  mt::Library impl{mt::Library::IMPL, "t_formula_cov", mt::DispatchKey::CompositeExplicitAutograd};
  NoFormulaOps() {
    def.def("twice(Tensor x) -> Tensor");
    def.def("twice_(Tensor(a!) x) -> Tensor(a!)");
    def.def("count_positive(Tensor x) -> Tensor");
    def.def("split_twice(Tensor x) -> (Tensor, Tensor)");
    impl.impl("twice", [](const Tensor& x) { return x * 2.0; });
    impl.impl("twice_", [](Tensor& x) -> Tensor& { return x.mul_(2.0); });
    impl.impl("count_positive", [](const Tensor& x) { return x.gt(0).sum(); });
    impl.impl("split_twice", [](const Tensor& x) { return std::make_tuple(x * 2.0, x.gt(0)); });
  }
  static mt::OperatorHandle op(const char* name) {
    return mt::Dispatcher::singleton().findSchemaOrThrow(std::string("t_formula_cov::") + name, "");
  }
};

TEST(AutogradFallback, AnOpWithoutAFormulaFailsAtBackwardWithItsName) {
  NoFormulaOps ops;
  const Tensor x = rnd({3}, 2);
  const Tensor y = ops.op("twice").typed<Tensor(const Tensor&)>().call(x);
  EXPECT_EQ(values(y), values(x * 2.0)) << "the op itself runs";
  ASSERT_TRUE(y.requires_grad());
  EXPECT_EQ(y.grad_fn()->name(), "NotImplemented");
  EXPECT_EQ(message_of<mt::NotImplementedError>([&] { y.sum().backward(); }),
            "the derivative for 't_formula_cov::twice' is not implemented.");
  // Upstream of it, gradients that do not pass through it are fine.
  const Tensor z = x * 3.0;
  EXPECT_EQ(values(mt::autograd::grad({z.sum()}, {x})[0]), (std::vector<double>{3, 3, 3}));
}

TEST(AutogradFallback, NonFloatOutputsAndCallsWithoutGradGetNoNode) {
  NoFormulaOps ops;
  const Tensor x = rnd({3}, 3);
  const Tensor count = ops.op("count_positive").typed<Tensor(const Tensor&)>().call(x);
  EXPECT_FALSE(count.requires_grad()) << "an integer output is not differentiable";
  const auto [twice, mask] = ops.op("split_twice").typed<std::tuple<Tensor, Tensor>(const Tensor&)>().call(x);
  EXPECT_TRUE(twice.requires_grad());
  EXPECT_FALSE(mask.requires_grad());
  const Tensor plain = mt::ones({3}, mt::kFloat64);
  EXPECT_FALSE(ops.op("twice").typed<Tensor(const Tensor&)>().call(plain).requires_grad());
  mt::NoGradGuard no_grad;
  EXPECT_FALSE(ops.op("twice").typed<Tensor(const Tensor&)>().call(x).requires_grad());
}

TEST(AutogradFallback, InPlaceWithoutAFormula) {
  NoFormulaOps ops;
  const auto twice_ = ops.op("twice_").typed<Tensor&(Tensor&)>();
  Tensor leaf = rnd({2}, 4);
  EXPECT_EQ(message_of<mt::Error>([&] { twice_.call(leaf); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  Tensor h = leaf * 1.0;
  twice_.call(h);
  EXPECT_EQ(values(h), values(leaf * 2.0));
  EXPECT_EQ(h.grad_fn()->name(), "NotImplemented") << "the history is not silently cut";
  EXPECT_EQ(message_of<mt::NotImplementedError>([&] { h.sum().backward(); }),
            "the derivative for 't_formula_cov::twice_' is not implemented.");
}

TEST(AutogradFallback, OutVariantsRefuseInputsThatRequireGrad) {
  const Tensor x = rnd({2}, 5);
  Tensor out = mt::empty({2}, mt::kFloat64);
  EXPECT_EQ(message_of<mt::Error>([&] { mt::add_out(out, x, x); }),
            "add(): functions with out=... arguments don't support automatic differentiation, but one of the "
            "arguments requires grad.");
  EXPECT_EQ(message_of<mt::Error>([&] { mt::exp_out(out, x); }),
            "exp(): functions with out=... arguments don't support automatic differentiation, but one of the "
            "arguments requires grad.");
  const Tensor plain = mt::ones({2}, mt::kFloat64);
  mt::exp_out(out, plain);
  EXPECT_NEAR(values(out)[0], std::exp(1.0), 1e-12);
  {
    mt::NoGradGuard no_grad;
    mt::add_out(out, x, x);
  }
  EXPECT_EQ(values(out), values(x * 2.0));
}

TEST(Gradgradcheck, CatchesABackwardThatIsNotDifferentiable) {
  // cube's backward uses a detached copy of x: right first derivative, no second.
  mt::Library def(mt::Library::DEF, "t_gradgrad");
  def.def("cube(Tensor x) -> Tensor");
  mt::Library impl(mt::Library::IMPL, "t_gradgrad", mt::DispatchKey::CompositeExplicitAutograd);
  impl.impl("cube", [](const Tensor& x) { return x * x * x; });
  mt::Library autograd(mt::Library::IMPL, "t_gradgrad", mt::DispatchKey::Autograd);
  autograd.impl("cube", [](mt::DispatchKeySet, const Tensor& x) {
    Tensor out;
    {
      mt::NoGradGuard no_grad;
      out = x * x * x;
    }
    mt::autograd::record("CubeBackward0", {x}, {out}, [c = x.detach()](const variable_list& g) {
      return variable_list{g[0] * c * c * 3.0};
    });
    return out;
  });
  const auto cube = mt::Dispatcher::singleton().findSchemaOrThrow("t_gradgrad::cube", "").typed<Tensor(const Tensor&)>();
  const variable_list in{rnd({3}, 6)};
  EXPECT_TRUE(mt::autograd::gradcheck([&](const variable_list& x) { return cube.call(x[0]); }, in));
  const std::string m = message_of<mt::RuntimeError>(
      [&] { mt::autograd::gradgradcheck([&](const variable_list& x) { return cube.call(x[0]); }, in); });
  EXPECT_TRUE(mt_test::contains(m, "Jacobian mismatch for output 0 with respect to input 0")) << m;
  // The same function written with differentiable ops passes.
  EXPECT_TRUE(mt::autograd::gradgradcheck([](const variable_list& x) { return x[0] * x[0] * x[0]; }, in));
}

}  // namespace
