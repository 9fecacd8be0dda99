// pow (Tensor_Tensor, Tensor_Scalar, Scalar) against std::pow in double and a naive integer power:
// PyTorch's promotion (wrapped scalars, int64 staying integral, bool), broadcasting, non-contiguous
// inputs, the fast exponents (2, 3, 0.5, -0.5, -1), in-place and out= forms, Meta shapes and errors.
#include <cmath>
#include <limits>

#include "ops/infra/Parallel.h"
#include "pointwise_reference.h"
#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/api/pow.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// PyTorch's integer power: repeated multiplication; a negative exponent leaves 1 / base**-e truncated.
double naive_int_pow(double base, double exp) {
  const int64_t b = static_cast<int64_t>(base), e = static_cast<int64_t>(exp);
  if (e < 0) return b == 1 ? 1 : b == -1 ? (e % 2 == 0 ? 1 : -1) : 0;
  int64_t r = 1;
  for (int64_t k = 0; k < e; ++k) r *= b;
  return static_cast<double>(r);
}

const double kExponents[] = {2, 3, 0.5, -0.5, -1, -2, 2.5, 0, 1, -1.5};

TEST(PointwisePow, TensorScalarMatchesReferenceForFloatDtypes) {
  uint64_t seed = 1;
  for (ScalarType dt : kFloatDtypes) {
    for (double e : kExponents) {
      for (const Tensor& a : {random_tensor({3, 4}, dt, seed), transposed_random(4, 3, dt, seed + 1),
                              random_tensor({}, dt, seed + 2), random_tensor({0, 2}, dt, seed + 3)}) {
        const Tensor r = mt::pow(a, e);
        EXPECT_EQ(r.dtype(), dt) << "a Python float exponent does not widen a float tensor";
        EXPECT_EQ(r.sizes(), a.sizes());
        expect_close(r, rounded_to(dt, naive_unary(a, [e](double x) { return std::pow(x, e); })), tolerance(dt));
      }
      seed += 4;
    }
  }
}

TEST(PointwisePow, IntegerTensorsStayIntegralWithIntegerExponents) {
  const Tensor a = random_tensor({4, 5}, kInt64, 20);
  for (int64_t e : {0, 1, 2, 3, 5}) {
    const Tensor r = mt::pow(a, e);
    EXPECT_EQ(r.dtype(), kInt64);
    EXPECT_EQ(values(r), naive_unary(a, [e](double x) { return naive_int_pow(x, static_cast<double>(e)); }));
  }
  const Tensor f = mt::pow(a, 2.5);
  EXPECT_EQ(f.dtype(), kFloat32) << "a float exponent promotes int64 to the default float";
  expect_close(f, naive_unary(a, [](double x) { return std::pow(x, 2.5); }), 1e-5);
  EXPECT_EQ(values(mt::pow(mt::tensor({int64_t{2}}), 63)), (std::vector<double>{-9223372036854775808.0}))
      << "overflow wraps, as in PyTorch";
  EXPECT_EQ(values(mt::pow(mt::tensor({-8, 7}), 3)), (std::vector<double>{-512, 343}));
  const Tensor b = mt::tensor({true, false});
  EXPECT_EQ(mt::pow(b, 2).dtype(), kInt64);
  EXPECT_EQ(values(mt::pow(b, 2)), (std::vector<double>{1, 0}));
  EXPECT_EQ(mt::pow(b, 2.0).dtype(), kFloat32);
  EXPECT_EQ(mt::pow(mt::tensor({2, 3}), true).dtype(), kInt64);
}

