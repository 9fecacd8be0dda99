// The suites every scan row of the OpInfo table runs: values against the double-precision running reference
// along every dim of 3-D inputs in four layouts and every floating dtype; 0-dim and empty inputs; integer
// and bool inputs; the in-place form; gradcheck and gradgradcheck; vmap and vmap of grad against a loop;
// Meta shapes and dtypes; the autocast policy; a dim out of range; CUDA against the reference where a GPU
// is present.
#include <gtest/gtest.h>

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
#include "ops/reductions_reference.h"

namespace mt_test {
namespace {

namespace ref = mt::testing::reductions;
using mt::kFloat32;
using mt::kFloat64;
using mt::ScalarType;

Tensor samples(const ScanOpInfo& row, std::vector<int64_t> shape, uint64_t seed = 0) {
  mt::Generator g(std::hash<std::string>{}(row.name) + seed);
  return mt::rand(shape, &g, mt::TensorOptions().dtype(kFloat64)) * (row.hi - row.lo) + row.lo;
}

ScalarType result_dtype(const ScanOpInfo& row, ScalarType dtype) {
  if (mt::is_floating_point(dtype)) return dtype;
  return row.integers == Integers::to_int64 ? mt::kInt64 : dtype;
}

// x's logical values scanned along `dim` by the row's step, in row-major order.
std::vector<double> reference(const ScanOpInfo& row, const Tensor& x, int64_t dim) {
  std::vector<double> v = values(x);
  if (x.dim() == 0 || x.numel() == 0) return v;
  const int64_t d = dim < 0 ? dim + x.dim() : dim;
  int64_t inner = 1;
  for (int64_t k = d + 1; k < x.dim(); ++k) inner *= x.size(k);
  const int64_t n = x.size(d), outer = x.numel() / (n * inner);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      for (int64_t j = 1; j < n; ++j) {
        double& y = v[(o * n + j) * inner + i];
        y = row.step(v[(o * n + j - 1) * inner + i], y);
      }
  return v;
}

void expect_reference(const ScanOpInfo& row, const Tensor& x, int64_t dim, const Tensor& result) {
  SCOPED_TRACE(row.name + " dim " + std::to_string(dim) + " " + ref::describe(x, {dim}, false));
  EXPECT_EQ(result.dtype(), result_dtype(row, x.dtype()));
  EXPECT_EQ(result.sizes().vec(), x.sizes().vec());
  const double tol = mt::is_floating_point(result.dtype()) ? mt::testing::tolerance(result.dtype()) : 0;
  ref::expect_close(result, reference(row, x, dim), tol);
}

class ScanOpInfoTest : public ::testing::TestWithParam<ScanOpInfo> {};

TEST_P(ScanOpInfoTest, MatchesTheReferenceAlongEveryDimLayoutAndFloatingDtype) {
  const ScanOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const auto make = [&](mt::IntArrayRef shape, uint64_t seed) { return samples(row, shape.vec(), seed).to(dtype); };
    for (const Tensor& x : ref::layouts_3d(make, 1))
      for (const int64_t dim : {0, 1, 2, -1}) expect_reference(row, x, dim, row.op(x, dim));
  }
}

TEST_P(ScanOpInfoTest, ZeroDimAndEmptyInputs) {
  const ScanOpInfo& row = GetParam();
  const Tensor s = samples(row, {});
  for (const int64_t dim : {0, -1}) expect_reference(row, s, dim, row.op(s, dim));
  const Tensor e = mt::ones({0, 3});
  for (const int64_t dim : {0, 1}) EXPECT_EQ(row.op(e, dim).sizes().vec(), (std::vector<int64_t>{0, 3}));
}

TEST_P(ScanOpInfoTest, IntegerAndBoolInputs) {
  const ScanOpInfo& row = GetParam();
  for (ScalarType dtype : {mt::kUInt8, mt::kInt8, mt::kInt16, mt::kInt32, mt::kInt64, mt::kBool}) {
    // Integers of [-8, 8]: a line of 3 or 4 stays exact in int64 (products included).
    const Tensor x = mt::testing::random_tensor({3, 4}, dtype, 7);
    for (const int64_t dim : {0, 1}) {
      if (row.integers == Integers::refused) {
        EXPECT_THROW(row.op(x, dim), mt::NotImplementedError) << mt::scalar_type_name(dtype);
        continue;
      }
      expect_reference(row, x, dim, row.op(x, dim));
    }
  }
}

TEST_P(ScanOpInfoTest, InPlaceFormGivesTheFunctionalResult) {
  const ScanOpInfo& row = GetParam();
  if (!row.inplace) GTEST_SKIP() << "PyTorch has no in-place " << row.name;
  const Tensor x = samples(row, {4, 5}).to(kFloat32);
  for (const int64_t dim : {0, 1}) {
    Tensor a = x.clone();
    Tensor& r = row.inplace(a, dim);
    EXPECT_EQ(&r, &a);
    EXPECT_TRUE(same(a, row.op(x, dim)));
  }
  // An integer self keeps its dtype (the scan is converted back into it).
  Tensor ints = mt::ones({3}, mt::kInt32);
  EXPECT_EQ(row.inplace(ints, 0).dtype(), mt::kInt32);
}

TEST_P(ScanOpInfoTest, GradcheckAndGradgradcheck) {
  const ScanOpInfo& row = GetParam();
  const Tensor x = samples(row, {3, 4}).requires_grad_();
  for (const int64_t dim : {0, -1}) {
    const auto f = [&](const mt::autograd::variable_list& v) { return row.op(v[0], dim); };
    EXPECT_TRUE(mt::autograd::gradcheck(f, {x})) << dim;
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x})) << dim;
  }
  if (row.inplace) {
    const auto g = [&](const mt::autograd::variable_list& v) {
      Tensor t = v[0] * 1;
      return row.inplace(t, 1);
    };
    EXPECT_TRUE(mt::autograd::gradcheck(g, {x}));
  }
}

