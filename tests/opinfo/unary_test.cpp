// The suites every unary row of the OpInfo table runs: values against the double-precision reference in
// every floating dtype (special values, non-contiguous, 0-dim and empty inputs, integer and bool inputs),
// the in-place and out= forms, gradcheck and gradgradcheck, vmap and vmap of grad against a loop, Meta
// shapes, the autocast policy, and CUDA against the CPU where a GPU is present.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "autograd/Gradcheck.h"
#include "cuda/cuda_test_helpers.h"
#include "functorch/Grad.h"
#include "functorch/Vmap.h"
#include "functorch/vmap_test_helpers.h"
#include "opinfo/Compare.h"
#include "opinfo/OpInfo.h"
#include "ops/api/cat.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/api/rand.h"
#include "ops/api/std.h"
#include "ops/api/zeros_like.h"

namespace mt_test {
namespace {

using mt::kFloat32;
using mt::kFloat64;
using mt::ScalarType;

// n float64 samples from the row's domain (and its mirror image), seeded by the row's name.
Tensor samples(const UnaryOpInfo& row, std::vector<int64_t> shape, double lo, double hi) {
  mt::Generator g(std::hash<std::string>{}(row.name));
  Tensor u = mt::rand(shape, &g, mt::TensorOptions().dtype(kFloat64));
  Tensor x = u * (hi - lo) + lo;
  if (row.mirrored) x = x * (mt::rand(shape, &g, mt::TensorOptions().dtype(kFloat64)).lt(0.5).to(kFloat64) * 2 - 1);
  return x;
}

// result == f(input) elementwise, to the row's tolerance in result's dtype; NaN where the reference is.
void expect_reference(const UnaryOpInfo& row, const Tensor& input, const Tensor& result) {
  ASSERT_EQ(result.sizes().vec(), input.sizes().vec());
  const std::vector<double> x = values(input), y = values(result);
  std::vector<double> reference;
  for (double v : x) reference.push_back(row.reference(v));
  // Rounded into the result's dtype, a reference past its range is the infinity the result must be.
  const std::vector<double> rounded = values(mt::tensor(reference).to(result.dtype()));
  const double eps = epsilon(result.dtype());
  for (size_t i = 0; i < x.size(); ++i) {
    const double expected = reference[i];
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(y[i])) << row.name << "(" << x[i] << ") = " << y[i] << ", expected NaN";
    } else if (std::isinf(rounded[i])) {
      EXPECT_EQ(y[i], rounded[i]) << row.name << "(" << x[i] << ") in " << result.dtype();
    } else {
      // A 16-bit result is rounded once more from float, and the reference is rounded into its range.
      const double ulps = result.dtype() == kFloat64 ? row.ulps : row.ulps + 0.5;
      EXPECT_NEAR(y[i], expected, ulps * eps * std::max(std::fabs(expected), row.floor) + 1e-300)
          << row.name << "(" << x[i] << ") in " << result.dtype();
    }
  }
}

class UnaryOpInfoTest : public ::testing::TestWithParam<UnaryOpInfo> {};

TEST_P(UnaryOpInfoTest, MatchesTheDoublePrecisionReferenceInEveryFloatingDtype) {
  const UnaryOpInfo& row = GetParam();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Tensor specials = mt::tensor({nan, inf, -inf, 0.0, -0.0, row.lo, row.hi});
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kFloat16, mt::kBFloat16}) {
    // 37 samples: the vectorised loops' full vectors and their scalar tail both run.
    const Tensor x = mt::cat({samples(row, {37}, row.lo, row.hi), specials}).to(dtype);
    const Tensor y = row.op(x);
    EXPECT_EQ(y.dtype(), dtype);
    expect_reference(row, x, y);
  }
}

