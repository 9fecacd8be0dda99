// Every batching rule against the loop of the unbatched op, with the batch dim at different positions
// and unbatched arguments. The fixture fails a test whose vmap fell back to the loop, so each case
// proves that its rule (or decomposition) ran.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <typeinfo>

#include "batching_rules_fixture.h"
#include "ops/TensorOperators.h"
#include "ops/api/abs.h"
#include "ops/api/add.h"
#include "ops/api/addmm.h"
#include "ops/api/all.h"
#include "ops/api/allclose.h"
#include "ops/api/amax.h"
#include "ops/api/amin.h"
#include "ops/api/any.h"
#include "ops/api/argmax.h"
#include "ops/api/argmin.h"
#include "ops/api/atan2.h"
#include "ops/api/binary_cross_entropy.h"
#include "ops/api/binary_cross_entropy_backward.h"
#include "ops/api/bmm.h"
#include "ops/api/cat.h"
#include "ops/api/celu.h"
#include "ops/api/chunk.h"
#include "ops/api/clamp.h"
#include "ops/api/clone.h"
#include "ops/api/copy.h"
#include "ops/api/copysign.h"
#include "ops/api/cos.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/diagonal.h"
#include "ops/api/div.h"
#include "ops/api/dot.h"
#include "ops/api/elu.h"
#include "ops/api/eq.h"
#include "ops/api/exp.h"
#include "ops/api/flatten.h"
#include "ops/api/fmod.h"
#include "ops/api/full.h"
#include "ops/api/gather.h"
#include "ops/api/ge.h"
#include "ops/api/gelu.h"
#include "ops/api/glu.h"
#include "ops/api/gt.h"
#include "ops/api/hardswish.h"
#include "ops/api/hardtanh.h"
#include "ops/api/hypot.h"
#include "ops/api/index_select.h"
#include "ops/api/isclose.h"
#include "ops/api/isfinite.h"
#include "ops/api/isinf.h"
#include "ops/api/isnan.h"
#include "ops/api/isposinf.h"
#include "ops/api/leaky_relu.h"
#include "ops/api/lerp.h"
#include "ops/api/linear.h"
#include "ops/api/log.h"
#include "ops/api/log1p.h"
#include "ops/api/log_sigmoid.h"
#include "ops/api/log_softmax.h"
#include "ops/api/logaddexp.h"
#include "ops/api/logaddexp2.h"
#include "ops/api/logical_and.h"
#include "ops/api/logical_not.h"
#include "ops/api/logsumexp.h"
#include "ops/api/lt.h"
#include "ops/api/masked_fill.h"
#include "ops/api/matmul.h"
#include "ops/api/max.h"
#include "ops/api/maximum.h"
#include "ops/api/mean.h"
#include "ops/api/min.h"
#include "ops/api/minimum.h"
#include "ops/api/mish.h"
#include "ops/api/mm.h"
#include "ops/api/movedim.h"
#include "ops/api/mse_loss.h"
#include "ops/api/mul.h"
#include "ops/api/mv.h"
#include "ops/api/nan_to_num.h"
#include "ops/api/ne.h"
#include "ops/api/neg.h"
#include "ops/api/nll_loss.h"
#include "ops/api/nll_loss_backward.h"
#include "ops/api/nll_loss_forward.h"
#include "ops/api/norm.h"
#include "ops/api/one_hot.h"
#include "ops/api/ones_like.h"
#include "ops/api/outer.h"
#include "ops/api/pow.h"
#include "ops/api/prod.h"
#include "ops/api/put.h"
#include "ops/api/rand.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/relu.h"
#include "ops/api/relu6.h"
#include "ops/api/remainder.h"
#include "ops/api/rsqrt.h"
#include "ops/api/rsub.h"
#include "ops/api/scatter.h"
#include "ops/api/scatter_add.h"
#include "ops/api/selu.h"
#include "ops/api/sigmoid.h"
#include "ops/api/sign.h"
#include "ops/api/silu.h"
#include "ops/api/sin.h"
#include "ops/api/slice.h"
#include "ops/api/softmax.h"
#include "ops/api/softplus.h"
#include "ops/api/split.h"
#include "ops/api/sqrt.h"
#include "ops/api/square.h"
#include "ops/api/stack.h"
#include "ops/api/std.h"
#include "ops/api/sub.h"
#include "ops/api/sum.h"
#include "ops/api/take.h"
#include "ops/api/tanh.h"
#include "ops/api/threshold_backward.h"
#include "ops/api/tril.h"
#include "ops/api/triu.h"
#include "ops/api/unbind.h"
#include "ops/api/unflatten.h"
#include "ops/api/var.h"
#include "ops/api/where.h"
#include "ops/api/xlogy.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