TEST(PointwisePow, TensorTensorBroadcastsAndPromotes) {
  struct Shapes {
    std::vector<int64_t> a, b;
  };
  const Shapes shapes[] = {{{2, 3}, {2, 3}}, {{4, 1}, {1, 5}}, {{}, {3}}, {{2, 0}, {1}}, {{3, 1, 2}, {2}}};
  uint64_t seed = 40;
  for (ScalarType dt : kNumericDtypes) {
    for (const auto& s : shapes) {
      const Tensor a = random_tensor(s.a, dt, seed++), b = random_tensor(s.b, dt, seed++);
      const Tensor r = mt::pow(a, b);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), IntArrayRef(broadcast_shape(a.sizes(), b.sizes())));
      if (dt == kInt64) {
        EXPECT_EQ(values(r), naive_binary(a, b, naive_int_pow));
      } else {
        expect_close(r, rounded_to(dt, naive_binary(a, b, [](double x, double y) { return std::pow(x, y); })),
                     tolerance(dt));
      }
    }
  }
  EXPECT_EQ(values(mt::pow(mt::tensor({1, -1, 2, 0, -2}), mt::tensor({-1, -1, -1, -1, -3}))),
            (std::vector<double>{1, -1, 0, 0, 0}));
  const Tensor h = mt::tensor({2.0, -3.0, 0.5}, TensorOptions(kFloat16)), f = mt::tensor({2.f, 3.f, -1.f});
  EXPECT_EQ(mt::pow(h, f).dtype(), kFloat32);
  expect_close(mt::pow(h, f), {4, -27, 2}, 1e-6);
  EXPECT_EQ(mt::pow(mt::tensor({1, 2}), mt::tensor(2.0)).dtype(), kFloat32) << "a 0-dim float raises the category";
  EXPECT_EQ(mt::pow(mt::tensor({1.f, 2.f}), mt::tensor(2, TensorOptions(kInt64))).dtype(), kFloat32);
  const Tensor base = mt::arange(12, TensorOptions(kFloat64));
  const Tensor t = strided_view(base, {4, 3}, {1, 4});
  const Tensor exps = strided_view(base, {3}, {4}, 1);
  expect_close(mt::pow(t, exps), naive_binary(t, exps, [](double x, double y) { return std::pow(x, y); }), 1e-12);
}

TEST(PointwisePow, ScalarBaseFollowsPythonNumberPromotion) {
  const Tensor i = mt::tensor({2, -3, 0});
  EXPECT_EQ(mt::pow(2, i).dtype(), kInt64);
  EXPECT_EQ(values(mt::pow(2, i)), (std::vector<double>{4, 0, 1}));
  EXPECT_EQ(mt::pow(2.5, i).dtype(), kFloat32);
  expect_close(mt::pow(2.5, i), {6.25, std::pow(2.5, -3), 1}, 1e-6);
  const Tensor f = mt::tensor({2.0, -3.0, 0.5}, TensorOptions(kFloat64));
  expect_close(mt::pow(2, f), {4, 0.125, std::sqrt(2.0)}, 1e-15);
  EXPECT_EQ(mt::pow(2, mt::tensor({true, false})).dtype(), kInt64);
  expect_close(mt::pow(1, mt::tensor({0.0, kNaN})), {1, 1}, 0);
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  mt::pow_out(out, 3, i);
  EXPECT_EQ(values(out), (std::vector<double>{9, 0, 1}));
}

TEST(PointwisePow, SpecialValues) {
  // Repeated so that both Eigen's vectorised body and its scalar tail see every value.
  const std::vector<double> specials = {kNaN, 0.0, -0.0, kInf, -kInf, -2.0};
  std::vector<double> repeated;
  for (int k = 0; k < 4; ++k) repeated.insert(repeated.end(), specials.begin(), specials.end());
  auto expect_pow = [&](double e, std::vector<double> expected) {
    std::vector<double> all;
    for (int k = 0; k < 4; ++k) all.insert(all.end(), expected.begin(), expected.end());
    for (ScalarType dt : {kFloat32, kFloat64}) {
      SCOPED_TRACE(::testing::Message() << "exponent " << e << " on " << dt);
      expect_close(mt::pow(mt::tensor(repeated, TensorOptions(dt)), e), all, 0);
    }
  };
  expect_pow(0, {1, 1, 1, 1, 1, 1});
  expect_pow(2, {kNaN, 0, 0, kInf, kInf, 4});
  expect_pow(-1, {kNaN, kInf, -kInf, 0, -0.0, -0.5});
  expect_pow(0.5, {kNaN, 0, 0, kInf, kNaN, kNaN});  // computed as sqrt, as PyTorch does
  expect_pow(2.5, {kNaN, 0, 0, kInf, kInf, kNaN});
  expect_pow(-1.5, {kNaN, kInf, kInf, 0, 0, kNaN});
}

TEST(PointwisePow, LargeInputsSplitAcrossThreads) {
  const int64_t n = 3 * kParallelGrain + 9;
  const Tensor a = random_tensor({n}, kFloat32, 60), b = random_tensor({n}, kFloat32, 61);
  for (double e : {2.0, 2.5, -1.0}) {
    expect_close(mt::pow(a, e), rounded_to(kFloat32, naive_unary(a, [e](double x) { return std::pow(x, e); })), 1e-5);
  }
  expect_close(mt::pow(a, b), rounded_to(kFloat32, naive_binary(a, b, [](double x, double y) { return std::pow(x, y); })),
               1e-5);
}

