// neg, abs, sign, exp, log, log1p, sqrt, rsqrt, sin, cos, tanh, sigmoid against a naive double-precision
// reference: every dtype (integers promote to the default float for the floating ops), broadcasting-free
// shapes including 0-dim and empty, non-contiguous inputs, the in-place and out= forms, special values,
// Meta shapes and every error.
#include <cmath>
#include <limits>
#include <utility>

#include "ops/infra/Parallel.h"
#include "pointwise_reference.h"
#include "ops/api/abs.h"
#include "ops/api/arange.h"
#include "ops/api/cos.h"
#include "ops/api/empty.h"
#include "ops/api/exp.h"
#include "ops/api/full.h"
#include "ops/api/log.h"
#include "ops/api/log1p.h"
#include "ops/api/mul.h"
#include "ops/api/neg.h"
#include "ops/api/ones.h"
#include "ops/api/pow.h"
#include "ops/api/rsqrt.h"
#include "ops/api/sigmoid.h"
#include "ops/api/sign.h"
#include "ops/api/sin.h"
#include "ops/api/sqrt.h"
#include "ops/api/t.h"
#include "ops/api/tanh.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct UnaryCase {
  const char* name;
  Tensor (*fn)(const Tensor&);
  Tensor& (*fn_)(Tensor&);
  Tensor& (*fn_out)(Tensor&, const Tensor&);
  double (*ref)(double);
  bool floating;  // integer and bool inputs give the default float
};

const UnaryCase kCases[] = {
    {"neg", [](const Tensor& t) { return mt::neg(t); }, [](Tensor& t) -> Tensor& { return t.neg_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::neg_out(o, t); }, [](double x) { return -x; }, false},
    {"abs", [](const Tensor& t) { return mt::abs(t); }, [](Tensor& t) -> Tensor& { return t.abs_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::abs_out(o, t); }, [](double x) { return std::fabs(x); },
     false},
    {"sign", [](const Tensor& t) { return mt::sign(t); }, [](Tensor& t) -> Tensor& { return t.sign_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::sign_out(o, t); },
     [](double x) { return static_cast<double>((x > 0) - (x < 0)); }, false},
    {"exp", [](const Tensor& t) { return mt::exp(t); }, [](Tensor& t) -> Tensor& { return t.exp_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::exp_out(o, t); }, [](double x) { return std::exp(x); },
     true},
    {"log", [](const Tensor& t) { return mt::log(t); }, [](Tensor& t) -> Tensor& { return t.log_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::log_out(o, t); }, [](double x) { return std::log(x); },
     true},
    {"log1p", [](const Tensor& t) { return mt::log1p(t); }, [](Tensor& t) -> Tensor& { return t.log1p_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::log1p_out(o, t); },
     [](double x) { return std::log1p(x); }, true},
    {"sqrt", [](const Tensor& t) { return mt::sqrt(t); }, [](Tensor& t) -> Tensor& { return t.sqrt_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::sqrt_out(o, t); }, [](double x) { return std::sqrt(x); },
     true},
    {"rsqrt", [](const Tensor& t) { return mt::rsqrt(t); }, [](Tensor& t) -> Tensor& { return t.rsqrt_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::rsqrt_out(o, t); },
     [](double x) { return 1 / std::sqrt(x); }, true},
    {"sin", [](const Tensor& t) { return mt::sin(t); }, [](Tensor& t) -> Tensor& { return t.sin_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::sin_out(o, t); }, [](double x) { return std::sin(x); },
     true},
    {"cos", [](const Tensor& t) { return mt::cos(t); }, [](Tensor& t) -> Tensor& { return t.cos_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::cos_out(o, t); }, [](double x) { return std::cos(x); },
     true},
    {"tanh", [](const Tensor& t) { return mt::tanh(t); }, [](Tensor& t) -> Tensor& { return t.tanh_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::tanh_out(o, t); }, [](double x) { return std::tanh(x); },
     true},
    {"sigmoid", [](const Tensor& t) { return mt::sigmoid(t); }, [](Tensor& t) -> Tensor& { return t.sigmoid_(); },
     [](Tensor& o, const Tensor& t) -> Tensor& { return mt::sigmoid_out(o, t); },
     [](double x) { return 1 / (1 + std::exp(-x)); }, true},
};

