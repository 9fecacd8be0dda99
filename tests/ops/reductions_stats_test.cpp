// var/std (correction), norm (p = 0, 1, 2, inf, -inf and other values) and logsumexp against a naive
// double-precision reference: every dim list of 3-D inputs in four layouts, keepdim, every floating
// dtype, 0-dim and empty inputs, numerically hard inputs, Meta shapes and every error.
#include <cmath>
#include <limits>

#include "reductions_reference.h"
#include "ops/api/empty.h"
#include "ops/api/logsumexp.h"
#include "ops/api/norm.h"
#include "ops/api/ones.h"
#include "ops/api/std.h"
#include "ops/api/var.h"

namespace {

using namespace mt;
using namespace mt::testing;
using namespace mt::testing::reductions;

const ScalarType kFloatTypes[] = {kFloat32, kFloat64, kFloat16, kBFloat16};
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::function<double(const std::vector<double>&)> ref_var(double correction, bool take_sqrt) {
  return [=](const std::vector<double>& v) {
    const double n = static_cast<double>(v.size());
    const double mean = ref_sum(v) / n;
    double m2 = 0;
    for (double x : v) m2 += (x - mean) * (x - mean);
    const double var = v.empty() ? kNaN : m2 / std::max(0.0, n - correction);
    return take_sqrt ? std::sqrt(var) : var;
  };
}

std::function<double(const std::vector<double>&)> ref_norm(double p) {
  return [=](const std::vector<double>& v) {
    if (v.empty()) return 0.0;
    if (std::isinf(p)) {
      double m = std::abs(v[0]);
      for (double x : v) m = std::isnan(x) || std::isnan(m) ? kNaN : p > 0 ? std::max(m, std::abs(x)) : std::min(m, std::abs(x));
      return m;
    }
    double s = 0;
    for (double x : v) s += p == 0 ? (x != 0) : std::pow(std::abs(x), p);
    return p == 0 ? s : std::pow(s, 1 / p);
  };
}

// max + log(sum(exp(x - max))): the textbook stable form, in two passes.
double ref_logsumexp(const std::vector<double>& v) {
  double m = -kInf;
  for (double x : v) m = std::isnan(x) || std::isnan(m) ? kNaN : std::max(m, x);
  if (!std::isfinite(m)) return m;
  double s = 0;
  for (double x : v) s += std::exp(x - m);
  return m + std::log(s);
}

Tensor make(ScalarType dt, IntArrayRef s, uint64_t seed) { return random_tensor(s, dt, seed); }

TEST(ReductionsStats, VarStdMatchReferenceForEveryDimListLayoutCorrectionAndDtype) {
  for (ScalarType dt : kFloatTypes) {
    const double tol = dt == kFloat32 ? 1e-5 : 3 * tolerance(dt);
    for (const Tensor& t : layouts_3d([dt](IntArrayRef s, uint64_t seed) { return make(dt, s, seed); }, 500)) {
      for (const Dims& dims : dim_lists_3d()) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(describe(t, dims, keepdim));
          const Tensor v = mt::var(t, dims, std::nullopt, keepdim);
          EXPECT_EQ(v.dtype(), dt);
          EXPECT_EQ(v.sizes(), IntArrayRef(expected_shape(t.sizes(), dims, keepdim)));
          expect_close(v, naive_reduce(t, dims, ref_var(1, false)), tol);
          expect_close(mt::std(t, dims, 0, keepdim), naive_reduce(t, dims, ref_var(0, true)), tol);
          expect_close(t.var(dims, 2.5, keepdim), naive_reduce(t, dims, ref_var(2.5, false)), tol);
        }
      }
      expect_close(mt::var(t), {ref_var(1, false)(values(t))}, tol);
      expect_close(t.std(), {ref_var(1, true)(values(t))}, tol);
    }
  }
}