TEST(PointwisePow, InPlaceAndOutForms) {
  Tensor a = mt::tensor({1.5, -2.0, 3.0}, TensorOptions(kFloat64));
  const void* data = a.data_ptr();
  EXPECT_TRUE(a.pow_(2).is_same(a));
  EXPECT_EQ(a.data_ptr(), data);
  EXPECT_EQ(values(a), (std::vector<double>{2.25, 4, 9}));
  a.pow_(mt::tensor({2.0, 0.5, -1.0}));
  expect_close(a, {2.25 * 2.25, 2, 1 / 9.0}, 1e-15);
  Tensor i = mt::tensor({2, 3});
  i.pow_(3);
  EXPECT_EQ(values(i), (std::vector<double>{8, 27}));
  Tensor f = mt::tensor({1.f, 2.f});
  f.pow_(mt::tensor({3, 2}));  // int64 exponent, float32 self
  EXPECT_EQ(values(f), (std::vector<double>{1, 4}));
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  EXPECT_TRUE(mt::pow_out(out, mt::tensor({2, 3}), 2).is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{4, 9}));
  Tensor out2 = mt::empty({2, 2});
  mt::pow_out(out2, mt::tensor({{1.f}, {2.f}}), mt::tensor({1.f, 2.f}));
  EXPECT_EQ(values(out2), (std::vector<double>{1, 1, 2, 4}));
}

TEST(PointwisePow, MetaTensorsGetShapesAndDtypes) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor i = mt::empty({4, 1}, meta.dtype(kInt64));
  EXPECT_EQ(mt::pow(i, 2).dtype(), kInt64);
  EXPECT_EQ(mt::pow(i, 0.5).dtype(), kFloat32);
  const Tensor r = mt::pow(i, mt::empty({1, 3}, meta.dtype(kFloat64)));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes(), IntArrayRef({4, 3}));
  EXPECT_EQ(r.dtype(), kFloat64);
  EXPECT_EQ(mt::pow(2.5, i).dtype(), kFloat32);
  expect_error<RuntimeError>([&] { mt::pow(i, -1); }, "Integers to negative integer powers are not allowed.");
}

// As PyTorch: a power of 0 is 1 and a power of 1 the base itself, for every dtype, bool included.
TEST(PointwisePow, PowersZeroAndOneOfEveryDtype) {
  Tensor b = mt::tensor({true, false});
  b.pow_(false);
  EXPECT_EQ(values(b), (std::vector<double>{1, 1}));
  EXPECT_EQ(b.dtype(), kBool);
  const Tensor kept = mt::pow(mt::tensor({true, false}), true);
  EXPECT_EQ(kept.dtype(), kBool);
  EXPECT_EQ(values(kept), (std::vector<double>{1, 0}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(values(mt::pow(mt::tensor({nan, 0.0, -2.0}), 0)), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(values(mt::pow(mt::tensor({3, -4}), 1)), (std::vector<double>{3, -4}));
  EXPECT_EQ(mt::pow(mt::tensor({3, -4}), 0.0).dtype(), kFloat32);
}

TEST(PointwisePow, ErrorsNameTheProblemAndChangeNothing) {
  expect_error<RuntimeError>([] { mt::pow(mt::tensor({2, 3}), -1); }, "Integers to negative integer powers are not allowed.");
  expect_error<RuntimeError>([] { mt::pow(mt::tensor({true}), -2); }, "Integers to negative integer powers are not allowed.");
  expect_error<NotImplementedError>([] { mt::pow(mt::tensor({true}), mt::tensor({false})); },
                                    "\"pow\" not implemented for 'mt.bool'");
  expect_error<RuntimeError>([] { mt::ones({2}, TensorOptions(kFloat16)).pow_(1e10); },
                             "value cannot be converted to type mt.float16 without overflow");
  expect_error<NotImplementedError>([] { mt::pow(true, mt::tensor({true})); }, "\"pow\" not implemented for 'mt.bool'");
  Tensor i = mt::tensor({1, 2});
  expect_error<TypeError>([&] { i.pow_(2.5); }, "result type mt.float32 can't be cast to the desired output type mt.int64");
  expect_error<TypeError>([&] { i.pow_(mt::tensor(2.0)); },
                          "result type mt.float32 can't be cast to the desired output type mt.int64");
  EXPECT_EQ(values(i), (std::vector<double>{1, 2}));
  expect_error<RuntimeError>([] { mt::pow(mt::ones({2}), mt::ones({3})); },
                             "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
  Tensor small = mt::ones({2});
  expect_error<RuntimeError>([&] { small.pow_(mt::ones({2, 2})); },
                             "output with shape [2] doesn't match the broadcast shape [2, 2]");
  EXPECT_EQ(values(small), (std::vector<double>{1, 1}));
}

}  // namespace
