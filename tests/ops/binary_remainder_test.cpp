// remainder (Python's %: the result has the divisor's sign) against a naive double reference
// a - floor(a / b) * b, its Scalar, in-place and out= forms (its special values are the OpInfo table's,
// tests/opinfo/binary_table.cpp); rsub and the operators
// with a scalar on the left (3 - x, 2 / x, 7 % x) with PyTorch's type promotion; and every error.
#include <cmath>
#include <limits>

#include "reference.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/api/remainder.h"
#include "ops/api/rsub.h"
#include "ops/api/std.h"

namespace {

using namespace mt;
using namespace mt::testing;

const ScalarType kNumericTypes[] = {kInt8, kInt16, kInt32, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};

double python_mod(double a, double b) { return a - std::floor(a / b) * b; }

TEST(Remainder, MatchesPythonModuloForEveryDtypeAndBroadcast) {
  const std::vector<std::vector<int64_t>> shapes[] = {{{2, 3}, {2, 3}}, {{4, 1}, {1, 5}}, {{}, {3, 2}},
                                                      {{2, 0, 3}, {3}}, {{7}, {}}};
  uint64_t seed = 300;
  for (ScalarType dt : kNumericTypes) {
    for (const auto& s : shapes) {
      const Tensor a = random_tensor(s[0], dt, seed++), b = random_tensor(s[1], dt, seed++, /*nonzero=*/true);
      const Tensor r = mt::remainder(a, b);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), IntArrayRef(broadcast_shape(a.sizes(), b.sizes())));
      expect_values_near(r, naive_binary(a, b, python_mod), tolerance(dt));
      expect_values_near(a % b, naive_binary(a, b, python_mod), tolerance(dt));
    }
  }
}

TEST(Remainder, TakesTheSignOfTheDivisor) {
  const Tensor a = mt::tensor({7, -7, 7, -7, 6}), b = mt::tensor({3, 3, -3, -3, 3});
  EXPECT_EQ(values(mt::remainder(a, b)), (std::vector<double>{1, 2, -2, -1, 0}));
  EXPECT_EQ(mt::remainder(a, b).dtype(), kInt64);
  const Tensor fa = mt::tensor({5.5, -5.5, 5.5, -5.5}), fb = mt::tensor({2., 2., -2., -2.});
  EXPECT_EQ(values(mt::remainder(fa, fb)), (std::vector<double>{1.5, 0.5, -0.5, -1.5}));
  // INT64_MIN % -1 is 0 (the x86 division instruction would trap on it).
  const Tensor lowest = mt::tensor(std::vector<int64_t>{INT64_MIN, INT64_MIN});
  EXPECT_EQ(values(mt::remainder(lowest, mt::tensor({-1, 3}))), (std::vector<double>{0, 1}));
}

TEST(Remainder, ScalarOverloadsAndOperators) {
  const Tensor x = mt::tensor({5, -5, 4});
  EXPECT_EQ(values(mt::remainder(x, 3)), (std::vector<double>{2, 1, 1}));
  EXPECT_EQ(values(x % 3), (std::vector<double>{2, 1, 1}));
  EXPECT_EQ((x % 3).dtype(), kInt64);
  EXPECT_EQ((x % 2.5).dtype(), kFloat32) << "a Python float promotes an integer tensor to the default float";
  expect_values_near(x % 2.5, {0, 0, 1.5}, 0);
  EXPECT_EQ(values(mt::remainder(7, x)), (std::vector<double>{2, -3, 3}));
  EXPECT_EQ(values(7 % x), (std::vector<double>{2, -3, 3}));
  EXPECT_EQ((7 % x).dtype(), kInt64);
  EXPECT_EQ((7.5 % x).dtype(), kFloat32);
  expect_values_near(x.remainder(mt::tensor({2, 2, 3})), {1, 1, 1}, 0);
}

TEST(Remainder, InPlaceAndOutFormsWriteWhereTheyShould) {
  Tensor a = mt::tensor({7., -7., 8.});
  const void* data = a.data_ptr();
  Tensor& r = a.remainder_(mt::tensor({2., 2., 3.}));
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(a.data_ptr(), data);
  EXPECT_EQ(values(a), (std::vector<double>{1, 1, 2}));
  a.remainder_(-2);
  EXPECT_EQ(values(a), (std::vector<double>{-1, -1, 0}));
  a %= mt::tensor(5.);
  EXPECT_EQ(values(a), (std::vector<double>{4, 4, 0}));
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  mt::remainder_out(out, mt::tensor({-3., 3.}), mt::tensor({2., 2.}));
  EXPECT_EQ(values(out), (std::vector<double>{1, 1}));
  mt::remainder_out(out, mt::tensor({-3., 4.}), 3);
  EXPECT_EQ(values(out), (std::vector<double>{0, 1}));
  mt::remainder_out(out, 5, mt::tensor({-3., 3.}));
  EXPECT_EQ(values(out), (std::vector<double>{-1, 2}));
  EXPECT_EQ(out.dtype(), kFloat64);
}