TEST(ReductionsStats, VarIsStableForLargeOffsetsAndLargeInputs) {
  // Naive sum-of-squares minus square-of-sum loses every digit here.
  Tensor t = mt::empty({100000}, TensorOptions(kFloat64));
  for (int64_t i = 0; i < t.numel(); ++i) t.data_ptr<double>()[i] = 1e9 + (i % 7);
  expect_close(mt::var(t), {ref_var(1, false)(values(t))}, 1e-9);
  // Every loop shape: whole tensor split across threads, rows, tall columns (vertical, split).
  for (const auto& [shape, dims] : std::vector<std::pair<Dims, Dims>>{
           {{1 << 20}, {0}}, {{3, 200000}, {1}}, {{100000, 3}, {0}}, {{300, 1000}, {0}}}) {
    const Tensor r = random_tensor(shape, kFloat32, 77);
    SCOPED_TRACE(describe(r, dims, false));
    expect_close(mt::var(r, dims), naive_reduce(r, dims, ref_var(1, false)), 1e-5);
    expect_close(mt::norm(r, 2, dims), naive_reduce(r, dims, ref_norm(2)), 1e-5);
    expect_close(mt::logsumexp(r, dims), naive_reduce(r, dims, ref_logsumexp), 1e-5);
  }
}

TEST(ReductionsStats, VarEdgeCases) {
  expect_close(mt::var(mt::tensor(3.0)), {kNaN}, 0);
  expect_close(mt::var(mt::tensor(3.0), std::nullopt, 0), {0}, 0);
  expect_close(mt::std(mt::tensor({1.0})), {kNaN}, 0);
  expect_close(mt::var(mt::tensor({1.0, 2.0}), std::nullopt, 2), {kInf}, 0);  // divisor max(0, N - correction)
  expect_close(mt::var(mt::tensor({1.0, 2.0}), std::nullopt, 3), {kInf}, 0);
  expect_close(mt::var(mt::ones({0})), {kNaN}, 0);
  expect_close(mt::var(mt::ones({2, 0}), {1}), {kNaN, kNaN}, 0);
  expect_close(mt::var(mt::tensor({1.0, kInf})), {kNaN}, 0);
  expect_close(mt::var(mt::tensor({{1.0, 2.0}}), Dims{}), {0.5}, 1e-7);  // an empty list reduces every dim
}

TEST(ReductionsStats, NormMatchesReferenceForEveryP) {
  for (ScalarType dt : kFloatTypes) {
    const double tol = dt == kFloat32 ? 1e-5 : 3 * tolerance(dt);
    for (const Tensor& t : layouts_3d([dt](IntArrayRef s, uint64_t seed) { return make(dt, s, seed); }, 600)) {
      for (double p : {2.0, 1.0, 0.0, kInf, -kInf, 3.0, 0.5, -1.0}) {
        for (const Dims& dims : dim_lists_3d()) {
          for (bool keepdim : {false, true}) {
            SCOPED_TRACE(describe(t, dims, keepdim) + " p " + std::to_string(p));
            const Tensor n = mt::norm(t, p, dims, keepdim);
            EXPECT_EQ(n.dtype(), dt);
            EXPECT_EQ(n.sizes(), IntArrayRef(expected_shape(t.sizes(), dims, keepdim)));
            expect_close(n, naive_reduce(t, dims, ref_norm(p)), tol);
          }
        }
        expect_close(mt::norm(t, p), {ref_norm(p)(values(t))}, tol);
      }
      expect_close(t.norm(), {ref_norm(2)(values(t))}, tol);
      expect_close(mt::norm(t, std::nullopt, {1}), naive_reduce(t, {1}, ref_norm(2)), tol);  // p=None is 2
    }
  }
}

