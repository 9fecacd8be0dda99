// mse_loss, l1_loss, binary_cross_entropy (and its backward) and binary_cross_entropy_with_logits
// against naive double-precision loops: every reduction, broadcasting, weights and pos_weight, each
// floating dtype, transposed inputs, 0-dim and empty inputs, extreme values, Meta shapes and every error.
#include "nn_reference.h"
#include "ops/api/binary_cross_entropy.h"
#include "ops/api/binary_cross_entropy_backward.h"
#include "ops/api/binary_cross_entropy_with_logits.h"
#include "ops/api/empty.h"
#include "ops/api/l1_loss.h"
#include "ops/api/mse_loss.h"
#include "ops/api/ones.h"

namespace {

using namespace mt;
using namespace mt::testing;
using namespace mt::testing::nn;

const int64_t kReductions[] = {Reduction::None, Reduction::Mean, Reduction::Sum};

double loss_tol(ScalarType dt) { return dt == kFloat32 ? 1e-5 : dt == kFloat64 ? 1e-12 : dt == kFloat16 ? 1e-2 : 4e-2; }

// Values in [0, 1] exactly representable in every float dtype (multiples of 1/8), 0 and 1 included.
Tensor unit_interval(IntArrayRef shape, ScalarType dt, uint64_t seed) {
  std::vector<double> v = values(random_tensor(shape, kInt64, seed));
  for (double& x : v) x = static_cast<double>((static_cast<int64_t>(x) + 8) % 9) / 8;
  return make(v, shape, dt);
}

double naive_bce(double x, double y, double w) {
  return -w * (y * std::max(std::log(x), -100.0) + (1 - y) * std::max(std::log(1 - x), -100.0));
}

// -log(sigmoid(x)), each branch evaluated where it cannot overflow.
double neg_log_sigmoid(double x) { return x >= 0 ? std::log1p(std::exp(-x)) : -x + std::log1p(std::exp(x)); }

std::vector<double> elementwise(const Tensor& a, const Tensor& b, double (*f)(double, double)) {
  return naive_binary(a, b, [f](double x, double y) { return f(x, y); });
}

TEST(NNRegressionLoss, MseAndL1MatchReferenceWithBroadcastingForEveryDtype) {
  struct Shapes {
    std::vector<int64_t> a, b;
  };
  const Shapes shapes[] = {{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{4, 1}, {1, 5}}, {{}, {}}, {{0, 3}, {3}}, {{3}, {}}};
  uint64_t seed = 1;
  for (ScalarType dt : kFloatTypes) {
    for (const Shapes& s : shapes) {
      const Tensor a = random_tensor(s.a, dt, seed++), b = random_tensor(s.b, dt, seed++);
      const std::vector<double> sq = elementwise(a, b, [](double x, double y) { return (x - y) * (x - y); });
      const std::vector<double> ab = elementwise(a, b, [](double x, double y) { return std::abs(x - y); });
      for (int64_t r : kReductions) {
        SCOPED_TRACE(a.toString() + " " + b.toString() + " reduction " + std::to_string(r));
        const Tensor m = mt::mse_loss(a, b, r), l = mt::l1_loss(a, b, r);
        EXPECT_EQ(m.dtype(), dt);
        EXPECT_EQ(m.sizes(), r == Reduction::None ? IntArrayRef(broadcast_shape(a.sizes(), b.sizes())) : IntArrayRef{});
        expect_close(m, reduce(sq, r, static_cast<double>(sq.size())), loss_tol(dt));
        expect_close(l, reduce(ab, r, static_cast<double>(ab.size())), loss_tol(dt));
      }
    }
  }
  // Non-contiguous operands, and mixed dtypes that promote.
  const Tensor t = transposed_copy(random_tensor({3, 4}, kFloat32, 90)), u = random_tensor({3, 4}, kFloat64, 91);
  const std::vector<double> sq = elementwise(t, u, [](double x, double y) { return (x - y) * (x - y); });
  EXPECT_EQ(mt::mse_loss(t, u).dtype(), kFloat64);
  expect_close(mt::mse_loss(t, u), reduce(sq, Reduction::Mean, 12), 1e-12);
  expect_close(mt::l1_loss(u, t, Reduction::Sum),
               reduce(elementwise(u, t, [](double x, double y) { return std::abs(x - y); }), Reduction::Sum, 0), 1e-12);
  // A bool input is a number to mse_loss (PyTorch 2.x): ((1 - 0.5)^2 + (0 - 0.5)^2) / 2.
  expect_close(mt::mse_loss(mt::tensor({true, false}), mt::tensor({0.5f, 0.5f})), {0.25}, 1e-7);
  expect_close(mt::mse_loss(mt::tensor({0.5f, 0.5f}), mt::tensor({true, false})), {0.25}, 1e-7);
  // l1_loss without a mean works on integers, as in PyTorch.
  expect_close(mt::l1_loss(mt::tensor({1, 5}), mt::tensor({4, 2}), Reduction::Sum), {6}, 0);
}

TEST(NNRegressionLoss, BinaryCrossEntropyMatchesReferenceForEveryDtypeWeightAndReduction) {
  uint64_t seed = 20;
  for (ScalarType dt : kFloatTypes) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{4, 2}, {7}, {}, {0, 2}}) {
      const Tensor x = unit_interval(shape, dt, seed++), y = unit_interval(shape, dt, seed++);
      const Tensor w = make({0.5, 2}, {2}, dt);
      const std::vector<double> xv = values(x), yv = values(y);
      std::vector<double> plain, weighted;
      for (size_t i = 0; i < xv.size(); ++i) {
        plain.push_back(naive_bce(xv[i], yv[i], 1));
        weighted.push_back(naive_bce(xv[i], yv[i], i % 2 ? 2 : 0.5));
      }
      for (int64_t r : kReductions) {
        SCOPED_TRACE(x.toString() + " reduction " + std::to_string(r));
        const Tensor loss = mt::binary_cross_entropy(x, y, std::nullopt, r);
        EXPECT_EQ(loss.dtype(), dt);
        expect_close(loss, reduce(plain, r, static_cast<double>(plain.size())), loss_tol(dt));
        if (!shape.empty() && shape.back() == 2) {  // the weight [2] broadcasts along the last dim
          expect_close(mt::binary_cross_entropy(x, y, w, r), reduce(weighted, r, static_cast<double>(weighted.size())),
                       loss_tol(dt));
        }
      }
    }
  }
  // The logs clamp at -100: confident wrong answers cost 100, right ones 0.
  expect_close(mt::binary_cross_entropy(make({0, 1, 0, 1}, {4}), make({1, 0, 0, 1}, {4}), std::nullopt, Reduction::None),
               {100, 100, 0, 0}, 0);
  const Tensor xt = transposed_copy(unit_interval({3, 4}, kFloat64, 30)), yt = unit_interval({3, 4}, kFloat64, 31);
  std::vector<double> e;
  for (int64_t i = 0; i < 12; ++i) e.push_back(naive_bce(element(xt, i), element(yt, i), 1));
  expect_close(mt::binary_cross_entropy(xt, yt, std::nullopt, Reduction::Sum), reduce(e, Reduction::Sum, 0), 1e-12);
}

