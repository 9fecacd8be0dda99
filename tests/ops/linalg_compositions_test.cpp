// addmv, addbmm, baddbmm, kron and tensordot (compositions of addmm, bmm, mm and mul) against naive
// double-precision sums written from their definitions; self broadcasting and beta = 0 (self's NaN not
// read); gradcheck and gradgradcheck; vmap against the loop; Meta shapes; autocast policies; PyTorch's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "autograd/Gradcheck.h"
#include "functorch/autocast/AutocastMode.h"
#include "functorch/vmap_test_helpers.h"
#include "linalg_reference.h"
#include "ops/api/addbmm.h"
#include "ops/api/addmv.h"
#include "ops/api/baddbmm.h"
#include "ops/api/bmm.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/kron.h"
#include "ops/api/mv.h"
#include "ops/api/tensordot.h"

namespace {

using namespace mt;
using namespace mt::testing;
using Ints = std::vector<int64_t>;

TEST(LinalgCompositions, AddmvIsBetaSelfPlusAlphaMatrixTimesVector) {
  for (ScalarType dt : {kFloat32, kFloat64, kInt64}) {
    const Tensor mat = random_tensor({3, 4}, dt, 1), vec = random_tensor({4}, dt, 2);
    const std::vector<double> m = values(mat), v = values(vec);
    for (const Ints& self_shape : {Ints{3}, Ints{1}, Ints{}}) {
      const Tensor self = random_tensor(self_shape, dt, 3);
      const std::vector<double> s = values(self);
      const Tensor r = mt::addmv(self, mat, vec, 2, 3);
      std::vector<double> expected;
      for (int64_t i = 0; i < 3; ++i) {
        double sum = 0;
        for (int64_t k = 0; k < 4; ++k) sum += m[i * 4 + k] * v[k];
        expected.push_back(2 * s[s.size() == 1 ? 0 : i] + 3 * sum);
      }
      EXPECT_EQ(r.sizes().vec(), Ints{3});
      EXPECT_EQ(r.dtype(), dt);
      expect_values_near(r, expected, tolerance(dt));
    }
  }
}

TEST(LinalgCompositions, AddbmmAddsTheSumOfTheBatchesProducts) {
  const Tensor b1 = random_tensor({3, 2, 4}, kFloat32, 4), b2 = random_tensor({3, 4, 5}, kFloat32, 5);
  const Tensor self = random_tensor({1, 5}, kFloat32, 6);  // broadcast along the rows
  const std::vector<double> x = values(b1), y = values(b2), s = values(self);
  std::vector<double> expected;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 5; ++j) {
      double sum = 0;
      for (int64_t b = 0; b < 3; ++b)
        for (int64_t k = 0; k < 4; ++k) sum += x[(b * 2 + i) * 4 + k] * y[(b * 4 + k) * 5 + j];
      expected.push_back(0.5 * s[j] - 2 * sum);
    }
  const Tensor r = mt::addbmm(self, b1, b2, 0.5, -2);
  EXPECT_EQ(r.sizes().vec(), (Ints{2, 5}));
  expect_values_near(r, expected, tolerance(kFloat32));
  // No batches: beta * self alone.
  const Tensor none = mt::addbmm(self, mt::empty({0, 2, 4}), mt::empty({0, 4, 5}), 2);
  expect_values_near(none, std::vector<double>{2 * s[0], 2 * s[1], 2 * s[2], 2 * s[3], 2 * s[4], 2 * s[0], 2 * s[1],
                                               2 * s[2], 2 * s[3], 2 * s[4]},
                     0);
}

TEST(LinalgCompositions, BaddbmmAddsEachBatchsProduct) {
  const Tensor b1 = random_tensor({2, 3, 4}, kFloat64, 7), b2 = random_tensor({2, 4, 2}, kFloat64, 8);
  const Tensor self = random_tensor({3, 1}, kFloat64, 9);  // broadcast along the batches and the columns
  const std::vector<double> product = naive_bmm(b1, b2), s = values(self);
  std::vector<double> expected;
  for (size_t e = 0; e < product.size(); ++e) expected.push_back(-1 * s[(e / 2) % 3] + 0.25 * product[e]);
  const Tensor r = mt::baddbmm(self, b1, b2, -1, 0.25);
  EXPECT_EQ(r.sizes().vec(), (Ints{2, 3, 2}));
  expect_values_near(r, expected, 1e-12);
}

