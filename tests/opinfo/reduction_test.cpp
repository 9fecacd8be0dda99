// The suites every reduction row of the OpInfo table runs: values against the double-precision reference
// for every dim list of 3-D inputs in four layouts (contiguous, permuted, stepped, broadcast), keepdim or
// not, in every floating dtype, and the form without dims; 0-dim inputs and empty slices; integer and bool
// inputs; gradcheck and gradgradcheck; vmap and vmap of grad against a loop; Meta shapes and dtypes;
// the autocast policy; dims out of range or repeated; CUDA against the reference where a GPU is present.
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
using DimList = std::vector<int64_t>;

// Samples from the row's domain in float64, seeded by the row's name and `seed`.
Tensor samples(const ReductionOpInfo& row, std::vector<int64_t> shape, uint64_t seed = 0) {
  mt::Generator g(std::hash<std::string>{}(row.name) + seed);
  return mt::rand(shape, &g, mt::TensorOptions().dtype(kFloat64)) * (row.hi - row.lo) + row.lo;
}

// The dim lists a row is called with on a 3-D input: every list (negative and unordered spellings
// included), or every single dim.
std::vector<DimList> dim_lists(const ReductionOpInfo& row) {
  if (row.dim_list) return ref::dim_lists_3d();
  return {{0}, {1}, {2}, {-1}, {-3}};
}

// The dtype the row's result has for an input of `dtype`.
ScalarType result_dtype(const ReductionOpInfo& row, ScalarType dtype) {
  if (row.bool_result) return dtype == mt::kUInt8 ? mt::kUInt8 : mt::kBool;
  if (mt::is_floating_point(dtype)) return dtype;
  return row.integers == Integers::to_int64 ? mt::kInt64 : row.integers == Integers::to_float ? kFloat32 : dtype;
}

// result == f(each slice of x along dims), to the dtype's tolerance (of the input's dtype where the result
// is bool or integer: exact there).
void expect_reference(const ReductionOpInfo& row, const Tensor& x, const DimList& dims, bool keepdim,
                      const Tensor& result) {
  SCOPED_TRACE(row.name + " " + ref::describe(x, dims, keepdim));
  EXPECT_EQ(result.dtype(), result_dtype(row, x.dtype()));
  EXPECT_EQ(result.sizes().vec(), ref::expected_shape(x.sizes(), dims, keepdim));
  const double tol = mt::is_floating_point(result.dtype()) ? mt::testing::tolerance(result.dtype()) : 0;
  ref::expect_close(result, ref::naive_reduce(x, dims, row.reference), tol);
}

class ReductionOpInfoTest : public ::testing::TestWithParam<ReductionOpInfo> {};

TEST_P(ReductionOpInfoTest, MatchesTheReferenceForEveryDimListLayoutAndFloatingDtype) {
  const ReductionOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const auto make = [&](mt::IntArrayRef shape, uint64_t seed) { return samples(row, shape.vec(), seed).to(dtype); };
    for (const Tensor& x : ref::layouts_3d(make, 1)) {
      for (const DimList& dims : dim_lists(row))
        for (bool keepdim : {false, true}) expect_reference(row, x, dims, keepdim, row.op(x, dims, keepdim));
      if (row.full) expect_reference(row, x, {0, 1, 2}, false, row.full(x));
    }
  }
}

TEST_P(ReductionOpInfoTest, ZeroDimInputsAndEmptySlices) {
  const ReductionOpInfo& row = GetParam();
  // A 0-dim tensor reduces over dim 0 or -1 to itself, a slice of one element.
  const Tensor s = samples(row, {});
  for (const int64_t dim : {0, -1})
    for (bool keepdim : {false, true}) expect_reference(row, s, {dim}, keepdim, row.op(s, {dim}, keepdim));
  // Slices of an empty dim reduce to the row's value for nothing, or fail; reducing a non-empty dim of an
  // empty tensor gives an empty result.
  const Tensor e = mt::ones({0, 3});
  if (row.empty) {
    const Tensor r = row.op(e, {0}, false);
    EXPECT_EQ(r.sizes().vec(), (DimList{3}));
    ref::expect_close(r, std::vector<double>(3, *row.empty), 0);
    if (row.full) ref::expect_close(row.full(e), {*row.empty}, 0);
  } else {
    EXPECT_THROW(row.op(e, {0}, false), mt::Error);
    if (row.full) {
      EXPECT_THROW(row.full(e), mt::Error);
    }
  }
  EXPECT_EQ(row.op(e, {1}, true).sizes().vec(), (DimList{0, 1}));
}

TEST_P(ReductionOpInfoTest, IntegerAndBoolInputs) {
  const ReductionOpInfo& row = GetParam();
  for (ScalarType dtype : {mt::kUInt8, mt::kInt8, mt::kInt16, mt::kInt32, mt::kInt64, mt::kBool}) {
    // Integers of [-8, 8] (|x| for uint8, 0 and 1 for bool): exact in every dtype the result may have.
    const Tensor x = mt::testing::random_tensor({3, 4, 5}, dtype, 7);
    // prod of 20 such integers overflows int64: one dim of 3 or 4.
    const std::vector<DimList> lists = row.dim_list ? std::vector<DimList>{{0}, {2, 0}} : std::vector<DimList>{{0}, {1}};
    for (const DimList& dims : lists) {
      if (row.integers == Integers::refused && !row.bool_result) {
        EXPECT_THROW(row.op(x, dims, false), mt::Error) << mt::scalar_type_name(dtype);
        continue;
      }
      expect_reference(row, x, dims, false, row.op(x, dims, false));
    }
  }
}