namespace {

using mt::Tensor;
using mt_test::BatchingRules;
using mt_test::Dims;
using mt_test::Fn;
using Inputs = std::vector<Tensor>;
constexpr auto None = std::nullopt;

Tensor pos(const Tensor& t) { return mt::add(mt::abs(t), 0.5); }

TEST_F(BatchingRules, UnaryPointwiseKeepTheBatchDim) {
  const std::vector<Fn> fns = {
      [](const Inputs& a) { return mt::neg(a[0]); },          [](const Inputs& a) { return mt::abs(a[0]); },
      [](const Inputs& a) { return mt::sign(a[0]); },         [](const Inputs& a) { return mt::exp(a[0]); },
      [](const Inputs& a) { return mt::log(pos(a[0])); },     [](const Inputs& a) { return mt::log1p(pos(a[0])); },
      [](const Inputs& a) { return mt::sqrt(pos(a[0])); },    [](const Inputs& a) { return mt::rsqrt(pos(a[0])); },
      [](const Inputs& a) { return mt::sin(a[0]); },          [](const Inputs& a) { return mt::cos(a[0]); },
      [](const Inputs& a) { return mt::tanh(a[0]); },         [](const Inputs& a) { return mt::sigmoid(a[0]); },
      [](const Inputs& a) { return mt::relu(a[0]); },         [](const Inputs& a) { return mt::gelu(a[0], "tanh"); },
      [](const Inputs& a) { return mt::silu(a[0]); },         [](const Inputs& a) { return mt::clone(a[0]); },
      [](const Inputs& a) { return mt::clamp(a[0], std::optional<mt::Scalar>(-0.5), std::optional<mt::Scalar>(0.5)); },
      [](const Inputs& a) { return mt::pow(a[0], 2); },       [](const Inputs& a) { return mt::pow(2.0, a[0]); },
      [](const Inputs& a) { return mt::add(a[0], 1.5); },     [](const Inputs& a) { return mt::sub(a[0], 1.5); },
      [](const Inputs& a) { return mt::mul(a[0], 3); },       [](const Inputs& a) { return mt::div(a[0], 4); },
      [](const Inputs& a) { return mt::gt(a[0], 0.1); },      [](const Inputs& a) { return mt::eq(a[0], a[0]); },
      [](const Inputs& a) { return mt::logical_not(mt::lt(a[0], 0)); },
      [](const Inputs& a) { return mt::zeros_like(a[0]); },   [](const Inputs& a) { return mt::ones_like(a[0]); },
      [](const Inputs& a) { return a[0].to(mt::kFloat64); },  [](const Inputs& a) { return a[0].contiguous(); },
      [](const Inputs& a) { return mt::where(mt::gt(a[0], 0), 1.0, -1.0); },
  };
  for (size_t i = 0; i < fns.size(); ++i) {
    SCOPED_TRACE("function " + std::to_string(i));
    check_unary(fns[i]);
  }
}

TEST_F(BatchingRules, BinaryPointwiseBroadcastAcrossBatchedAndUnbatchedArguments) {
  const std::vector<Fn> fns = {
      [](const Inputs& a) { return mt::add(a[0], a[1]); },
      [](const Inputs& a) { return mt::add(a[0], a[1], 2); },
      [](const Inputs& a) { return mt::sub(a[0], a[1]); },
      [](const Inputs& a) { return mt::mul(a[0], a[1]); },
      [](const Inputs& a) { return mt::div(a[0], pos(a[1])); },
      [](const Inputs& a) { return mt::div(a[0], pos(a[1]), "floor"); },
      [](const Inputs& a) { return mt::pow(pos(a[0]), a[1]); },
      [](const Inputs& a) { return mt::maximum(a[0], a[1]); },
      [](const Inputs& a) { return mt::minimum(a[0], a[1]); },
      [](const Inputs& a) { return mt::lt(a[0], a[1]); },
      [](const Inputs& a) { return mt::ge(a[0], a[1]); },
      [](const Inputs& a) { return mt::ne(a[0], a[1]); },
      [](const Inputs& a) { return mt::logical_and(mt::gt(a[0], 0), mt::gt(a[1], 0)); },
      [](const Inputs& a) { return mt::where(mt::gt(a[0], a[1]), a[0], a[1]); },
      [](const Inputs& a) { return mt::where(mt::gt(a[1], 0), 2.0, a[0]); },
      [](const Inputs& a) { return mt::clamp(a[0], std::optional<Tensor>(a[1]), std::optional<Tensor>()); },
      [](const Inputs& a) { return mt::masked_fill(a[0], mt::gt(a[1], 0), 7.0); },
  };
  // (x, y, in_dims): both batched at different dims, one unbatched, logical broadcasting.
  const std::vector<std::tuple<Tensor, Tensor, Dims>> cases = {
      {mt::randn({4, 3}), mt::randn({4, 3}), Dims{0, 0}},
      {mt::randn({3, 4}), mt::randn({4, 3}), Dims{1, 0}},
      {mt::randn({4, 3}), mt::randn({3}), Dims{0, None}},
      {mt::randn({2, 3}), mt::randn({3, 4}), Dims{None, -1}},
      {mt::randn({2, 1, 4}), mt::randn({4, 5}), Dims{-1, 0}},  // logical [2, 1] with [5]
      {mt::randn({4}), mt::randn({2, 3}), Dims{0, None}},      // a logical scalar
      {mt::randn({4, 2, 3}), mt::randn({3, 4}), Dims{0, 1}},   // logical [2, 3] with [3]
  };
  for (size_t i = 0; i < fns.size(); ++i) {
    for (size_t c = 0; c < cases.size(); ++c) {
      SCOPED_TRACE("function " + std::to_string(i) + ", case " + std::to_string(c));
      const auto& [x, y, dims] = cases[c];
      if (i == 16 && !dims[0] && dims[1]) continue;  // masked_fill's self must have the result's shape
      check(fns[i], {x, y}, dims);
    }
  }
}

TEST_F(BatchingRules, RemainderAndScalarsOnTheLeft) {
  check([](const Inputs& a) { return mt::remainder(a[0], pos(a[1])); }, {mt::randn({4, 3}), mt::randn({3, 4})},
        Dims{0, 1});
  check([](const Inputs& a) { return a[0] % pos(a[1]); }, {mt::randn({4, 3}), mt::randn({3})}, Dims{0, None});
  check([](const Inputs& a) { return mt::rsub(a[0], a[1], 2); }, {mt::randn({3}), mt::randn({3, 4})}, Dims{None, 1});
  check_unary([](const Inputs& a) { return mt::remainder(a[0], -0.7); });
  check_unary([](const Inputs& a) { return 2.5 % pos(a[0]); });
  check_unary([](const Inputs& a) { return 3 - a[0]; });
  check_unary([](const Inputs& a) { return 2 / pos(a[0]); });
  const Tensor x = mt::randn({3, 4}), y = pos(mt::randn({3}));
  Tensor c = x.clone();
  mt::vmap([](const Inputs& in) { return in[0].remainder_(in[1]); }, {1, None})({c, y});
  mt_test::expect_same(c, mt::remainder(x, y.unsqueeze(1)));
}

TEST_F(BatchingRules, BitwiseOpsOnIntegersAndBool) {
  mt::manual_seed(3);
  const Tensor a = mt::randint(-50, 50, {4, 3}).to(mt::kInt32), b = mt::randint(0, 9, {3, 4}).to(mt::kInt32);
  check([](const Inputs& x) { return x[0] & x[1]; }, {a, b}, Dims{0, 1});
  check([](const Inputs& x) { return x[0] | x[1]; }, {a, b.select(1, 0)}, Dims{0, None});
  check([](const Inputs& x) { return x[0] ^ x[1]; }, {a.select(0, 0), b}, Dims{None, 1});
  check([](const Inputs& x) { return x[0] << x[1]; }, {a, b}, Dims{0, 1});
  check([](const Inputs& x) { return x[0] >> x[1]; }, {a, b}, Dims{1, 0});
  check([](const Inputs& x) { return ~x[0]; }, {a}, Dims{1});
  check([](const Inputs& x) { return 3 << x[0]; }, {b}, Dims{0});
  const Tensor mask = mt::randint(0, 2, {4, 3}).to(mt::kBool);
  check([](const Inputs& x) { return x[0] & x[1]; }, {mask, mask.t()}, Dims{0, 1});
  Tensor c = a.clone();
  mt::vmap([](const Inputs& in) { return in[0].bitwise_xor_(in[1]); }, {0, None})({c, b.select(1, 0)});
  mt_test::expect_same(c, a ^ b.select(1, 0));
}

// Compositions: their parts' rules run, so no fallback either.
TEST_F(BatchingRules, SpecialValueTestsAndNanToNum) {
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor x = mt::tensor({1.5, std::nan(""), inf, -inf, 0.0, -2.0, 3.0, -inf}).view({2, 4});
  check([](const Inputs& a) { return mt::isnan(a[0]).logical_or(mt::isinf(a[0])); }, {x}, Dims{0});
  check([](const Inputs& a) { return mt::isfinite(a[0]).logical_and(mt::isposinf(a[0]).logical_not()); }, {x},
        Dims{1});
  check([](const Inputs& a) { return mt::nan_to_num(a[0], 0.5, 9.0); }, {x}, Dims{1});
  check([](const Inputs& a) { return mt::square(a[0]); }, {mt::randn({2, 4})}, Dims{0});
  Tensor c = x.clone();
  mt::vmap([](const Inputs& in) { return in[0].nan_to_num_(7.0); }, {1})({c});
  mt_test::expect_same(c, mt::nan_to_num(x, 7.0));
}

TEST_F(BatchingRules, BinaryMathAndFmod) {
  const std::vector<Fn> fns = {
      [](const Inputs& a) { return mt::atan2(a[0], a[1]); },
      [](const Inputs& a) { return mt::hypot(a[0], a[1]); },
      [](const Inputs& a) { return mt::copysign(a[0], a[1]); },
      [](const Inputs& a) { return mt::logaddexp(a[0], a[1]); },
      [](const Inputs& a) { return mt::logaddexp2(a[0], a[1]); },
      [](const Inputs& a) { return mt::xlogy(a[0], pos(a[1])); },
      [](const Inputs& a) { return mt::fmod(a[0], pos(a[1])); },
  };
  for (size_t i = 0; i < fns.size(); ++i) {
    SCOPED_TRACE("function " + std::to_string(i));
    check(fns[i], {mt::randn({4, 3}), mt::randn({3, 4})}, Dims{0, 1});
    check(fns[i], {mt::randn({4, 3}), mt::randn({3})}, Dims{0, None});
  }
  check_unary([](const Inputs& a) { return mt::copysign(a[0], -1.0); });
  check_unary([](const Inputs& a) { return mt::xlogy(2.0, pos(a[0])); });
  check_unary([](const Inputs& a) { return mt::fmod(a[0], 0.3); });
  const Tensor x = mt::randn({3, 4}), y = mt::randn({3});
  Tensor c = x.clone();
  mt::vmap([](const Inputs& in) { return in[0].hypot_(in[1]); }, {1, None})({c, y});
  mt_test::expect_same(c, mt::hypot(x, y.unsqueeze(1)));
}

TEST_F(BatchingRules, ParametricActivations) {
  check_unary([](const Inputs& a) { return mt::leaky_relu(a[0], 0.2); });
  check_unary([](const Inputs& a) { return mt::elu(a[0], 1.5, 2.0, 0.5); });
  check_unary([](const Inputs& a) { return mt::selu(a[0]); });
  check_unary([](const Inputs& a) { return mt::celu(a[0], 0.5); });
  check_unary([](const Inputs& a) { return mt::softplus(a[0], 2.0, 1.0); });
  check_unary([](const Inputs& a) { return mt::hardtanh(a[0], -0.5, 0.5); });
  check_unary([](const Inputs& a) { return mt::relu6(a[0] * 4); });
  check_unary([](const Inputs& a) { return mt::hardswish(a[0] * 4); });
  check_unary([](const Inputs& a) { return mt::mish(a[0]).add(mt::log_sigmoid(a[0])); });
  check_unary([](const Inputs& a) { return mt::glu(a[0], -1); }, {3, 6});
  Tensor c = mt::randn({3, 4});
  const Tensor before = c.clone();
  mt::vmap([](const Inputs& in) {
    Tensor t = in[0];  // shares c's batched storage
    return mt::leaky_relu_(t, 0.3);
  }, {1})({c});
  mt_test::expect_same(c, mt::leaky_relu(before, 0.3));
}

TEST_F(BatchingRules, LerpDecomposes) {
  check([](const Inputs& x) { return mt::lerp(x[0], x[1], x[2]); },
        {mt::randn({4, 3}), mt::randn({3}), mt::rand({3, 4})}, Dims{0, None, 1});
  check([](const Inputs& x) { return mt::lerp(x[0], x[1], 0.8); }, {mt::randn({4, 3}), mt::randn({3, 4})}, Dims{0, 1});
}

TEST_F(BatchingRules, IscloseDecomposesAndAllcloseRefusesAsItem) {
  const Tensor a = mt::randn({4, 3}), b = a + mt::randn({4, 3}) * 1e-3;
  check([](const Inputs& x) { return mt::isclose(x[0], x[1], 1e-3, 1e-3); }, {a, b}, Dims{0, 0});
  check([](const Inputs& x) { return mt::isclose(x[0], x[1]); }, {a, b.select(1, 0)}, Dims{1, None});
  EXPECT_THROW(mt::vmap([](const Inputs& x) { return mt::tensor(mt::allclose(x[0], x[0])); }, {0})({a}), mt::Error);
}

// all/any over [] reduce nothing: the batch dim stays where it was, also for logical scalars.
TEST_F(BatchingRules, AllAnyOverAnEmptyDimListStayElementwise) {
  check_unary([](const Inputs& a) { return mt::all(mt::gt(a[0], 0), std::vector<int64_t>{}); });
  check_unary([](const Inputs& a) { return mt::any(mt::gt(a[0], 0), std::vector<int64_t>{}, true); });
  check_unary([](const Inputs& a) { return mt::any(mt::gt(a[0], 0), std::vector<int64_t>{}); }, {});
}

// A batched 0-dim value fills each sample with its own value; an unbatched one stays pointwise.
TEST_F(BatchingRules, MaskedFillWithATensorValue) {
  const Fn fill = [](const Inputs& a) { return mt::masked_fill(a[0], mt::gt(a[0], 0), a[1]); };
  const Fn fill_ = [](const Inputs& a) {
    Tensor y = mt::mul(a[0], 1.0);
    y.masked_fill_(mt::gt(a[0], 0), a[1]);
    return y;
  };
  const Tensor x = mt::randn({4, 3}), v = mt::randn({4}), v64 = mt::randn({4}, mt::kFloat64);
  for (const Fn& f : {fill, fill_}) {
    check(f, {x, v}, Dims{0, 0});
    check(f, {x.t(), v64}, Dims{1, 0});  // the value is cast to self's dtype
    check(f, {x, v.select(0, 1)}, Dims{0, None});
  }
  check(fill, {x.select(0, 0), v}, Dims{None, 0}, 1);  // in place, an unbatched self cannot take a batch
}

TEST_F(BatchingRules, BatchedLogicalScalarsPromoteAsZeroDimTensors) {
  const Tensor x = mt::randn({4}, mt::TensorOptions().dtype(mt::kFloat64)), y = mt::randn({3});
  check([](const Inputs& a) { return mt::add(a[0], a[1]); }, {x, y}, Dims{0, None});
  check([](const Inputs& a) { return mt::mul(a[1], a[0]); }, {x, y}, Dims{0, None});
  check([](const Inputs& a) { return mt::where(mt::gt(a[0], 0), a[1], a[0]); }, {x, y}, Dims{0, None});
  const Tensor i = mt::tensor<int64_t>({1, 2, 3, 4});
  check([](const Inputs& a) { return mt::lt(a[0], a[1]); }, {i, y}, Dims{0, None});
}

TEST_F(BatchingRules, InPlacePointwiseWritesThroughTheBatchedSelf) {
  const Tensor x = mt::randn({3, 4}), y = mt::randn({3}), z = mt::randn({4, 3});
  Tensor a = x.clone();
  mt::vmap([](const Inputs& in) { return in[0].add_(in[1]); }, {1, None})({a, y});
  mt_test::expect_same(a, mt::add(x, y.unsqueeze(1)));
  Tensor b = x.clone();
  mt::vmap([](const Inputs& in) { return in[0].mul_(in[1]); }, {1, 0})({b, z});
  mt_test::expect_same(b, mt::mul(x, z.t()));
  Tensor c = x.clone();
  mt::vmap([](const Inputs& in) { return in[0].mul_(2).relu_(); }, {0})({c});
  mt_test::expect_same(c, mt::relu(mt::mul(x, 2)));
  Tensor d = mt::zeros({3, 4});
  mt::vmap([](const Inputs& in) { return in[0].copy_(in[1]); }, {0, 1})({d, z});
  mt_test::expect_same(d, z.t());
}

// Beyond the reductions' OpInfo rows (tests/opinfo/reduction_test.cpp): values with indices, the empty
// dim list, a correction, the single-dim overloads, and the softmaxes.
TEST_F(BatchingRules, ReductionsOverAllOrSomeLogicalDims) {
  const std::vector<Fn> fns = {
      [](const Inputs& a) { return mt::sum(a[0], std::vector<int64_t>{0, -1}, true); },
      [](const Inputs& a) { return mt::max(a[0]); },
      [](const Inputs& a) { return std::get<0>(mt::max(a[0], 1)); },
      [](const Inputs& a) { return std::get<1>(mt::max(a[0], 1)); },
      [](const Inputs& a) { return std::get<1>(mt::min(a[0], -1, true)); },
      [](const Inputs& a) { return mt::min(a[0]); },
      [](const Inputs& a) { return mt::amin(a[0], std::vector<int64_t>{}); },
      [](const Inputs& a) { return mt::argmax(a[0]); },
      [](const Inputs& a) { return mt::argmax(a[0], std::nullopt, true); },
      [](const Inputs& a) { return mt::argmin(a[0], 1); },
      [](const Inputs& a) { return mt::std(a[0], std::vector<int64_t>{1}, std::optional<mt::Scalar>(0)); },
      [](const Inputs& a) { return mt::any(mt::gt(a[0], 0), 1); },
      [](const Inputs& a) { return mt::softmax(a[0], 1); },
      [](const Inputs& a) { return mt::log_softmax(a[0], -1); },
      [](const Inputs& a) { return mt::log_softmax(a[0], 0); },
  };
  for (size_t i = 0; i < fns.size(); ++i) {
    SCOPED_TRACE("function " + std::to_string(i));
    check_unary(fns[i]);
  }
}

TEST_F(BatchingRules, ReductionsOfLogicalScalars) {
  check_unary([](const Inputs& a) { return mt::sum(a[0]); }, {});
  check_unary([](const Inputs& a) { return mt::mean(a[0], std::vector<int64_t>{0}); }, {});
}

// vmap over a 1-D tensor gives 0-dim samples, whose dims wrap as if they had one (0 and -1 name it).
TEST_F(BatchingRules, OpsOnZeroDimSamplesWrapTheirDimsAsOutsideVmap) {
  const Tensor zero = mt::zeros({}, mt::kInt64);
  const std::vector<Fn> fns = {
      [](const Inputs& a) { return mt::softmax(a[0], 0); },
      [](const Inputs& a) { return mt::softmax(a[0], -1); },
      [](const Inputs& a) { return mt::log_softmax(a[0], 0); },
      [](const Inputs& a) { return mt::log_softmax(a[0], -1); },
      [](const Inputs& a) { return a[0].squeeze(0); },
      [](const Inputs& a) { return a[0].squeeze(-1); },
      [](const Inputs& a) { return a[0].squeeze(); },
      [](const Inputs& a) { return a[0].transpose(0, -1); },
      [](const Inputs& a) { return mt::movedim(a[0], 0, -1); },
      [](const Inputs& a) { return mt::movedim(a[0], std::vector<int64_t>{-1}, std::vector<int64_t>{0}); },
      [](const Inputs& a) { return mt::flatten(a[0]); },
      [](const Inputs& a) { return mt::flatten(a[0], 0, -1); },
      [](const Inputs& a) { return a[0].unsqueeze(0); },
      [](const Inputs& a) { return a[0].unsqueeze(-1); },
      [](const Inputs& a) { return a[0].permute({}); },
      [](const Inputs& a) { return a[0].t(); },
      [](const Inputs& a) {
        return mt::stack({a[0], a[0]}, -1);
      },
      [](const Inputs& a) { return mt::sum(a[0], std::vector<int64_t>{0}); },
      [](const Inputs& a) { return mt::sum(a[0], std::vector<int64_t>{0}, true); },
      [](const Inputs& a) { return mt::mean(a[0], std::vector<int64_t>{-1}, true); },
      [](const Inputs& a) { return std::get<0>(mt::max(a[0], 0, true)); },
      [](const Inputs& a) { return std::get<1>(mt::min(a[0], -1, true)); },
      [](const Inputs& a) { return mt::argmax(a[0], 0, true); },
      [](const Inputs& a) { return mt::argmax(a[0], std::nullopt, true); },
      [](const Inputs& a) { return mt::amax(a[0], std::vector<int64_t>{0}, true); },
      [](const Inputs& a) { return mt::logsumexp(a[0], std::vector<int64_t>{0}, true); },
      [](const Inputs& a) { return mt::norm(a[0], 2, std::vector<int64_t>{0}, true); },
      [](const Inputs& a) { return mt::var(a[0], std::vector<int64_t>{0}, std::optional<mt::Scalar>(0), true); },
      [&](const Inputs& a) { return mt::gather(a[0], 0, zero); },
      [&](const Inputs& a) { return mt::gather(a[0], -1, mt::zeros({3}, mt::kInt64)); },
      [&](const Inputs& a) { return mt::scatter(a[0], 0, zero, mt::mul(a[0], 2.0)); },
      [&](const Inputs& a) { return mt::scatter_add(a[0], 0, zero, a[0]); },
      [&](const Inputs& a) { return mt::index_select(a[0], 0, mt::zeros({1}, mt::kInt64)); },
  };
  for (size_t i = 0; i < fns.size(); ++i) {
    SCOPED_TRACE("function " + std::to_string(i));
    check_unary(fns[i], {});
  }
  // A batched 0-dim index into a shared vector, and a batched 0-dim self written by scatter_.
  const Tensor self = mt::randn({3}), index = mt::tensor<int64_t>({2, 0, 1, 2});
  check([](const Inputs& a) { return mt::gather(a[0], 0, a[1]); }, {self, index}, Dims{None, 0});
  check([](const Inputs& a) { return a[0].clone().scatter_(0, mt::zeros({}, mt::kInt64), a[1]); },
        {mt::randn({4}), mt::randn({4})}, Dims{0, 0});
}

// What an op refuses outside vmap it refuses inside, with the same error: 0-dim samples of ops that
// need a dim, a permutation of the wrong length, and a vector sample of ops that need a matrix.
TEST_F(BatchingRules, WhatTheUnbatchedOpRefusesGivesTheSameError) {
  const auto error_of = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const mt::Error& e) {
      return std::string(typeid(e).name()) + ": " + e.what();
    }
    return "no error";
  };
  struct Case {
    Fn f;
    std::vector<int64_t> sample;
  };
  const std::vector<Case> cases = {
      {[](const Inputs& a) { return a[0].select(0, 0); }, {}},
      {[](const Inputs& a) { return a[0].narrow(-1, 0, 1); }, {}},
      {[](const Inputs& a) { return mt::slice(a[0], 0, 0, 1, 1); }, {}},
      {[](const Inputs& a) { return mt::unbind(a[0], 0)[0]; }, {}},
      {[](const Inputs& a) { return mt::split(a[0], 1, 0)[0]; }, {}},
      {[](const Inputs& a) { return mt::chunk(a[0], 1, 0)[0]; }, {}},
      {[](const Inputs& a) { return mt::diagonal(a[0]); }, {}},
      {[](const Inputs& a) { return mt::unflatten(a[0], 0, std::vector<int64_t>{1}); }, {}},
      {[](const Inputs& a) {
         return mt::cat({a[0], a[0]}, 0);
       },
       {}},
      {[](const Inputs& a) { return a[0].permute({0}); }, {}},
      {[](const Inputs& a) {
         return a[0].permute({1, 0, 2});
       },
       {2, 3}},
      {[](const Inputs& a) { return a[0].permute({0}); }, {2, 3}},
      {[](const Inputs& a) { return mt::tril(a[0]); }, {3}},
      {[](const Inputs& a) { return mt::triu(a[0], 1); }, {}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    std::vector<int64_t> batched = cases[i].sample;
    batched.insert(batched.begin(), 4);
    const std::string expected = error_of([&] { cases[i].f({mt::randn(cases[i].sample)}); });
    EXPECT_NE(expected, "no error");
    EXPECT_EQ(error_of([&] { mt::vmap(cases[i].f)({mt::randn(batched)}); }), expected);
  }
}