TEST(LinalgCompositions, BetaZeroDoesNotReadSelf) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor mat = random_tensor({2, 3}, kFloat64, 10), vec = random_tensor({3}, kFloat64, 11);
  const Tensor b1 = random_tensor({2, 2, 3}, kFloat64, 12), b2 = random_tensor({2, 3, 2}, kFloat64, 13);
  const Tensor nans = mt::full({2}, nan, kFloat64), nan_matrix = mt::full({2, 2}, nan, kFloat64);
  expect_values_near(mt::addmv(nans, mat, vec, 0), values(mt::mv(mat, vec)), 1e-12);
  expect_values_near(mt::baddbmm(nan_matrix, b1, b2, 0, 2), values(mt::bmm(b1, b2) * 2.0), 1e-12);
  expect_values_near(mt::addbmm(nan_matrix, b1, b2, 0), values(mt::bmm(b1, b2).sum(Ints{0})), 1e-12);
}

TEST(LinalgCompositions, KronIsTheKroneckerProductOfShapesPaddedToTheLonger) {
  const Tensor a = random_tensor({2, 3}, kFloat64, 14), b = random_tensor({4, 2}, kFloat64, 15);
  const std::vector<double> x = values(a), y = values(b);
  std::vector<double> expected;
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 6; ++j) expected.push_back(x[(i / 4) * 3 + j / 2] * y[(i % 4) * 2 + j % 2]);
  const Tensor r = mt::kron(a, b);
  EXPECT_EQ(r.sizes().vec(), (Ints{8, 6}));
  expect_values_near(r, expected, 1e-15);
  // A vector is a one-row matrix here: [3] (x) [2, 2] is [2, 6].
  const Tensor v = random_tensor({3}, kInt32, 16), m = random_tensor({2, 2}, kInt32, 17);
  const std::vector<double> vv = values(v), mm = values(m);
  expected.clear();
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 6; ++j) expected.push_back(vv[j / 2] * mm[i * 2 + j % 2]);
  const Tensor ri = mt::kron(v, m);
  EXPECT_EQ(ri.sizes().vec(), (Ints{2, 6}));
  EXPECT_EQ(ri.dtype(), kInt32);
  EXPECT_EQ(values(ri), expected);
  EXPECT_EQ(mt::kron(mt::full({}, 3.0), mt::full({}, 4.0)).item<float>(), 12);
}

TEST(LinalgCompositions, TensordotContractsTheListedDimsInPairs) {
  const Tensor a = random_tensor({2, 3, 4}, kFloat64, 18), b = random_tensor({4, 3, 5}, kFloat64, 19);
  const std::vector<double> x = values(a), y = values(b);
  std::vector<double> expected;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t l = 0; l < 5; ++l) {
      double sum = 0;
      for (int64_t j = 0; j < 3; ++j)
        for (int64_t k = 0; k < 4; ++k) sum += x[(i * 3 + j) * 4 + k] * y[(k * 3 + j) * 5 + l];
      expected.push_back(sum);
    }
  const Tensor r = mt::tensordot(a, b, {1, -1}, {1, 0});
  EXPECT_EQ(r.sizes().vec(), (Ints{2, 5}));
  expect_values_near(r, expected, 1e-12);
  // No dims: the outer product.
  EXPECT_EQ(mt::tensordot(a, b, {}, {}).sizes().vec(), (Ints{2, 3, 4, 4, 3, 5}));
  // A contracted dim of size 1 meets the other side's sum.
  const Tensor c = random_tensor({2, 1}, kFloat64, 20), d = random_tensor({3, 4}, kFloat64, 21);
  const std::vector<double> vc = values(c), vd = values(d);
  expected.clear();
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t l = 0; l < 4; ++l) expected.push_back(vc[i] * (vd[l] + vd[4 + l] + vd[8 + l]));
  expect_values_near(mt::tensordot(c, d, {1}, {0}), expected, 1e-12);
}

