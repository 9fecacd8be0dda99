// where, masked_fill, fill_ and zero_ against naive references: three-way broadcasting, promotion of
// self/other (Python numbers included), masked_fill keeping self's dtype, value conversion and overflow
// checks, non-contiguous views, in-place and out= forms, Meta shapes and every error.
#include <cmath>
#include <limits>

#include "ops/infra/Parallel.h"
#include "pointwise_reference.h"
#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/fill.h"
#include "ops/api/full.h"
#include "ops/api/masked_fill.h"
#include "ops/api/neg.h"
#include "ops/api/ones.h"
#include "ops/api/t.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double choose(double c, double a, double b) { return c != 0 ? a : b; }

struct Shapes {
  std::vector<int64_t> cond, a, b;
};
const Shapes kShapes[] = {{{2, 3}, {2, 3}, {2, 3}}, {{3}, {2, 1}, {}},   {{4, 1}, {1, 5}, {5}},
                          {{}, {2}, {3, 1}},        {{0, 2}, {2}, {1}}, {{2, 1, 3}, {4, 1}, {3}}};

TEST(PointwiseWhere, MatchesReferenceWithThreeWayBroadcasting) {
  uint64_t seed = 1;
  for (ScalarType dt : kEveryDtype) {
    for (const auto& s : kShapes) {
      const Tensor c = random_tensor(s.cond, kBool, seed++);
      const Tensor a = random_tensor(s.a, dt, seed++), b = random_tensor(s.b, dt, seed++);
      const Tensor r = mt::where(c, a, b);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), IntArrayRef(broadcast_shape3(c.sizes(), a.sizes(), b.sizes())));
      EXPECT_EQ(values(r), naive_ternary(c, a, b, choose)) << dt;
      EXPECT_EQ(values(a.where(c, b)), naive_ternary(c, a, b, choose)) << "the method form";
    }
  }
  const Tensor base = mt::arange(12, TensorOptions(kFloat64));
  const Tensor t = strided_view(base, {4, 3}, {1, 4});
  const Tensor c = strided_view(random_tensor({3, 4}, kBool, 99), {4, 3}, {1, 4});
  EXPECT_EQ(values(mt::where(c, t, -t)), naive_ternary(c, t, mt::neg(t), choose));
}

TEST(PointwiseWhere, SelfAndOtherPromoteLikeABinaryOp) {
  const Tensor c = mt::tensor({true, false});
  const Tensor i = mt::tensor({2, -3}), f = mt::tensor({0.5f, 1.5f});
  const Tensor h = mt::tensor({2.0, -3.0}, TensorOptions(kFloat16));
  EXPECT_EQ(mt::where(c, i, f).dtype(), kFloat32);
  EXPECT_EQ(values(mt::where(c, i, f)), (std::vector<double>{2, 1.5}));
  EXPECT_EQ(mt::where(c, i, 2.5).dtype(), kFloat32);
  EXPECT_EQ(values(mt::where(c, i, 2.5)), (std::vector<double>{2, 2.5}));
  EXPECT_EQ(values(mt::where(c, 2.5, i)), (std::vector<double>{2.5, -3}));
  EXPECT_EQ(mt::where(c, 1, 0).dtype(), kInt64);
  EXPECT_EQ(values(mt::where(c, 1, 0)), (std::vector<double>{1, 0}));
  EXPECT_EQ(mt::where(c, 1.0, 0).dtype(), kFloat32);
  EXPECT_EQ(mt::where(c, true, false).dtype(), kBool);
  EXPECT_EQ(mt::where(c, h, 2.5).dtype(), kFloat16) << "a Python float does not widen float16";
  EXPECT_EQ(mt::where(c, c, 2).dtype(), kInt64);
  EXPECT_EQ(mt::where(c, i, mt::tensor(0.0, TensorOptions(kFloat64))).dtype(), kFloat64);
  EXPECT_EQ(mt::where(mt::tensor(true), i, f).sizes(), IntArrayRef({2}));
  expect_close(mt::where(c, mt::tensor({kNaN, 1.0}), mt::tensor({0.0, kInf})), {kNaN, kInf}, 0);
}

TEST(PointwiseWhere, OutFormResizesAndCasts) {
  const Tensor c = mt::tensor({{true}, {false}});
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  EXPECT_TRUE(mt::where_out(out, c, mt::tensor({1, 2}), mt::tensor({3, 4})).is_same(out));
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(values(out), (std::vector<double>{1, 2, 3, 4}));
  Tensor wrong_dtype = mt::empty({2}, TensorOptions(kInt64));
  expect_error<TypeError>([&] { mt::where_out(wrong_dtype, mt::tensor({true, false}), mt::ones({2}), mt::zeros({2})); },
                          "result type mt.float32 can't be cast to the desired output type mt.int64");
}

