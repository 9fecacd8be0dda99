// vmap of sort and its compositions against the loop, with the batch dim at different positions: sort
// moves its dim past the batch dim; topk, kthvalue and median decompose into sort, gather and pointwise ops
// that have rules; median() and nanmedian() reduce each sample flattened. vmap of grad gives per-sample
// gradients of a sort. Random samples have no ties, so every index is determined.
#include <cmath>
#include <limits>

#include "batching_rules_fixture.h"
#include "functorch/Grad.h"
#include "ops/TensorOperators.h"
#include "ops/api/argsort.h"
#include "ops/api/kthvalue.h"
#include "ops/api/median.h"
#include "ops/api/msort.h"
#include "ops/api/nanmedian.h"
#include "ops/api/randn.h"
#include "ops/api/sort.h"
#include "ops/api/topk.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::BatchingRules;
using mt_test::Dims;
using mt_test::Fn;
using Inputs = std::vector<Tensor>;

TEST_F(BatchingRules, SortAndItsCompositions) {
  const std::vector<Fn> fns = {
      [](const Inputs& a) { return std::get<0>(mt::sort(a[0])); },
      [](const Inputs& a) { return std::get<1>(mt::sort(a[0], 0, /*descending=*/true)); },
      [](const Inputs& a) { return std::get<1>(mt::sort(a[0], std::optional<bool>(true), -1)); },
      [](const Inputs& a) { return mt::argsort(a[0], int64_t{1}); },
      [](const Inputs& a) { return mt::msort(a[0]); },
      [](const Inputs& a) { return std::get<0>(mt::topk(a[0], 2)); },
      [](const Inputs& a) { return std::get<1>(mt::topk(a[0], 2, 0, /*largest=*/false)); },
      [](const Inputs& a) { return std::get<0>(mt::kthvalue(a[0], 2, 1, /*keepdim=*/true)); },
      [](const Inputs& a) { return std::get<1>(mt::kthvalue(a[0], 3, 0)); },
      [](const Inputs& a) { return std::get<0>(mt::median(a[0], 1)); },
      [](const Inputs& a) { return std::get<1>(mt::median(a[0], 0, true)); },
      [](const Inputs& a) { return std::get<1>(mt::nanmedian(a[0], -1)); },
      [](const Inputs& a) { return mt::median(a[0]); },
      [](const Inputs& a) { return mt::nanmedian(a[0]); },
  };
  for (size_t i = 0; i < fns.size(); ++i) {
    SCOPED_TRACE("function " + std::to_string(i));
    check_unary(fns[i]);
  }
}

TEST_F(BatchingRules, SortingZeroDimSamplesAndNaNSamples) {
  check_unary([](const Inputs& a) { return std::get<0>(mt::sort(a[0])); }, {});
  check_unary([](const Inputs& a) { return std::get<1>(mt::topk(a[0], 1)); }, {});
  check_unary([](const Inputs& a) { return std::get<0>(mt::median(a[0], 0)); }, {});
  // Samples with NaN in some rows: median's position depends on each row's count of NaN.
  const Tensor x = mt::randn({4, 3, 5});
  x.select(0, 1).select(0, 2).fill_(std::nan(""));
  x.select(0, 3).select(1, 4).fill_(std::nan(""));
  check([](const Inputs& a) { return std::get<1>(mt::median(a[0], 1)); }, {x}, Dims{0});
  check([](const Inputs& a) { return std::get<1>(mt::nanmedian(a[0], 1)); }, {x}, Dims{0});
}

TEST_F(BatchingRules, PerSampleGradientsOfASort) {
  const Tensor w = mt::tensor({1.0, 2.0, 3.0, 4.0});
  const Tensor x = mt::randn({5, 4});
  const Tensor per_sample = mt::vmap(mt::grad([w](const Inputs& a) { return (std::get<0>(a[0].sort()) * w).sum(); }))(
      Inputs{x});
  // Each sample's gradient is w scattered back through its argsort.
  const Tensor expected = mt::zeros({5, 4}).scatter(1, x.argsort(int64_t{1}), w.expand({5, 4}));
  mt_test::expect_same(per_sample, expected);
}

}  // namespace