TEST(LinalgCompositions, GradcheckAndGradgradcheck) {
  using mt::autograd::variable_list;
  const auto x = [](Ints sizes, uint64_t seed) { return seeded_randn(sizes, seed, kFloat64).requires_grad_(); };
  const std::vector<std::pair<std::function<Tensor(const variable_list&)>, variable_list>> cases{
      {[](const variable_list& v) { return mt::addmv(v[0], v[1], v[2], 0.5, 2); }, {x({3}, 1), x({3, 2}, 2), x({2}, 3)}},
      {[](const variable_list& v) { return mt::addbmm(v[0], v[1], v[2], 1, -1); },
       {x({2, 1}, 4), x({3, 2, 2}, 5), x({3, 2, 3}, 6)}},
      {[](const variable_list& v) { return mt::baddbmm(v[0], v[1], v[2], 2, 0.5); },
       {x({2, 1, 3}, 7), x({2, 2, 2}, 8), x({2, 2, 3}, 9)}},
      {[](const variable_list& v) { return mt::kron(v[0], v[1]); }, {x({2, 2}, 10), x({3}, 11)}},
      {[](const variable_list& v) { return mt::tensordot(v[0], v[1], {0, 2}, {2, 1}); },
       {x({2, 3, 2}, 12), x({4, 2, 2}, 13)}},
  };
  for (const auto& [f, inputs] : cases) {
    EXPECT_TRUE(mt::autograd::gradcheck(f, inputs));
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, inputs));
  }
}

TEST(LinalgCompositions, VmapMatchesTheLoop) {
  using mt_test::expect_vmap_matches_loop;
  expect_vmap_matches_loop([](const std::vector<Tensor>& v) { return mt::addmv(v[0], v[1], v[2], 2, 3); },
                           {seeded_randn({4, 3}, 1), seeded_randn({3, 2}, 2), seeded_randn({2, 4}, 3)},
                           {0, std::nullopt, 1});
  expect_vmap_matches_loop([](const std::vector<Tensor>& v) { return mt::addbmm(v[0], v[1], v[2]); },
                           {seeded_randn({2, 3}, 4), seeded_randn({4, 2, 2, 2}, 5), seeded_randn({2, 2, 3}, 6)},
                           {std::nullopt, 0, std::nullopt});
  expect_vmap_matches_loop([](const std::vector<Tensor>& v) { return mt::baddbmm(v[0], v[1], v[2], 0.5, 2); },
                           {seeded_randn({3, 2, 1}, 7), seeded_randn({2, 2, 4}, 8), seeded_randn({2, 4, 3, 3}, 9)},
                           {0, std::nullopt, 3});
  expect_vmap_matches_loop([](const std::vector<Tensor>& v) { return mt::kron(v[0], v[1]); },
                           {seeded_randn({3, 2, 2}, 10), seeded_randn({3, 2}, 11)}, {0, 0});
  expect_vmap_matches_loop([](const std::vector<Tensor>& v) { return mt::tensordot(v[0], v[1], {1}, {0}); },
                           {seeded_randn({2, 3, 4}, 12), seeded_randn({3, 5}, 13)}, {2, std::nullopt});
}

TEST(LinalgCompositions, MetaGivesTheShapes) {
  const TensorOptions meta = TensorOptions(Device("meta")).dtype(kFloat32);
  const auto e = [&](Ints sizes) { return mt::empty(sizes, meta); };
  EXPECT_EQ(mt::addmv(e({5}), e({5, 3}), e({3})).sizes().vec(), Ints{5});
  EXPECT_EQ(mt::addbmm(e({5, 2}), e({4, 5, 3}), e({4, 3, 2})).sizes().vec(), (Ints{5, 2}));
  EXPECT_EQ(mt::baddbmm(e({1}), e({4, 5, 3}), e({4, 3, 2})).sizes().vec(), (Ints{4, 5, 2}));
  EXPECT_EQ(mt::kron(e({2, 3}), e({4, 5, 6})).sizes().vec(), (Ints{4, 10, 18}));
  EXPECT_EQ(mt::tensordot(e({2, 3}), e({3, 7}), {1}, {0}).sizes().vec(), (Ints{2, 7}));
  EXPECT_TRUE(mt::kron(e({2}), e({2})).is_meta());
}