TEST(PointwiseMaskedFill, KeepsSelfsDtypeAndBroadcastsTheMask) {
  uint64_t seed = 100;
  for (ScalarType dt : kEveryDtype) {
    for (const auto& s : kShapes) {
      const Tensor self = random_tensor(s.a, dt, seed++), mask = random_tensor(s.cond, kBool, seed++);
      const double value = dt == kBool ? 1 : 3;
      const Tensor r = self.masked_fill(mask, value);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), IntArrayRef(broadcast_shape(self.sizes(), mask.sizes())));
      const Tensor v = mt::full({}, value, TensorOptions(kFloat64));
      EXPECT_EQ(values(r), naive_ternary(mask, v, self, choose)) << dt;
      EXPECT_EQ(values(mt::masked_fill(self, mask, mt::tensor(value))), naive_ternary(mask, v, self, choose));
    }
  }
  const Tensor i = mt::tensor({2, -3});
  const Tensor m = mt::tensor({true, false});
  EXPECT_EQ(values(i.masked_fill(m, 5.5)), (std::vector<double>{5, -3})) << "the value converts to self's dtype";
  EXPECT_EQ(values(i.masked_fill(m, mt::tensor(7.5))), (std::vector<double>{7, -3}));
  EXPECT_EQ(values(i.masked_fill(m, true)), (std::vector<double>{1, -3}));
  EXPECT_EQ(values(m.masked_fill(m, 0.5)), (std::vector<double>{1, 0}));
  EXPECT_EQ(values(i.masked_fill(mt::tensor(true), 9)), (std::vector<double>{9, 9}));
  expect_close(mt::tensor({1.f, 2.f}).masked_fill(m, -kInf), {-kInf, 2}, 0);
  const Tensor h = mt::ones({2}, TensorOptions(kFloat16));
  expect_close(h.masked_fill(m, kInf), {kInf, 1}, 0);
}

TEST(PointwiseMaskedFill, InPlaceWritesOnlyMaskedElements) {
  Tensor base = mt::arange(6, TensorOptions(kFloat64));
  Tensor t = strided_view(base, {3, 2}, {1, 3});  // transposed view of base
  const Tensor mask = mt::tensor({true, false});  // broadcast over the 3 rows: column 0 of t
  EXPECT_TRUE(t.masked_fill_(mask, -1).is_same(t));
  EXPECT_EQ(values(base), (std::vector<double>{-1, -1, -1, 3, 4, 5}));
  Tensor i = mt::tensor({1, 2, 3});
  i.masked_fill_(mt::tensor({false, true, true}), mt::tensor(2.9));
  EXPECT_EQ(values(i), (std::vector<double>{1, 2, 2}));
}

TEST(PointwiseFill, FillsEveryDtypeAndOnlyTheViewedElements) {
  for (ScalarType dt : kEveryDtype) {
    Tensor t = mt::empty({2, 3}, TensorOptions(dt));
    const double v = dt == kBool ? 1 : -2;
    EXPECT_TRUE(t.fill_(v).is_same(t));
    EXPECT_EQ(values(t), std::vector<double>(6, v)) << dt;
    EXPECT_TRUE(t.zero_().is_same(t));
    EXPECT_EQ(values(t), std::vector<double>(6, 0)) << dt;
    mt::fill_(t, mt::tensor(1));
    EXPECT_EQ(values(t), std::vector<double>(6, 1)) << dt;
  }
  Tensor base = mt::zeros({10}, TensorOptions(kInt64));
  Tensor every_third = strided_view(base, {3}, {3}, 1);
  every_third.fill_(7);
  EXPECT_EQ(values(base), (std::vector<double>{0, 7, 0, 0, 7, 0, 0, 7, 0, 0}));
  Tensor i = mt::zeros({2}, TensorOptions(kInt64));
  i.fill_(2.7);
  EXPECT_EQ(values(i), (std::vector<double>{2, 2}));
  i.fill_(mt::tensor(3.5));
  EXPECT_EQ(values(i), (std::vector<double>{3, 3}));
  Tensor b = mt::zeros({2}, TensorOptions(kBool));
  b.fill_(2);
  EXPECT_EQ(values(b), (std::vector<double>{1, 1}));
  Tensor f = mt::zeros({2});
  f.fill_(kInf);
  expect_close(f, {kInf, kInf}, 0);
  f.fill_(kNaN);
  expect_close(f, {kNaN, kNaN}, 0);
  Tensor h = mt::zeros({1}, TensorOptions(kFloat16));
  h.fill_(65504);
  EXPECT_EQ(values(h), (std::vector<double>{65504}));
  Tensor scalar = mt::zeros({});
  scalar.fill_(4);
  EXPECT_EQ(scalar.item<double>(), 4);
  Tensor none = mt::zeros({0, 3});
  none.fill_(1);
  EXPECT_EQ(none.sizes(), IntArrayRef({0, 3}));
}

