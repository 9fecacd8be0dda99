#pragma once
// The reference every vmap test compares against: the unbatched function run per batch entry (each
// batched input sliced with select at its in_dim) and the results stacked along out_dim.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <vector>

#include "dispatch/dispatch_test_helpers.h"
#include "functorch/Vmap.h"
#include "ops/Factories.h"
#include "ops/api/abs.h"
#include "ops/api/amax.h"
#include "ops/api/logical_and.h"
#include "ops/api/ne.h"
#include "ops/api/stack.h"
#include "ops/api/sub.h"
#include "ops/api/where.h"
#include "ops/api/zeros_like.h"

namespace mt_test {

using mt::Tensor;
using Fn = std::function<Tensor(const std::vector<Tensor>&)>;
using Dims = std::vector<std::optional<int64_t>>;

inline Tensor loop_and_stack(const Fn& f, const std::vector<Tensor>& inputs, const Dims& in_dims, int64_t out_dim = 0) {
  int64_t batch = -1;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (in_dims[i]) batch = inputs[i].size(*in_dims[i]);
  std::vector<Tensor> results;
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Tensor> entry;
    for (size_t i = 0; i < inputs.size(); ++i) entry.push_back(in_dims[i] ? inputs[i].select(*in_dims[i], b) : inputs[i]);
    results.push_back(f(entry));
  }
  return mt::stack(results, out_dim);
}

// Same shape, dtype and values (to `tol`, compared in float64).
inline void expect_same(const Tensor& actual, const Tensor& expected, double tol = 1e-5) {
  ASSERT_EQ(actual.sizes().vec(), expected.sizes().vec());
  EXPECT_EQ(actual.dtype(), expected.dtype());
  if (actual.numel() == 0) return;
  const Tensor a = actual.to(mt::kFloat64), e = expected.to(mt::kFloat64);
  const Tensor both_nan = mt::logical_and(mt::ne(a, a), mt::ne(e, e));
  const Tensor diff = mt::where(both_nan, mt::zeros_like(a), mt::abs(mt::sub(a, e)));
  EXPECT_LE(mt::amax(diff, std::vector<int64_t>{}).item<double>(), tol) << "actual:\n" << actual << "\nexpected:\n" << expected;
}

// vmap(f, in_dims, out_dim)(inputs) against the loop.
inline void expect_vmap_matches_loop(const Fn& f, const std::vector<Tensor>& inputs, const Dims& in_dims,
                                     int64_t out_dim = 0, double tol = 1e-5) {
  const Tensor expected = loop_and_stack(f, inputs, in_dims, out_dim);
  const Tensor actual = mt::vmap(f, mt::InDims(in_dims), out_dim)(inputs);
  expect_same(actual, expected, tol);
}


}  // namespace mt_test
