// add, sub, mul, div against a naive double-precision reference: every dtype, alpha and the rounding
// modes, broadcasting, non-contiguous inputs, in-place and out= forms, and every error (the OpInfo table's
// rows, tests/opinfo/binary_table.cpp, check the rest of what every binary op must do).
#include <cmath>
#include <limits>

#include "ops/infra/Parallel.h"
#include "reference.h"
#include "ops/api/add.h"
#include "ops/api/arange.h"
#include "ops/api/div.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/mul.h"
#include "ops/api/ones.h"
#include "ops/api/std.h"
#include "ops/api/sub.h"
#include "ops/api/sum.h"
#include "ops/api/t.h"

namespace {

using namespace mt;
using namespace mt::testing;

const ScalarType kAllTypes[] = {kBool, kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};
const ScalarType kNumericTypes[] = {kInt8, kInt16, kInt32, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};

struct ShapePair {
  std::vector<int64_t> a, b;
};
const ShapePair kShapes[] = {
    {{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{4, 1}, {1, 5}}, {{}, {3, 2}}, {{2, 0, 3}, {3}}, {{3, 1, 2}, {4, 1}}, {{7}, {}},
};

double py_floor_div(double a, double b) { return std::floor(a / b); }

TEST(BinaryOps, AddMatchesReferenceForEveryDtypeAndBroadcast) {
  uint64_t seed = 1;
  for (ScalarType dt : kNumericTypes) {
    for (const auto& s : kShapes) {
      const Tensor a = random_tensor(s.a, dt, seed++), b = random_tensor(s.b, dt, seed++);
      const Tensor r = mt::add(a, b, 2);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), IntArrayRef(broadcast_shape(a.sizes(), b.sizes())));
      expect_values_near(r, naive_binary(a, b, [](double x, double y) { return x + 2 * y; }), tolerance(dt));
    }
  }
}

TEST(BinaryOps, SubMulDivMatchReference) {
  uint64_t seed = 100;
  for (ScalarType dt : kNumericTypes) {
    for (const auto& s : kShapes) {
      const Tensor a = random_tensor(s.a, dt, seed++), b = random_tensor(s.b, dt, seed++, /*nonzero=*/true);
      expect_values_near(mt::sub(a, b), naive_binary(a, b, [](double x, double y) { return x - y; }), tolerance(dt));
      expect_values_near(mt::mul(a, b), naive_binary(a, b, [](double x, double y) { return x * y; }), tolerance(dt));
      const Tensor q = mt::div(a, b);
      EXPECT_EQ(q.dtype(), is_integral(dt, false) ? kFloat32 : dt) << "true division of integers gives the default float";
      expect_values_near(q, naive_binary(a, b, [](double x, double y) { return x / y; }), tolerance(q.dtype()));
      const Tensor t = mt::div(a, b, "trunc"), f = mt::div(a, b, "floor");
      EXPECT_EQ(t.dtype(), dt);
      expect_values_near(t, naive_binary(a, b, [](double x, double y) { return std::trunc(x / y); }), tolerance(dt));
      expect_values_near(f, naive_binary(a, b, py_floor_div), tolerance(dt));
    }
  }
}

// PyTorch 2.x computes a 16-bit float times or over a scalar second operand with the scalar in float, as
// given: rounded to half first, 1e-8 would be 0 and 2^40 inf. add, sub and a scalar first operand take the
// scalar in the tensor's dtype.
TEST(BinaryOps, SixteenBitFloatsTimesOrOverAScalarTakeTheScalarInFloat) {
  const float inf = std::numeric_limits<float>::infinity();
  auto half_of = [](float x) { return static_cast<double>(static_cast<float>(Half(x))); };
  const Tensor h = mt::tensor({-inf, 1000.f}).to(kFloat16);
  EXPECT_EQ(values(h * 1e-8), (std::vector<double>{-inf, half_of(1000.f * 1e-8f)}));
  EXPECT_EQ(values(h * 1e-8)[1], half_of(1.0014e-05f));
  EXPECT_EQ(values(h.div(static_cast<double>(1LL << 40))), (std::vector<double>{-inf, 0}));
  EXPECT_EQ(values(h.mul(mt::tensor(1e-8f))), values(h * 1e-8));
  EXPECT_EQ(values(h.div(mt::tensor(std::ldexp(1.0, 40)))), (std::vector<double>{-inf, 0}));
  Tensor in_place = h.clone();
  in_place.mul_(1e-8);
  EXPECT_EQ(values(in_place), values(h * 1e-8));
  const Tensor b = mt::tensor({1000.f}).to(kBFloat16);
  EXPECT_EQ(values(b * 1e-8)[0], static_cast<double>(static_cast<float>(BFloat16(1000.f * 1e-8f))));
  const Tensor zero_and_1000 = mt::tensor({0.f, 1000.f}).to(kFloat16);
  EXPECT_EQ(values(mt::mul(mt::tensor(1e-8f), zero_and_1000)), (std::vector<double>{0, 0}));
  EXPECT_EQ(values(zero_and_1000.add(1e-8, 1e4)), (std::vector<double>{0, 1000}));
}