TEST(PointwiseWhereFill, LargeInputsSplitAcrossThreads) {
  const int64_t n = 3 * kParallelGrain + 1;
  const Tensor c = random_tensor({n}, kBool, 5), a = random_tensor({n}, kFloat32, 6);
  EXPECT_EQ(values(mt::where(c, a, 0.5)), naive_ternary(c, a, mt::tensor(0.5f), choose));
  Tensor big = mt::empty({n}, TensorOptions(kFloat64));
  big.fill_(1.5);
  EXPECT_EQ(values(big), std::vector<double>(n, 1.5));
}

TEST(PointwiseWhereFill, MetaTensorsGetShapesAndDtypes) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor c = mt::empty({4, 1}, meta.dtype(kBool));
  const Tensor r = mt::where(c, mt::empty({1, 3}, meta.dtype(kInt64)), 0.5);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes(), IntArrayRef({4, 3}));
  EXPECT_EQ(r.dtype(), kFloat32);
  const Tensor self = mt::empty({3}, meta.dtype(kFloat16));
  const Tensor m = self.masked_fill(c, 2);
  EXPECT_EQ(m.sizes(), IntArrayRef({4, 3}));
  EXPECT_EQ(m.dtype(), kFloat16);
  EXPECT_EQ(self.masked_fill(c, mt::empty({}, meta)).dtype(), kFloat16);
  Tensor t = mt::empty({2, 2}, meta);
  EXPECT_TRUE(t.fill_(3).is_same(t));
  EXPECT_TRUE(t.zero_().is_same(t));
  expect_error<RuntimeError>([&] { mt::where(mt::empty({2}, meta.dtype(kInt64)), t, t); },
                             "where expected condition to be a boolean tensor, but got a tensor with dtype mt.int64");
}

TEST(PointwiseWhereFill, ErrorsNameTheProblemAndChangeNothing) {
  const Tensor a = mt::ones({2}), b = mt::zeros({2});
  expect_error<RuntimeError>([&] { mt::where(mt::tensor({1, 0}), a, b); },
                             "where expected condition to be a boolean tensor, but got a tensor with dtype mt.int64");
  expect_error<RuntimeError>([&] { mt::where(mt::tensor({1.f, 0.f}), a, 0); },
                             "where expected condition to be a boolean tensor, but got a tensor with dtype mt.float32");
  expect_error<RuntimeError>([&] { mt::where(mt::tensor({true, false}), mt::ones({3}), b); },
                             "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");

  Tensor self = mt::tensor({1, 2});
  expect_error<RuntimeError>([&] { self.masked_fill_(mt::tensor({1, 0}), 5); },
                             "masked_fill_ only supports boolean masks, but got mask with dtype mt.int64");
  expect_error<RuntimeError>([&] { self.masked_fill(mt::tensor({1.f, 0.f}), 5); },
                             "masked_fill_ only supports boolean masks, but got mask with dtype mt.float32");
  expect_error<RuntimeError>([&] { self.masked_fill_(mt::tensor({true, false}), mt::tensor({7})); },
                             "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
  expect_error<RuntimeError>([&] { self.masked_fill_(mt::tensor({{true}, {false}}), 5); },
                             "output with shape [2] doesn't match the broadcast shape [2, 2]");
  Tensor half = mt::ones({2}, TensorOptions(kFloat16));
  expect_error<RuntimeError>([&] { half.masked_fill_(mt::tensor({true, true}), 1e6); },
                             "value cannot be converted to type mt.float16 without overflow");
  EXPECT_EQ(values(self), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(half), (std::vector<double>{1, 1}));

  expect_error<RuntimeError>([&] { self.fill_(mt::tensor({3})); },
                             "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  expect_error<RuntimeError>([&] { self.fill_(kNaN); }, "value cannot be converted to type mt.int64 without overflow");
  expect_error<RuntimeError>([&] { self.fill_(1e19); }, "value cannot be converted to type mt.int64 without overflow");
  expect_error<RuntimeError>([&] { half.fill_(65519); }, "value cannot be converted to type mt.float16 without overflow");
  Tensor f = mt::ones({1});
  expect_error<RuntimeError>([&] { f.fill_(1e300); }, "value cannot be converted to type mt.float32 without overflow");
  Tensor bf = mt::ones({1}, TensorOptions(kBFloat16));
  expect_error<RuntimeError>([&] { bf.fill_(1e39); }, "value cannot be converted to type mt.bfloat16 without overflow");
  EXPECT_EQ(values(self), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(half), (std::vector<double>{1, 1}));
  EXPECT_EQ(values(f), (std::vector<double>{1}));
}

}  // namespace