TEST(LinalgCompositions, AutocastPoliciesFollowPyTorchs) {
  using mt::autocast::CastPolicy;
  using mt::autocast::policy_for;
  EXPECT_EQ(policy_for(kCUDA, "addmv"), CastPolicy::lower_precision_fp);
  EXPECT_EQ(policy_for(kCPU, "addmv"), std::nullopt);
  for (const char* op : {"addbmm", "baddbmm"}) {
    EXPECT_EQ(policy_for(kCPU, op), CastPolicy::lower_precision_fp) << op;
    EXPECT_EQ(policy_for(kCUDA, op), CastPolicy::lower_precision_fp) << op;
  }
  mt::AutocastGuard guard(kCPU, kBFloat16);
  EXPECT_EQ(mt::baddbmm(seeded_randn({1}, 1), seeded_randn({2, 2, 3}, 2), seeded_randn({2, 3, 2}, 3)).dtype(),
            kBFloat16);
}

TEST(LinalgCompositions, MethodsAreTheFunctions) {
  const Tensor m = seeded_randn({3, 4}, 1), v = seeded_randn({4}, 2), b1 = seeded_randn({2, 3, 4}, 3),
               b2 = seeded_randn({2, 4, 5}, 4);
  EXPECT_EQ(values(seeded_randn({3}, 5).addmv(m, v, 2)), values(mt::addmv(seeded_randn({3}, 5), m, v, 2)));
  EXPECT_EQ(values(seeded_randn({3, 5}, 6).addbmm(b1, b2)), values(mt::addbmm(seeded_randn({3, 5}, 6), b1, b2)));
  EXPECT_EQ(values(seeded_randn({5}, 7).baddbmm(b1, b2, 1, 3)), values(mt::baddbmm(seeded_randn({5}, 7), b1, b2, 1, 3)));
  EXPECT_EQ(values(m.kron(v)), values(mt::kron(m, v)));
}

TEST(LinalgCompositions, ErrorsNameTheProblem) {
  const Tensor m = seeded_randn({3, 4}, 1), v = seeded_randn({4}, 2), b = seeded_randn({2, 3, 4}, 3);
  expect_error<RuntimeError>([&] { mt::addmv(seeded_randn({3}, 4), m, m); }, "vector + matrix @ vector expected, got 1, 2, 2");
  expect_error<RuntimeError>([&] { mt::addmv(seeded_randn({2}, 4), m, v); },
                             "size mismatch, got input (2), mat (3x4), vec (4)");
  expect_error<RuntimeError>([&] { mt::addbmm(m, m, b); }, "batch1 must be a 3D tensor");
  expect_error<RuntimeError>([&] { mt::baddbmm(m, b, m); }, "batch2 must be a 3D tensor");
  expect_error<RuntimeError>([&] { mt::baddbmm(m, b, seeded_randn({3, 4, 2}, 5)); },
                             "batch1 and batch2 must have same number of batches, got 2 and 3");
  expect_error<RuntimeError>([&] { mt::addbmm(m, b, b); }, "Incompatible matrix sizes for bmm (3x4 and 3x4)");
  expect_error<RuntimeError>([&] { mt::tensordot(m, m, {0}, {0, 1}); }, "both dimension lists should have same length");
  expect_error<RuntimeError>([&] { mt::tensordot(m, m, {0}, {1}); },
                             "contracted dimensions need to match, but first has size 3 in dim 0 and second has size "
                             "4 in dim 1");
  expect_error<IndexError>([&] { mt::tensordot(m, m, {2}, {0}); }, "Dimension out of range");
}

}  // namespace
