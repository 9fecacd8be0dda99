// The suites every binary row of the OpInfo table runs: values against the double-precision reference in
// every floating dtype (random pairs and every pair of special values, the sign of a zero included),
// broadcast, transposed, 0-dim and empty operands, integer and bool operands and mixed dtypes, the in-place
// and out= forms, gradcheck and gradgradcheck in both operands, vmap and vmap of grad against a loop, Meta
// shapes and dtypes, the autocast policy, and CUDA against the reference where a GPU is present.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "autograd/Gradcheck.h"
#include "cuda/cuda_test_helpers.h"
#include "functorch/Grad.h"
#include "functorch/Vmap.h"
#include "functorch/vmap_test_helpers.h"
#include "opinfo/Compare.h"
#include "opinfo/OpInfo.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/api/rand.h"
#include "ops/api/std.h"

namespace mt_test {
namespace {

using mt::kFloat32;
using mt::kFloat64;
using mt::ScalarType;

// Samples of x (`other` false) or y from the row's domain, seeded by the row's name and the operand.
Tensor samples(const BinaryOpInfo& row, bool other, std::vector<int64_t> shape) {
  mt::Generator g(std::hash<std::string>{}(row.name) + other);
  const double lo = other ? row.other_lo : row.lo, hi = other ? row.other_hi : row.hi;
  Tensor x = mt::rand(shape, &g, mt::TensorOptions().dtype(kFloat64)) * (hi - lo) + lo;
  if (other && row.mirrored) {
    x = x * (mt::rand(shape, &g, mt::TensorOptions().dtype(kFloat64)).lt(0.5).to(kFloat64) * 2 - 1);
  }
  return x;
}

// result == f(x, y) elementwise (x and y broadcast to result's shape), to the row's tolerance in result's
// dtype; NaN where the reference is, and a zero of the reference's sign where the row says signs matter.
void expect_reference(const BinaryOpInfo& row, const Tensor& x, const Tensor& y, const Tensor& result) {
  const std::vector<double> a = values(x.expand(result.sizes())), b = values(y.expand(result.sizes())),
                            r = values(result);
  std::vector<double> reference;
  for (size_t i = 0; i < a.size(); ++i) reference.push_back(row.reference(a[i], b[i]));
  // Rounded into the result's dtype, a reference past its range is the infinity the result must be.
  const std::vector<double> rounded = values(mt::tensor(reference).to(result.dtype()));
  const double eps = epsilon(result.dtype());
  const bool floating = mt::is_floating_point(result.dtype());
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string where = row.name + "(" + std::to_string(a[i]) + ", " + std::to_string(b[i]) + ") in " +
                              std::string(mt::scalar_type_name(result.dtype()));
    const double expected = reference[i];
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(r[i])) << where << " = " << r[i] << ", expected NaN";
    } else if (std::isinf(rounded[i]) || !floating) {
      EXPECT_EQ(r[i], rounded[i]) << where;
    } else if (expected == 0 && row.signed_zeros) {
      EXPECT_EQ(r[i], 0) << where;
      EXPECT_EQ(std::signbit(r[i]), std::signbit(expected)) << where << ": the sign of zero";
    } else {
      // A 16-bit result is rounded once more from float, and the reference is rounded into its range.
      const double ulps = result.dtype() == kFloat64 ? row.ulps : row.ulps + 0.5;
      EXPECT_NEAR(r[i], expected, ulps * eps * std::max(std::fabs(expected), row.floor) + 1e-300) << where;
    }
  }
}

class BinaryOpInfoTest : public ::testing::TestWithParam<BinaryOpInfo> {};

TEST_P(BinaryOpInfoTest, MatchesTheDoublePrecisionReferenceInEveryFloatingDtype) {
  const BinaryOpInfo& row = GetParam();
  const auto [sx, sy] = special_pairs();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kFloat16, mt::kBFloat16}) {
    // 37 pairs: the vectorised loops' full vectors and their scalar tail both run.
    const Tensor x = samples(row, false, {37}).to(dtype), y = samples(row, true, {37}).to(dtype);
    const Tensor z = row.op(x, y);
    EXPECT_EQ(z.dtype(), dtype);
    expect_reference(row, x, y, z);
    if (row.specials) {
      const Tensor a = mt::tensor(sx).to(dtype), b = mt::tensor(sy).to(dtype);
      expect_reference(row, a, b, row.op(a, b));
    }
  }
}

