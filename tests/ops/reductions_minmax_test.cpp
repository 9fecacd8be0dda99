// max/min (whole tensor and .dim with indices), amax/amin, argmax/argmin and all/any against a naive
// reference: every dim of 3-D inputs in four layouts, keepdim, every dtype, NaN propagation, first
// occurrence of ties (also across the chunks of the parallel paths), 0-dim and empty inputs, Meta
// shapes, and every error.
#include <cmath>
#include <limits>

#include "reductions_reference.h"
#include "ops/api/all.h"
#include "ops/api/amax.h"
#include "ops/api/amin.h"
#include "ops/api/any.h"
#include "ops/api/argmax.h"
#include "ops/api/argmin.h"
#include "ops/api/empty.h"
#include "ops/api/max.h"
#include "ops/api/min.h"
#include "ops/api/ones.h"
#include "ops/api/std.h"
#include "ops/api/sum.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;
using namespace mt::testing::reductions;

const ScalarType kAllTypes[] = {kBool, kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};
const ScalarType kNumericTypes[] = {kInt8, kInt16, kInt32, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// PyTorch's rules: a NaN beats every number; among equals the first wins.
double ref_max(const std::vector<double>& v) {
  double m = v[0];
  for (double x : v) m = std::isnan(m) ? m : (std::isnan(x) || x > m ? x : m);
  return m;
}
double ref_min(const std::vector<double>& v) {
  double m = v[0];
  for (double x : v) m = std::isnan(m) ? m : (std::isnan(x) || x < m ? x : m);
  return m;
}
double ref_argmax(const std::vector<double>& v) {
  size_t best = 0;
  for (size_t i = 1; i < v.size(); ++i)
    if (!std::isnan(v[best]) && (std::isnan(v[i]) || v[i] > v[best])) best = i;
  return static_cast<double>(best);
}
double ref_argmin(const std::vector<double>& v) {
  size_t best = 0;
  for (size_t i = 1; i < v.size(); ++i)
    if (!std::isnan(v[best]) && (std::isnan(v[i]) || v[i] < v[best])) best = i;
  return static_cast<double>(best);
}

// Layouts of small random integers (many ties) and, for floating types, a tensor with NaNs.
std::vector<Tensor> inputs(ScalarType dt, uint64_t seed) {
  std::vector<Tensor> ts = layouts_3d([dt](IntArrayRef s, uint64_t sd) { return random_tensor(s, dt, sd); }, seed);
  if (is_floating_point(dt)) {
    Tensor d = random_tensor({3, 4, 5}, kFloat64, seed + 9);
    for (int64_t i : {3, 17, 18, 40, 59}) d.data_ptr<double>()[i] = kNaN;
    ts.push_back(converted(d, dt));
  }
  return ts;
}

TEST(ReductionsMinMax, AmaxAminMatchReferenceForEveryDimListLayoutAndDtype) {
  for (ScalarType dt : kAllTypes) {
    for (const Tensor& t : inputs(dt, 100)) {
      for (const Dims& dims : dim_lists_3d()) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(describe(t, dims, keepdim));
          const Tensor mx = mt::amax(t, dims, keepdim), mn = mt::amin(t, dims, keepdim);
          EXPECT_EQ(mx.dtype(), dt);
          EXPECT_EQ(mx.sizes(), IntArrayRef(expected_shape(t.sizes(), dims, keepdim)));
          expect_close(mx, naive_reduce(t, dims, ref_max), 0);
          expect_close(mn, naive_reduce(t, dims, ref_min), 0);
        }
      }
      expect_close(mt::amax(t), {ref_max(values(t))}, 0);
      expect_close(mt::max(t), {ref_max(values(t))}, 0);
      expect_close(mt::min(t), {ref_min(values(t))}, 0);
      EXPECT_EQ(mt::max(t).dim(), 0);
    }
  }
}

