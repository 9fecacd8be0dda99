// vmap of the scans and flip against the loop, with the batch dim at different positions: the scans move
// their dim past the batch dim; flip and the in-place forms decompose into ops with rules.
#include "batching_rules_fixture.h"
#include "ops/TensorOperators.h"
#include "ops/api/cummax.h"
#include "ops/api/cummin.h"
#include "ops/api/cumprod.h"
#include "ops/api/cumsum.h"
#include "ops/api/flip.h"
#include "ops/api/logcumsumexp.h"

namespace {

using mt::Tensor;
using mt_test::BatchingRules;
using mt_test::Dims;
using mt_test::Fn;
using Inputs = std::vector<Tensor>;

// Beyond the scans' OpInfo rows (tests/opinfo/scan_test.cpp): a dtype argument, indices, flip, in place.
TEST_F(BatchingRules, ScansAndFlip) {
  const std::vector<Fn> fns = {
      [](const Inputs& a) { return mt::cumsum(a[0], 0, mt::kFloat64); },
      [](const Inputs& a) { return std::get<1>(mt::cummin(a[0], 0)); },
      [](const Inputs& a) { return mt::flip(a[0], {0}); },
      [](const Inputs& a) { return mt::flip(a[0], {-1, 0}); },
      [](const Inputs& a) { return a[0].clone().cumsum_(1); },
  };
  for (size_t i = 0; i < fns.size(); ++i) {
    SCOPED_TRACE("function " + std::to_string(i));
    check_unary(fns[i]);
  }
}

TEST_F(BatchingRules, ScansOfZeroDimSamples) {
  check_unary([](const Inputs& a) { return mt::cumsum(a[0], 0); }, {});
  check_unary([](const Inputs& a) { return std::get<1>(mt::cummax(a[0], -1)); }, {});
  check_unary([](const Inputs& a) { return mt::flip(a[0], {0}); }, {});
}

}  // namespace