// A scalar operand takes the vectorised loop over the tensor alone: the same values as elementwise.
TEST(BinaryOps, ScalarOperandsGiveTheElementwiseValues) {
  const Tensor x = random_tensor({1000}, kFloat32, 7);
  std::vector<double> times, over;
  for (double v : values(x)) {
    times.push_back(static_cast<float>(v) * 0.1f);
    over.push_back(static_cast<float>(v) / 0.1f);
  }
  EXPECT_EQ(values(x * 0.1), times);
  EXPECT_EQ(values(x / 0.1), over);
}

TEST(BinaryOps, BoolArithmeticIsLogical) {
  const Tensor a = mt::tensor({true, true, false, false}), b = mt::tensor({true, false, true, false});
  EXPECT_EQ(values(mt::add(a, b)), (std::vector<double>{1, 1, 1, 0}));
  EXPECT_EQ(values(mt::mul(a, b)), (std::vector<double>{1, 0, 0, 0}));
  EXPECT_EQ(mt::add(a, b).dtype(), kBool);
  EXPECT_EQ(mt::div(a, b).dtype(), kFloat32);
}

TEST(BinaryOps, MixedDtypesPromoteLikePyTorch) {
  const Tensor i = mt::tensor({1, 2, 3}), f = mt::tensor({0.5f, 0.25f, 2.f});
  const Tensor h = mt::ones({3}, TensorOptions(kFloat16));
  EXPECT_EQ(mt::add(i, f).dtype(), kFloat32);
  expect_values_near(mt::add(i, f), {1.5, 2.25, 5}, 1e-6);
  EXPECT_EQ(mt::mul(i, 2.5).dtype(), kFloat32);   // a Python float promotes ints to the default float
  EXPECT_EQ(mt::mul(h, 2.5).dtype(), kFloat16);   // ... but does not widen a float tensor
  EXPECT_EQ(mt::add(h, mt::tensor(1.0, TensorOptions(kFloat64))).dtype(), kFloat16);  // 0-dim ranks below dim>0
  EXPECT_EQ(mt::add(i, mt::tensor(1.0, TensorOptions(kFloat64))).dtype(), kFloat64);  // higher category wins
  EXPECT_EQ(mt::add(h, mt::ones({3}, TensorOptions(kBFloat16))).dtype(), kFloat32);
  expect_values_near(mt::mul(i, 2.5), {2.5, 5, 7.5}, 1e-6);
}

TEST(BinaryOps, NonContiguousAndBroadcastViewsAreRead) {
  const Tensor base = mt::arange(12, TensorOptions(kFloat64));
  const Tensor transposed = strided_view(base, {4, 3}, {1, 4});  // base.view(3, 4).t()
  const Tensor stepped = strided_view(base, {3}, {4}, 1);        // base[1::4]
  const Tensor expanded = strided_view(base, {4, 3}, {0, 1}, 2);  // base[2:5].expand(4, 3)
  auto plus = [](double x, double y) { return x + y; };
  expect_values_near(mt::add(transposed, stepped), naive_binary(transposed, stepped, plus), 0);
  expect_values_near(mt::add(transposed, expanded), naive_binary(transposed, expanded, plus), 0);
  // Hand-checked corner: transposed[3][2] = base[11], stepped[2] = base[9].
  EXPECT_EQ(element(mt::add(transposed, stepped), 11), 20.0);
}

TEST(BinaryOps, LargeInputsSplitAcrossThreadsGiveTheSameResult) {
  const int64_t n = 3 * kParallelGrain + 17;
  const Tensor a = random_tensor({n}, kFloat32, 7), b = random_tensor({n}, kFloat32, 8);
  expect_values_near(mt::mul(a, b), naive_binary(a, b, [](double x, double y) { return x * y; }), 1e-6);
  const Tensor bt = strided_view(random_tensor({2 * n}, kFloat32, 9), {n}, {2});
  expect_values_near(mt::sub(a, bt), naive_binary(a, bt, [](double x, double y) { return x - y; }), 1e-6);
}