TEST(ReductionsStats, NormDtypeEdgeCasesAndNaN) {
  const Tensor i = mt::tensor({{3, 4}, {6, 8}});
  const Tensor n = mt::norm(i, 2, {1}, false, kFloat64);
  EXPECT_EQ(n.dtype(), kFloat64);
  expect_close(n, {5, 10}, 1e-12);
  const Tensor h = mt::norm(mt::ones({3}, TensorOptions(kFloat16)), 2, {0}, false, kFloat32);
  EXPECT_EQ(h.dtype(), kFloat32);
  expect_close(h, {std::sqrt(3.0)}, 1e-6);
  for (double p : {2.0, 1.0, 0.0}) expect_close(mt::norm(mt::ones({0}), p), {0}, 0);
  expect_close(mt::norm(mt::ones({2, 0}), 2, {1}), {0, 0}, 0);
  // max and min have no identity: PyTorch 2.x refuses the inf and negative norms of nothing.
  expect_error<RuntimeError>([] { mt::norm(mt::ones({0}), kInf); },
                             "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation "
                             "does not have an identity");
  expect_error<RuntimeError>([] { mt::norm(mt::ones({3, 0}), -1); }, "cannot compute the -1");
  expect_error<RuntimeError>([] { mt::norm(mt::ones({2, 0}), -kInf, {1}); },
                             "linalg.vector_norm cannot compute the -inf norm on the dimension 1 because this dimension "
                             "is empty and the operation does not have an identity");
  expect_close(mt::norm(mt::ones({0, 2}), kInf, {1}), {}, 0);  // no empty dim reduced: an empty result
  expect_close(mt::norm(mt::tensor(-3.0), 2, {0}), {3}, 1e-7);
  expect_close(mt::norm(mt::tensor({1.0, kNaN}), kInf), {kNaN}, 0);
  expect_close(mt::norm(mt::tensor({1.0, kNaN}), -kInf), {kNaN}, 0);
  expect_close(mt::norm(mt::tensor({0.0, 2.0, kNaN})), {kNaN}, 0);
  expect_close(mt::norm(mt::tensor({0.0, 2.0, -3.0}), -1), {0}, 0);  // a zero makes a negative-p norm 0
}

TEST(ReductionsStats, LogSumExpMatchesReferenceAndIsStable) {
  for (ScalarType dt : kFloatTypes) {
    const double tol = dt == kFloat32 ? 1e-5 : 3 * tolerance(dt);
    for (const Tensor& t : layouts_3d([dt](IntArrayRef s, uint64_t seed) { return make(dt, s, seed); }, 700)) {
      for (const Dims& dims : dim_lists_3d()) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(describe(t, dims, keepdim));
          const Tensor r = mt::logsumexp(t, dims, keepdim);
          EXPECT_EQ(r.dtype(), dt);
          EXPECT_EQ(r.sizes(), IntArrayRef(expected_shape(t.sizes(), dims, keepdim)));
          expect_close(r, naive_reduce(t, dims, ref_logsumexp), tol);
        }
      }
    }
  }
  // exp(1000) overflows double; the result does not.
  expect_close(mt::logsumexp(mt::tensor({1000.0, 1000.0}), {0}), {1000 + std::log(2.0)}, 1e-6);
  expect_close(mt::logsumexp(mt::tensor({-1000.0, -1001.0}), {0}), {-1000 + std::log1p(std::exp(-1.0))}, 1e-6);
  expect_close(mt::logsumexp(mt::tensor({kInf, 1.0}), {0}), {kInf}, 0);
  expect_close(mt::logsumexp(mt::tensor({kInf, kInf}), {0}), {kInf}, 0);
  expect_close(mt::logsumexp(mt::tensor({-kInf, -kInf}), {0}), {-kInf}, 0);
  expect_close(mt::logsumexp(mt::tensor({1.0, kNaN, kInf}), {0}), {kNaN}, 0);
  expect_close(mt::logsumexp(mt::ones({2, 0}), {1}), {-kInf, -kInf}, 0);
  expect_close(mt::logsumexp(mt::tensor(2.0), {0}), {2}, 1e-7);
  const Tensor i = mt::logsumexp(mt::tensor({{0, 1, 2}, {3, 4, 5}}), {1});
  EXPECT_EQ(i.dtype(), kFloat32) << "integers give the default float dtype";
  expect_close(i, {2.40760596, 5.40760596}, 1e-6);
  EXPECT_EQ(mt::logsumexp(mt::tensor({true, false}), {0}).dtype(), kFloat32);
}