TEST_P(BinaryOpInfoTest, BroadcastTransposedZeroDimAndEmptyOperands) {
  const BinaryOpInfo& row = GetParam();
  const Tensor x = samples(row, false, {3, 1, 4}).to(kFloat32), y = samples(row, true, {5, 1}).to(kFloat32);
  const Tensor z = row.op(x, y);
  EXPECT_EQ(z.sizes().vec(), (std::vector<int64_t>{3, 5, 4}));
  expect_reference(row, x, y, z);
  const Tensor t = samples(row, false, {6, 5}).to(kFloat32).t(), u = samples(row, true, {5, 6}).to(kFloat32);
  ASSERT_FALSE(t.is_contiguous());
  expect_reference(row, t, u, row.op(t, u));
  const Tensor scalar = samples(row, true, {}).to(kFloat32);
  const Tensor s = row.op(x, scalar);
  EXPECT_EQ(s.sizes().vec(), x.sizes().vec());
  expect_reference(row, x, scalar, s);
  EXPECT_EQ(row.op(mt::empty({0, 3}), mt::ones({3})).sizes().vec(), (std::vector<int64_t>{0, 3}));
  EXPECT_THROW(row.op(mt::ones({2, 3}), mt::ones({4})), mt::Error);  // 3 and 4 do not broadcast
}

// The integers of [-5, 5] in (lo, hi), and their mirror images where `mirrored`.
std::vector<int64_t> integers_in(double lo, double hi, bool mirrored) {
  std::vector<int64_t> ints;
  for (int64_t i = -5; i <= 5; ++i)
    if ((i > lo && i < hi) || (mirrored && -i > lo && -i < hi)) ints.push_back(i);
  return ints;
}

TEST_P(BinaryOpInfoTest, IntegerBoolAndMixedDtypeOperands) {
  const BinaryOpInfo& row = GetParam();
  // Every pair of integers from the two domains.
  std::vector<int64_t> xs, ys;
  for (int64_t a : integers_in(row.lo, row.hi, false))
    for (int64_t b : integers_in(row.other_lo, row.other_hi, row.mirrored)) {
      xs.push_back(a);
      ys.push_back(b);
    }
  ASSERT_FALSE(xs.empty()) << "no integer pair in the domain of " << row.name;
  for (ScalarType dt : {mt::kInt8, mt::kInt16, mt::kInt32, mt::kInt64}) {
    const Tensor x = mt::tensor(xs, mt::TensorOptions(dt)), y = mt::tensor(ys, mt::TensorOptions(dt));
    switch (row.integers) {
      case Integers::to_float:
        EXPECT_EQ(row.op(x, y).dtype(), kFloat32) << dt;
        expect_reference(row, x, y, row.op(x, y));
        break;
      case Integers::kept:
        EXPECT_EQ(row.op(x, y).dtype(), dt);
        expect_reference(row, x, y, row.op(x, y));
        break;
      case Integers::to_int64:
        ADD_FAILURE() << "to_int64 is the reductions' (sum, prod)";
        break;
      case Integers::unchanged:
      case Integers::refused:
        EXPECT_THROW(row.op(x, y), mt::NotImplementedError) << dt;
        break;
    }
  }
  const Tensor b = mt::tensor({true, false, true, false}), c = mt::tensor({true, true, false, false});
  if (row.bools) {
    EXPECT_EQ(row.op(b, c).dtype(), *row.bools);
    if (*row.bools != mt::kBool) expect_reference(row, b, c, row.op(b, c));
  } else {
    EXPECT_THROW(row.op(b, c), mt::Error);
  }
  // Mixed dtypes promote as PyTorch's result_type: an integer operand takes the float one's dtype, a
  // float32 one float64's, and a 16-bit float is kept against an integer.
  const Tensor i = mt::tensor(xs, mt::TensorOptions(mt::kInt64));
  const Tensor f = samples(row, true, {static_cast<int64_t>(ys.size())});
  EXPECT_EQ(row.op(i, f).dtype(), kFloat64);
  expect_reference(row, i, f, row.op(i, f));
  EXPECT_EQ(row.op(i.to(kFloat32), f).dtype(), kFloat64);
  EXPECT_EQ(row.op(i.to(mt::kFloat16), mt::tensor(ys, mt::TensorOptions(mt::kInt32))).dtype(), mt::kFloat16);
}

TEST_P(BinaryOpInfoTest, InPlaceAndOutFormsGiveTheFunctionalResult) {
  const BinaryOpInfo& row = GetParam();
  const Tensor x = samples(row, false, {4, 5}).to(kFloat32), y = samples(row, true, {5}).to(kFloat32);
  const Tensor expected = row.op(x, y);
  if (row.inplace) {
    Tensor a = x.clone();
    Tensor& r = row.inplace(a, y);
    EXPECT_EQ(&r, &a);
    EXPECT_TRUE(same(a, expected));
    // self cannot grow to the broadcast shape in place, and an error leaves it as it was.
    Tensor small = y.clone();
    EXPECT_THROW(row.inplace(small, x), mt::Error);
    EXPECT_TRUE(same(small, y));
  }
  if (row.out) {
    Tensor out = mt::empty({0});
    row.out(x, y, out);
    EXPECT_TRUE(same(out, expected));
  }
  // PyTorch's rule: a float result cannot be written into an integer tensor, in place or as out=, and
  // the tensor is left as it was.
  Tensor ints = mt::ones({5}, mt::kInt64);
  if (row.inplace) {
    EXPECT_THROW(row.inplace(ints, y), mt::Error);
    EXPECT_TRUE(same(ints, mt::ones({5}, mt::kInt64)));
  }
  if (row.out) {
    Tensor int_out = mt::ones({5}, mt::kInt64);
    EXPECT_THROW(row.out(y, y, int_out), mt::Error);
    EXPECT_TRUE(same(int_out, mt::ones({5}, mt::kInt64)));
  }
}

