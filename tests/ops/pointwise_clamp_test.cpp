// maximum, minimum, clamp (Scalar and Tensor bounds), clamp_min and clamp_max against naive double
// references with NaN propagation: every dtype, promotion with Python-number and tensor bounds,
// broadcasting, non-contiguous inputs, in-place and out= forms, Meta shapes and every error.
#include <cmath>
#include <limits>

#include "ops/infra/Parallel.h"
#include "pointwise_reference.h"
#include "ops/api/arange.h"
#include "ops/api/clamp.h"
#include "ops/api/clamp_max.h"
#include "ops/api/clamp_min.h"
#include "ops/api/empty.h"
#include "ops/api/maximum.h"
#include "ops/api/minimum.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double ref_max(double a, double b) { return std::isnan(a) || std::isnan(b) ? kNaN : std::max(a, b); }
double ref_min(double a, double b) { return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b); }
double ref_clamp(double x, double lo, double hi) { return ref_min(ref_max(x, lo), hi); }

struct ShapePair {
  std::vector<int64_t> a, b;
};
const ShapePair kShapes[] = {{{2, 3}, {2, 3}}, {{4, 1}, {1, 5}}, {{}, {3}}, {{2, 0}, {1}}, {{3, 1, 2}, {2}}};

TEST(PointwiseMaximum, MatchesReferenceForEveryDtypeAndBroadcast) {
  uint64_t seed = 1;
  for (ScalarType dt : kEveryDtype) {
    for (const auto& s : kShapes) {
      const Tensor a = random_tensor(s.a, dt, seed++), b = random_tensor(s.b, dt, seed++);
      const Tensor hi = mt::maximum(a, b), lo = a.minimum(b);
      EXPECT_EQ(hi.dtype(), dt);
      EXPECT_EQ(hi.sizes(), IntArrayRef(broadcast_shape(a.sizes(), b.sizes())));
      EXPECT_EQ(values(hi), naive_binary(a, b, ref_max)) << dt;
      EXPECT_EQ(values(lo), naive_binary(a, b, ref_min)) << dt;
    }
    const Tensor t = transposed_random(3, 4, dt, seed++), row = random_tensor({4}, dt, seed++);
    EXPECT_EQ(values(mt::maximum(t, row)), naive_binary(t, row, ref_max));
  }
}

TEST(PointwiseMaximum, PromotesAndPropagatesNaN) {
  const Tensor i = mt::tensor({2, -3, 0}), f = mt::tensor({1.5f, -2.5f, 0.5f});
  EXPECT_EQ(mt::maximum(i, f).dtype(), kFloat32);
  EXPECT_EQ(values(mt::maximum(i, f)), (std::vector<double>{2, -2.5, 0.5}));
  EXPECT_EQ(mt::maximum(i, mt::tensor(1.5)).dtype(), kFloat32);
  EXPECT_EQ(mt::minimum(mt::tensor({true, false}), mt::tensor({true, true})).dtype(), kBool);
  EXPECT_EQ(values(mt::minimum(mt::tensor({true, false}), mt::tensor({true, true}))), (std::vector<double>{1, 0}));
  const Tensor x = mt::tensor({1.0, kNaN, kNaN, -kInf}), y = mt::tensor({kNaN, 1.0, kNaN, 0.0});
  expect_close(mt::maximum(x, y), {kNaN, kNaN, kNaN, 0}, 0);
  expect_close(mt::minimum(x, y), {kNaN, kNaN, kNaN, -kInf}, 0);
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  EXPECT_TRUE(mt::maximum_out(out, i, f).is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{2, -2.5, 0.5}));
  Tensor out2 = mt::empty({3}, TensorOptions(kInt64));
  mt::minimum_out(out2, i, mt::tensor({1, 1, 1}));
  EXPECT_EQ(values(out2), (std::vector<double>{1, -3, 0}));
}

TEST(PointwiseClamp, ScalarBoundsMatchReferenceForNumericDtypes) {
  uint64_t seed = 100;
  struct Bounds {
    std::optional<double> lo, hi;
  };
  const Bounds bounds[] = {{-1, 2}, {-1, std::nullopt}, {std::nullopt, 2}, {2, -1}, {0, 0}};
  for (ScalarType dt : kNumericDtypes) {
    for (const Bounds& b : bounds) {
      for (const Tensor& a : {random_tensor({3, 4}, dt, seed), random_tensor({}, dt, seed + 1),
                              random_tensor({0, 2}, dt, seed + 2), transposed_random(4, 3, dt, seed + 3)}) {
        std::optional<Scalar> lo, hi;
        // Integer-valued bounds as Python ints, so int64 stays int64.
        if (b.lo) lo = Scalar(static_cast<int64_t>(*b.lo));
        if (b.hi) hi = Scalar(static_cast<int64_t>(*b.hi));
        const Tensor r = mt::clamp(a, lo, hi);
        EXPECT_EQ(r.dtype(), dt);
        EXPECT_EQ(r.sizes(), a.sizes());
        const double l = b.lo.value_or(-kInf), h = b.hi.value_or(kInf);
        EXPECT_EQ(values(r), naive_unary(a, [&](double x) { return ref_clamp(x, l, h); })) << dt;
      }
      seed += 4;
    }
  }
}