TEST_P(ReductionOpInfoTest, GradcheckAndGradgradcheck) {
  const ReductionOpInfo& row = GetParam();
  if (!row.differentiable) GTEST_SKIP() << row.name << " has a bool result";
  const Tensor x = samples(row, {3, 4}).requires_grad_();
  for (const DimList& dims : {DimList{0}, DimList{-1}}) {
    for (bool keepdim : {false, true}) {
      const auto f = [&](const mt::autograd::variable_list& v) { return row.op(v[0], dims, keepdim); };
      EXPECT_TRUE(mt::autograd::gradcheck(f, {x})) << dims[0] << " " << keepdim;
      EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x})) << dims[0] << " " << keepdim;
    }
  }
  const auto every_dim = [&](const mt::autograd::variable_list& v) {
    return row.full ? row.full(v[0]) : row.op(v[0], {0, 1}, false);
  };
  EXPECT_TRUE(mt::autograd::gradcheck(every_dim, {x}));
  EXPECT_TRUE(mt::autograd::gradgradcheck(every_dim, {x}));
}

TEST_P(ReductionOpInfoTest, VmapAndVmapOfGradMatchTheLoop) {
  const ReductionOpInfo& row = GetParam();
  const Tensor x = samples(row, {3, 4, 5});
  // Dims are the per-sample tensor's: -1 and 0 stay the same dims of x whichever dim is mapped.
  for (const DimList& dims : {DimList{0}, DimList{-1}}) {
    for (bool keepdim : {false, true}) {
      const Fn f = [&](const std::vector<Tensor>& v) { return row.op(v[0], dims, keepdim); };
      expect_vmap_matches_loop(f, {x}, {0});
      expect_vmap_matches_loop(f, {x}, {1});
      expect_vmap_matches_loop(f, {x}, {2});
    }
  }
  if (row.dim_list) {
    const Fn both = [&](const std::vector<Tensor>& v) { return row.op(v[0], {1, 0}, false); };
    expect_vmap_matches_loop(both, {x}, {1});
  }
  if (row.full) expect_vmap_matches_loop([&](const std::vector<Tensor>& v) { return row.full(v[0]); }, {x}, {2});
  if (!row.differentiable) return;
  const Fn grad_of_sum = mt::grad([&](const std::vector<Tensor>& v) { return row.op(v[0], {-1}, false).sum(); });
  expect_vmap_matches_loop(grad_of_sum, {x}, {0}, 0, 1e-10);
}

TEST_P(ReductionOpInfoTest, MetaGivesTheCpuShapeAndDtype) {
  const ReductionOpInfo& row = GetParam();
  const mt::TensorOptions meta = mt::TensorOptions(mt::Device("meta"));
  for (ScalarType dtype : {kFloat32, mt::kFloat16, mt::kInt32, mt::kBool}) {
    const bool refused = !mt::is_floating_point(dtype) && row.integers == Integers::refused && !row.bool_result;
    for (const DimList& dims : dim_lists(row)) {
      for (bool keepdim : {false, true}) {
        const Tensor m = mt::empty({3, 4, 5}, meta.dtype(dtype));
        if (refused) {
          EXPECT_THROW(row.op(m, dims, keepdim), mt::Error);
          continue;
        }
        const Tensor r = row.op(m, dims, keepdim);
        EXPECT_TRUE(r.is_meta());
        EXPECT_EQ(r.sizes().vec(), ref::expected_shape(m.sizes(), dims, keepdim));
        EXPECT_EQ(r.dtype(), result_dtype(row, dtype));
      }
    }
    if (row.full && !refused) {
      const Tensor r = row.full(mt::empty({3, 4, 5}, meta.dtype(dtype)));
      EXPECT_TRUE(r.is_meta());
      EXPECT_EQ(r.dim(), 0);
    }
  }
}

TEST_P(ReductionOpInfoTest, AutocastPolicyIsPyTorchs) {
  const ReductionOpInfo& row = GetParam();
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, row.name), row.cuda_autocast);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, row.name), row.cpu_autocast);
}

TEST_P(ReductionOpInfoTest, DimsOutOfRangeOrRepeatedAreErrors) {
  const ReductionOpInfo& row = GetParam();
  const Tensor x = samples(row, {2, 3});
  try {
    row.op(x, {2}, false);
    ADD_FAILURE() << "dim 2 of a 2-D tensor was accepted";
  } catch (const mt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(row.op(x, {-3}, false), mt::Error);
  if (!row.dim_list) return;
  try {
    row.op(x, {1, -1}, false);
    ADD_FAILURE() << "dims 1 and -1 were accepted together";
  } catch (const mt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("dim 1 appears multiple times in the list of dims"), std::string::npos)
        << e.what();
  }
}

TEST_P(ReductionOpInfoTest, CudaMatchesTheReference) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const ReductionOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kFloat16, mt::kBFloat16}) {
    // Long rows (split over several blocks) and short ones.
    const Tensor x = samples(row, {7, 300, 5}).to(dtype);
    for (const DimList& dims : dim_lists(row)) {
      for (bool keepdim : {false, true}) {
        const Tensor r = row.op(x.to(mt::kCUDA), dims, keepdim);
        EXPECT_TRUE(r.is_cuda());
        expect_reference(row, x, dims, keepdim, r.to(mt::kCPU));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(OpInfo, ReductionOpInfoTest, ::testing::ValuesIn(reduction_ops()),
                         [](const ::testing::TestParamInfo<ReductionOpInfo>& info) {
                           return row_name(info.param.name);
                         });

}  // namespace
}  // namespace mt_test