// as_strided views within each sample (the loop's samples are selects of a contiguous batch, so a
// storage_offset is relative to each sample's own first element).
TEST_F(BatchingRules, AsStridedWithinEachSample) {
  check([](const Inputs& a) { return a[0].as_strided({5, 3}, {1, 5}); }, {mt::randn({4, 15})}, Dims{0});
  check([](const Inputs& a) { return a[0].as_strided({2, 2}, {3, 1}, a[0].storage_offset() + 4); },
        {mt::randn({4, 3, 5})}, Dims{0});
  const Tensor x = mt::randn({4, 6});
  EXPECT_TRUE(mt_test::contains(mt_test::message_of<mt::RuntimeError>([&] {
                                  mt::vmap([](const Inputs& a) { return a[0].as_strided({7}, {1}); })({x});
                                }),
                                "reaches outside the memory of its own sample"));
}

TEST_F(BatchingRules, DetachInPlaceDetachesEverySample) {
  const Tensor x = mt::randn({4, 3}).requires_grad_();
  const Tensor y = mt::mul(x, 2.0);
  const Tensor out = mt::vmap([](const Inputs& a) {
    Tensor v = mt::add(a[0], 1.0);
    v.detach_();
    EXPECT_FALSE(v.requires_grad());
    return v;
  })({y});
  EXPECT_FALSE(out.requires_grad());
  mt_test::expect_same(out, mt::add(mt::mul(x.detach(), 2.0), 1.0));
}