ScalarType expected_dtype(const UnaryCase& c, ScalarType input) {
  return c.floating && !is_floating_point(input) ? kFloat32 : input;
}
bool supports(const UnaryCase& c, ScalarType input) {
  return input != kBool || (std::string(c.name) != "neg" && std::string(c.name) != "abs");
}

const std::vector<int64_t> kShapes[] = {{2, 3}, {}, {0, 3}, {5, 1, 4}, {17}};

TEST(PointwiseUnary, EveryOpMatchesReferenceForEveryDtypeAndShape) {
  uint64_t seed = 1;
  for (const UnaryCase& c : kCases) {
    for (ScalarType dt : kEveryDtype) {
      if (!supports(c, dt)) continue;
      for (const auto& shape : kShapes) {
        const Tensor a = random_tensor(shape, dt, seed++);
        const Tensor r = c.fn(a);
        EXPECT_EQ(r.dtype(), expected_dtype(c, dt)) << c.name << " on " << dt;
        EXPECT_EQ(r.sizes(), a.sizes()) << c.name;
        expect_close(r, naive_unary(a, c.ref), tolerance(r.dtype()));
      }
    }
  }
}

TEST(PointwiseUnary, NonContiguousInputsAreRead) {
  uint64_t seed = 50;
  for (const UnaryCase& c : kCases) {
    for (ScalarType dt : {kInt64, kFloat32, kFloat64, kFloat16}) {
      const Tensor t = transposed_random(4, 3, dt, seed++);
      ASSERT_FALSE(t.is_contiguous());
      expect_close(c.fn(t), naive_unary(t, c.ref), tolerance(expected_dtype(c, dt)));
      const Tensor stepped = strided_view(random_tensor({12}, dt, seed++), {4}, {3}, 1);  // base[1::3]
      expect_close(c.fn(stepped), naive_unary(stepped, c.ref), tolerance(expected_dtype(c, dt)));
    }
  }
}

TEST(PointwiseUnary, LargeInputsSplitAcrossThreadsGiveTheSameResult) {
  const int64_t n = 3 * kParallelGrain + 17;
  for (const UnaryCase& c : kCases) {
    const Tensor a = random_tensor({n}, kFloat32, 11);
    expect_close(c.fn(a), naive_unary(a, c.ref), 1e-5);
    const Tensor strided = strided_view(random_tensor({2 * n}, kFloat32, 12), {n}, {2});
    expect_close(c.fn(strided), naive_unary(strided, c.ref), 1e-5);
  }
}

TEST(PointwiseUnary, SpecialValuesOnVectorisedAndStridedPaths) {
  // 1e-40 is a float32 denormal. Repeated so that Eigen's vectorised body, not only its scalar tail,
  // sees every value.
  const std::vector<double> specials = {0.0, -0.0, 1.0, -1.0, 20.0, -20.0, 100.0, -100.0, kInf, -kInf, kNaN, 1e-3, 1e-40};
  std::vector<double> repeated;
  for (int k = 0; k < 4; ++k) repeated.insert(repeated.end(), specials.begin(), specials.end());
  const int64_t n = static_cast<int64_t>(repeated.size());
  for (ScalarType dt : {kFloat32, kFloat64}) {
    const Tensor contiguous = mt::tensor(repeated, TensorOptions(dt));
    // The same values every other element of a longer tensor, so the loop takes its strided path.
    const Tensor wide = mt::zeros({2 * n}, TensorOptions(dt));
    const Tensor strided = strided_view(wide, {n}, {2});
    strided.copy_(contiguous);
    for (const UnaryCase& c : kCases) {
      std::vector<double> expected = rounded_to(dt, naive_unary(contiguous, c.ref));
      if (std::string(c.name) == "sign") {
        for (int64_t i = 10; i < n; i += 13) expected[i] = 0;  // PyTorch's sign(nan) is 0
      }
      SCOPED_TRACE(::testing::Message() << c.name << " on " << dt);
      expect_close(c.fn(contiguous), expected, tolerance(dt));
      expect_close(c.fn(strided), expected, tolerance(dt));
    }
  }
  // Denormal inputs are not flushed to zero (checked relative to the tiny results), in place too.
  for (auto [dt, value] : {std::pair{kFloat32, 1e-40}, std::pair{kFloat64, 1e-310}}) {
    SCOPED_TRACE(::testing::Message() << dt);
    const Tensor tiny = mt::full({1000}, value, TensorOptions(dt));
    const double x = element(tiny, 0);
    EXPECT_NEAR(element(mt::sqrt(tiny), 999), std::sqrt(x), 1e-6 * std::sqrt(x));
    EXPECT_NEAR(element(mt::rsqrt(tiny), 999), 1 / std::sqrt(x), 1e-6 / std::sqrt(x));
    EXPECT_NEAR(element(mt::log(tiny), 999), std::log(x), 1e-5);
    EXPECT_NEAR(element(mt::log1p(tiny), 999), x, 1e-6 * x);
    Tensor in_place = copy_of(tiny);
    in_place.log_();
    EXPECT_NEAR(element(in_place, 999), std::log(x), 1e-5);
  }
}

