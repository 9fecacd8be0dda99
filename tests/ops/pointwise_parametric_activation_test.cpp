// The parametric activations beyond the OpInfo rows' defaults (tests/opinfo/unary_table.cpp): leaky_relu,
// elu, celu and softplus with their parameters, hardtanh and relu6 (on integers too, as clamps),
// softplus's threshold, glu, hand-worked values and every error.
#include <cmath>
#include <limits>

#include "reference.h"
#include "ops/api/celu.h"
#include "ops/api/elu.h"
#include "ops/api/empty.h"
#include "ops/api/glu.h"
#include "ops/api/hardtanh.h"
#include "ops/api/leaky_relu.h"
#include "ops/api/log_sigmoid.h"
#include "ops/api/mish.h"
#include "ops/api/ones.h"
#include "ops/api/relu6.h"
#include "ops/api/selu.h"
#include "ops/api/softplus.h"
#include "ops/api/std.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(ParametricActivation, ParametersChangeTheNegativeSide) {
  const Tensor x = mt::tensor({-2.0, 0.0, 3.0}, TensorOptions(kFloat64));
  EXPECT_EQ(values(mt::leaky_relu(x, 0.5)), (std::vector<double>{-1, 0, 3}));
  EXPECT_EQ(values(mt::leaky_relu(x, -1)), (std::vector<double>{2, 0, 3}));
  expect_values_near(mt::elu(x, 2.0), {2 * std::expm1(-2.0), 0, 3}, 1e-15);
  expect_values_near(mt::elu(x, 2.0, 3.0, 0.5), {6 * std::expm1(-1.0), 0, 9}, 1e-15);
  // celu(x, alpha) = max(0, x) + min(0, alpha (exp(x / alpha) - 1)).
  expect_values_near(mt::celu(x, 4.0), {4 * std::expm1(-0.5), 0, 3}, 1e-15);
  // softplus(x, beta, threshold): log(1 + exp(beta x)) / beta, and x itself once beta x passes threshold.
  expect_values_near(mt::softplus(x, 2.0),
                     {std::log1p(std::exp(-4.0)) / 2, std::log(2.0) / 2, std::log1p(std::exp(6.0)) / 2}, 1e-15);
  EXPECT_EQ(values(mt::softplus(x, 1.0, 2.5))[2], 3);
  expect_values_near(mt::softplus(x, 1.0, 3.5), {std::log1p(std::exp(-2.0)), std::log(2.0), std::log1p(std::exp(3.0))},
                     1e-15);
  // Large arguments neither overflow nor lose the linear part.
  const Tensor big = mt::tensor({-800.0, 800.0, -kInf, kInf}, TensorOptions(kFloat64));
  EXPECT_EQ(values(mt::log_sigmoid(big)), (std::vector<double>{-800, 0, -kInf, 0}));
  EXPECT_EQ(values(mt::softplus(big)), (std::vector<double>{0, 800, 0, kInf}));
  const std::vector<double> mish = values(mt::mish(big));  // -inf * tanh(softplus(-inf)) is -inf * 0
  EXPECT_EQ(mish[0], 0);
  EXPECT_EQ(mish[1], 800);
  EXPECT_TRUE(std::isnan(mish[2]));
  EXPECT_EQ(mish[3], kInf);
  EXPECT_TRUE(std::isnan(values(mt::leaky_relu(mt::tensor({std::nan("")})))[0]));
}

