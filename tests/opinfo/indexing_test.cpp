// The suites every indexing row of the OpInfo table runs: the sums of the input elements the reference names, in every
// dtype that holds them exactly and from non-contiguous inputs; the in-place form on a contiguous and a strided self;
// gradcheck and gradgradcheck in every input; vmap against the loop (every input batched first or last, or the first
// alone) with a batching rule, not the fallback; Meta shapes; the autocast policy; CUDA where a GPU is present. Each
// op's errors, index dtypes and edge cases are tests/ops/indexing_*_test.cpp's.
#include <gtest/gtest.h>

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
#include "ops/api/zeros.h"
#include "ops/views_test_util.h"

namespace mt_test {
namespace {

using mt::kFloat32;
using mt::kFloat64;
using mt::ScalarType;
using Inputs = std::vector<Tensor>;

// Input k numbered 1 + 10 k, 2 + 10 k, ... in `dtype`: every position tells, and sums stay exact in 16 bits.
Inputs numbered(const IndexingOpInfo& row, ScalarType dtype) {
  Inputs v;
  for (size_t k = 0; k < row.inputs.size(); ++k)
    v.push_back((mt::testing::iota(row.inputs[k], kFloat64) + static_cast<double>(1 + 10 * k)).to(dtype));
  return v;
}

// Random doubles of the inputs' shapes, with `batch` entries where `batch` is nonzero: first, or last.
Inputs samples(const IndexingOpInfo& row, int64_t batch = 0, bool last = false) {
  mt::Generator g(std::hash<std::string>{}(row.name + row.sample));
  Inputs v;
  for (std::vector<int64_t> shape : row.inputs) {
    if (batch) shape.insert(last ? shape.end() : shape.begin(), batch);
    v.push_back(mt::rand(shape, &g, mt::TensorOptions().dtype(kFloat64)) * 2 - 1);
  }
  return v;
}

// r is the row's result for `inputs`: its shape and dtype, and at each index the sum of the named elements.
void expect_reference(const IndexingOpInfo& row, const Inputs& inputs, const Tensor& r) {
  SCOPED_TRACE(row.name + "(" + row.sample + ") in " + std::string(mt::scalar_type_name(inputs[0].dtype())));
  ASSERT_EQ(r.sizes().vec(), row.sizes);
  EXPECT_EQ(r.dtype(), inputs[0].dtype());
  EXPECT_EQ(values(r), mt::testing::reference(row.sizes, [&](const mt::testing::Coords& i) {
              double sum = 0;
              for (const auto& [k, index] : row.sources(i)) sum += mt::testing::at(inputs[k], index);
              return sum;
            }));
}

class IndexingOpInfoTest : public ::testing::TestWithParam<IndexingOpInfo> {};

TEST_P(IndexingOpInfoTest, SumsTheReferencesElementsInEveryDtype) {
  const IndexingOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kInt64, mt::kInt32, mt::kUInt8, mt::kFloat16, mt::kBFloat16}) {
    const Inputs v = numbered(row, dtype);
    expect_reference(row, v, row.op(v));
  }
}

TEST_P(IndexingOpInfoTest, StridedInputsGiveTheSameResult) {
  const IndexingOpInfo& row = GetParam();
  Inputs strided;
  for (const Tensor& x : numbered(row, kFloat32)) {
    // x's values at every second element of the last dim of a wider tensor.
    std::vector<int64_t> wide = x.sizes().vec();
    wide.back() *= 2;
    Tensor s = mt::empty(wide).slice(-1, 0, std::nullopt, 2);
    s.copy_(x);
    ASSERT_FALSE(s.is_contiguous());
    strided.push_back(s);
  }
  expect_reference(row, strided, row.op(strided));
}

TEST_P(IndexingOpInfoTest, InPlaceFormGivesTheFunctionalResult) {
  const IndexingOpInfo& row = GetParam();
  if (!row.inplace) GTEST_SKIP() << "PyTorch has no in-place " << row.name;
  const Inputs v = numbered(row, kFloat32);
  const Tensor expected = row.op(v);
  Tensor self = v[0].clone();
  EXPECT_EQ(&row.inplace(self, v), &self);
  EXPECT_TRUE(same(self, expected));
  // Through a strided self, leaving the elements between its own alone.
  std::vector<int64_t> wide = row.inputs[0];
  wide.back() *= 2;
  Tensor base = mt::zeros(wide);
  Tensor strided = base.slice(-1, 0, std::nullopt, 2);
  strided.copy_(v[0]);
  row.inplace(strided, v);
  EXPECT_TRUE(same(strided, expected));
  EXPECT_EQ(values(base.slice(-1, 1, std::nullopt, 2)), std::vector<double>(expected.numel(), 0.0));
}