TEST_F(BatchingRules, BinaryCrossEntropyBackwardForEveryReduction) {
  const Tensor p = mt::sigmoid(mt::randn({4, 5, 3})), y = mt::sigmoid(mt::randn({5, 3})), w = mt::rand({3, 4});
  const Tensor g_all = mt::randn({4, 5, 3}), g_scalar = mt::randn({4});
  for (int64_t reduction : {mt::Reduction::None, mt::Reduction::Mean, mt::Reduction::Sum}) {
    SCOPED_TRACE("reduction " + std::to_string(reduction));
    const Tensor& g = reduction == mt::Reduction::None ? g_all : g_scalar;
    check([=](const Inputs& a) { return mt::binary_cross_entropy_backward(a[0], a[1], a[2], std::nullopt, reduction); },
          {g, p, y}, Dims{0, 0, None});
    check([=](const Inputs& a) { return mt::binary_cross_entropy_backward(a[0], a[1], a[2], a[3], reduction); },
          {g, y, p, w}, Dims{0, None, 0, 1});
  }
}

TEST_F(BatchingRules, NllLossForwardAndBackwardForEveryReduction) {
  const Tensor x = mt::log_softmax(mt::randn({4, 5, 3}), 2), w = mt::rand({3});
  const Tensor target = mt::tensor<int64_t>({{0, 2, 1, -100, 0}, {2, 2, 0, 1, 1}, {-100, 0, 0, 1, 2}, {1, 2, 0, 0, 1}});
  const Tensor g_all = mt::randn({4, 5}), g_scalar = mt::randn({4});
  for (int64_t reduction : {mt::Reduction::None, mt::Reduction::Mean, mt::Reduction::Sum}) {
    SCOPED_TRACE("reduction " + std::to_string(reduction));
    for (int output : {0, 1}) {
      check([=](const Inputs& a) {
        const auto results = mt::nll_loss_forward(a[0], a[1], a[2], reduction, -100);
        return output == 0 ? std::get<0>(results) : std::get<1>(results);
      }, {x, target, w}, Dims{0, 0, None});
    }
    const Tensor total_weight = mt::vmap([=](const Inputs& a) {
      return std::get<1>(mt::nll_loss_forward(a[0], a[1], a[2], reduction, -100));
    }, mt::InDims(Dims{0, 0, None}))({x, target, w});
    const Tensor& g = reduction == mt::Reduction::None ? g_all : g_scalar;
    check([=](const Inputs& a) { return mt::nll_loss_backward(a[0], a[1], a[2], a[3], reduction, -100, a[4]); },
          {g, x, target, w, total_weight}, Dims{0, 0, 0, None, 0});
    check([=](const Inputs& a) {
      return mt::nll_loss_backward(a[0], a[1], a[2], std::nullopt, reduction, -100, a[3]);
    }, {g, x, target.select(0, 1), total_weight}, Dims{0, 0, None, 0});
  }
}

