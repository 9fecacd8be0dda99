// bernoulli_, bernoulli, dropout and feature_dropout: the statistics of large draws (fraction of ones or zeros within a
// few standard deviations of p), the survivors' scale, reproducibility with a seeded generator, the
// identity cases, every dtype, strided tensors, Meta tensors and every error.
#include "nn_reference.h"
#include "ops/api/bernoulli.h"
#include "ops/api/dropout.h"
#include "ops/api/feature_dropout.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;
using namespace mt::testing::nn;

double fraction_equal(const Tensor& t, double value) {
  int64_t count = 0;
  for (int64_t i = 0; i < t.numel(); ++i) count += element(t, i) == value;
  return static_cast<double>(count) / static_cast<double>(t.numel());
}

// Six standard deviations of the fraction of successes in n draws of probability p.
double six_sigma(double p, int64_t n) { return 6 * std::sqrt(p * (1 - p) / static_cast<double>(n)); }

TEST(NNDropout, BernoulliDrawsOnesWithProbabilityPForEveryDtype) {
  Generator gen(1);
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16, kBFloat16, kInt64, kBool}) {
    for (double p : {0.0, 0.25, 0.5, 0.9, 1.0}) {
      Tensor t = dt == kBool ? mt::zeros({200, 100}, TensorOptions(kBool)) : mt::full({200, 100}, 7, TensorOptions(dt));
      Tensor& same = t.bernoulli_(p, &gen);
      EXPECT_TRUE(same.is_same(t));
      EXPECT_EQ(fraction_equal(t, 0) + fraction_equal(t, 1), 1.0) << "only 0 and 1";
      EXPECT_NEAR(fraction_equal(t, 1), p, six_sigma(p, t.numel()) + 1e-12) << dt << " p=" << p;
    }
  }
  // The default probability is one half; bernoulli leaves its input alone.
  Tensor h = mt::zeros({10000});
  h.bernoulli_();
  EXPECT_NEAR(fraction_equal(h, 1), 0.5, six_sigma(0.5, 10000));
  const Tensor src = mt::full({100, 100}, 3.0);
  const Tensor b = mt::bernoulli(src, 0.2, &gen), m = src.bernoulli(0.2);
  EXPECT_EQ(b.sizes(), src.sizes());
  EXPECT_EQ(m.dtype(), kFloat32);
  EXPECT_NEAR(fraction_equal(b, 1), 0.2, six_sigma(0.2, 10000));
  EXPECT_EQ(fraction_equal(src, 3), 1.0);
}

TEST(NNDropout, BernoulliFillsOnlyTheViewedElementsOfAStridedTensor) {
  const Tensor base = mt::full({4, 6}, 5.0);
  Tensor view = strided_view(base, {3, 2}, {1, 12}, 1);  // columns 1..3 of rows 0 and 2, transposed
  Generator gen(3);
  view.bernoulli_(0.5, &gen);
  for (int64_t i = 0; i < 24; ++i) {
    const bool viewed = (i / 6 == 0 || i / 6 == 2) && i % 6 >= 1 && i % 6 <= 3;
    const double v = base.data_ptr<float>()[i];
    if (viewed) EXPECT_TRUE(v == 0 || v == 1) << i;
    else EXPECT_EQ(v, 5) << i;
  }
  // The draws follow the logical order, so a transposed tensor gets the same values as a contiguous one.
  Generator g1(9), g2(9);
  Tensor contiguous = mt::zeros({3, 2});
  contiguous.bernoulli_(0.5, &g1);
  Tensor other = mt::zeros({6});
  Tensor transposed = strided_view(other, {3, 2}, {1, 3});
  transposed.bernoulli_(0.5, &g2);
  expect_close(transposed, values(contiguous), 0);
}

