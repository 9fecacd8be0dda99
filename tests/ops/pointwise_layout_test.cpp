// The layout of pointwise results (PyTorch's memory-format propagation in TensorIterator): a new output
// is laid out in memory as the inputs are, not always row-major, so that later views and contiguous()
// behave as in PyTorch. Expected strides are PyTorch 2.x's for the same programs.
#include "reference.h"
#include "ops/api/add.h"
#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/empty_like.h"
#include "ops/api/full_like.h"
#include "ops/api/ones.h"
#include "ops/api/ones_like.h"
#include "ops/api/rand_like.h"
#include "ops/api/randn_like.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

namespace {

using namespace mt;
using namespace mt::testing;

Tensor iota(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return mt::arange(n, TensorOptions(kFloat32)).view(sizes);
}

std::vector<int64_t> strides_of(const Tensor& t) { return t.strides().vec(); }

TEST(PointwiseLayout, UnaryAndScalarOpsKeepAPermutedLayout) {
  const Tensor x = iota({2, 3}).t();  // (3, 2) strides (1, 3)
  for (const Tensor& r : {x + 1, x.exp(), x * 2.5, -x, x.to(kFloat64), mt::where(x > 0, x, 0.0), x > 0}) {
    EXPECT_EQ(strides_of(r), (std::vector<int64_t>{1, 3}));
    EXPECT_EQ(values(r).size(), 6u);
  }
  EXPECT_EQ(values(x + 1), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  const Tensor x4 = mt::zeros({2, 3, 4, 5}).permute({0, 2, 3, 1});
  EXPECT_EQ(strides_of(x4 * 2), (std::vector<int64_t>{60, 5, 1, 20}));
}

TEST(PointwiseLayout, TheFirstInputThatOrdersTwoDimsDecides) {
  const Tensor x = iota({2, 3}).t();
  // A broadcast input says nothing about the order; the permuted one decides.
  EXPECT_EQ(strides_of(x + mt::ones({2})), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(strides_of(mt::ones({2}) + x), (std::vector<int64_t>{1, 3}));
  const Tensor a = mt::zeros({3, 4}).t(), b = mt::zeros({4, 3});
  EXPECT_EQ(strides_of(a + b), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(strides_of(b + a), (std::vector<int64_t>{3, 1}));
  const Tensor x4 = mt::zeros({2, 3, 4, 5}).permute({0, 2, 3, 1});
  EXPECT_EQ(strides_of(x4 + mt::zeros({4, 5, 3})), (std::vector<int64_t>{60, 5, 1, 20}));
  // Expanded inputs give a row-major result.
  EXPECT_EQ(strides_of(mt::zeros({1, 3}).expand({4, 3}) + 1), (std::vector<int64_t>{3, 1}));
}

TEST(PointwiseLayout, ViewsAndContiguousSeeTheLayout) {
  const Tensor x = iota({2, 3}).t();
  const Tensor y = x + 1;
  EXPECT_FALSE(y.is_contiguous());
  expect_error<RuntimeError>([&] { y.view({-1}); }, "view size is not compatible with input tensor's size and stride");
  const Tensor c = y.contiguous();
  EXPECT_NE(c.unsafeGetTensorImpl(), y.unsafeGetTensorImpl());
  EXPECT_EQ(values(c.view({-1})), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(values(y.reshape({-1})), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

TEST(PointwiseLayout, InPlaceAndOutForms) {
  // An out= tensor that is resized takes the result's layout; one of the right shape keeps its own.
  const Tensor x = iota({2, 3}).t();
  Tensor resized = mt::empty({0});
  mt::add_out(resized, x, mt::ones({}));
  EXPECT_EQ(strides_of(resized), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(values(resized), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  Tensor kept = mt::empty({3, 2});
  mt::add_out(kept, x, mt::ones({}));
  EXPECT_EQ(strides_of(kept), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values(kept), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  // In place on a transposed tensor writes it in its own order.
  Tensor t = iota({2, 3}).t().clone();
  t.mul_(iota({3, 2}));
  EXPECT_EQ(strides_of(t), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(values(t), (std::vector<double>{0, 3, 2, 12, 8, 25}));
}

TEST(PointwiseLayout, SizeOneDimsKeepTheInputsStrides) {
  // Inputs that share one dense layout give it exactly, strides of size-1 dims included.
  const Tensor z = mt::zeros({3, 1}).t();  // (1, 3) strides (1, 1)
  EXPECT_EQ(strides_of(z + 1), (std::vector<int64_t>{1, 1}));
}

// preserve_format: dense inputs keep their strides, others get dense ones in their order (PyTorch 2.x).
TEST(PointwiseLayout, FactoriesLikeClonesAndConversionsPreserveTheLayout) {
  const Tensor x = mt::zeros({4, 6}).t();              // (6, 4) strides (1, 6)
  const Tensor stepped = x.slice(0, 0, 6, 2);          // (3, 4) strides (2, 6)
  const Tensor expanded = mt::zeros({1, 3}).expand({4, 3}).t();  // (3, 4) strides (1, 0)
  const std::pair<Tensor, std::vector<int64_t>> cases[] = {
      {x, {1, 6}}, {stepped, {1, 3}}, {expanded, {4, 1}}};
  for (const auto& [t, strides] : cases) {
    for (const Tensor& r : {mt::empty_like(t), mt::zeros_like(t), mt::ones_like(t), mt::full_like(t, 2.0),
                            mt::rand_like(t), mt::randn_like(t), t.clone(), t.to(kFloat64), t + 1}) {
      EXPECT_EQ(strides_of(r), strides);
      EXPECT_EQ(r.sizes(), t.sizes());
    }
  }
  EXPECT_EQ(values(mt::full_like(stepped, 2.0)), std::vector<double>(12, 2.0));
  EXPECT_EQ(values(mt::ones_like(x)), std::vector<double>(24, 1.0));
}

TEST(PointwiseLayout, MetaTensorsGetTheSameStrides) {
  const Tensor x = mt::empty({2, 3, 4}, TensorOptions().device(Device("meta"))).permute({2, 0, 1});
  EXPECT_EQ(strides_of(x.sin()), strides_of(mt::empty({2, 3, 4}).permute({2, 0, 1}).sin()));
  EXPECT_EQ(strides_of(x.sin()), (std::vector<int64_t>{1, 12, 4}));
}

}  // namespace