TEST_F(BatchingRules, ThresholdBackwardBroadcastsLikeABinaryOp) {
  const Tensor g = mt::randn({4, 5, 3}), x = mt::randn({4, 5, 3}), shared = mt::randn({5, 3});
  const auto f = [](const Inputs& a) { return mt::threshold_backward(a[0], a[1], 0.1); };
  check(f, {g, x}, Dims{0, 0});
  check(f, {g, shared}, Dims{0, None});
  check(f, {g.select(0, 0), x.permute({1, 2, 0})}, Dims{None, 2});
}

TEST_F(BatchingRules, SqueezeNeverSqueezesABatchOfOne) {
  check_unary([](const Inputs& a) { return a[0].squeeze(); }, {1, 3}, 1);
}

TEST_F(BatchingRules, ViewsAliasTheirBatchedInput) {
  Tensor x = mt::zeros({4, 3});
  mt::vmap([](const Inputs& a) { return a[0].select(0, 1).fill_(5.0); })({x});
  mt_test::expect_same(x.select(1, 1), mt::full({4}, 5.0));
}

TEST_F(BatchingRules, MatrixProducts) {
  const Fn mm = [](const Inputs& a) { return mt::mm(a[0], a[1]); };
  check(mm, {mt::randn({4, 2, 3}), mt::randn({4, 3, 5})}, Dims{0, 0});
  check(mm, {mt::randn({2, 4, 3}), mt::randn({3, 5})}, Dims{1, None});
  check(mm, {mt::randn({2, 3}), mt::randn({3, 5, 4})}, Dims{None, -1});
  const Fn bmm = [](const Inputs& a) { return mt::bmm(a[0], a[1]); };
  check(bmm, {mt::randn({4, 2, 2, 3}), mt::randn({2, 3, 5})}, Dims{0, None});
  check(bmm, {mt::randn({2, 2, 3}), mt::randn({2, 4, 3, 5})}, Dims{None, 1});
  const Fn dot = [](const Inputs& a) { return mt::dot(a[0], a[1]); };
  check(dot, {mt::randn({4, 3}), mt::randn({3, 4})}, Dims{0, 1});
  check(dot, {mt::randn({4, 3}), mt::randn({3})}, Dims{0, None});
  check(dot, {mt::randn({3}), mt::randn({3, 4})}, Dims{None, 1});
  const Fn matmul = [](const Inputs& a) { return mt::matmul(a[0], a[1]); };
  check(matmul, {mt::randn({4, 3}), mt::randn({3, 5})}, Dims{0, None});
  check(matmul, {mt::randn({2, 3, 4}), mt::randn({4, 3})}, Dims{2, 0});
  check(matmul, {mt::randn({4, 6, 2, 3}), mt::randn({3})}, Dims{0, None});
  const Fn linear = [](const Inputs& a) { return mt::linear(a[0], a[1], a[2]); };
  check(linear, {mt::randn({4, 6, 3}), mt::randn({2, 3}), mt::randn({2})}, Dims{0, None, None});
  check(linear, {mt::randn({6, 3}), mt::randn({2, 3, 4}), mt::randn({4, 2})}, Dims{None, 2, 0});
  const Fn addmm = [](const Inputs& a) { return mt::addmm(a[0], a[1], a[2], 0.5, 2); };
  check(addmm, {mt::randn({5}), mt::randn({4, 2, 3}), mt::randn({3, 5})}, Dims{None, 0, None});
  check(addmm, {mt::randn({4, 2, 5}), mt::randn({2, 3}), mt::randn({3, 5, 4})}, Dims{0, None, 2});
  const Fn mv = [](const Inputs& a) { return mt::mv(a[0], a[1]); };
  check(mv, {mt::randn({4, 2, 3}), mt::randn({3})}, Dims{0, None});
  check(mv, {mt::randn({2, 3}), mt::randn({3, 4})}, Dims{None, 1});
  check(mv, {mt::randn({2, 4, 3}), mt::randn({4, 3})}, Dims{1, 0});
  const Fn outer = [](const Inputs& a) { return mt::outer(a[0], a[1]); };
  check(outer, {mt::randn({4, 3}), mt::randn({2})}, Dims{0, None});
}