TEST(ParametricActivation, HardtanhAndRelu6ClampEveryNumericDtype) {
  const Tensor x = mt::tensor({-7.5, -0.5, 0.25, 6.5});
  EXPECT_EQ(values(mt::hardtanh(x)), (std::vector<double>{-1, -0.5, 0.25, 1}));
  EXPECT_EQ(values(mt::hardtanh(x, -2, 0)), (std::vector<double>{-2, -0.5, 0, 0}));
  EXPECT_EQ(values(mt::relu6(x)), (std::vector<double>{0, 0, 0.25, 6}));
  for (ScalarType dt : {kUInt8, kInt8, kInt16, kInt32, kInt64}) {
    SCOPED_TRACE(scalar_type_name(dt));
    const Tensor i = mt::tensor({0, 3, 9, 100}, TensorOptions(dt));
    EXPECT_EQ(mt::relu6(i).dtype(), dt);
    EXPECT_EQ(values(mt::relu6(i)), (std::vector<double>{0, 3, 6, 6}));
    // Bounds past the dtype's range saturate: they clamp nothing a uint8 holds.
    EXPECT_EQ(values(mt::hardtanh(i, -1000, 1000)), values(i));
  }
  Tensor y = x.clone();
  EXPECT_TRUE(mt::relu6_(y).is_same(y));
  EXPECT_EQ(values(y), (std::vector<double>{0, 0, 0.25, 6}));
  Tensor out = mt::empty({0});
  mt::hardtanh_out(out, x, -0.25, 0.25);
  EXPECT_EQ(values(out), (std::vector<double>{-0.25, -0.25, 0.25, 0.25}));
  expect_error<RuntimeError>([] { (void)mt::hardtanh(mt::tensor({true})); }, "Bool inputs not supported for hardtanh");
}

TEST(ParametricActivation, GluGatesOneHalfByTheOther) {
  const Tensor x = mt::tensor({{1.0, 2.0, 0.0, 3.0}, {-1.0, 4.0, 1.0, -2.0}}, TensorOptions(kFloat64));
  const auto sig = [](double v) { return 1 / (1 + std::exp(-v)); };
  expect_values_near(mt::glu(x), {1 * sig(0), 2 * sig(3), -1 * sig(1), 4 * sig(-2)}, 1e-15);
  expect_values_near(mt::glu(x, 0), {1 * sig(-1), 2 * sig(4), 0 * sig(1), 3 * sig(-2)}, 1e-15);
  EXPECT_EQ(mt::glu(x).sizes(), (std::vector<int64_t>{2, 2}));
  expect_error<RuntimeError>([] { (void)mt::glu(mt::ones({2, 3})); },
                             "Halving dimension must be even, but dimension 1 is size 3");
  expect_error<RuntimeError>([] { (void)mt::glu(mt::tensor(1.0)); }, "glu does not support scalars");
}

TEST(ParametricActivation, ErrorsNameTheProblemAndChangeNothing) {
  const Tensor i = mt::tensor({1, 2});
  expect_error<NotImplementedError>([&] { (void)mt::leaky_relu(i); }, "\"leaky_relu\" not implemented for 'mt.int64'");
  expect_error<NotImplementedError>([&] { (void)mt::selu(i); }, "\"elu\" not implemented for 'mt.int64'");
  expect_error<NotImplementedError>([&] { (void)mt::softplus(mt::tensor({true})); },
                                    "\"softplus\" not implemented for 'mt.bool'");
  expect_error<RuntimeError>([] { (void)mt::celu(mt::ones({2}), 0.0); },
                             "ZeroDivisionError from celu: alpha cannot be 0.");
  Tensor x = mt::ones({2});
  expect_error<RuntimeError>([&] { mt::elu_out(x, mt::ones({3})); },
                             "output with shape [2] doesn't match the broadcast shape [3]");
  Tensor ints = mt::ones({2}, TensorOptions(kInt64));
  expect_error<Error>([&] { mt::mish_out(ints, mt::ones({2})); }, "can't be cast to the desired output type mt.int64");
  EXPECT_EQ(values(ints), (std::vector<double>{1, 1}));
}

TEST(ParametricActivation, MetaTensorsGetShapesAndDtypes) {
  const Tensor x = mt::empty({2, 6}, TensorOptions(kBFloat16).device(kMeta));
  for (const Tensor& r : {mt::leaky_relu(x), mt::elu(x), mt::softplus(x), mt::hardtanh(x), mt::mish(x)}) {
    EXPECT_TRUE(r.is_meta());
    EXPECT_EQ(r.dtype(), kBFloat16);
    EXPECT_EQ(r.sizes(), (std::vector<int64_t>{2, 6}));
  }
  EXPECT_EQ(mt::glu(x).sizes(), (std::vector<int64_t>{2, 3}));
  expect_error<NotImplementedError>([] { (void)mt::mish(mt::empty({2}, TensorOptions(kInt32).device(kMeta))); },
                                    "\"mish\" not implemented for 'mt.int32'");
}

}  // namespace
