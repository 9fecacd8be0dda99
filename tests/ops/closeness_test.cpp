// isclose, allclose and equal against hand-worked cases: tolerances, infinities, NaN with and without
// equal_nan, integers (their error in the default float), every argument error.
#include <cmath>
#include <limits>

#include "reference.h"
#include "ops/api/allclose.h"
#include "ops/api/empty.h"
#include "ops/api/equal.h"
#include "ops/api/isclose.h"
#include "ops/api/ones.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

TEST(Closeness, IscloseIsEqualityOrAnErrorWithinTolerance) {
  const Tensor a = mt::tensor({1.0, 1.0 + 1e-6, 1.1, kInf, -kInf, kNaN, 0.0, 1e-9}, TensorOptions(kFloat64));
  const Tensor b = mt::tensor({1.0, 1.0, 1.0, kInf, kInf, kNaN, 1e-9, 0.0}, TensorOptions(kFloat64));
  const Tensor close = mt::isclose(a, b);
  EXPECT_EQ(close.dtype(), kBool);
  // 1e-6 <= 1e-8 + 1e-5 * 1; 0.1 is not; -inf is no closer to inf than any number; 1e-9 <= 1e-8.
  EXPECT_EQ(values(close), (std::vector<double>{1, 1, 0, 1, 0, 0, 1, 1}));
  EXPECT_EQ(values(a.isclose(b, 1e-5, 1e-8, true)), (std::vector<double>{1, 1, 0, 1, 0, 1, 1, 1}));
  EXPECT_EQ(values(mt::isclose(a, b, 0.2)), (std::vector<double>{1, 1, 1, 1, 0, 0, 1, 1}));
  // Zero tolerances: equality alone.
  EXPECT_EQ(values(mt::isclose(a, b, 0, 0)), (std::vector<double>{1, 0, 0, 1, 0, 0, 0, 0}));
  // The tolerance is relative to other: |1 - 2| <= 0.5 * 2 but not <= 0.5 * 1.
  const Tensor one = mt::tensor({1.0}), two = mt::tensor({2.0});
  EXPECT_TRUE(mt::isclose(one, two, 0.5, 0).item<bool>());
  EXPECT_FALSE(mt::isclose(two, one, 0.5, 0).item<bool>());
}

TEST(Closeness, IntegersAndBoolMeasureTheirErrorInTheDefaultFloat) {
  const Tensor a = mt::tensor({100, 5, -3}, TensorOptions(kInt32)), b = mt::tensor({101, 5, 3}, TensorOptions(kInt32));
  EXPECT_EQ(values(mt::isclose(a, b)), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(values(mt::isclose(a, b, 0.01)), (std::vector<double>{1, 1, 0}));
  const Tensor u = mt::tensor({0, 255}, TensorOptions(kUInt8)), v = mt::tensor({255, 0}, TensorOptions(kUInt8));
  EXPECT_EQ(values(mt::isclose(u, v, 0, 300)), (std::vector<double>{1, 1}));  // no wrapping in the difference
  const Tensor t = mt::tensor({true, false}), f = mt::tensor({true, true});
  EXPECT_EQ(values(mt::isclose(t, f)), (std::vector<double>{1, 0}));
}

TEST(Closeness, AllcloseAndEqual) {
  const Tensor a = mt::tensor({1.0, 2.0, 3.0});
  EXPECT_TRUE(mt::allclose(a, a + 1e-7));
  EXPECT_FALSE(mt::allclose(a, a + 1e-3));
  EXPECT_TRUE(a.allclose(a + 1e-3, 1e-3));
  EXPECT_TRUE(mt::allclose(mt::tensor({kNaN}), mt::tensor({kNaN}), 1e-5, 1e-8, true));
  EXPECT_FALSE(mt::allclose(mt::tensor({kNaN}), mt::tensor({kNaN})));
  EXPECT_TRUE(mt::allclose(mt::ones({2, 3}), mt::ones({3})));  // broadcasting, as PyTorch
  EXPECT_TRUE(mt::equal(a, a.clone()));
  EXPECT_TRUE(a.equal(mt::tensor({1, 2, 3})));  // compared after promotion
  EXPECT_FALSE(mt::equal(a, mt::tensor({1.0, 2.0, 3.5})));
  EXPECT_FALSE(mt::equal(a, a.view({3, 1})));  // another shape is never equal, even if it broadcasts
  EXPECT_FALSE(mt::equal(mt::tensor({kNaN}), mt::tensor({kNaN})));
  EXPECT_TRUE(mt::equal(mt::empty({0}), mt::empty({0})));
}

TEST(Closeness, ErrorsNameTheProblem) {
  const Tensor f = mt::ones({2}), d = mt::ones({2}, TensorOptions(kFloat64));
  expect_error<RuntimeError>([&] { (void)mt::isclose(f, d); }, "mt.float32 did not match mt.float64");
  expect_error<RuntimeError>([&] { (void)mt::allclose(f, f, -1); },
                             "rtol must be greater than or equal to zero, but got -1");
  expect_error<RuntimeError>([&] { (void)mt::isclose(f, f, 0, -0.5); },
                             "atol must be greater than or equal to zero, but got -0.5");
  expect_error<RuntimeError>([] { (void)mt::isclose(mt::ones({2}), mt::ones({3})); }, "must match the size");
}

TEST(Closeness, MetaGivesTheShapeOfIsclose) {
  const Tensor m = mt::empty({2, 3}, TensorOptions(kFloat16).device(kMeta));
  const Tensor r = mt::isclose(m, m);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.dtype(), kBool);
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{2, 3}));
}

}  // namespace