TEST_F(BatchingRules, OutDimsWithRules) {
  check([](const Inputs& a) { return mt::mm(a[0], a[1]); }, {mt::randn({4, 2, 3}), mt::randn({3, 5})}, Dims{0, None},
        2);
}

}  // namespace

namespace {

TEST_F(BatchingRules, IndexingOps) {
  const Tensor idx3 = mt::tensor<int64_t>({2, 0, 1}), idx_b = mt::tensor<int64_t>({{0, 1}, {2, 2}, {1, 0}, {0, 0}});
  const Fn index_select = [](const Inputs& a) { return mt::index_select(a[0], 1, a[1]); };
  check(index_select, {mt::randn({4, 2, 3}), idx3}, Dims{0, None});
  check(index_select, {mt::randn({2, 3}), idx_b}, Dims{None, 0});
  check(index_select, {mt::randn({2, 4, 3}), idx_b}, Dims{1, 0});
  check(index_select, {mt::randn({2, 4, 3}), idx_b.to(mt::kInt32)}, Dims{1, 0});  // int32, as PyTorch takes
  const Fn gather = [](const Inputs& a) { return mt::gather(a[0], 0, a[1]); };
  const Tensor gidx = mt::tensor<int64_t>({{0, 1, 1}, {1, 0, 0}});
  check(gather, {mt::randn({4, 2, 3}), gidx}, Dims{0, None});
  const Tensor gidx_b = mt::stack({gidx, mt::sub(mt::ones_like(gidx), gidx)}, 2);
  check(gather, {mt::randn({2, 3}), gidx_b}, Dims{None, 2});
  check(gather, {mt::randn({2, 3, 2}), gidx_b}, Dims{-1, -1});
  const Fn scatter_add = [](const Inputs& a) { return mt::scatter_add(a[0], 0, a[1], a[2]); };
  check(scatter_add, {mt::zeros({2, 3}), gidx_b, mt::randn({2, 2, 3})}, Dims{None, 2, 0});
  const Fn scatter = [](const Inputs& a) { return mt::scatter(a[0], 1, a[1], 5.0); };
  check(scatter, {mt::randn({4, 2, 3}), gidx}, Dims{0, None});
  const Fn tril = [](const Inputs& a) { return mt::triu(mt::tril(a[0], 1), -1); };
  check(tril, {mt::randn({3, 4, 5})}, Dims{0});
  check(tril, {mt::randn({3, 4, 5})}, Dims{2});
}

// Sample b's six positions into 12 elements, shaped [2, 3]: (5 b + 7 k) mod 12 for k < 6, distinct
// within a sample, every other one written as its negative twin.
Tensor flat_positions(int64_t batch) {
  std::vector<int64_t> v;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t k = 0; k < 6; ++k) v.push_back((5 * b + 7 * k) % 12 - (k % 2) * 12);
  }
  return mt::tensor(v, {batch, 2, 3}, mt::TensorOptions(mt::kInt64));
}