TEST(ReductionsStats, LongRowsWithNonFiniteValues) {
  // Rows long enough for the vectorised block loops: +inf, NaN, all -inf, one huge value, ordinary.
  Tensor t = mt::empty({5, 40}, TensorOptions(kFloat64));
  for (int64_t i = 0; i < t.numel(); ++i) t.data_ptr<double>()[i] = static_cast<double>(i % 7) - 3;
  t.data_ptr<double>()[17] = kInf;
  t.data_ptr<double>()[40 + 25] = kNaN;
  for (int64_t i = 80; i < 120; ++i) t.data_ptr<double>()[i] = -kInf;
  t.data_ptr<double>()[120 + 3] = 800;
  for (ScalarType dt : kFloatTypes) {
    const Tensor x = converted(t, dt);
    SCOPED_TRACE(scalar_type_name(dt));
    const double tol = dt == kFloat32 ? 1e-5 : 3 * tolerance(dt);
    expect_close(mt::logsumexp(x, {1}), naive_reduce(x, {1}, ref_logsumexp), tol);
    for (double p : {2.0, 1.0, kInf, -kInf, 3.0}) expect_close(mt::norm(x, p, {1}), naive_reduce(x, {1}, ref_norm(p)), tol);
    expect_close(mt::var(x, {1}), naive_reduce(x, {1}, ref_var(1, false)), tol);
  }
}

TEST(ReductionsStats, MetaTensorsGetShapesAndDtypesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor t = mt::empty({3, 4, 5}, meta.dtype(kBFloat16));
  EXPECT_EQ(mt::var(t, {1}, 0, true).sizes(), IntArrayRef({3, 1, 5}));
  EXPECT_EQ(mt::std(t).dim(), 0);
  EXPECT_TRUE(mt::std(t).is_meta());
  EXPECT_EQ(mt::norm(t, 1, {0, 2}).sizes(), IntArrayRef({4}));
  EXPECT_EQ(mt::norm(t, 2, {0}, false, kFloat64).dtype(), kFloat64);
  EXPECT_EQ(mt::logsumexp(mt::empty({2, 3}, meta.dtype(kInt64)), {1}).dtype(), kFloat32);
  expect_error<RuntimeError>([&] { mt::var(mt::empty({2}, meta.dtype(kInt64))); },
                             "std and var only support floating point and complex dtypes");
}

TEST(ReductionsStats, ErrorsNameTheProblem) {
  const Tensor i = mt::tensor({1, 2, 3});
  expect_error<RuntimeError>([&] { mt::var(i); }, "std and var only support floating point and complex dtypes");
  expect_error<RuntimeError>([&] { mt::std(i, {0}); }, "std and var only support floating point and complex dtypes");
  expect_error<RuntimeError>([&] { mt::norm(i); },
                             "norm(): input dtype should be either floating point or complex. Got mt.int64 instead.");
  expect_error<RuntimeError>([] { mt::norm(mt::ones({2}), 2, {0}, false, kInt64); },
                             "norm(): the desired output dtype should be either floating point or complex. Got "
                             "mt.int64 instead.");
  const Tensor t = mt::ones({2, 3});
  expect_error<IndexError>([&] { mt::var(t, {2}); }, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  expect_error<IndexError>([&] { mt::norm(t, 2, {-3}); }, "Dimension out of range");
  expect_error<IndexError>([&] { mt::logsumexp(t, {2}); }, "Dimension out of range");
  expect_error<RuntimeError>([&] { mt::std(t, {0, 0}); }, "dim 0 appears multiple times in the list of dims");
  expect_error<RuntimeError>([&] { mt::norm(t, 2, {1, -1}); }, "dim 1 appears multiple times in the list of dims");
  expect_error<RuntimeError>([&] { mt::logsumexp(t, {0, -2}); }, "dim 0 appears multiple times in the list of dims");
}

}  // namespace
