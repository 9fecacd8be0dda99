// relu, gelu (exact and tanh), silu and threshold_backward (relu's gradient) against naive double-precision formulas: every supported dtype,
// 0-dim, empty and non-contiguous inputs, in-place and out= forms, Meta shapes and every error.
#include <cmath>
#include <limits>

#include "ops/infra/Parallel.h"
#include "pointwise_reference.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/gelu.h"
#include "ops/api/ones.h"
#include "ops/api/relu.h"
#include "ops/api/silu.h"
#include "ops/api/threshold_backward.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double ref_relu(double x) { return std::isnan(x) ? x : (x < 0 ? 0 : x); }
double ref_gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }
double ref_gelu_tanh(double x) {
  const double k = std::sqrt(2 / M_PI);
  return 0.5 * x * (1 + std::tanh(k * (x + 0.044715 * x * x * x)));
}
double ref_silu(double x) { return x / (1 + std::exp(-x)); }

const std::vector<int64_t> kShapes[] = {{2, 3}, {}, {0, 4}, {3, 1, 5}};

TEST(PointwiseActivation, ReluMatchesReferenceAndKeepsDtype) {
  uint64_t seed = 1;
  for (ScalarType dt : kNumericDtypes) {
    for (const auto& shape : kShapes) {
      const Tensor a = random_tensor(shape, dt, seed++);
      const Tensor r = mt::relu(a);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), a.sizes());
      expect_close(r, naive_unary(a, ref_relu), 0);
      expect_close(a.relu(), naive_unary(a, ref_relu), 0);
    }
    const Tensor t = transposed_random(3, 4, dt, seed++);
    expect_close(mt::relu(t), naive_unary(t, ref_relu), 0);
  }
  expect_close(mt::relu(mt::tensor({kNaN, -kInf, kInf, -0.5})), {kNaN, 0, kInf, 0}, 0);
}

TEST(PointwiseActivation, GeluBothFormsMatchReference) {
  uint64_t seed = 100;
  for (ScalarType dt : kFloatDtypes) {
    for (const auto& shape : kShapes) {
      const Tensor a = random_tensor(shape, dt, seed++);
      const Tensor exact = mt::gelu(a);
      EXPECT_EQ(exact.dtype(), dt);
      EXPECT_EQ(exact.sizes(), a.sizes());
      expect_close(exact, naive_unary(a, ref_gelu), tolerance(dt));
      expect_close(mt::gelu(a, "tanh"), naive_unary(a, ref_gelu_tanh), tolerance(dt));
    }
    const Tensor t = transposed_random(4, 3, dt, seed++);
    expect_close(mt::gelu(t), naive_unary(t, ref_gelu), tolerance(dt));
    expect_close(mt::gelu(t, "tanh"), naive_unary(t, ref_gelu_tanh), tolerance(dt));
  }
  // Values PyTorch gives for the tanh form.
  expect_close(mt::gelu(mt::tensor({-1.f, 1.f, 3.f}), "tanh"), {-0.15880799293518066, 0.8411920070648193, 2.9963626861572266},
               1e-6);
  // The two forms really differ: exact gelu(1) is 0.8413447.
  expect_close(mt::gelu(mt::tensor({1.0}, TensorOptions(kFloat64))), {0.8413447460685429}, 1e-12);
  // gelu(-inf) is -inf * 0: NaN, as in PyTorch.
  expect_close(mt::gelu(mt::tensor({-kInf, kInf, kNaN, -10.0}, TensorOptions(kFloat64))), {kNaN, kInf, kNaN, ref_gelu(-10)},
               1e-12);
}

TEST(PointwiseActivation, SiluMatchesReference) {
  uint64_t seed = 200;
  for (ScalarType dt : kFloatDtypes) {
    for (const auto& shape : kShapes) {
      const Tensor a = random_tensor(shape, dt, seed++);
      const Tensor r = mt::silu(a);
      EXPECT_EQ(r.dtype(), dt);
      expect_close(r, naive_unary(a, ref_silu), tolerance(dt));
    }
    const Tensor t = transposed_random(4, 3, dt, seed++);
    expect_close(mt::silu(t), naive_unary(t, ref_silu), tolerance(dt));
  }
  // silu(-inf) is -inf / inf: NaN, as in PyTorch.
  expect_close(mt::silu(mt::tensor({-kInf, kInf, -100.0})), {kNaN, kInf, ref_silu(-100)}, 1e-12);
}

TEST(PointwiseActivation, LargeInputsSplitAcrossThreads) {
  const int64_t n = 3 * kParallelGrain + 5;
  const Tensor a = random_tensor({n}, kFloat32, 7);
  expect_close(mt::relu(a), naive_unary(a, ref_relu), 0);
  expect_close(mt::gelu(a), naive_unary(a, ref_gelu), 1e-5);
  expect_close(mt::gelu(a, "tanh"), naive_unary(a, ref_gelu_tanh), 1e-5);
  expect_close(mt::silu(a), naive_unary(a, ref_silu), 1e-5);
}