TEST(NNDropout, DropoutZeroesAFractionPAndScalesTheRest) {
  for (ScalarType dt : kFloatTypes) {
    for (double p : {0.1, 0.5, 0.8}) {
      const Tensor x = random_tensor({400, 250}, dt, 7, /*nonzero=*/true);
      Generator gen(11);
      const Tensor y = mt::dropout(x, p, true, &gen);
      EXPECT_EQ(y.dtype(), dt);
      EXPECT_EQ(y.sizes(), x.sizes());
      const std::vector<double> xv = values(x), yv = values(y);
      int64_t zeros = 0;
      for (size_t i = 0; i < xv.size(); ++i) {
        if (yv[i] == 0) {
          ++zeros;
          continue;
        }
        ASSERT_NEAR(yv[i], xv[i] / (1 - p), tolerance(dt) * 2 * std::abs(xv[i] / (1 - p))) << i;
      }
      EXPECT_NEAR(static_cast<double>(zeros) / xv.size(), p, six_sigma(p, x.numel())) << dt << " p=" << p;
    }
  }
}

TEST(NNDropout, SeededGeneratorsMakeTheSameMask) {
  const Tensor x = mt::ones({64, 64});
  Generator a(123), b(123), c(124);
  const Tensor ya = mt::dropout(x, 0.5, true, &a), yb = mt::dropout(x, 0.5, true, &b), yc = mt::dropout(x, 0.5, true, &c);
  EXPECT_EQ(values(ya), values(yb));
  EXPECT_NE(values(ya), values(yc));
  // The next mask from the same generator differs; reseeding repeats it.
  EXPECT_NE(values(mt::dropout(x, 0.5, true, &a)), values(ya));
  a.manual_seed(123);
  EXPECT_EQ(values(mt::dropout(x, 0.5, true, &a)), values(ya));
  // Without a generator, the default one: mt::manual_seed makes it reproducible.
  mt::manual_seed(5);
  const Tensor d1 = mt::dropout(x, 0.3, true);
  mt::manual_seed(5);
  EXPECT_EQ(values(mt::dropout(x, 0.3, true)), values(d1));
}

TEST(NNDropout, IdentityCasesReturnTheInputAndPOneGivesZeros) {
  const Tensor x = random_tensor({5, 7}, kFloat32, 1);
  EXPECT_TRUE(mt::dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(mt::dropout(x, 0.0, true).is_same(x));
  EXPECT_TRUE(mt::dropout(x, 1.0, false).is_same(x));
  const Tensor empty = mt::empty({0, 3});
  EXPECT_TRUE(mt::dropout(empty, 0.5, true).is_same(empty));
  const Tensor z = mt::dropout(x, 1.0, true);
  EXPECT_EQ(z.sizes(), x.sizes());
  EXPECT_EQ(fraction_equal(z, 0), 1.0);
  // A transposed input: each output element is its own input element, dropped or scaled.
  const Tensor t = transposed_copy(random_tensor({30, 40}, kFloat64, 2, /*nonzero=*/true));
  Generator gen(4);
  const Tensor y = mt::dropout(t, 0.25, true, &gen);
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double v = element(y, i);
    EXPECT_TRUE(v == 0 || std::abs(v - element(t, i) / 0.75) < 1e-12) << i;
  }
}