TEST(PointwiseUnary, SqrtIsCorrectlyRounded) {
  // Perfect squares give exact roots (a fast reciprocal-square-root estimate would not).
  for (ScalarType dt : {kFloat32, kFloat64}) {
    const Tensor roots = mt::arange(1, 1001, 1, TensorOptions(dt));
    const Tensor squares = mt::mul(roots, roots);
    EXPECT_EQ(values(mt::sqrt(squares)), values(roots)) << dt;
    EXPECT_EQ(values(mt::pow(squares, 0.5)), values(roots)) << dt;
    EXPECT_EQ(values(mt::rsqrt(mt::full({64}, 0.25, TensorOptions(dt)))), std::vector<double>(64, 2.0)) << dt;
  }
}

TEST(PointwiseUnary, InPlaceWritesIntoSelfAndReturnsIt) {
  uint64_t seed = 200;
  for (const UnaryCase& c : kCases) {
    for (ScalarType dt : kFloatDtypes) {
      const Tensor original = random_tensor({3, 4}, dt, seed++);
      Tensor a = copy_of(original);
      const void* data = a.data_ptr();
      Tensor& r = c.fn_(a);
      EXPECT_TRUE(r.is_same(a)) << c.name;
      EXPECT_EQ(a.data_ptr(), data);
      expect_close(a, naive_unary(original, c.ref), tolerance(dt));
    }
    if (!c.floating) {
      Tensor i = mt::tensor({-3, 0, 5});
      c.fn_(i);
      EXPECT_EQ(values(i), naive_unary(mt::tensor({-3, 0, 5}), c.ref)) << c.name;
    }
  }
  // In place through a transposed view writes the viewed elements only.
  Tensor base = mt::arange(6, TensorOptions(kFloat64));
  Tensor t = strided_view(base, {3, 2}, {1, 3});
  t.neg_();
  EXPECT_EQ(values(base), (std::vector<double>{0, -1, -2, -3, -4, -5}));
}

TEST(PointwiseUnary, OutFormsWriteResizeAndCast) {
  for (const UnaryCase& c : kCases) {
    const Tensor a = random_tensor({2, 3}, kInt64, 300);
    Tensor out = mt::empty({0}, TensorOptions(kFloat64));
    Tensor& r = c.fn_out(out, a);
    EXPECT_TRUE(r.is_same(out)) << c.name;
    EXPECT_EQ(out.sizes(), IntArrayRef({2, 3}));
    EXPECT_EQ(out.dtype(), kFloat64);
    // The result is computed in the op's dtype (float32 for floating ops on int64), then cast.
    expect_close(out, naive_unary(a, c.ref), c.floating ? 1e-6 : 0);
    Tensor same = mt::empty({2, 3}, TensorOptions(expected_dtype(c, kInt64)));
    c.fn_out(same, a);
    expect_close(same, naive_unary(a, c.ref), tolerance(same.dtype()));
  }
}