TEST(PointwiseActivation, InPlaceAndOutForms) {
  for (ScalarType dt : kFloatDtypes) {
    const Tensor original = random_tensor({2, 5}, dt, 300);
    Tensor a = copy_of(original);
    const void* data = a.data_ptr();
    EXPECT_TRUE(mt::relu_(a).is_same(a));
    EXPECT_EQ(a.data_ptr(), data);
    expect_close(a, naive_unary(original, ref_relu), 0);
    Tensor g = copy_of(original);
    EXPECT_TRUE(mt::gelu_(g, "tanh").is_same(g));
    expect_close(g, naive_unary(original, ref_gelu_tanh), tolerance(dt));
    Tensor s = copy_of(original);
    EXPECT_TRUE(mt::silu_(s).is_same(s));
    expect_close(s, naive_unary(original, ref_silu), tolerance(dt));

    Tensor out = mt::empty({0}, TensorOptions(kFloat64));
    EXPECT_TRUE(mt::gelu_out(out, original).is_same(out));
    EXPECT_EQ(out.sizes(), IntArrayRef({2, 5}));
    expect_close(out, naive_unary(original, ref_gelu), tolerance(dt));
    Tensor silu_out = mt::empty({2, 5}, TensorOptions(dt));
    mt::silu_out(silu_out, original);
    expect_close(silu_out, naive_unary(original, ref_silu), tolerance(dt));
  }
  Tensor i = mt::tensor({-2, 3});
  i.relu_();
  EXPECT_EQ(values(i), (std::vector<double>{0, 3}));
}

// grad where self > threshold, 0 where self <= threshold; a NaN self passes the gradient (NaN <= t is false).
TEST(PointwiseActivation, ThresholdBackwardDropsTheGradientAtAndBelowTheThreshold) {
  uint64_t seed = 50;
  for (ScalarType dt : kNumericDtypes) {
    for (const auto& shape : kShapes) {
      const Tensor g = random_tensor(shape, dt, seed++), x = random_tensor(shape, dt, seed++);
      const std::vector<double> gv = values(g), xv = values(x);
      std::vector<double> expected(gv.size());
      for (size_t i = 0; i < gv.size(); ++i) expected[i] = xv[i] <= 1.0 ? 0.0 : gv[i];
      const Tensor r = mt::threshold_backward(g, x, 1);
      EXPECT_EQ(r.dtype(), dt);
      expect_close(r, expected, 0);
    }
  }
  const Tensor x = mt::tensor({-1.0, 0.0, 0.5, kNaN, kInf});
  expect_close(mt::threshold_backward(mt::tensor({1.0, 2.0, 3.0, 4.0, 5.0}), x, 0), {0, 0, 3, 4, 5}, 0);
  // Broadcasting, strided operands, and a float gradient against a double self (promoted).
  const Tensor t = transposed_random(3, 4, kFloat32, 60);
  const std::vector<double> tv = values(t);
  std::vector<double> expected(12);
  for (int i = 0; i < 12; ++i) expected[i] = tv[i] <= 0 ? 0 : 2.0;
  expect_close(mt::threshold_backward(mt::full({}, 2.0), t, 0), expected, 0);
  EXPECT_EQ(mt::threshold_backward(mt::ones({2}), mt::ones({2}, TensorOptions(kFloat64)), 0).dtype(), kFloat64);
}

TEST(PointwiseActivation, MetaTensorsGetShapesAndDtypes) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor h = mt::empty({3, 0, 2}, meta.dtype(kFloat16));
  for (const Tensor& r : {mt::relu(h), mt::gelu(h), mt::gelu(h, "tanh"), mt::silu(h)}) {
    EXPECT_TRUE(r.is_meta());
    EXPECT_EQ(r.sizes(), IntArrayRef({3, 0, 2}));
    EXPECT_EQ(r.dtype(), kFloat16);
  }
  EXPECT_EQ(mt::relu(mt::empty({4}, meta.dtype(kInt64))).dtype(), kInt64);
  const Tensor grad = mt::threshold_backward(mt::empty({3, 1, 2}, meta.dtype(kFloat16)), h, 0);
  EXPECT_TRUE(grad.is_meta());
  EXPECT_EQ(grad.sizes(), IntArrayRef({3, 0, 2}));
  expect_error<NotImplementedError>([&] { mt::gelu(mt::empty({4}, meta.dtype(kInt64))); }, "\"gelu\" not implemented");
}

TEST(PointwiseActivation, ErrorsNameTheProblemAndChangeNothing) {
  expect_error<RuntimeError>([] { mt::relu(mt::tensor({true})); }, "Boolean inputs not supported for relu");
  expect_error<RuntimeError>([] { mt::threshold_backward(mt::ones({2}), mt::tensor({true, false}), 0); },
                             "Boolean inputs not supported for threshold_backward");
  expect_error<RuntimeError>([] { mt::threshold_backward(mt::ones({2}), mt::ones({3}), 0); },
                             "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
  expect_error<NotImplementedError>([] { mt::gelu(mt::tensor({1, 2})); }, "\"gelu\" not implemented for 'mt.int64'");
  expect_error<NotImplementedError>([] { mt::silu(mt::tensor({true})); }, "\"silu\" not implemented for 'mt.bool'");
  expect_error<RuntimeError>([] { mt::gelu(mt::ones({2}), "erf"); }, "approximate argument must be either none or tanh.");
  Tensor a = mt::tensor({-1.0, 2.0});
  expect_error<RuntimeError>([&] { mt::gelu_(a, "fast"); }, "approximate argument must be either none or tanh.");
  EXPECT_EQ(values(a), (std::vector<double>{-1, 2}));
  Tensor out = mt::empty({0});
  expect_error<NotImplementedError>([&] { mt::silu_out(out, mt::tensor({1, 2})); }, "\"silu\"");
  EXPECT_EQ(out.sizes(), IntArrayRef({0})) << "the dtype check comes before out is resized";
  Tensor narrow = mt::empty({3});
  expect_error<RuntimeError>([&] { mt::gelu_out(narrow, mt::ones({2})); },
                             "output with shape [3] doesn't match the broadcast shape [2]");
}

}  // namespace
