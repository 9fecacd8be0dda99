// Every derivative formula so far against finite differences (mt::autograd::gradcheck, float64), on
// inputs that broadcast; and gradcheck itself catching a wrong formula.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "autograd/BackwardFunction.h"
#include "autograd/Gradcheck.h"
#include "dispatch/Library.h"
#include "ops/api/add.h"
#include "ops/api/addmm.h"
#include "ops/api/linear.h"
#include "ops/api/ones.h"
#include "ops/api/outer.h"
#include "ops/api/rand.h"
#include "ops/api/silu.h"
#include "ops/api/std.h"
#include "ops/api/sub.h"

namespace {

using mt::Tensor;
using mt::autograd::gradcheck;
using mt::autograd::variable_list;

Tensor input(std::vector<int64_t> sizes, uint64_t seed) {
  mt::Generator g(seed);
  return (mt::rand(sizes, &g, mt::kFloat64) + 0.5).requires_grad_();
}

TEST(Gradcheck, ArithmeticWithBroadcasting) {
  const variable_list in{input({2, 3}, 1), input({3}, 2)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return mt::add(x[0], x[1], 2.5); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return mt::sub(x[0], x[1], 0.5); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0] * x[1]; }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0] / x[1]; }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[1] / x[0]; }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return -x[0] * 3.0 + 1.0; }, in));
}

TEST(Gradcheck, Reductions) {
  const variable_list in{input({2, 3, 4}, 3)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].sum(); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].sum({0, 2}); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].sum({-1}, /*keepdim=*/true); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].mean(); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].mean({1}); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return (x[0] * x[0]).mean({0, 1}, true); }, in));
}

TEST(Gradcheck, Views) {
  const variable_list in{input({2, 3}, 4)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].view({3, 2}) * 2.0; }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].t() * x[0].t(); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].unsqueeze(1).expand({2, 4, 3}); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].reshape({6}); }, in));
}

TEST(Gradcheck, Copies) {
  const variable_list in{input({2, 3}, 7)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].t().contiguous() * x[0].t(); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].clone() * 2.0; }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].to(mt::kFloat32).to(mt::kFloat64); }, in, 1e-3, 1e-3));
  const Tensor f = mt::ones({2}, mt::kFloat32).requires_grad_();
  f.to(mt::kFloat64).sum().backward();
  EXPECT_EQ(f.grad().dtype(), mt::kFloat32) << "a gradient returns in its input's dtype";
}

TEST(Gradcheck, UnaryPointwise) {
  const variable_list in{input({2, 3}, 8)};  // in [0.5, 1.5): inside every domain
  using F = Tensor (*)(const Tensor&);
  for (F f : std::initializer_list<F>{[](const Tensor& x) { return x.exp(); }, [](const Tensor& x) { return x.log(); },
                                      [](const Tensor& x) { return x.log1p(); }, [](const Tensor& x) { return x.sqrt(); },
                                      [](const Tensor& x) { return x.rsqrt(); }, [](const Tensor& x) { return x.sin(); },
                                      [](const Tensor& x) { return x.cos(); }, [](const Tensor& x) { return x.tanh(); },
                                      [](const Tensor& x) { return x.sigmoid(); }, [](const Tensor& x) { return mt::silu(x); },
                                      [](const Tensor& x) { return (x - 1.0).relu(); },
                                      [](const Tensor& x) { return (x - 1.0).abs(); },
                                      [](const Tensor& x) { return x.pow(3); }, [](const Tensor& x) { return x.pow(-0.5); },
                                      [](const Tensor& x) { return x.pow(0); }}) {
    EXPECT_TRUE(gradcheck([f](const variable_list& x) { return f(x[0]); }, in));
  }
}

TEST(Gradcheck, InPlaceArithmeticOnNonLeaves) {
  const variable_list in{input({2, 3}, 9), input({3}, 10)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return (x[0] * 1.0).add_(x[1], 2.0); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return (x[0] * 1.0).sub_(x[1]); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return (x[0] * 1.0).mul_(x[1]); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return (x[0] * 1.0).div_(x[1]); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return (x[0] * 1.0).mul_(x[0]); }, {in[0]}));
}