TEST_P(IndexingOpInfoTest, GradcheckAndGradgradcheckInEveryInput) {
  const IndexingOpInfo& row = GetParam();
  Inputs v = samples(row);
  for (Tensor& x : v) x.requires_grad_();
  const auto f = [&](const mt::autograd::variable_list& x) { return row.op(x); };
  EXPECT_TRUE(mt::autograd::gradcheck(f, v));
  EXPECT_TRUE(mt::autograd::gradgradcheck(f, v));
  if (row.inplace) {
    const auto g = [&](const mt::autograd::variable_list& x) {
      Tensor t = x[0] * 1;
      return row.inplace(t, x);
    };
    EXPECT_TRUE(mt::autograd::gradcheck(g, v));
  }
}

TEST_P(IndexingOpInfoTest, VmapMatchesTheLoopThroughABatchingRule) {
  const IndexingOpInfo& row = GetParam();
  std::vector<std::string> fallbacks;
  const mt::functorch::VmapWarningHandler previous =
      mt::functorch::set_vmap_fallback_warning_handler([&](const std::string& m) { fallbacks.push_back(m); });
  const Fn f = [&](const Inputs& v) { return row.op(v); };
  const Inputs batched = samples(row, 3);
  expect_vmap_matches_loop(f, batched, Dims(batched.size(), 0));
  Dims last;
  for (const std::vector<int64_t>& shape : row.inputs) last.push_back(static_cast<int64_t>(shape.size()));
  expect_vmap_matches_loop(f, samples(row, 3, true), last);
  if (batched.size() > 1) {
    // Only the first input batched, the others shared by every sample.
    Inputs first = samples(row);
    first[0] = batched[0];
    Dims dims(first.size(), std::nullopt);
    dims[0] = 0;
    expect_vmap_matches_loop(f, first, dims);
  }
  if (row.inplace) {
    const Fn inplace = [&](const Inputs& v) {
      Tensor t = v[0].clone();
      return row.inplace(t, v);
    };
    expect_vmap_matches_loop(inplace, batched, Dims(batched.size(), 0));
  }
  mt::functorch::set_vmap_fallback_warning_handler(previous);
  EXPECT_TRUE(fallbacks.empty()) << fallbacks.front();
}

TEST_P(IndexingOpInfoTest, MetaGivesTheShapeAndDtype) {
  const IndexingOpInfo& row = GetParam();
  Inputs v;
  for (const std::vector<int64_t>& shape : row.inputs)
    v.push_back(mt::empty(shape, mt::testing::meta_options(mt::kFloat16)));
  const Tensor r = row.op(v);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes().vec(), row.sizes);
  EXPECT_EQ(r.dtype(), mt::kFloat16);
}

TEST_P(IndexingOpInfoTest, AutocastPolicyIsPyTorchs) {
  const IndexingOpInfo& row = GetParam();
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, row.name), row.cpu_autocast);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, row.name), row.cuda_autocast);
}

TEST_P(IndexingOpInfoTest, CudaMatchesTheReference) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const IndexingOpInfo& row = GetParam();
  for (ScalarType dtype : {kFloat32, kFloat64, mt::kInt64, mt::kFloat16}) {
    const Inputs v = numbered(row, dtype);
    Inputs on_gpu;
    for (const Tensor& x : v) on_gpu.push_back(x.to(mt::kCUDA));
    const Tensor r = row.op(on_gpu);
    EXPECT_TRUE(r.is_cuda());
    expect_reference(row, v, r.to(mt::kCPU));
  }
}

INSTANTIATE_TEST_SUITE_P(OpInfo, IndexingOpInfoTest, ::testing::ValuesIn(indexing_ops()), sampled_row_name<IndexingOpInfo>);

}  // namespace
}  // namespace mt_test