TEST(NNRegressionLoss, BinaryCrossEntropyBackwardIsPyTorchsClampedGradient) {
  const Tensor x = make({0, 0.25, 0.5, 0.75, 1, 0.125}, {2, 3}, kFloat64);
  const Tensor y = make({1, 0, 0.5, 1, 0, 0.25}, {2, 3}, kFloat64);
  const Tensor w = make({1, 2, 3}, {3}, kFloat64);
  const Tensor g = make({1, -2, 0.5, 1, 1, 3}, {2, 3}, kFloat64);
  const std::vector<double> xv = values(x), yv = values(y), gv = values(g);
  for (int64_t r : kReductions) {
    const Tensor grad_out = r == Reduction::None ? g : make({0.5}, {}, kFloat64);
    std::vector<double> expected;
    for (int64_t i = 0; i < 6; ++i) {
      const double go = r == Reduction::None ? gv[i] : 0.5;
      double gi = go * (i % 3 + 1) * (xv[i] - yv[i]) / std::max(xv[i] * (1 - xv[i]), 1e-12);
      if (r == Reduction::Mean) gi /= 6;
      expected.push_back(gi);
    }
    expect_close(mt::binary_cross_entropy_backward(grad_out, x, y, w, r), expected, 1e-12);
  }
  // Inside (0, 1) it is the derivative of the loss: a central difference of the naive forward agrees.
  for (int64_t i : {1, 2, 3, 5}) {
    const double h = 1e-6;
    const double fd = (naive_bce(xv[i] + h, yv[i], 1) - naive_bce(xv[i] - h, yv[i], 1)) / (2 * h);
    const Tensor one = mt::binary_cross_entropy_backward(make({1}, {}, kFloat64), make({xv[i]}, {}, kFloat64),
                                                         make({yv[i]}, {}, kFloat64), std::nullopt, Reduction::Sum);
    EXPECT_NEAR(one.item<double>(), fd, 1e-6);
  }
}