TEST(Remainder, MetaTensorsGetShapesAndDtypesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor r = mt::remainder(mt::empty({4, 1}, meta.dtype(kInt64)), mt::empty({1, 5}, meta.dtype(kInt64)));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes(), IntArrayRef({4, 5}));
  EXPECT_EQ(r.dtype(), kInt64);
  EXPECT_EQ(mt::remainder(mt::empty({3}, meta.dtype(kInt64)), 2.5).dtype(), kFloat32);
}

TEST(Remainder, ErrorsNameTheProblemAndChangeNothing) {
  Tensor a = mt::tensor({5, 6, 7});
  expect_error<RuntimeError>([&] { a.remainder_(mt::tensor({2, 0, 3})); }, "ZeroDivisionError");
  EXPECT_EQ(values(a), (std::vector<double>{5, 6, 7})) << "a failed remainder_ leaves self unchanged";
  expect_error<RuntimeError>([&] { mt::remainder(a, 0); }, "ZeroDivisionError");
  expect_error<RuntimeError>([&] { mt::remainder(a, mt::tensor({false})); }, "ZeroDivisionError");
  expect_error<NotImplementedError>([] { mt::remainder(mt::tensor({true}), mt::tensor({true})); },
                                    "\"remainder\" not implemented for 'mt.bool'");
  expect_error<TypeError>([&] { a.remainder_(mt::tensor({2.5, 2.5, 2.5})); },
                          "result type mt.float32 can't be cast to the desired output type mt.int64");
  EXPECT_EQ(values(a), (std::vector<double>{5, 6, 7}));
  expect_error<RuntimeError>([] { mt::remainder(mt::ones({2}), mt::ones({3})); },
                             "The size of tensor a (2) must match the size of tensor b (3)");
}

TEST(Rsub, IsOtherMinusAlphaTimesSelfWithPyTorchsPromotion) {
  const Tensor i = mt::tensor({1, 2, 3}), f = mt::tensor({0.5f, 1.5f, 2.5f});
  EXPECT_EQ(values(mt::rsub(i, f)), (std::vector<double>{-0.5, -0.5, -0.5}));
  EXPECT_EQ(values(mt::rsub(i, f, 2)), (std::vector<double>{-1.5, -2.5, -3.5}));
  const Tensor three_minus = mt::rsub(i, 3);
  EXPECT_EQ(three_minus.dtype(), kInt64);
  EXPECT_EQ(values(three_minus), (std::vector<double>{2, 1, 0}));
  EXPECT_EQ((3 - i).dtype(), kInt64) << "3 - int_tensor stays int64";
  EXPECT_EQ(values(3 - i), (std::vector<double>{2, 1, 0}));
  EXPECT_EQ((2.5 - i).dtype(), kFloat32) << "2.5 - int_tensor is the default float";
  expect_values_near(2.5 - i, {1.5, 0.5, -0.5}, 0);
  EXPECT_EQ((1 - mt::ones({2}, TensorOptions(kFloat16))).dtype(), kFloat16);
  EXPECT_EQ(values(mt::rsub(i, 10, 3)), (std::vector<double>{7, 4, 1}));
  expect_error<TypeError>([] { return 1 - mt::tensor({true}); },
                          "Subtraction, the `-` operator, with a bool tensor is not supported");
  expect_error<TypeError>([&] { mt::rsub(i, 1, 0.5); },
                          "For integral input tensors, argument alpha must not be a floating point number.");
}

TEST(ScalarOnTheLeft, DivisionIsTheReciprocalTimesTheScalar) {
  const Tensor i = mt::tensor({1, 2, 4});
  const Tensor q = 2 / i;
  EXPECT_EQ(q.dtype(), kFloat32) << "2 / int_tensor is floating, as in Python";
  expect_values_near(q, {2, 1, 0.5}, 0);
  const Tensor d = mt::tensor({0.5, -4., 0.}, kFloat64);
  EXPECT_EQ((1.5 / d).dtype(), kFloat64);
  const std::vector<double> r = values(1.5 / d);
  EXPECT_EQ(r[0], 3.0);
  EXPECT_EQ(r[1], -0.375);
  EXPECT_EQ(r[2], std::numeric_limits<double>::infinity());
  EXPECT_EQ((1 / mt::ones({2}, TensorOptions(kBFloat16))).dtype(), kBFloat16);
}

}  // namespace