TEST(BinaryOps, ScalarOverloadsAndOperators) {
  const Tensor a = mt::tensor({1., 2., 3.});
  expect_values_near(a + 1, {2, 3, 4}, 0);
  expect_values_near(2 * a, {2, 4, 6}, 0);
  expect_values_near(a - 1, {0, 1, 2}, 0);
  expect_values_near(a / 2, {0.5, 1, 1.5}, 0);
  expect_values_near(a * a - a / a, {0, 3, 8}, 0);
  expect_values_near(mt::add(a, 10, 2), {21, 22, 23}, 0);
  expect_values_near(a.sub(1, 3), {-2, -1, 0}, 0);
  EXPECT_EQ(mt::mul(mt::tensor({1, 2}), 3).dtype(), kInt64);
  EXPECT_EQ((mt::tensor({1, 2}) + true).dtype(), kInt64);
}

TEST(BinaryOps, InPlaceWritesIntoSelfAndReturnsIt) {
  Tensor a = mt::tensor({1., 2., 3.});
  const void* data = a.data_ptr();
  Tensor& r = a.add_(mt::tensor({10., 20., 30.}), 2);
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(a.data_ptr(), data);
  expect_values_near(a, {21, 42, 63}, 0);
  a.mul_(2).div_(4).sub_(1);
  expect_values_near(a, {9.5, 20, 30.5}, 0);
  Tensor h = mt::ones({2}, TensorOptions(kFloat16));
  h += mt::tensor({0.5f, 1.5f});  // computed in float32, written back as float16
  EXPECT_EQ(h.dtype(), kFloat16);
  expect_values_near(h, {1.5, 2.5}, 0);
  Tensor m = mt::ones({2, 3});
  m.add_(mt::tensor({1.f, 2.f, 3.f}));  // other broadcasts to self
  expect_values_near(m, {2, 3, 4, 2, 3, 4}, 0);
}

TEST(BinaryOps, OutVariantsWriteIntoOutAndResizeEmptyOut) {
  const Tensor a = mt::tensor({1., 2.}), b = mt::tensor({3., 4.});
  Tensor out = mt::empty({2}, TensorOptions(kFloat64));
  Tensor& r = mt::add_out(out, a, b);
  EXPECT_TRUE(r.is_same(out));
  expect_values_near(out, {4, 6}, 0);
  Tensor empty_out = mt::empty({0}, TensorOptions(kFloat64));
  mt::mul_out(empty_out, mt::ones({2, 2}, TensorOptions(kFloat64)), b);
  EXPECT_EQ(empty_out.sizes(), IntArrayRef({2, 2}));
  expect_values_near(empty_out, {3, 4, 3, 4}, 0);
  Tensor wide = mt::empty({2}, TensorOptions(kFloat64));
  mt::div_out(wide, mt::tensor({1, 3}), mt::tensor({2, 2}));  // float32 result cast into a float64 out
  expect_values_near(wide, {0.5, 1.5}, 0);
  Tensor floor_out = mt::empty({2}, TensorOptions(kInt64));
  mt::div_out(floor_out, mt::tensor({-7, 7}), mt::tensor({2, 2}), "floor");
  expect_values_near(floor_out, {-4, 3}, 0);
}

TEST(BinaryOps, IntegerDivisionRoundsLikePython) {
  const Tensor a = mt::tensor({7, -7, 7, -7}), b = mt::tensor({2, 2, -2, -2});
  EXPECT_EQ(values(mt::div(a, b, "trunc")), (std::vector<double>{3, -3, -3, 3}));
  EXPECT_EQ(values(mt::div(a, b, "floor")), (std::vector<double>{3, -4, -4, 3}));
  const Tensor fa = mt::tensor({7., -7., 7., -7.}), fb = mt::tensor({2., 2., -2., -2.});
  EXPECT_EQ(values(mt::div(fa, fb, "floor")), (std::vector<double>{3, -4, -4, 3}));
  // INT64_MIN / -1 does not fit: it wraps to INT64_MIN (as on a GPU) instead of trapping.
  const Tensor lowest = mt::tensor(std::vector<int64_t>{INT64_MIN, INT64_MIN, 9});
  const Tensor minus_one = mt::full({3}, -1);
  for (const char* mode : {"trunc", "floor"}) {
    const Tensor r = mt::div(lowest, minus_one, mode);
    EXPECT_EQ(std::vector<int64_t>(r.data_ptr<int64_t>(), r.data_ptr<int64_t>() + 3),
              (std::vector<int64_t>{INT64_MIN, INT64_MIN, -9}))
        << mode;
  }
  const Tensor q = mt::div(mt::tensor({1., -1., 0.}), mt::tensor({0., 0., 0.}));
  EXPECT_TRUE(std::isinf(element(q, 0)) && element(q, 0) > 0);
  EXPECT_TRUE(std::isinf(element(q, 1)) && element(q, 1) < 0);
  EXPECT_TRUE(std::isnan(element(q, 2)));
}

