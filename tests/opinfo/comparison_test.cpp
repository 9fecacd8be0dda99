// The suites every comparison row of the OpInfo table runs: bool results against the double-precision
// reference in every dtype, broadcast, transposed, 0-dim and empty operands, every pair of special values
// (NaN, infinities, signed zeros), mixed dtypes compared in the promoted dtype, the Scalar overload, the
// in-place form keeping self's dtype and out= casting into out's, no gradient, vmap against a loop, Meta
// shapes, no autocast policy, errors that change nothing, inputs split across threads, and CUDA against the
// reference where a GPU is present.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cuda/cuda_test_helpers.h"
#include "functorch/Vmap.h"
#include "functorch/vmap_test_helpers.h"
#include "opinfo/Compare.h"
#include "opinfo/OpInfo.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/infra/Parallel.h"
#include "ops/pointwise_reference.h"

namespace mt_test {
namespace {

using mt::kBool;
using mt::kFloat32;
using mt::kFloat64;
using mt::ScalarType;
using mt::testing::random_tensor;

// f(x, y) for x and y broadcast together, as 1 or 0, in row-major order.
std::vector<double> reference(const ComparisonOpInfo& row, const Tensor& x, const Tensor& y) {
  const std::vector<int64_t> shape = mt::testing::broadcast_shape(x.sizes(), y.sizes());
  const std::vector<double> a = values(x.expand(shape)), b = values(y.expand(shape));
  std::vector<double> r;
  for (size_t i = 0; i < a.size(); ++i) r.push_back(row.reference(a[i], b[i]) ? 1 : 0);
  return r;
}

std::string describe(const Tensor& x, const Tensor& y) {
  return std::string(mt::scalar_type_name(x.dtype())) + ::testing::PrintToString(x.sizes().vec()) + " and " +
         std::string(mt::scalar_type_name(y.dtype())) + ::testing::PrintToString(y.sizes().vec());
}

// z is f(x, y): a bool tensor of the broadcast shape with the reference's values.
void expect_reference(const ComparisonOpInfo& row, const Tensor& x, const Tensor& y, const Tensor& z) {
  SCOPED_TRACE(row.name + " of " + describe(x, y));
  EXPECT_EQ(z.dtype(), kBool);
  EXPECT_EQ(z.sizes().vec(), mt::testing::broadcast_shape(x.sizes(), y.sizes()));
  EXPECT_EQ(values(z), reference(row, x, y));
}

class ComparisonOpInfoTest : public ::testing::TestWithParam<ComparisonOpInfo> {};

TEST_P(ComparisonOpInfoTest, MatchesTheReferenceInEveryDtypeAndLayout) {
  const ComparisonOpInfo& row = GetParam();
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
      {{2, 3}, {2, 3}}, {{4, 1}, {1, 5}}, {{}, {3, 2}}, {{2, 0, 3}, {3}}, {{7}, {}}, {{37}, {37}}};
  uint64_t seed = std::hash<std::string>{}(row.name);
  for (ScalarType dtype : mt::testing::kAllDtypes) {
    // Small integers and halves: equal pairs occur, and every dtype holds them exactly.
    for (const auto& [sx, sy] : shapes) {
      const Tensor x = random_tensor(sx, dtype, seed++), y = random_tensor(sy, dtype, seed++);
      expect_reference(row, x, y, row.op(x, y));
    }
    const Tensor t = mt::testing::transposed_random(3, 4, dtype, seed++), r = random_tensor({4}, dtype, seed++);
    ASSERT_FALSE(t.is_contiguous());
    expect_reference(row, t, r, row.op(t, r));
    expect_reference(row, r, t, row.op(r, t));
  }
}

TEST_P(ComparisonOpInfoTest, SpecialValuesCompareAsIeeeDoubles) {
  const ComparisonOpInfo& row = GetParam();
  const auto [sx, sy] = special_pairs();
  for (ScalarType dtype : mt::testing::kFloatDtypes) {
    const Tensor x = mt::tensor(sx).to(dtype), y = mt::tensor(sy).to(dtype);
    expect_reference(row, x, y, row.op(x, y));
  }
}

TEST_P(ComparisonOpInfoTest, MixedDtypesCompareInThePromotedDtype) {
  const ComparisonOpInfo& row = GetParam();
  struct Mixed {
    Tensor x, y;
    ScalarType promoted;
  };
  const Tensor ints = mt::tensor(std::vector<int64_t>{16777217, 2, -3, 1});
  const Tensor floats = mt::tensor({16777216.0, 2.5, -3.0, 0.5});
  const std::vector<Mixed> cases = {
      {ints, floats, kFloat32},  // 16777217 is 16777216 in float32: equal there
      {ints, floats.to(kFloat64), kFloat64},
      {floats, floats.to(kFloat64) + 1e-9, kFloat64},
      {mt::tensor(std::vector<int64_t>{200, 3}, mt::TensorOptions(mt::kUInt8)),
       mt::tensor(std::vector<int64_t>{-56, 3}, mt::TensorOptions(mt::kInt8)), mt::kInt16},  // not 200 == 200
      {mt::tensor({0.5, 1.0}, mt::TensorOptions(mt::kFloat16)),
       mt::tensor({0.5, 2.0}, mt::TensorOptions(mt::kBFloat16)), kFloat32},
      {mt::tensor({true, false, true}), mt::tensor(std::vector<int64_t>{1, 0, 2}, mt::TensorOptions(mt::kInt32)),
       mt::kInt32},
  };
  for (const Mixed& m : cases) {
    SCOPED_TRACE(row.name + " of " + describe(m.x, m.y));
    EXPECT_EQ(values(row.op(m.x, m.y)), reference(row, m.x.to(m.promoted), m.y.to(m.promoted)));
    EXPECT_EQ(values(row.op(m.y, m.x)), reference(row, m.y.to(m.promoted), m.x.to(m.promoted)));
  }
}

TEST_P(ComparisonOpInfoTest, ScalarOverloadComparesWithTheNumber) {
  const ComparisonOpInfo& row = GetParam();
  if (!row.scalar) GTEST_SKIP() << "PyTorch has no Scalar overload of " << row.name;
  // A float number makes an integer comparison a float one (2 against 2.5); an integer number keeps it.
  const Tensor ints = mt::tensor(std::vector<int64_t>{1, 2, 3}), bools = mt::tensor({true, false});
  const Tensor floats = random_tensor({3, 4}, kFloat64, 7);
  for (const Tensor& x : {ints, bools, floats})
    for (double s : {2.5, 2.0, 0.0, -1.0}) {
      const Tensor z = row.scalar(x, s);
      EXPECT_EQ(z.dtype(), kBool);
      EXPECT_EQ(z.sizes().vec(), x.sizes().vec());
      EXPECT_EQ(values(z), reference(row, x, mt::tensor(s, mt::TensorOptions(kFloat64)))) << row.name << " " << s;
    }
}

TEST_P(ComparisonOpInfoTest, InPlaceKeepsSelfsDtypeAndOutCastsIntoItsOwn) {
  const ComparisonOpInfo& row = GetParam();
  const Tensor x = random_tensor({2, 3}, kFloat32, 20), y = random_tensor({3}, mt::kInt64, 21);
  const std::vector<double> expected = reference(row, x, y);
  Tensor self = x.clone();
  const void* data = self.data_ptr();
  EXPECT_EQ(&row.inplace(self, y), &self);
  EXPECT_EQ(self.dtype(), kFloat32);
  EXPECT_EQ(self.data_ptr(), data);
  EXPECT_EQ(values(self), expected);
  for (ScalarType dtype : {mt::kInt64, kBool, mt::kFloat16}) {
    Tensor out = mt::empty({0}, mt::TensorOptions(dtype));
    EXPECT_EQ(&row.out(x, y, out), &out);
    EXPECT_EQ(out.dtype(), dtype);
    EXPECT_EQ(out.sizes().vec(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(values(out), expected);
  }
  // self cannot grow to the broadcast shape in place, and the error leaves it as it was.
  Tensor small = mt::tensor({1.0, 2.0});
  mt::testing::expect_error<mt::RuntimeError>([&] { row.inplace(small, mt::ones({3, 2})); },
                                              "output with shape [2] doesn't match the broadcast shape [3, 2]");
  EXPECT_EQ(values(small), (std::vector<double>{1, 2}));
}

TEST_P(ComparisonOpInfoTest, ResultsHaveNoGradient) {
  const ComparisonOpInfo& row = GetParam();
  const Tensor x = random_tensor({3}, kFloat64, 30).requires_grad_(), y = random_tensor({3}, kFloat64, 31);
  const Tensor z = row.op(x, y);
  EXPECT_FALSE(z.requires_grad());
  EXPECT_EQ(z.grad_fn(), nullptr);
  if (row.scalar) {
    EXPECT_FALSE(row.scalar(x, 0.5).requires_grad());
  }
}

TEST_P(ComparisonOpInfoTest, VmapMatchesTheLoop) {
  const ComparisonOpInfo& row = GetParam();
  const Tensor x = random_tensor({3, 4}, kFloat32, 40), y = random_tensor({3, 4}, kFloat32, 41);
  const Fn f = [&](const std::vector<Tensor>& v) { return row.op(v[0], v[1]); };
  expect_vmap_matches_loop(f, {x, y}, {0, 0});
  expect_vmap_matches_loop(f, {x, y.t()}, {1, 0});
  expect_vmap_matches_loop(f, {x, y.select(0, 0)}, {0, std::nullopt});
  expect_vmap_matches_loop(f, {x.select(1, 0), y}, {std::nullopt, 1});
  expect_vmap_matches_loop(f, {x, random_tensor({4, 3}, mt::kInt64, 42)}, {0, 1});
  const Fn inplace = [&](const std::vector<Tensor>& v) {
    Tensor t = v[0].clone();
    return row.inplace(t, v[1]);
  };
  expect_vmap_matches_loop(inplace, {x, y}, {0, 0});
  expect_vmap_matches_loop(inplace, {x, y.select(0, 0)}, {0, std::nullopt});
  if (row.scalar) {
    const Fn scalar = [&](const std::vector<Tensor>& v) { return row.scalar(v[0], 0.5); };
    expect_vmap_matches_loop(scalar, {x}, {1});
  }
}

TEST_P(ComparisonOpInfoTest, MetaGivesTheBroadcastShapeAndBool) {
  const ComparisonOpInfo& row = GetParam();
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta"));
  const Tensor a = mt::empty({4, 1}, meta.dtype(mt::kInt64)), b = mt::empty({1, 3}, meta.dtype(mt::kFloat16));
  for (const Tensor& r : {row.op(a, b), row.op(b, a), row.op(mt::empty({}, meta), mt::empty({0, 2}, meta))}) {
    EXPECT_TRUE(r.is_meta());
    EXPECT_EQ(r.dtype(), kBool);
  }
  EXPECT_EQ(row.op(a, b).sizes().vec(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(row.op(mt::empty({}, meta), mt::empty({0, 2}, meta)).sizes().vec(), (std::vector<int64_t>{0, 2}));
  if (row.scalar) {
    EXPECT_EQ(row.scalar(a, 2.5).sizes().vec(), (std::vector<int64_t>{4, 1}));
  }
}

TEST_P(ComparisonOpInfoTest, AutocastLeavesItAlone) {
  const ComparisonOpInfo& row = GetParam();
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, row.name), std::nullopt);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, row.name), std::nullopt);
}

TEST_P(ComparisonOpInfoTest, ErrorsNameTheProblem) {
  const ComparisonOpInfo& row = GetParam();
  mt::testing::expect_error<mt::RuntimeError>(
      [&] { row.op(mt::ones({2, 3}), mt::ones({2, 4})); },
      "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  mt::testing::expect_error<mt::RuntimeError>(
      [&] { row.op(mt::ones({2}), mt::ones({2}, mt::TensorOptions(mt::Device("meta")))); },
      "Expected all tensors to be on the same device");
}

TEST_P(ComparisonOpInfoTest, LargeInputsSplitAcrossThreads) {
  const ComparisonOpInfo& row = GetParam();
  const int64_t n = 3 * mt::kParallelGrain + 3;
  const Tensor x = random_tensor({n}, kFloat32, 70), y = random_tensor({n}, kFloat32, 71);
  expect_reference(row, x, y, row.op(x, y));
  const Tensor s = mt::testing::strided_view(random_tensor({2 * n}, mt::kInt64, 72), {n}, {2});
  expect_reference(row, s, y, row.op(s, y));
}

TEST_P(ComparisonOpInfoTest, CudaMatchesTheReference) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const ComparisonOpInfo& row = GetParam();
  uint64_t seed = 80;
  for (ScalarType dtype : mt::testing::kAllDtypes) {
    const Tensor x = random_tensor({1000}, dtype, seed++), y = random_tensor({1000}, dtype, seed++);
    const Tensor z = row.op(x.to(mt::kCUDA), y.to(mt::kCUDA));
    EXPECT_TRUE(z.is_cuda());
    expect_reference(row, x, y, z.to(mt::kCPU));
  }
}

INSTANTIATE_TEST_SUITE_P(OpInfo, ComparisonOpInfoTest, ::testing::ValuesIn(comparison_ops()),
                         [](const ::testing::TestParamInfo<ComparisonOpInfo>& info) {
                           return row_name(info.param.name);
                         });

}  // namespace
}  // namespace mt_test