// Each (sample, channel) is dropped or kept whole: its elements are all 0 or all x / (1 - p), and the
// gradient is the same mask.
TEST(NNDropout, FeatureDropoutZeroesWholeChannels) {
  for (ScalarType dt : kFloatTypes) {
    const double p = 0.3;
    const Tensor x = random_tensor({40, 50, 3, 2}, dt, 8, /*nonzero=*/true).requires_grad_(dt != kFloat16 && dt != kBFloat16);
    Generator gen(12);
    const Tensor y = mt::feature_dropout(x, p, true, &gen);
    EXPECT_EQ(y.dtype(), dt);
    EXPECT_EQ(y.sizes(), x.sizes());
    const std::vector<double> xv = values(x.detach()), yv = values(y.detach());
    int64_t dropped = 0;
    for (size_t channel = 0; channel < 40 * 50; ++channel) {
      const bool zero = yv[channel * 6] == 0;
      dropped += zero;
      for (size_t i = channel * 6; i < channel * 6 + 6; ++i) {
        if (zero) ASSERT_EQ(yv[i], 0) << i;
        else ASSERT_NEAR(yv[i], xv[i] / (1 - p), tolerance(dt) * 2 * std::abs(xv[i] / (1 - p))) << i;
      }
    }
    EXPECT_NEAR(static_cast<double>(dropped) / 2000, p, six_sigma(p, 2000)) << dt;
    if (!x.requires_grad()) continue;
    y.sum().backward();
    const std::vector<double> g = values(x.grad());
    for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], yv[i] == 0 ? 0 : 1 / (1 - p), 1e-6) << i;
  }
  // A 2-D input has one value per channel: the same as dropout's statistics, each row element on its own.
  Generator a(5), b(5);
  const Tensor m = mt::ones({30, 4});
  EXPECT_EQ(values(mt::feature_dropout(m, 0.5, true, &a)), values(mt::dropout(m, 0.5, true, &b)));
}

TEST(NNDropout, FeatureDropoutIdentityCasesAndErrors) {
  const Tensor x = random_tensor({2, 3, 4}, kFloat32, 3);
  EXPECT_TRUE(mt::feature_dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(mt::feature_dropout(x, 0.0, true).is_same(x));
  EXPECT_EQ(fraction_equal(mt::feature_dropout(x, 1.0, true), 0), 1.0);
  const Tensor line = mt::ones({5});
  EXPECT_TRUE(mt::feature_dropout(line, 0.5, false).is_same(line));  // nothing drawn, nothing checked
  expect_error<RuntimeError>([&] { mt::feature_dropout(line, 0.5, true); },
                             "Feature dropout requires at least 2 dimensions in the input");
  expect_error<RuntimeError>([&] { mt::feature_dropout(x, 2, true); },
                             "dropout probability has to be between 0 and 1, but got 2");
  const Tensor meta = mt::feature_dropout(mt::empty({3, 4, 5}, TensorOptions(Device("meta"))), 0.5, true);
  EXPECT_TRUE(meta.is_meta());
  EXPECT_EQ(meta.sizes(), IntArrayRef({3, 4, 5}));
}

TEST(NNDropout, MetaTensorsGetShapesWithoutDrawing) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor x = mt::empty({3, 4}, meta.dtype(kBFloat16));
  const Tensor y = mt::dropout(x, 0.5, true);
  EXPECT_TRUE(y.is_meta());
  EXPECT_EQ(y.sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(y.dtype(), kBFloat16);
  Tensor m = mt::empty({2, 2}, meta);
  EXPECT_TRUE(m.bernoulli_(0.3).is_meta());
  EXPECT_EQ(mt::bernoulli(m, 0.3).sizes(), IntArrayRef({2, 2}));
}

TEST(NNDropout, ErrorsNameTheProblemAndChangeNothing) {
  const Tensor x = mt::ones({2, 3});
  expect_error<RuntimeError>([&] { mt::dropout(x, 1.5, true); }, "dropout probability has to be between 0 and 1, but got 1.5");
  expect_error<RuntimeError>([&] { mt::dropout(x, -0.1, false); }, "dropout probability has to be between 0 and 1, but got -0.1");
  Tensor t = mt::full({4}, 2.0);
  expect_error<RuntimeError>([&] { t.bernoulli_(1.5); }, "bernoulli_ expects p to be in [0, 1], but got p=1.5");
  expect_error<RuntimeError>([&] { mt::bernoulli(t, -1); }, "bernoulli_ expects p to be in [0, 1], but got p=-1");
  EXPECT_EQ(fraction_equal(t, 2), 1.0);
  // Integer inputs cannot hold the scaled mask, as in PyTorch.
  expect_error<TypeError>([] { mt::dropout(mt::ones({3}, TensorOptions(kInt64)), 0.5, true); },
                          "result type mt.float32 can't be cast to the desired output type mt.int64");
}

}  // namespace