TEST(PointwiseClamp, ScalarBoundsPromoteLikePythonNumbers) {
  const Tensor i = mt::tensor({2, -3, 0});
  EXPECT_EQ(mt::clamp(i, 0, 1).dtype(), kInt64);
  EXPECT_EQ(values(mt::clamp(i, 0, 1)), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(mt::clamp(i, 0.5).dtype(), kFloat32);
  EXPECT_EQ(values(mt::clamp(i, 0.5)), (std::vector<double>{2, 0.5, 0.5}));
  EXPECT_EQ(values(mt::clamp(i, std::nullopt, 0.5)), (std::vector<double>{0.5, -3, 0}));
  EXPECT_EQ(values(mt::clamp(i, 0, 1.5)), (std::vector<double>{1.5, 0, 0}));
  EXPECT_EQ(mt::clamp(mt::tensor({true, false}), 0, 1).dtype(), kInt64);
  EXPECT_EQ(values(mt::clamp(mt::tensor({true, false}), 0.5)), (std::vector<double>{1, 0.5}));
  const Tensor h = mt::tensor({2.0, -3.0, 0.25}, TensorOptions(kFloat16));
  EXPECT_EQ(mt::clamp(h, 0.5, 1.5).dtype(), kFloat16);
  EXPECT_EQ(values(mt::clamp(h, 0.5, 1.5)), (std::vector<double>{1.5, 0.5, 0.5}));
  const Tensor f = mt::tensor({2.0, -3.0, 0.5, kNaN});
  expect_close(mt::clamp(f, 0, 1), {1, 0, 0.5, kNaN}, 0);
  expect_close(mt::clamp(f, kNaN, 1), {kNaN, kNaN, kNaN, kNaN}, 0);
  expect_close(mt::clamp(f, std::nullopt, kNaN), {kNaN, kNaN, kNaN, kNaN}, 0);
  expect_close(mt::clamp(f, -kInf, kInf), {2, -3, 0.5, kNaN}, 0);
}

TEST(PointwiseClamp, TensorBoundsBroadcastAndPromote) {
  uint64_t seed = 200;
  for (ScalarType dt : kEveryDtype) {
    const Tensor x = random_tensor({3, 4}, dt, seed++);
    const Tensor lo = random_tensor({4}, dt, seed++), hi = random_tensor({3, 1}, dt, seed++);
    EXPECT_EQ(values(x.clamp(lo, std::nullopt)), naive_binary(x, lo, ref_max)) << dt;
    EXPECT_EQ(values(mt::clamp(x, std::nullopt, hi)), naive_binary(x, hi, ref_min)) << dt;
    if (dt == kBool) continue;  // two bounds are not implemented for bool (see the errors test)
    const Tensor r = mt::clamp(x, lo, hi);
    EXPECT_EQ(r.dtype(), dt);
    EXPECT_EQ(values(r), naive_ternary(x, lo, hi, ref_clamp)) << dt;
    const Tensor t = transposed_random(4, 3, dt, seed++), t_lo = random_tensor({3}, dt, seed++);
    const Tensor t_hi = transposed_random(4, 3, dt, seed++);
    EXPECT_EQ(values(mt::clamp(t, t_lo, t_hi)), naive_ternary(t, t_lo, t_hi, ref_clamp)) << "non-contiguous";
  }
  const Tensor i = mt::tensor({2, -3, 0});
  EXPECT_EQ(mt::clamp(i, mt::tensor({0.f}), std::nullopt).dtype(), kFloat32);
  const Tensor r = mt::clamp(i, mt::tensor(0.0), mt::tensor({{1}}));
  EXPECT_EQ(r.dtype(), kFloat32);
  EXPECT_EQ(r.sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(values(r), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(mt::clamp(i, mt::tensor({true}), std::nullopt).dtype(), kInt64);
  EXPECT_EQ(values(mt::clamp(mt::tensor({true, false}), mt::tensor({true}), std::nullopt)), (std::vector<double>{1, 1}));
  expect_close(mt::clamp(mt::tensor({kNaN, 2.0}), mt::tensor({0.0}), mt::tensor({kNaN})), {kNaN, kNaN}, 0);
  EXPECT_EQ(values(mt::clamp(mt::tensor({2.0}), mt::tensor({3.0}), mt::tensor({1.0}))), (std::vector<double>{1}))
      << "min > max gives max";
}

TEST(PointwiseClamp, ClampMinAndClampMaxAreOneSidedClamps) {
  const Tensor i = mt::tensor({2, -3, 0});
  EXPECT_EQ(values(mt::clamp_min(i, 1)), (std::vector<double>{2, 1, 1}));
  EXPECT_EQ(mt::clamp_min(i, 1.5).dtype(), kFloat32);
  EXPECT_EQ(values(i.clamp_max(1.5)), (std::vector<double>{1.5, -3, 0}));
  EXPECT_EQ(values(mt::clamp_min(i, mt::tensor({0, -5, 1}))), (std::vector<double>{2, -3, 1}));
  EXPECT_EQ(values(i.clamp_max(mt::tensor({0}))), (std::vector<double>{0, -3, 0}));
  Tensor a = mt::tensor({2.0, -3.0, 0.5}, TensorOptions(kFloat64));
  EXPECT_TRUE(mt::clamp_min_(a, -1).is_same(a));
  EXPECT_EQ(values(a), (std::vector<double>{2, -1, 0.5}));
  a.clamp_max_(mt::tensor({1.0, 1.0, 0.0}, TensorOptions(kFloat64)));
  EXPECT_EQ(values(a), (std::vector<double>{1, -1, 0}));
  a.clamp_min_(mt::tensor(0.5));
  EXPECT_EQ(values(a), (std::vector<double>{1, 0.5, 0.5}));
  mt::clamp_max_(a, 0.75);
  EXPECT_EQ(values(a), (std::vector<double>{0.75, 0.5, 0.5}));
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  mt::clamp_min_out(out, i, 0);
  EXPECT_EQ(values(out), (std::vector<double>{2, 0, 0}));
  mt::clamp_max_out(out, i, mt::tensor({1}));
  EXPECT_EQ(values(out), (std::vector<double>{1, -3, 0}));
  mt::clamp_min_out(out, i, mt::tensor({1}));
  EXPECT_EQ(values(out), (std::vector<double>{2, 1, 1}));
  mt::clamp_max_out(out, i, -1);
  EXPECT_EQ(values(out), (std::vector<double>{-1, -3, -1}));
}

TEST(PointwiseClamp, InPlaceAndOutForms) {
  Tensor a = mt::tensor({2.0, -3.0, 0.5}, TensorOptions(kFloat64));
  const void* data = a.data_ptr();
  EXPECT_TRUE(a.clamp_(-1, 1).is_same(a));
  EXPECT_EQ(a.data_ptr(), data);
  EXPECT_EQ(values(a), (std::vector<double>{1, -1, 0.5}));
  Tensor m = mt::zeros({2, 3});
  m.clamp_(mt::tensor({1.f, -1.f, 2.f}), mt::tensor({{1.5f}, {0.5f}}));
  EXPECT_EQ(values(m), (std::vector<double>{1, 0, 1.5, 0.5, 0, 0.5}));
  Tensor base = mt::arange(6, TensorOptions(kInt64));
  Tensor t = strided_view(base, {3, 2}, {1, 3});
  t.clamp_(1, 4);
  EXPECT_EQ(values(base), (std::vector<double>{1, 1, 2, 3, 4, 4}));
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  EXPECT_TRUE(mt::clamp_out(out, mt::tensor({1, 5}), 2, 3).is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{2, 3}));
  Tensor out2 = mt::empty({2, 2}, TensorOptions(kFloat32));
  mt::clamp_out(out2, mt::tensor({1, 5}), mt::tensor({{2}, {0}}), mt::tensor({4}));
  EXPECT_EQ(values(out2), (std::vector<double>{2, 4, 1, 4}));
}

TEST(PointwiseClamp, LargeInputsSplitAcrossThreads) {
  const int64_t n = 3 * kParallelGrain + 11;
  const Tensor a = random_tensor({n}, kFloat32, 70), b = random_tensor({n}, kFloat32, 71);
  EXPECT_EQ(values(mt::clamp(a, -1.5, 2)), naive_unary(a, [](double x) { return ref_clamp(x, -1.5, 2); }));
  const Tensor s = strided_view(random_tensor({2 * n}, kFloat32, 72), {n}, {2});
  EXPECT_EQ(values(mt::clamp(s, -1.5, 2)), naive_unary(s, [](double x) { return ref_clamp(x, -1.5, 2); }));
  EXPECT_EQ(values(mt::maximum(a, b)), naive_binary(a, b, ref_max));
  EXPECT_EQ(values(mt::clamp(a, b, s)), naive_ternary(a, b, s, ref_clamp));
}

TEST(PointwiseClamp, MetaTensorsGetShapesAndDtypes) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor i = mt::empty({4, 1}, meta.dtype(kInt64));
  EXPECT_EQ(mt::clamp(i, 0, 1).dtype(), kInt64);
  EXPECT_EQ(mt::clamp(i, 0.5).dtype(), kFloat32);
  const Tensor r = mt::clamp(i, mt::empty({3}, meta.dtype(kFloat16)), mt::empty({2, 1, 1}, meta.dtype(kInt64)));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 4, 3}));
  EXPECT_EQ(r.dtype(), kFloat16);
  EXPECT_EQ(mt::maximum(i, mt::empty({1, 5}, meta)).sizes(), IntArrayRef({4, 5}));
  EXPECT_EQ(mt::clamp_max(i, mt::empty({2}, meta.dtype(kFloat64))).dtype(), kFloat64);
}

