// The suites every shape row of the OpInfo table runs: the elements the reference picks, in every dtype and from
// contiguous, permuted and sliced inputs; aliasing (a view shares the input's storage and version, a copy does not);
// gradcheck and gradgradcheck; vmap against the loop (the batch dim first, second and last) with a batching rule, not
// the fallback; Meta shapes; no autocast policy; CUDA where a GPU is present. Each op's strides, errors and argument
// forms are tests/ops/views_*_test.cpp's.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "autograd/Gradcheck.h"
#include "cuda/cuda_test_helpers.h"
#include "functorch/BatchedFallback.h"
#include "functorch/Vmap.h"
#include "functorch/vmap_test_helpers.h"
#include "opinfo/Compare.h"
#include "opinfo/OpInfo.h"
#include "ops/api/empty.h"
#include "ops/api/rand.h"
#include "ops/views_test_util.h"

namespace mt_test {
namespace {

using mt::kFloat32;
using mt::kFloat64;
using mt::ScalarType;

// r is the row's result for x: its shape, x's dtype, and at each index the input element the reference names.
void expect_reference(const ShapeOpInfo& row, const Tensor& x, const Tensor& r) {
  SCOPED_TRACE(row.name + "(" + row.sample + ") of " + std::string(mt::scalar_type_name(x.dtype())) +
               ::testing::PrintToString(x.sizes().vec()) + " strides " + ::testing::PrintToString(x.strides().vec()));
  ASSERT_EQ(r.sizes().vec(), row.sizes);
  EXPECT_EQ(r.dtype(), x.dtype());
  EXPECT_EQ(values(r), mt::testing::reference(row.sizes, [&](const mt::testing::Coords& i) {
              return mt::testing::at(x, row.source(i));
            }));
}

// Random doubles of the row's input shape, with `batch` entries inserted at `batch_dim`.
Tensor samples(const ShapeOpInfo& row, int64_t batch = 0, int64_t batch_dim = 0) {
  std::vector<int64_t> shape = row.input;
  if (batch) shape.insert(shape.begin() + batch_dim, batch);
  mt::Generator g(std::hash<std::string>{}(row.name + row.sample));
  return mt::rand(shape, &g, mt::TensorOptions().dtype(kFloat64)) * 2 - 1;
}

class ShapeOpInfoTest : public ::testing::TestWithParam<ShapeOpInfo> {};

TEST_P(ShapeOpInfoTest, PicksTheReferencesElementsInEveryDtype) {
  const ShapeOpInfo& row = GetParam();
  for (ScalarType dtype : mt::testing::kEveryDtype) {
    const Tensor x = mt::testing::iota(row.input, dtype);
    expect_reference(row, x, row.op(x));
  }
}

TEST_P(ShapeOpInfoTest, PermutedAndSlicedInputsGiveTheSameElements) {
  const ShapeOpInfo& row = GetParam();
  if (row.reads_storage) GTEST_SKIP() << row.name << " reads the storage by its own strides";
  // The input's dims stored in reverse order (contiguous still where only one dim is longer than 1).
  const std::vector<int64_t> reversed(row.input.rbegin(), row.input.rend());
  std::vector<int64_t> order(row.input.size());
  std::iota(order.rbegin(), order.rend(), 0);
  const Tensor permuted = mt::testing::iota(reversed).permute(order);
  // Every second element along the first dim longer than 1.
  std::vector<int64_t> wide = row.input;
  const int64_t dim = std::find_if(wide.begin(), wide.end(), [](int64_t s) { return s > 1; }) - wide.begin();
  wide[dim] *= 2;
  const Tensor sliced = mt::testing::iota(wide).slice(dim, 0, std::nullopt, 2);
  ASSERT_FALSE(sliced.is_contiguous());
  for (const Tensor& x : {permuted, sliced}) {
    if (row.viewable_only && !x.is_contiguous()) {
      EXPECT_THROW(row.op(x), mt::RuntimeError);
      continue;
    }
    expect_reference(row, x, row.op(x));
  }
}

TEST_P(ShapeOpInfoTest, AViewSharesTheStorageAndVersionACopyDoesNot) {
  const ShapeOpInfo& row = GetParam();
  Tensor x = mt::testing::iota(row.input);
  const Tensor r = row.op(x);
  EXPECT_EQ(mt::testing::same_storage(r, x), row.view);
  x.mul_(2);
  if (row.view) {
    EXPECT_EQ(r._version(), x._version());
    expect_reference(row, x, r);  // the write shows through
  } else {
    EXPECT_EQ(r._version(), 0u);
    expect_reference(row, mt::testing::iota(row.input), r);
  }
}

TEST_P(ShapeOpInfoTest, GradcheckAndGradgradcheck) {
  const ShapeOpInfo& row = GetParam();
  const auto f = [&](const mt::autograd::variable_list& v) { return row.op(v[0]); };
  const Tensor x = samples(row).requires_grad_();
  EXPECT_TRUE(mt::autograd::gradcheck(f, {x}));
  EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x}));
}

TEST_P(ShapeOpInfoTest, VmapMatchesTheLoopThroughABatchingRule) {
  const ShapeOpInfo& row = GetParam();
  std::vector<std::string> fallbacks;
  const mt::functorch::VmapWarningHandler previous =
      mt::functorch::set_vmap_fallback_warning_handler([&](const std::string& m) { fallbacks.push_back(m); });
  const Fn f = [&](const std::vector<Tensor>& v) { return row.op(v[0]); };
  // The batch dim first, second and last. Only the first keeps the loop's samples contiguous, which
  // as_strided and view need.
  const int64_t last = static_cast<int64_t>(row.input.size());
  for (const int64_t dim : {int64_t{0}, int64_t{1}, last}) {
    if (dim > 0 && (row.reads_storage || row.viewable_only)) continue;
    SCOPED_TRACE("batch dim " + std::to_string(dim));
    expect_vmap_matches_loop(f, {samples(row, 3, dim)}, {dim});
  }
  mt::functorch::set_vmap_fallback_warning_handler(previous);
  EXPECT_TRUE(fallbacks.empty()) << fallbacks.front();
}

TEST_P(ShapeOpInfoTest, MetaGivesTheShape) {
  const ShapeOpInfo& row = GetParam();
  const Tensor r = row.op(mt::empty(row.input, mt::testing::meta_options(mt::kFloat16)));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes().vec(), row.sizes);
  EXPECT_EQ(r.dtype(), mt::kFloat16);
}

TEST_P(ShapeOpInfoTest, AutocastLeavesItAlone) {
  const ShapeOpInfo& row = GetParam();
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, row.name), std::nullopt);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, row.name), std::nullopt);
}

TEST_P(ShapeOpInfoTest, CudaMatchesTheReference) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const ShapeOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, mt::kInt64, mt::kBool}) {
    const Tensor x = mt::testing::iota(row.input, dtype);
    const Tensor r = row.op(x.to(mt::kCUDA));
    EXPECT_TRUE(r.is_cuda());
    expect_reference(row, x, r.to(mt::kCPU));
  }
}

INSTANTIATE_TEST_SUITE_P(OpInfo, ShapeOpInfoTest, ::testing::ValuesIn(shape_ops()), sampled_row_name<ShapeOpInfo>);

}  // namespace
}  // namespace mt_test