TEST(ReductionsMinMax, MaxMinDimGiveValuesAndFirstIndices) {
  for (ScalarType dt : kAllTypes) {
    for (const Tensor& t : inputs(dt, 200)) {
      for (int64_t dim : {0, 1, 2, -1, -2}) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(describe(t, {dim}, keepdim));
          const auto [values_max, indices_max] = mt::max(t, dim, keepdim);
          const auto [values_min, indices_min] = t.min(dim, keepdim);
          EXPECT_EQ(values_max.dtype(), dt);
          EXPECT_EQ(indices_max.dtype(), kInt64);
          EXPECT_EQ(indices_max.sizes(), IntArrayRef(expected_shape(t.sizes(), {dim}, keepdim)));
          expect_close(values_max, naive_reduce(t, {dim}, ref_max), 0);
          expect_close(indices_max, naive_reduce(t, {dim}, ref_argmax), 0);
          expect_close(values_min, naive_reduce(t, {dim}, ref_min), 0);
          expect_close(indices_min, naive_reduce(t, {dim}, ref_argmin), 0);
        }
      }
    }
  }
}

TEST(ReductionsMinMax, ArgmaxArgminWithAndWithoutDim) {
  for (ScalarType dt : kNumericTypes) {
    for (const Tensor& t : inputs(dt, 300)) {
      for (int64_t dim : {0, 1, 2, -3}) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(describe(t, {dim}, keepdim));
          const Tensor a = mt::argmax(t, dim, keepdim);
          EXPECT_EQ(a.dtype(), kInt64);
          EXPECT_EQ(a.sizes(), IntArrayRef(expected_shape(t.sizes(), {dim}, keepdim)));
          expect_close(a, naive_reduce(t, {dim}, ref_argmax), 0);
          expect_close(t.argmin(dim, keepdim), naive_reduce(t, {dim}, ref_argmin), 0);
        }
      }
      // No dim: the index into the flattened tensor, in logical order whatever the strides.
      expect_close(mt::argmax(t), {ref_argmax(values(t))}, 0);
      expect_close(mt::argmin(t), {ref_argmin(values(t))}, 0);
      EXPECT_EQ(mt::argmax(t).dim(), 0);
      EXPECT_EQ(mt::argmax(t, std::nullopt, true).sizes(), IntArrayRef({1, 1, 1}));
    }
  }
}

TEST(ReductionsMinMax, NaNPropagatesAndInfinitiesCompare) {
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor t = mt::tensor({{1., kNaN, 3.}, {kNaN, 2., kNaN}, {-inf, -inf, -inf}});
  EXPECT_TRUE(std::isnan(mt::max(t).item<double>()));
  expect_close(mt::amax(t, {1}), {kNaN, kNaN, -inf}, 0);
  const auto [v, i] = mt::min(t, 0);
  expect_close(v, {kNaN, kNaN, kNaN}, 0);
  expect_close(i, {1, 0, 1}, 0);
  expect_close(mt::argmax(t, 1), {1, 0, 0}, 0);
  expect_close(mt::argmin(t), {1}, 0);
  expect_close(mt::argmax(mt::tensor({-inf, -inf})), {0}, 0);  // an all -inf row still has a first maximum
}

TEST(ReductionsMinMax, LargeInputsKeepTheFirstOccurrenceAcrossChunks) {
  const int64_t n = 1 << 20;
  Tensor flat = mt::zeros({n});
  flat.data_ptr<float>()[n / 2 + 7] = 5;
  flat.data_ptr<float>()[n - 3] = 5;
  flat.data_ptr<float>()[100] = -2;
  flat.data_ptr<float>()[n - 1] = -2;
  expect_close(mt::argmax(flat), {n / 2 + 7}, 0);
  expect_close(mt::argmin(flat), {100}, 0);
  expect_close(mt::amax(flat), {5}, 0);
  // A tall matrix reduced over its rows (the vertical loop, split across threads).
  Tensor tall = mt::zeros({200000, 3}, TensorOptions(kInt64));
  tall.data_ptr<int64_t>()[150000 * 3 + 1] = 9;
  tall.data_ptr<int64_t>()[190000 * 3 + 1] = 9;
  tall.data_ptr<int64_t>()[10 * 3 + 2] = 9;
  const auto [v, i] = mt::max(tall, 0);
  expect_close(v, {0, 9, 9}, 0);
  expect_close(i, {0, 150000, 10}, 0);
  // Many outputs, by columns (vertical blocks) and by rows (long contiguous runs, searched by block),
  // and rows of a transposed view.
  const Tensor wide = random_tensor({300, 1000}, kFloat32, 7);
  expect_close(mt::argmin(wide, 0), naive_reduce(wide, {0}, ref_argmin), 0);
  expect_close(mt::amin(wide, {0}), naive_reduce(wide, {0}, ref_min), 0);
  const auto [row_max, row_argmax] = mt::max(wide, 1);
  expect_close(row_max, naive_reduce(wide, {1}, ref_max), 0);
  expect_close(row_argmax, naive_reduce(wide, {1}, ref_argmax), 0);
  const Tensor transposed = strided_view(wide, {1000, 300}, {1, 1000});
  expect_close(mt::argmax(transposed, 0), naive_reduce(transposed, {0}, ref_argmax), 0);
  expect_close(mt::argmin(transposed, 1), naive_reduce(transposed, {1}, ref_argmin), 0);
}