TEST(NNRegressionLoss, BinaryCrossEntropyWithLogitsMatchesReference) {
  uint64_t seed = 40;
  for (ScalarType dt : kFloatTypes) {
    const Tensor x = random_tensor({3, 4}, dt, seed++), y = unit_interval({3, 4}, dt, seed++);
    const Tensor w = make({1, 0.5, 2, 0}, {4}, dt), pw = make({3, 1, 0.5, 2}, {4}, dt);
    const std::vector<double> xv = values(x), yv = values(y);
    for (int64_t r : kReductions) {
      for (bool weighted : {false, true}) {
        for (bool pos : {false, true}) {
          SCOPED_TRACE(x.toString() + " reduction " + std::to_string(r) + (weighted ? " weight" : "") + (pos ? " pos" : ""));
          std::vector<double> e;
          for (int64_t i = 0; i < 12; ++i) {
            const int64_t c = i % 4;
            const double p = pos ? values(pw)[c] : 1.0;
            // -w [p y log(sigmoid(x)) + (1 - y) log(1 - sigmoid(x))], with log(1 - sigmoid(x)) = -x + log(sigmoid(x)).
            const double l = p * yv[i] * neg_log_sigmoid(xv[i]) + (1 - yv[i]) * (xv[i] + neg_log_sigmoid(xv[i]));
            e.push_back((weighted ? values(w)[c] : 1.0) * l);
          }
          const Tensor loss = mt::binary_cross_entropy_with_logits(x, y, weighted ? std::optional<Tensor>(w) : std::nullopt,
                                                                   pos ? std::optional<Tensor>(pw) : std::nullopt, r);
          EXPECT_EQ(loss.dtype(), dt);
          expect_close(loss, reduce(e, r, 12), loss_tol(dt));
        }
      }
    }
  }
  // Huge logits neither overflow nor lose the loss.
  expect_close(mt::binary_cross_entropy_with_logits(make({1000, -1000, 30, -30}, {4}), make({0, 1, 1, 0}, {4}),
                                                    std::nullopt, std::nullopt, Reduction::None),
               {1000, 1000, neg_log_sigmoid(30), neg_log_sigmoid(30)}, 1e-6);
  expect_close(mt::binary_cross_entropy_with_logits(make({1000, -1000}, {2}), make({0, 1}, {2}), std::nullopt,
                                                    make({2, 3}, {2}), Reduction::None),
               {1000, 3000}, 1e-6);
  const Tensor xt = transposed_copy(random_tensor({2, 3}, kFloat64, 50)), yt = unit_interval({2, 3}, kFloat64, 51);
  std::vector<double> e;
  for (int64_t i = 0; i < 6; ++i) {
    const double xi = element(xt, i), yi = element(yt, i);
    e.push_back(yi * neg_log_sigmoid(xi) + (1 - yi) * (xi + neg_log_sigmoid(xi)));
  }
  expect_close(mt::binary_cross_entropy_with_logits(xt, yt), reduce(e, Reduction::Mean, 6), 1e-12);
  EXPECT_EQ(mt::binary_cross_entropy_with_logits(random_tensor({3}, kFloat32, 1), unit_interval({3}, kFloat64, 2)).dtype(),
            kFloat64);
}

// As in PyTorch, the weights of the binary cross entropies do not promote the loss or its gradient: a
// float32 input with float64 weights gives a float32 loss, equal to weighting with the weights in float32.
TEST(NNRegressionLoss, BinaryCrossEntropyWeightsKeepTheInputsDtype) {
  const Tensor x = make({0.25, 0.5, 0.75}, {3}), y = make({1, 0, 0.5}, {3});
  const Tensor w64 = make({1, 2, 0.5}, {3}, kFloat64), w32 = make({1, 2, 0.5}, {3});
  const Tensor bce = mt::binary_cross_entropy(x, y, w64, Reduction::None);
  EXPECT_EQ(bce.dtype(), kFloat32);
  expect_close(bce, values(mt::binary_cross_entropy(x, y, w32, Reduction::None)), 0);
  const Tensor grad = mt::binary_cross_entropy_backward(make({1, 1, 1}, {3}), x, y, w64, Reduction::None);
  EXPECT_EQ(grad.dtype(), kFloat32);
  expect_close(grad, values(mt::binary_cross_entropy_backward(make({1, 1, 1}, {3}), x, y, w32, Reduction::None)), 0);
  const Tensor logits = mt::binary_cross_entropy_with_logits(x, y, w64, w64, Reduction::None);
  EXPECT_EQ(logits.dtype(), kFloat32);
  expect_close(logits, values(mt::binary_cross_entropy_with_logits(x, y, w32, w32, Reduction::None)), 0);
}