TEST_P(UnaryOpInfoTest, NonContiguousZeroDimAndEmptyInputs) {
  const UnaryOpInfo& row = GetParam();
  const Tensor x = samples(row, {5, 7}, row.lo, row.hi).to(kFloat32).t();
  ASSERT_FALSE(x.is_contiguous());
  const Tensor y = row.op(x);
  expect_reference(row, x, y);
  const Tensor scalar = samples(row, {}, row.lo, row.hi);
  const Tensor s = row.op(scalar);
  EXPECT_EQ(s.dim(), 0);
  expect_reference(row, scalar, s);
  EXPECT_EQ(row.op(mt::empty({0, 3})).sizes().vec(), (std::vector<int64_t>{0, 3}));
}

TEST_P(UnaryOpInfoTest, IntegerAndBoolInputs) {
  const UnaryOpInfo& row = GetParam();
  std::vector<int64_t> ints;
  for (int64_t i = -5; i <= 5; ++i)
    if ((i > row.lo && i < row.hi) || (row.mirrored && -i > row.lo && -i < row.hi)) ints.push_back(i);
  ASSERT_FALSE(ints.empty()) << "no integer in the domain of " << row.name;
  for (mt::ScalarType dt : {mt::kUInt8, mt::kInt8, mt::kInt16, mt::kInt32, mt::kInt64}) {
    std::vector<int64_t> in_type;
    for (int64_t i : ints)
      if (i >= 0 || dt != mt::kUInt8) in_type.push_back(i);
    if (in_type.empty()) continue;
    const Tensor x = mt::tensor(in_type, mt::TensorOptions(dt));
    switch (row.integers) {
      case Integers::to_float:
        EXPECT_EQ(row.op(x).dtype(), kFloat32) << dt;
        expect_reference(row, x, row.op(x));
        break;
      case Integers::unchanged:
        EXPECT_TRUE(same(row.op(x), x)) << dt;
        break;
      case Integers::kept:
        EXPECT_EQ(row.op(x).dtype(), dt);
        expect_reference(row, x, row.op(x));
        break;
      case Integers::to_int64:
        ADD_FAILURE() << "to_int64 is the reductions' (sum, prod)";
        break;
      case Integers::refused:
        EXPECT_THROW(row.op(x), mt::NotImplementedError) << dt;
        break;
    }
  }
  const Tensor b = mt::tensor({true, false});
  if (!row.bools) {
    EXPECT_THROW(row.op(b), mt::NotImplementedError);
  } else {
    EXPECT_EQ(row.op(b).dtype(), row.integers == Integers::kept ? mt::kInt64 : kFloat32);
    expect_reference(row, b, row.op(b));
  }
}

TEST_P(UnaryOpInfoTest, InPlaceAndOutFormsGiveTheFunctionalResult) {
  const UnaryOpInfo& row = GetParam();
  const Tensor x = samples(row, {4, 5}, row.lo, row.hi).to(kFloat32);
  const Tensor expected = row.op(x);
  if (row.inplace) {
    Tensor a = x.clone();
    Tensor& r = row.inplace(a);
    EXPECT_EQ(&r, &a);
    EXPECT_TRUE(same(a, expected));
  }
  if (row.out) {
    Tensor out = mt::empty({0});
    row.out(x, out);
    EXPECT_TRUE(same(out, expected));
  }
  // PyTorch's rule: a float result cannot be written into an integer tensor, in place or as out=. An op
  // that refuses integers leaves them as they were.
  Tensor ints = mt::ones({3}, mt::kInt64);
  if (row.inplace && (row.integers == Integers::unchanged || row.integers == Integers::kept)) {
    EXPECT_TRUE(same(row.inplace(ints), mt::ones({3}, mt::kInt64)));  // 1 is its own square
  } else if (row.inplace) {
    EXPECT_THROW(row.inplace(ints), mt::Error);
    EXPECT_TRUE(same(ints, mt::ones({3}, mt::kInt64)));
  }
  if (row.out && row.integers != Integers::unchanged && row.integers != Integers::kept) {
    Tensor int_out = mt::empty({3}, mt::kInt64);
    EXPECT_THROW(row.out(mt::ones({3}), int_out), mt::Error);
  }
}