double ref_all(const std::vector<double>& v) {
  for (double x : v)
    if (x == 0) return 0;
  return 1;
}
double ref_any(const std::vector<double>& v) {
  for (double x : v)
    if (x != 0) return 1;
  return 0;
}

// bool for every dtype but uint8, which keeps uint8 (as PyTorch).
TEST(ReductionsMinMax, AllAnyGiveBoolForEveryDtypeButUint8) {
  for (ScalarType dt : kAllTypes) {
    for (const Tensor& t : inputs(dt, 400)) {
      for (const Dims& dims : dim_lists_3d()) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(describe(t, dims, keepdim));
          const Tensor a = mt::all(t, dims, keepdim);
          EXPECT_EQ(a.dtype(), dt == kUInt8 ? kUInt8 : kBool);
          EXPECT_EQ(a.sizes(), IntArrayRef(expected_shape(t.sizes(), dims, keepdim)));
          expect_close(a, naive_reduce(t, dims, ref_all), 0);
          expect_close(mt::any(t, dims, keepdim), naive_reduce(t, dims, ref_any), 0);
        }
      }
      for (int64_t dim : {0, -1}) {
        expect_close(mt::all(t, dim), naive_reduce(t, {dim}, ref_all), 0);
        expect_close(t.any(dim, true), naive_reduce(t, {dim}, ref_any), 0);
      }
      expect_close(mt::all(t), {ref_all(values(t))}, 0);
      expect_close(t.any(), {ref_any(values(t))}, 0);
    }
  }
  EXPECT_TRUE(mt::all(mt::tensor({kNaN})).item<bool>()) << "NaN is true";
  EXPECT_TRUE(mt::all(mt::ones({0})).item<bool>());
  EXPECT_FALSE(mt::any(mt::ones({0})).item<bool>());
  expect_close(mt::all(mt::ones({0, 2}), 0), {1, 1}, 0);
}

// PyTorch 2.x: all and any over an empty dim list reduce nothing (each element's truth value, NaN is
// true), where sum's [] still means every dim.
TEST(ReductionsMinMax, AllAnyOverAnEmptyDimListReduceNothing) {
  for (ScalarType dt : kAllTypes) {
    for (const Tensor& t : inputs(dt, 500)) {
      std::vector<double> truth;
      for (double x : values(t)) truth.push_back(x != 0 ? 1 : 0);
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(describe(t, {}, keepdim));
        const Tensor a = mt::all(t, Dims{}, keepdim);
        EXPECT_EQ(a.dtype(), dt == kUInt8 ? kUInt8 : kBool);
        EXPECT_EQ(a.sizes(), t.sizes());
        expect_close(a, truth, 0);
        expect_close(mt::any(t, Dims{}, keepdim), truth, 0);
      }
    }
  }
  const Tensor zero = mt::tensor(0.0);
  EXPECT_EQ(mt::any(zero, Dims{}).dim(), 0);
  EXPECT_FALSE(mt::any(zero, Dims{}).item<bool>());
  EXPECT_EQ(mt::all(mt::ones({0, 2}), Dims{}).sizes(), IntArrayRef({0, 2}));
  EXPECT_EQ(mt::all(mt::empty({2, 3}, TensorOptions(Device("meta"))), Dims{}).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(mt::all(mt::ones({2, 3}), std::nullopt).dim(), 0) << "no list still reduces every dim";
  EXPECT_EQ(mt::sum(mt::ones({2, 3}), Dims{}).dim(), 0);
}