TEST(PointwiseUnary, IntegerOpsKeepIntegersExactly) {
  const Tensor i = mt::tensor({-7, 0, 3, -1});
  EXPECT_EQ(mt::neg(i).dtype(), kInt64);
  EXPECT_EQ(values(mt::neg(i)), (std::vector<double>{7, 0, -3, 1}));
  EXPECT_EQ(values(mt::abs(i)), (std::vector<double>{7, 0, 3, 1}));
  EXPECT_EQ(values(mt::sign(i)), (std::vector<double>{-1, 0, 1, -1}));
  EXPECT_EQ(mt::sign(mt::tensor({true, false})).dtype(), kBool);
  EXPECT_EQ(values(mt::sign(mt::tensor({true, false}))), (std::vector<double>{1, 0}));
  EXPECT_EQ(mt::sqrt(mt::tensor({4, 9})).dtype(), kFloat32);
  EXPECT_EQ(values(mt::sqrt(mt::tensor({4, 9}))), (std::vector<double>{2, 3}));
  expect_close(mt::exp(mt::tensor({true, false})), {std::exp(1.0), 1}, 1e-6);
  EXPECT_EQ(values(-i), (std::vector<double>{7, 0, -3, 1}));
}

TEST(PointwiseUnary, DefaultDtypeDecidesWhatIntegersPromoteTo) {
  set_default_dtype(kFloat64);
  const Tensor r = mt::exp(mt::tensor({1, 2}));
  set_default_dtype(kFloat32);
  EXPECT_EQ(r.dtype(), kFloat64);
  expect_close(r, {std::exp(1.0), std::exp(2.0)}, 1e-15);
}

TEST(PointwiseUnary, MetaTensorsGetShapesAndDtypesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  for (const UnaryCase& c : kCases) {
    for (ScalarType dt : {kInt64, kFloat16, kFloat64}) {
      const Tensor r = c.fn(mt::empty({4, 0, 2}, meta.dtype(dt)));
      EXPECT_TRUE(r.is_meta());
      EXPECT_EQ(r.sizes(), IntArrayRef({4, 0, 2}));
      EXPECT_EQ(r.dtype(), expected_dtype(c, dt)) << c.name;
      const Tensor s = c.fn(mt::empty({3, 5}, meta.dtype(dt)));
      EXPECT_EQ(s.sizes(), IntArrayRef({3, 5}));
      EXPECT_EQ(s.strides(), IntArrayRef({5, 1}));
    }
  }
  Tensor i = mt::empty({2}, meta.dtype(kInt64));
  expect_error<TypeError>([&] { i.exp_(); }, "result type mt.float32 can't be cast to the desired output type mt.int64");
}

TEST(PointwiseUnary, ErrorsNameTheProblemAndChangeNothing) {
  expect_error<RuntimeError>([] { mt::neg(mt::tensor({true, false})); },
                             "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                             "invert a mask, use the `~` or `logical_not()` operator instead.");
  expect_error<RuntimeError>([] { -mt::tensor({true}); }, "Negation, the `-` operator, on a bool tensor");
  expect_error<NotImplementedError>([] { mt::abs(mt::tensor({true})); }, "\"abs\" not implemented for 'mt.bool'");
  Tensor empty_out = mt::empty({0}, TensorOptions(kBool));
  expect_error<NotImplementedError>([&] { mt::abs_out(empty_out, mt::tensor({true, false})); }, "\"abs\"");
  EXPECT_EQ(empty_out.sizes(), IntArrayRef({0})) << "a rejected dtype is caught before out is resized";
  Tensor i = mt::tensor({1, 4});
  expect_error<TypeError>([&] { i.sqrt_(); }, "result type mt.float32 can't be cast to the desired output type mt.int64");
  EXPECT_EQ(values(i), (std::vector<double>{1, 4}));
  Tensor int_out = mt::empty({2}, TensorOptions(kInt64));
  expect_error<TypeError>([&] { mt::exp_out(int_out, mt::tensor({1.0, 2.0})); },
                          "result type mt.float32 can't be cast to the desired output type mt.int64");
  Tensor wrong = mt::empty({3});
  expect_error<RuntimeError>([&] { mt::exp_out(wrong, mt::ones({2, 3})); },
                             "output with shape [3] doesn't match the broadcast shape [2, 3]");
  expect_error<RuntimeError>([] {
    Tensor cpu = mt::empty({2});
    mt::exp_out(cpu, mt::ones({2}, TensorOptions(Device("meta"))));
  }, "Expected all tensors to be on the same device");
}

}  // namespace