TEST(PointwiseClamp, ErrorsNameTheProblemAndChangeNothing) {
  const Tensor f = mt::ones({2});
  expect_error<RuntimeError>([&] { mt::clamp(f, std::nullopt, std::optional<Scalar>()); },
                             "clamp: At least one of 'min' or 'max' must not be None");
  expect_error<RuntimeError>([&] { mt::clamp(f, std::optional<Tensor>(), std::optional<Tensor>()); },
                             "At least one of 'min' or 'max' must not be None");
  expect_error<RuntimeError>([&] { f.clamp(Tensor(), Tensor()); }, "At least one of 'min' or 'max' must not be None");
  expect_error<NotImplementedError>([] { mt::clamp(mt::tensor({true}), false, true); },
                                    "\"clamp\" not implemented for 'mt.bool'");
  const Tensor b = mt::tensor({true, false});
  expect_error<NotImplementedError>([&] { mt::clamp(b, b, b); }, "\"clamp\" not implemented for 'mt.bool'");
  EXPECT_EQ(values(mt::clamp(b, std::nullopt, mt::tensor({false, false}))), (std::vector<double>{0, 0}));  // minimum
  // Scalar bounds are converted to the element type, which must hold them (infinities always do).
  Tensor half = mt::ones({2}, TensorOptions(kFloat16));
  expect_error<RuntimeError>([&] { half.clamp_(std::nullopt, 1e10); },
                             "value cannot be converted to type mt.float16 without overflow");
  expect_error<RuntimeError>([&] { half.clamp_min_(-70000); }, "value cannot be converted to type mt.float16 without overflow");
  expect_error<RuntimeError>([&] { mt::clamp(mt::ones({2}), 1e300, std::nullopt); },
                             "value cannot be converted to type mt.float32 without overflow");
  EXPECT_EQ(values(half), (std::vector<double>{1, 1}));
  EXPECT_EQ(values(half.clamp(-std::numeric_limits<double>::infinity(), 65504)), (std::vector<double>{1, 1}));
  Tensor i = mt::tensor({1, 2});
  expect_error<TypeError>([&] { i.clamp_(0.5, 1); }, "result type mt.float32 can't be cast to the desired output type mt.int64");
  expect_error<TypeError>([&] { i.clamp_min_(0.5); }, "result type mt.float32 can't be cast to the desired output type mt.int64");
  expect_error<TypeError>([&] { i.clamp_min_(mt::tensor(0.5)); },
                          "result type mt.float32 can't be cast to the desired output type mt.int64");
  expect_error<RuntimeError>([&] { i.clamp_(mt::ones({3, 2}), std::nullopt); },
                             "output with shape [2] doesn't match the broadcast shape [3, 2]");
  EXPECT_EQ(values(i), (std::vector<double>{1, 2}));
  expect_error<RuntimeError>([] { mt::clamp(mt::tensor({1, 2}), mt::tensor({1, 2, 3}), std::nullopt); },
                             "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
  expect_error<RuntimeError>([] { mt::maximum(mt::ones({2}), mt::ones({2}, TensorOptions(Device("meta")))); },
                             "Expected all tensors to be on the same device");
}

}  // namespace