TEST(BinaryOps, MetaTensorsGetShapesAndDtypesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor r = mt::add(mt::empty({4, 1}, meta), mt::empty({1, 5}, meta.dtype(kFloat64)));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes(), IntArrayRef({4, 5}));
  EXPECT_EQ(r.dtype(), kFloat64);
  EXPECT_EQ(mt::div(mt::empty({3}, meta.dtype(kInt64)), 2).dtype(), kFloat32);
  expect_error<RuntimeError>([&] { mt::add(mt::empty({3}, meta), mt::empty({4}, meta)); },
                             "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0");
}

TEST(BinaryOps, ErrorsNameTheProblemAndChangeNothing) {
  expect_error<RuntimeError>([] { mt::add(mt::ones({2, 3}), mt::ones({2, 4})); },
                             "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  Tensor i = mt::tensor({1, 2});
  expect_error<TypeError>([&] { i.add_(mt::tensor({0.5, 0.5})); },
                          "result type mt.float32 can't be cast to the desired output type mt.int64");
  EXPECT_EQ(values(i), (std::vector<double>{1, 2})) << "a failed in-place op leaves self unchanged";
  Tensor small = mt::ones({3});
  expect_error<RuntimeError>([&] { small.add_(mt::ones({2, 3})); },
                             "output with shape [3] doesn't match the broadcast shape [2, 3]");
  expect_error<TypeError>([] { mt::sub(mt::tensor({true}), mt::tensor({false})); },
                          "Subtraction, the `-` operator, with a bool tensor is not supported");
  expect_error<TypeError>([] { mt::add(mt::tensor({1, 2}), mt::tensor({1, 2}), 0.5); },
                          "For integral input tensors, argument alpha must not be a floating point number.");
  expect_error<TypeError>([] { mt::add(mt::tensor({1., 2.}), mt::tensor({1., 2.}), true); },
                          "Boolean alpha only supported for Boolean results.");
  expect_error<ValueError>([] { mt::div(mt::ones({2}), mt::ones({2}), "round"); },
                           "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
  expect_error<RuntimeError>([] { mt::div(mt::tensor({1, 2}), mt::tensor({1, 0}), "trunc"); }, "ZeroDivisionError");
  for (const char* mode : {"trunc", "floor"}) {
    Tensor q = mt::tensor({5, 6, 7});
    expect_error<RuntimeError>([&] { q.div_(mt::tensor({2, 0, 3}), mode); }, "ZeroDivisionError");
    EXPECT_EQ(values(q), (std::vector<double>{5, 6, 7})) << "a failed div_ leaves self unchanged (" << mode << ")";
  }
  expect_error<RuntimeError>([] { mt::add(mt::ones({2}), mt::ones({2}, TensorOptions(Device("meta")))); },
                             "Expected all tensors to be on the same device, but found at least two devices, cpu and meta!");
}

// A 0-dim CPU tensor (a wrapped number, say) may join an op on another device, as in PyTorch; the
// result is on that device.
TEST(BinaryOps, ZeroDimCpuTensorsJoinOpsOnOtherDevices) {
  const TensorOptions meta(Device("meta"));
  const mt::Tensor sum = mt::add(mt::ones({2}, meta), mt::full({}, 2.0));
  EXPECT_TRUE(sum.is_meta());
  EXPECT_EQ(sum.dtype(), mt::kFloat32);
  EXPECT_TRUE(mt::mul(mt::full({}, 2, mt::kInt64), mt::ones({3}, meta)).is_meta());
  expect_error<RuntimeError>([&] { mt::add(mt::ones({2}, meta), mt::ones({1})); },
                             "Expected all tensors to be on the same device, but found at least two devices, meta and cpu!");
}

TEST(BinaryOps, EveryDtypeCombinationPromotes) {
  for (ScalarType x : kAllTypes) {
    for (ScalarType y : kAllTypes) {
      const Tensor a = mt::ones({2}, TensorOptions(x)), b = mt::ones({2}, TensorOptions(y));
      const Tensor r = mt::mul(a, b);
      EXPECT_EQ(r.dtype(), promote_types(x, y)) << x << " * " << y;
      expect_values_near(r, {1, 1}, 0);
    }
  }
}

}  // namespace