TEST_P(BinaryOpInfoTest, GradcheckAndGradgradcheckInBothOperands) {
  const BinaryOpInfo& row = GetParam();
  // y broadcasts along x's first dim: its gradient is summed over it.
  const Tensor x = samples(row, false, {3, 4}).requires_grad_(), y = samples(row, true, {4}).requires_grad_();
  const auto f = [&](const mt::autograd::variable_list& v) { return row.op(v[0], v[1]); };
  EXPECT_TRUE(mt::autograd::gradcheck(f, {x, y}));
  EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x, y}));
  if (row.inplace) {
    // The in-place form differentiates as the functional one.
    const auto g = [&](const mt::autograd::variable_list& v) {
      Tensor t = v[0] * 1;
      row.inplace(t, v[1]);
      return t;
    };
    EXPECT_TRUE(mt::autograd::gradcheck(g, {x, y}));
  }
}

TEST_P(BinaryOpInfoTest, VmapAndVmapOfGradMatchTheLoop) {
  const BinaryOpInfo& row = GetParam();
  const Tensor x = samples(row, false, {3, 4}), y = samples(row, true, {3, 4});
  const Fn f = [&](const std::vector<Tensor>& v) { return row.op(v[0], v[1]); };
  expect_vmap_matches_loop(f, {x, y}, {0, 0});
  expect_vmap_matches_loop(f, {x, y.t()}, {1, 0});
  expect_vmap_matches_loop(f, {x, y.select(0, 0)}, {0, std::nullopt});
  expect_vmap_matches_loop(f, {x.select(1, 0), y}, {std::nullopt, 1});
  if (row.inplace) {
    const Fn inplace = [&](const std::vector<Tensor>& v) {
      Tensor t = v[0].clone();
      return row.inplace(t, v[1]);
    };
    expect_vmap_matches_loop(inplace, {x, y}, {0, 0});
  }
  const Fn grad_of_sum = mt::grad([&](const std::vector<Tensor>& v) { return row.op(v[0], v[1]).sum(); });
  expect_vmap_matches_loop(grad_of_sum, {x, y}, {0, 0}, 0, 1e-10);
}

TEST_P(BinaryOpInfoTest, MetaGivesTheCpuShapeAndDtype) {
  const BinaryOpInfo& row = GetParam();
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta"));
  const std::vector<std::pair<ScalarType, ScalarType>> dtypes = {
      {kFloat32, kFloat32}, {kFloat32, kFloat64}, {mt::kInt64, kFloat32}, {mt::kInt32, mt::kInt64}};
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
      {{}, {}}, {{0, 3}, {3}}, {{2, 1}, {1, 3}}};
  for (const auto& [dx, dy] : dtypes)
    for (const auto& [sx, sy] : shapes) {
      if (mt::is_integral(dx, false) && mt::is_integral(dy, false) && row.integers == Integers::refused) continue;
      const Tensor m = row.op(mt::empty(sx, meta.dtype(dx)), mt::empty(sy, meta.dtype(dy)));
      const Tensor c = row.op(mt::ones(sx, mt::TensorOptions().dtype(dx)), mt::ones(sy, mt::TensorOptions().dtype(dy)));
      EXPECT_TRUE(m.is_meta());
      EXPECT_EQ(m.sizes().vec(), c.sizes().vec());
      EXPECT_EQ(m.dtype(), c.dtype());
    }
}

TEST_P(BinaryOpInfoTest, AutocastPolicyIsPyTorchs) {
  const BinaryOpInfo& row = GetParam();
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, row.name), row.cuda_autocast);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, row.name), std::nullopt);
}

TEST_P(BinaryOpInfoTest, CudaMatchesTheReference) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const BinaryOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const Tensor x = samples(row, false, {1000}).to(dtype), y = samples(row, true, {1000}).to(dtype);
    const Tensor z = row.op(x.to(mt::kCUDA), y.to(mt::kCUDA)).to(mt::kCPU);
    EXPECT_EQ(z.dtype(), dtype);
    expect_reference(row, x, y, z);
  }
}

INSTANTIATE_TEST_SUITE_P(OpInfo, BinaryOpInfoTest, ::testing::ValuesIn(binary_ops()),
                         [](const ::testing::TestParamInfo<BinaryOpInfo>& info) { return row_name(info.param.name); });

}  // namespace
}  // namespace mt_test
