// What the OpInfo table's binary rows (tests/opinfo/binary_table.cpp) do not cover of atan2, hypot,
// copysign, logaddexp, logaddexp2, xlogy and fmod: fmod's integer truncation and zero divisors, the Scalar
// overloads (also in place and as out=), and the errors.
#include <cmath>
#include <limits>

#include "reference.h"
#include "ops/api/atan2.h"
#include "ops/api/copysign.h"
#include "ops/api/empty.h"
#include "ops/api/fmod.h"
#include "ops/api/hypot.h"
#include "ops/api/logaddexp.h"
#include "ops/api/logaddexp2.h"
#include "ops/api/ones.h"
#include "ops/api/remainder.h"
#include "ops/api/std.h"
#include "ops/api/xlogy.h"
#include "ops/api/zeros_like.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(BinaryMath, FmodTruncatesIntegersAndRefusesZeroDivisors) {
  const Tensor a = mt::tensor({7, -7, 7, -7, 0}), b = mt::tensor({3, 3, -3, -3, 5});
  EXPECT_EQ(mt::fmod(a, b).dtype(), kInt64);
  EXPECT_EQ(values(mt::fmod(a, b)), (std::vector<double>{1, -1, 1, -1, 0}));  // the dividend's sign
  EXPECT_EQ(values(mt::remainder(a, b)), (std::vector<double>{1, 2, -2, -1, 0}));  // the divisor's
  const Tensor i8 = mt::tensor({-128, 127}, TensorOptions(kInt8));
  EXPECT_EQ(values(mt::fmod(i8, -1)), (std::vector<double>{0, 0}));  // MIN % -1 does not trap
  EXPECT_EQ(values(mt::fmod(mt::tensor({200}, TensorOptions(kUInt8)), 7)), std::vector<double>{4});
  EXPECT_EQ(values(mt::fmod(mt::tensor({5.5, -5.5}), 2)), (std::vector<double>{1.5, -1.5}));
  EXPECT_EQ(mt::fmod(a, 2.5).dtype(), kFloat32);
  Tensor self = a.clone();
  expect_error<RuntimeError>([&] { self.fmod_(mt::zeros_like(b)); }, "ZeroDivisionError");
  expect_error<RuntimeError>([&] { (void)mt::fmod(a, 0); }, "ZeroDivisionError");
  EXPECT_EQ(values(self), values(a));
  EXPECT_TRUE(std::isnan(mt::fmod(mt::tensor({1.0}), 0.0).item<double>()));
  expect_error<NotImplementedError>([] { (void)mt::fmod(mt::tensor({true}), mt::tensor({true})); },
                                    "\"fmod\" not implemented for 'mt.bool'");
}

TEST(BinaryMath, ScalarOverloads) {
  const Tensor x = mt::tensor({2.0, -3.0, 0.0});
  EXPECT_EQ(values(mt::copysign(x, -1)), (std::vector<double>{-2, -3, -0.0}));
  EXPECT_TRUE(std::signbit(values(mt::copysign(x, -1.0))[2]));
  EXPECT_EQ(values(mt::xlogy(x.abs(), 1)), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(values(mt::xlogy(2, mt::tensor({1.0, 0.0}))), (std::vector<double>{0, -kInf}));
  EXPECT_EQ(mt::xlogy(2, mt::tensor({1, 4})).dtype(), kFloat32);
  EXPECT_EQ(mt::xlogy(mt::tensor({1.0}, TensorOptions(kFloat16)), 2.5).dtype(), kFloat16);
  EXPECT_EQ(values(x.fmod(2)), (std::vector<double>{0, -1, 0}));
  EXPECT_EQ(values(x.copysign(-0.0)), (std::vector<double>{-2, -3, -0.0}));
}

TEST(BinaryMath, InPlaceAndOutForms) {
  Tensor x = mt::tensor({3.0, -1.0});
  EXPECT_TRUE(x.hypot_(mt::tensor({4.0})).is_same(x));
  EXPECT_EQ(values(x), (std::vector<double>{5, std::hypot(1.0f, 4.0f)}));
  Tensor y = mt::tensor({1.0, 1.0});
  y.atan2_(mt::tensor({1.0, -1.0}));
  expect_values_near(y, {std::atan2(1.0, 1.0), std::atan2(1.0, -1.0)}, 1e-6);
  Tensor z = mt::tensor({2.0, -2.0});
  z.copysign_(-1).xlogy_(mt::tensor({std::exp(1.0), 1.0}));
  expect_values_near(z, {-2, 0}, 1e-6);
  Tensor w = mt::tensor({7.5, -7.5});
  w.fmod_(2);
  EXPECT_EQ(values(w), (std::vector<double>{1.5, -1.5}));

  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  EXPECT_TRUE(mt::logaddexp_out(out, mt::tensor({0.0, 1.0}), mt::tensor({0.0})).is_same(out));
  expect_values_near(out, {std::log(2.0), 1 + std::log1p(std::exp(-1.0))}, 1e-6);
  mt::logaddexp2_out(out, mt::tensor({1.0, 1.0}), mt::tensor({1.0}));
  EXPECT_EQ(values(out), (std::vector<double>{2, 2}));
  mt::xlogy_out(out, 3, mt::tensor({1.0, 1.0}));
  EXPECT_EQ(values(out), (std::vector<double>{0, 0}));
  mt::copysign_out(out, mt::tensor({1.0, 2.0}), -3);
  EXPECT_EQ(values(out), (std::vector<double>{-1, -2}));
  mt::atan2_out(out, mt::tensor({0.0, 0.0}), mt::tensor({-1.0, 1.0}));
  expect_values_near(out, {M_PI, 0}, 1e-6);
  mt::fmod_out(out, mt::tensor({5.0, 6.0}), 4);
  EXPECT_EQ(values(out), (std::vector<double>{1, 2}));
}

TEST(BinaryMath, ErrorsNameTheProblemAndChangeNothing) {
  Tensor i = mt::tensor({1, 2});
  expect_error<Error>([&] { i.atan2_(mt::tensor({1, 1})); },
                      "result type mt.float32 can't be cast to the desired output type mt.int64");
  expect_error<Error>([&] { i.xlogy_(2); }, "result type mt.float32 can't be cast to the desired output type mt.int64");
  EXPECT_EQ(values(i), (std::vector<double>{1, 2}));
  expect_error<RuntimeError>([] { (void)mt::hypot(mt::ones({2}), mt::ones({3})); },
                             "The size of tensor a (2) must match the size of tensor b (3)");
  Tensor x = mt::ones({2});
  expect_error<RuntimeError>([&] { x.copysign_(mt::ones({2, 2})); }, "doesn't match the broadcast shape [2, 2]");
  EXPECT_EQ(x.sizes(), (std::vector<int64_t>{2}));
}

}  // namespace
