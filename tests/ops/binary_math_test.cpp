// atan2, hypot, copysign, logaddexp, logaddexp2, xlogy and fmod against the C library's functions in
// double precision over every pair of a grid with zeros of both signs, infinities and NaN, in every
// floating dtype; integer inputs promote to the default float (fmod keeps integers and truncates); Scalar
// overloads, in-place and out= forms, broadcasting, Meta and every error.
#include <cmath>
#include <functional>
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
const double kNaN = std::nan("");
const ScalarType kFloatTypes[] = {kFloat32, kFloat64, kFloat16, kBFloat16};

double logaddexp_ref(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a == b && std::isinf(a)) return a;
  return std::max(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
}
double logaddexp2_ref(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a == b && std::isinf(a)) return a;
  return std::max(a, b) + std::log2(1 + std::exp2(-std::fabs(a - b)));
}
double xlogy_ref(double x, double y) {
  if (std::isnan(y)) return kNaN;
  if (x == 0) return 0;
  return x * std::log(y);
}

struct Case {
  const char* name;
  std::function<Tensor(const Tensor&, const Tensor&)> op;
  std::function<double(double, double)> reference;
};

std::vector<Case> cases() {
  return {
      {"atan2", [](const Tensor& a, const Tensor& b) { return mt::atan2(a, b); },
       [](double a, double b) { return std::atan2(a, b); }},
      {"hypot", [](const Tensor& a, const Tensor& b) { return mt::hypot(a, b); },
       [](double a, double b) { return std::hypot(a, b); }},
      {"copysign", [](const Tensor& a, const Tensor& b) { return mt::copysign(a, b); },
       [](double a, double b) { return std::copysign(a, b); }},
      {"logaddexp", [](const Tensor& a, const Tensor& b) { return mt::logaddexp(a, b); }, logaddexp_ref},
      {"logaddexp2", [](const Tensor& a, const Tensor& b) { return mt::logaddexp2(a, b); }, logaddexp2_ref},
      {"xlogy", [](const Tensor& a, const Tensor& b) { return mt::xlogy(a, b); }, xlogy_ref},
      {"fmod", [](const Tensor& a, const Tensor& b) { return mt::fmod(a, b); },
       [](double a, double b) { return std::fmod(a, b); }},
  };
}

const std::vector<double> kGrid = {0.0, -0.0, 0.5, -0.5, 1.0, -3.25, 7.0, 100.0, -40.0, kInf, -kInf, kNaN};

// Every (x, y) of the grid as two 1-D tensors of dtype dt.
std::pair<Tensor, Tensor> grid_pairs(ScalarType dt) {
  std::vector<double> a, b;
  for (double x : kGrid) {
    for (double y : kGrid) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  return {mt::tensor(a, TensorOptions(kFloat64)).to(dt), mt::tensor(b, TensorOptions(kFloat64)).to(dt)};
}

// got == reference(a, b) rounded into got's dtype, to a few units in its last place; the sign of a zero
// result matters (copysign, atan2).
void expect_matches(const Case& c, const Tensor& a, const Tensor& b, const Tensor& got) {
  const std::vector<double> x = values(a), y = values(b), r = values(got);
  std::vector<double> reference;
  for (size_t i = 0; i < x.size(); ++i) reference.push_back(c.reference(x[i], y[i]));
  const std::vector<double> rounded = values(mt::tensor(reference, TensorOptions(kFloat64)).to(got.dtype()));
  const double tol = tolerance(got.dtype());
  for (size_t i = 0; i < x.size(); ++i) {
    const double e = rounded[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(r[i])) << c.name << "(" << x[i] << ", " << y[i] << ") = " << r[i] << ", expected NaN";
    } else if (std::isinf(e) || e == 0) {
      EXPECT_EQ(r[i], e) << c.name << "(" << x[i] << ", " << y[i] << ")";
      EXPECT_EQ(std::signbit(r[i]), std::signbit(e)) << c.name << "(" << x[i] << ", " << y[i] << ")";
    } else {
      EXPECT_NEAR(r[i], e, tol * std::fabs(e)) << c.name << "(" << x[i] << ", " << y[i] << ") in " << got.dtype();
    }
  }
}

TEST(BinaryMath, EveryPairOfSpecialValuesInEveryFloatingDtype) {
  for (const Case& c : cases()) {
    for (ScalarType dt : kFloatTypes) {
      SCOPED_TRACE(std::string(c.name) + " in " + std::string(scalar_type_name(dt)));
      const auto [a, b] = grid_pairs(dt);
      const Tensor got = c.op(a, b);
      EXPECT_EQ(got.dtype(), dt);
      expect_matches(c, a, b, got);
      // Transposed and broadcast operands take the strided loop.
      const Tensor m = a.view({12, 12}), n = b.view({12, 12});
      expect_matches(c, m.t(), n, c.op(m.t(), n));
      const Tensor row = b.slice(0, 0, 12);
      expect_matches(c, m, row.expand({12, 12}), c.op(m, row));
    }
  }
}

TEST(BinaryMath, IntegersAndBoolComputeInTheDefaultFloat) {
  const Tensor i = mt::tensor({3, -4, 0}, TensorOptions(kInt32)), j = mt::tensor({4, 3, 2}, TensorOptions(kUInt8));
  for (const Case& c : cases()) {
    if (std::string(c.name) == "fmod") continue;
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.op(i, j).dtype(), kFloat32);
    expect_matches(c, i, j, c.op(i, j));
    EXPECT_EQ(c.op(mt::tensor({true, false}), mt::tensor({false, true})).dtype(), kFloat32);
    EXPECT_EQ(c.op(i, mt::tensor({1.0, 2.0, 3.0}, TensorOptions(kFloat64))).dtype(), kFloat64);
    EXPECT_EQ(c.op(i.to(kFloat16), j).dtype(), kFloat16);
  }
  EXPECT_EQ(values(mt::hypot(mt::tensor({3}), mt::tensor({4}))), std::vector<double>{5});
}

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
  expect_values_near(out, {std::log(2.0), logaddexp_ref(1, 0)}, 1e-6);
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

TEST(BinaryMath, MetaTensorsGetShapesAndDtypes) {
  const TensorOptions meta = TensorOptions().device(kMeta);
  const Tensor a = mt::empty({3, 1}, meta.dtype(kInt32)), b = mt::empty({4}, meta.dtype(kFloat16));
  for (const Case& c : cases()) {
    const Tensor r = c.op(a, b);
    EXPECT_TRUE(r.is_meta()) << c.name;
    EXPECT_EQ(r.sizes(), (std::vector<int64_t>{3, 4})) << c.name;
    EXPECT_EQ(r.dtype(), kFloat16) << c.name;
  }
  EXPECT_EQ(mt::atan2(a, a).dtype(), kFloat32);
  EXPECT_EQ(mt::fmod(a, a).dtype(), kInt32);
}

}  // namespace