TEST_P(ScanOpInfoTest, VmapAndVmapOfGradMatchTheLoop) {
  const ScanOpInfo& row = GetParam();
  const Tensor x = samples(row, {3, 4, 5});
  for (const int64_t dim : {0, -1}) {
    const Fn f = [&](const std::vector<Tensor>& v) { return row.op(v[0], dim); };
    expect_vmap_matches_loop(f, {x}, {0});
    expect_vmap_matches_loop(f, {x}, {1});
    expect_vmap_matches_loop(f, {x}, {2});
  }
  const Fn grad_of_sum = mt::grad([&](const std::vector<Tensor>& v) { return row.op(v[0], -1).sum(); });
  expect_vmap_matches_loop(grad_of_sum, {x}, {0}, 0, 1e-10);
}

TEST_P(ScanOpInfoTest, MetaGivesTheCpuShapeAndDtype) {
  const ScanOpInfo& row = GetParam();
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta"));
  for (ScalarType dtype : {kFloat32, mt::kFloat16, mt::kInt32, mt::kBool}) {
    const Tensor m = mt::empty({3, 4}, meta.dtype(dtype));
    if (!mt::is_floating_point(dtype) && row.integers == Integers::refused) {
      EXPECT_THROW(row.op(m, 1), mt::NotImplementedError);
      continue;
    }
    const Tensor r = row.op(m, 1);
    EXPECT_TRUE(r.is_meta());
    EXPECT_EQ(r.sizes().vec(), (std::vector<int64_t>{3, 4}));
    EXPECT_EQ(r.dtype(), result_dtype(row, dtype));
  }
}

TEST_P(ScanOpInfoTest, AutocastPolicyIsPyTorchs) {
  const ScanOpInfo& row = GetParam();
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, row.name), row.cuda_autocast);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, row.name), std::nullopt);
}

TEST_P(ScanOpInfoTest, ADimOutOfRangeIsAnError) {
  const ScanOpInfo& row = GetParam();
  try {
    row.op(samples(row, {2, 3}), 2);
    ADD_FAILURE() << "dim 2 of a 2-D tensor was accepted";
  } catch (const mt::IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(row.op(samples(row, {2, 3}), -3), mt::IndexError);
}

TEST_P(ScanOpInfoTest, CudaMatchesTheReference) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const ScanOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kFloat16, mt::kBFloat16}) {
    // Long lines (several blocks) and short ones.
    const Tensor x = samples(row, {7, 300, 5}).to(dtype);
    for (const int64_t dim : {0, 1, 2}) {
      const Tensor r = row.op(x.to(mt::kCUDA), dim);
      EXPECT_TRUE(r.is_cuda());
      expect_reference(row, x, dim, r.to(mt::kCPU));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(OpInfo, ScanOpInfoTest, ::testing::ValuesIn(scan_ops()),
                         [](const ::testing::TestParamInfo<ScanOpInfo>& info) { return row_name(info.param.name); });

}  // namespace
}  // namespace mt_test