TEST(ReductionsMinMax, ZeroDimAndEmptyInputs) {
  const Tensor s = mt::tensor(-2.5);
  expect_close(mt::max(s), {-2.5}, 0);
  for (int64_t dim : {0, -1}) {
    for (bool keepdim : {false, true}) {
      const auto [v, i] = mt::max(s, dim, keepdim);
      EXPECT_EQ(v.dim(), 0);
      expect_close(v, {-2.5}, 0);
      expect_close(i, {0}, 0);
      EXPECT_EQ(mt::argmin(s, dim, keepdim).dim(), 0);
      expect_close(mt::amax(s, {dim}, keepdim), {-2.5}, 0);
    }
  }
  expect_close(mt::argmax(s), {0}, 0);
  EXPECT_EQ(mt::argmax(s, std::nullopt, true).dim(), 0);
  // Reducing a non-empty dim of an empty tensor is fine.
  const Tensor e = mt::ones({0, 3});
  EXPECT_EQ(mt::amax(e, {1}).sizes(), IntArrayRef({0}));
  const auto [v, i] = mt::min(e, 1, true);
  EXPECT_EQ(v.sizes(), IntArrayRef({0, 1}));
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_EQ(mt::argmax(e, 1).sizes(), IntArrayRef({0}));
}

TEST(ReductionsMinMax, MetaTensorsGetShapesAndDtypesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor t = mt::empty({3, 4, 5}, meta.dtype(kFloat16));
  const auto [v, i] = mt::max(t, 1, true);
  EXPECT_TRUE(v.is_meta() && i.is_meta());
  EXPECT_EQ(v.sizes(), IntArrayRef({3, 1, 5}));
  EXPECT_EQ(v.dtype(), kFloat16);
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_EQ(mt::amin(t, {0, 2}).sizes(), IntArrayRef({4}));
  EXPECT_EQ(mt::argmax(t).dim(), 0);
  EXPECT_EQ(mt::argmax(t, -1).sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(mt::all(t, 1).dtype(), kBool);
  EXPECT_EQ(mt::any(t).sizes(), IntArrayRef(std::vector<int64_t>{}));
  expect_error<RuntimeError>([&] { mt::max(mt::empty({0}, meta)); }, "max(): Expected reduction dim to be specified");
}

TEST(ReductionsMinMax, ErrorsNameTheProblem) {
  const Tensor t = mt::ones({2, 3});
  const Tensor e = mt::ones({0, 3});
  expect_error<RuntimeError>([&] { mt::max(e); },
                             "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                             "reduction dim with the 'dim' argument.");
  expect_error<RuntimeError>([&] { mt::min(e); }, "min(): Expected reduction dim to be specified for input.numel() == 0.");
  expect_error<RuntimeError>([&] { mt::amax(e); }, "amax(): Expected reduction dim to be specified for input.numel() == 0.");
  expect_error<IndexError>([&] { mt::amax(e, {1, 0}); }, "amax(): Expected reduction dim 0 to have non-zero size.");
  expect_error<IndexError>([&] { mt::amin(e, 0); }, "amin(): Expected reduction dim 0 to have non-zero size.");
  expect_error<IndexError>([&] { mt::max(e, 0); }, "max(): Expected reduction dim 0 to have non-zero size.");
  expect_error<IndexError>([&] { mt::argmax(e); }, "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  expect_error<IndexError>([&] { mt::argmin(e, 0); }, "argmin(): Expected reduction dim 0 to have non-zero size.");
  expect_error<IndexError>([&] { mt::max(t, 2); }, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  expect_error<IndexError>([&] { mt::argmax(t, -3); }, "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  expect_error<IndexError>([&] { mt::amax(t, {0, 5}); }, "Dimension out of range");
  expect_error<IndexError>([&] { mt::all(t, 2); }, "Dimension out of range");
  expect_error<RuntimeError>([&] { mt::amax(t, {1, -1}); }, "dim 1 appears multiple times in the list of dims");
  expect_error<RuntimeError>([&] { mt::any(t, {0, -2}); }, "dim 0 appears multiple times in the list of dims");
  expect_error<NotImplementedError>([] { mt::argmax(mt::tensor({true, false})); }, "\"argmax\" not implemented for 'mt.bool'");
}

}  // namespace