TEST_P(UnaryOpInfoTest, GradcheckAndGradgradcheck) {
  const UnaryOpInfo& row = GetParam();
  const Tensor x = samples(row, {6}, row.grad_lo, row.grad_hi).requires_grad_();
  const auto f = [&](const mt::autograd::variable_list& v) { return row.op(v[0]); };
  EXPECT_TRUE(mt::autograd::gradcheck(f, {x}));
  if (row.zero_gradient) {
    // Its backward is a constant 0 that depends on nothing, so there is no second derivative to check.
    const Tensor g = mt::autograd::grad({row.op(x).sum()}, {x})[0];
    EXPECT_TRUE(same(g, mt::zeros_like(x)));
  } else {
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x}));
  }
  // The in-place form differentiates as the functional one.
  const auto g = [&](const mt::autograd::variable_list& v) {
    Tensor t = v[0] * 1;
    row.inplace(t);
    return t;
  };
  if (row.inplace) {
    EXPECT_TRUE(mt::autograd::gradcheck(g, {x}));
  }
}

TEST_P(UnaryOpInfoTest, VmapAndVmapOfGradMatchTheLoop) {
  const UnaryOpInfo& row = GetParam();
  const Tensor x = samples(row, {3, 4}, row.grad_lo, row.grad_hi);
  const Fn f = [&](const std::vector<Tensor>& v) { return row.op(v[0]); };
  expect_vmap_matches_loop(f, {x}, {0});
  expect_vmap_matches_loop(f, {x}, {1});
  const Fn inplace = [&](const std::vector<Tensor>& v) {
    Tensor t = v[0].clone();
    return row.inplace(t);
  };
  if (row.inplace) expect_vmap_matches_loop(inplace, {x}, {0});
  const Fn grad_of_sum = mt::grad([&](const std::vector<Tensor>& v) { return row.op(v[0]).sum(); });
  expect_vmap_matches_loop(grad_of_sum, {x}, {0}, 0, 1e-10);
}

TEST_P(UnaryOpInfoTest, MetaGivesTheCpuShapeAndDtype) {
  const UnaryOpInfo& row = GetParam();
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta"));
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kInt64})
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{}, {0, 3}, {2, 3}}) {
      if (dtype == mt::kInt64 && row.integers == Integers::refused) {
        EXPECT_THROW(row.op(mt::empty(shape, meta.dtype(dtype))), mt::NotImplementedError);
        continue;
      }
      const Tensor m = row.op(mt::empty(shape, meta.dtype(dtype)));
      const Tensor c = row.op(mt::ones(shape, mt::TensorOptions().dtype(dtype)));
      EXPECT_TRUE(m.is_meta());
      EXPECT_EQ(m.sizes().vec(), c.sizes().vec());
      EXPECT_EQ(m.dtype(), c.dtype());
    }
}

TEST_P(UnaryOpInfoTest, AutocastPolicyIsPyTorchs) {
  const UnaryOpInfo& row = GetParam();
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, row.name), row.cuda_autocast);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, row.name), std::nullopt);
}

TEST_P(UnaryOpInfoTest, CudaMatchesTheReference) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const UnaryOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const Tensor x = samples(row, {1000}, row.lo, row.hi).to(dtype);
    const Tensor y = row.op(x.to(mt::kCUDA)).to(mt::kCPU);
    EXPECT_EQ(y.dtype(), dtype);
    expect_reference(row, x, y);
  }
}

INSTANTIATE_TEST_SUITE_P(OpInfo, UnaryOpInfoTest, ::testing::ValuesIn(unary_ops()),
                         [](const ::testing::TestParamInfo<UnaryOpInfo>& info) { return row_name(info.param.name); });

}  // namespace
}  // namespace mt_test