TEST(Gradcheck, MatrixProductsAndTheirCompositions) {
  const variable_list mats{input({2, 3}, 11), input({3, 4}, 12)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].mm(x[1]); }, mats));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].t().t().mm(x[1].t().contiguous().t()); }, mats));
  const variable_list addmm_in{input({4}, 13), input({2, 3}, 14), input({3, 4}, 15)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return mt::addmm(x[0], x[1], x[2], 0.5, 2.0); }, addmm_in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return mt::linear(x[1], x[2].t(), x[0]); }, addmm_in));
  const variable_list batches{input({2, 2, 3}, 16), input({2, 3, 2}, 17), input({3, 2}, 20)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].bmm(x[1]); }, {batches[0], batches[1]}));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].matmul(x[1]); }, {batches[0], batches[2]}));
  const variable_list vecs{input({3}, 18), input({3}, 19)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].dot(x[1]); }, vecs));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return mt::outer(x[0], x[1]); }, vecs));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].matmul(x[1]); }, vecs));
}

// A transposed (column-major) operand has its gradient computed in its own layout, and a product with
// one row or column takes the GEMV path: both against finite differences.
TEST(Gradcheck, MatrixProductsWithColumnMajorOperandsAndSingleRows) {
  const variable_list in{input({1, 3}, 21), input({4, 3}, 22), input({3, 1}, 23), input({4, 2}, 24)};
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[0].mm(x[1].t()); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[2].t().mm(x[1].t()); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[1].t().mm(x[3]); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return x[1].mm(x[2]); }, in));
  EXPECT_TRUE(gradcheck([](const variable_list& x) { return mt::linear(x[0], x[1], x[3].select(1, 0)); }, in));
  const Tensor w = input({4, 3}, 25);
  mt::linear(input({2, 3}, 26), w).sum().backward();
  EXPECT_TRUE(w.grad().is_contiguous()) << "linear's weight gradient arrives in the weight's layout";
}

TEST(Gradcheck, SoftmaxAndLogSoftmaxOverEachDim) {
  const variable_list in{input({2, 3, 4}, 21)};
  for (int64_t dim : {0, 1, -1}) {
    EXPECT_TRUE(gradcheck([dim](const variable_list& x) { return x[0].softmax(dim); }, in));
    EXPECT_TRUE(gradcheck([dim](const variable_list& x) { return x[0].log_softmax(dim); }, in));
  }
}

TEST(Gradcheck, SecondDerivativesThroughCreateGraph) {
  // d/dx of (d/dx sum(x^3)) = 6x, checked by gradcheck on the first derivative.
  const variable_list in{input({3}, 5)};
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) {
        return mt::autograd::grad({(x[0] * x[0] * x[0]).sum()}, {x[0]}, {}, std::nullopt, /*create_graph=*/true)[0];
      },
      in));
}

TEST(Gradcheck, CatchesAWrongFormula) {
  mt::Library def(mt::Library::DEF, "t_gradcheck");
  def.def("twice(Tensor x) -> Tensor");
  mt::Library cpu(mt::Library::IMPL, "t_gradcheck", mt::DispatchKey::CompositeExplicitAutograd);
  cpu.impl("twice", [](const Tensor& x) { return x * 2.0; });
  mt::Library autograd(mt::Library::IMPL, "t_gradcheck", mt::DispatchKey::Autograd);
  autograd.impl("twice", [](mt::DispatchKeySet, const Tensor& x) {
    Tensor out;
    {
      mt::NoGradGuard no_grad;
      out = x * 2.0;
    }
    mt::autograd::record("TwiceBackward0", {x}, {out}, [](const variable_list& g) { return variable_list{g[0] * 3.0}; });
    return out;
  });
  const auto twice = mt::Dispatcher::singleton().findSchemaOrThrow("t_gradcheck::twice", "").typed<Tensor(const Tensor&)>();
  try {
    gradcheck([&](const variable_list& x) { return twice.call(x[0]); }, {input({2}, 6)});
    ADD_FAILURE() << "gradcheck accepted a wrong formula";
  } catch (const mt::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("Jacobian mismatch for output 0 with respect to input 0"), std::string::npos)
        << e.what();
  }
}

}  // namespace