TEST_F(BatchingRules, TakeWithAnyArgumentBatched) {
  const Fn take = [](const Inputs& a) { return mt::take(a[0], a[1]); };
  const Tensor idx_b = flat_positions(4), idx = idx_b.select(0, 1);
  check(take, {mt::randn({4, 3, 4}), idx}, Dims{0, None});
  check(take, {mt::randn({3, 4, 4}), idx}, Dims{2, None});
  check(take, {mt::randn({3, 4}), idx_b.movedim(0, 2)}, Dims{None, 2});
  check(take, {mt::randn({3, 4}).t(), idx_b}, Dims{None, 0});
  check(take, {mt::randn({3, 4, 4}), idx_b}, Dims{2, 0});
  check(take, {mt::randn({4, 3, 4}).transpose(1, 2), idx_b.movedim(0, 1)}, Dims{0, 1});
  check(take, {mt::randn({4}), mt::tensor<int64_t>({0, -1, 0, -1})}, Dims{0, 0});  // 0-dim self and index
  const Tensor x = mt::randn({4, 6});
  EXPECT_EQ(mt_test::message_of<mt::IndexError>(
                [&] { mt::vmap(take, mt::InDims(Dims{0, None}))({x, mt::tensor<int64_t>({1, 6})}); }),
            "out of range: tried to access index 6 on a tensor of 6 elements.");
  EXPECT_EQ(mt_test::message_of<mt::RuntimeError>(
                [&] { mt::vmap(take, mt::InDims(Dims{0, None}))({x, mt::tensor<double>({1.0})}); }),
            "take(): Expected a long tensor for index, but got mt.float32");
}