TEST(NNRegressionLoss, MetaTensorsGetShapesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor a = mt::empty({2, 3}, meta), b = mt::empty({3}, meta);
  EXPECT_EQ(mt::mse_loss(a, b, Reduction::None).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(mt::l1_loss(a, b).dim(), 0);
  EXPECT_TRUE(mt::l1_loss(a, b).is_meta());
  EXPECT_EQ(mt::binary_cross_entropy(a, a, std::nullopt, Reduction::None).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(mt::binary_cross_entropy(a, a).dim(), 0);
  EXPECT_EQ(mt::binary_cross_entropy_backward(a, a, a).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(mt::binary_cross_entropy_with_logits(a, a, b, b, Reduction::None).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(mt::binary_cross_entropy_with_logits(mt::empty({4}, meta.dtype(kFloat16)), mt::empty({4}, meta.dtype(kFloat16))).dtype(),
            kFloat16);
}

TEST(NNRegressionLoss, ErrorsNameTheProblem) {
  const Tensor x = unit_interval({2, 3}, kFloat32, 60), y = unit_interval({2, 3}, kFloat32, 61);
  expect_error<RuntimeError>([&] { mt::mse_loss(x, mt::ones({4})); },
                             "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  expect_error<RuntimeError>([&] { mt::l1_loss(x, mt::ones({4})); },
                             "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  expect_error<NotImplementedError>([] { mt::mse_loss(mt::tensor({1, 2}), mt::tensor({1, 2})); },
                                    "\"mse_loss\" not implemented for 'mt.int64'");
  expect_error<NotImplementedError>([] { mt::mse_loss(mt::tensor({true}), mt::tensor({false})); },
                                    "\"mse_loss\" not implemented for 'mt.bool'");
  expect_error<RuntimeError>([] { mt::l1_loss(mt::tensor({1, 2}), mt::tensor({1, 2})); }, "mean(): could not infer output dtype");
  expect_error<ValueError>([&] { mt::binary_cross_entropy(x, mt::ones({3})); },
                           "Using a target size ([3]) that is different to the input size ([2, 3]) is deprecated. Please "
                           "ensure they have the same size.");
  expect_error<RuntimeError>([&] { mt::binary_cross_entropy(make({1.5}, {1}), make({1}, {1})); },
                             "all elements of input should be between 0 and 1");
  expect_error<RuntimeError>([&] { mt::binary_cross_entropy(make({-0.5}, {1}), make({1}, {1})); },
                             "all elements of input should be between 0 and 1");
  expect_error<RuntimeError>([&] { mt::binary_cross_entropy(make({kNaN}, {1}), make({1}, {1})); },
                             "all elements of input should be between 0 and 1");
  expect_error<RuntimeError>([&] { mt::binary_cross_entropy(x, y.to(kFloat64)); }, "Found dtype mt.float64 but expected mt.float32");
  expect_error<NotImplementedError>([] { mt::binary_cross_entropy(mt::tensor({1}), mt::tensor({1})); },
                                    "\"binary_cross_entropy\" not implemented for 'mt.int64'");
  expect_error<RuntimeError>([&] { mt::binary_cross_entropy(x, y, mt::ones({4})); },
                             "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  expect_error<ValueError>([&] { mt::binary_cross_entropy_with_logits(x, mt::ones({3})); },
                           "Target size ([3]) must be the same as input size ([2, 3])");
  expect_error<RuntimeError>([&] { mt::binary_cross_entropy_with_logits(x, y, std::nullopt, mt::ones({4})); },
                             "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1");
  expect_error<NotImplementedError>([] { mt::binary_cross_entropy_with_logits(mt::tensor({1}), mt::tensor({1})); },
                                    "\"binary_cross_entropy_with_logits\" not implemented for 'mt.int64'");
  expect_error<ValueError>([&] { mt::mse_loss(x, y, 5); }, "5 is not a valid value for reduction");
  expect_error<ValueError>([&] { mt::binary_cross_entropy(x, y, std::nullopt, -2); }, "-2 is not a valid value for reduction");
}

}  // namespace