TEST_F(BatchingRules, PutWithAnyArgumentBatched) {
  const Fn put = [](const Inputs& a) { return mt::put(a[0], a[1], a[2]); };
  const Fn put_add = [](const Inputs& a) { return mt::put(a[0], a[1], a[2], /*accumulate=*/true); };
  const Tensor self_b = mt::randn({4, 3, 4}), self = mt::randn({3, 4});
  const Tensor idx_b = flat_positions(4), idx = idx_b.select(0, 2);
  const Tensor src_b = mt::randn({3, 2, 4}), src = mt::randn({3, 2});  // source shaped unlike index
  for (const Fn& f : {put, put_add}) {
    check(f, {self_b, idx, src}, Dims{0, None, None});
    check(f, {self, idx_b, src}, Dims{None, 0, None});
    check(f, {self, idx, src_b}, Dims{None, None, 2});
    check(f, {self_b, idx_b, src}, Dims{0, 0, None});
    check(f, {self_b, idx, src_b}, Dims{0, None, 2});
    check(f, {self.t(), idx_b, src_b}, Dims{None, 0, 2});
    check(f, {self_b.movedim(0, 2), idx_b.movedim(0, -1), src_b}, Dims{2, -1, 2});
  }
  // Accumulating sums the repeated positions of each sample.
  const Tensor repeats = mt::tensor<int64_t>({{0, 0, -12}, {5, 5, 5}, {11, -1, 3}, {7, 2, 7}});
  check(put_add, {self_b, repeats, mt::randn({4, 3})}, Dims{0, 0, 0});
  check(put_add, {self, repeats, mt::randn({3})}, Dims{None, 0, None});
  const Tensor three = mt::randn({4, 3});
  EXPECT_EQ(mt_test::message_of<mt::IndexError>(
                [&] { mt::vmap(put, mt::InDims(Dims{None, 0, 0}))({self, idx_b, three}); }),
            "put_(): Expected source and index to have the same number of elements, but got source.numel() = 3, "
            "index.numel() = 6");
  EXPECT_EQ(mt_test::message_of<mt::IndexError>(
                [&] { mt::vmap(put, mt::InDims(Dims{0, 0, 0}))({self_b, repeats.add(12), three}); }),
            "out of range: tried to access index 12 on a tensor of 12 elements.");
}

TEST_F(BatchingRules, CopyWithAnyArgumentBatched) {
  const Fn copy = [](const Inputs& a) { return mt::copy(a[0], a[1]); };
  check(copy, {mt::randn({4, 2, 3}), mt::randn({3})}, Dims{0, None});
  check(copy, {mt::randn({2, 3}), mt::randn({3, 4})}, Dims{None, 1});
  check(copy, {mt::randn({2, 4, 3}), mt::randn({4, 2, 1})}, Dims{1, 0});
  check(copy, {mt::randn({2, 4}).t(), mt::randn({4})}, Dims{0, 0});  // 0-dim src
  check(copy, {mt::zeros({2, 3}, mt::TensorOptions(mt::kInt64)), mt::mul(mt::randn({4, 3}), 3.0)}, Dims{None, 0});
  check(copy, {mt::zeros({4, 3}, mt::TensorOptions(mt::kBool)), mt::randn({3})}, Dims{0, None});
  // A src of more logical dims than self is refused, as without vmap.
  EXPECT_THROW(mt::vmap(copy, mt::InDims(Dims{0, 0}))({mt::randn({4, 3}), mt::randn({4, 1, 3})}), mt::RuntimeError);
  EXPECT_THROW(mt::vmap(copy, mt::InDims(Dims{0, None}))({mt::randn({4, 3}), mt::randn({1, 3})}), mt::RuntimeError);
}

TEST_F(BatchingRules, LossesDecomposeIntoRules) {
  const Tensor logits = mt::randn({4, 5, 3}), target = mt::tensor<int64_t>({{0, 2, 1, 1, 0}, {2, 2, 0, 1, 1}, {0, 0, 0, 1, 2}, {1, 2, 0, 0, 1}});
  check([](const Inputs& a) { return mt::cross_entropy_loss(a[0], a[1]); }, {logits, target}, Dims{0, 0});
  check([](const Inputs& a) { return mt::nll_loss(mt::log_softmax(a[0], 1), a[1], std::nullopt, mt::Reduction::Sum); },
        {logits, target.select(0, 0)}, Dims{0, None});
  check([](const Inputs& a) { return mt::mse_loss(a[0], a[1]); }, {logits, mt::randn({5, 3})}, Dims{0, None});
  const Tensor p = mt::sigmoid(mt::randn({4, 5, 3})), y = mt::sigmoid(mt::randn({5, 3})), w = mt::rand({3, 4});
  for (int64_t reduction : {mt::Reduction::None, mt::Reduction::Mean, mt::Reduction::Sum}) {
    SCOPED_TRACE("reduction " + std::to_string(reduction));
    check([=](const Inputs& a) { return mt::binary_cross_entropy(a[0], a[1], std::nullopt, reduction); }, {p, y},
          Dims{0, None});
    check([=](const Inputs& a) { return mt::binary_cross_entropy(a[0], a[1], a[2], reduction); }, {y, p, w},
          Dims{None, 0, 1});
  }
}

TEST_F(BatchingRules, OneHotNeedsAnExplicitClassCount) {
  const Tensor labels = mt::tensor<int64_t>({{0, 3, 1}, {2, 2, 0}});
  check([](const Inputs& a) { return mt::one_hot(a[0], 4); }, {labels}, Dims{1});
  check([](const Inputs& a) { return mt::one_hot(a[0], 5); }, {labels}, Dims{0});
  EXPECT_THROW(mt::vmap([](const Inputs& a) { return mt::one_hot(a[0]); })({labels}), mt::RuntimeError);
}

TEST_F(BatchingRules, InPlaceIndexingAndAddmm) {
  const Tensor x = mt::randn({3, 4, 4});
  Tensor y = x.clone();
  mt::vmap([](const Inputs& a) { return a[0].tril_(0); }, {1})({y});
  mt_test::expect_same(y, mt::tril(x.transpose(0, 1), 0).transpose(0, 1));
  const Tensor m1 = mt::randn({3, 2, 5}), m2 = mt::randn({5, 4});
  Tensor out = mt::randn({3, 2, 4});
  const Tensor expected = mt::add(mt::mul(out, 0.5), mt::matmul(m1, m2), 2);
  mt::vmap([](const Inputs& a) { return a[0].addmm_(a[1], a[2], 0.5, 2); }, {0, 0, None})({out, m1, m2});
  mt_test::expect_same(out, expected);
}

}  // namespace
