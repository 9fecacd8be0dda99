#pragma once
// Helpers of the derivative-formula tests (formulas_*_test.cpp): seeded float64 inputs that require
// grad, and a check that runs gradcheck and, where second derivatives exist, gradgradcheck.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <functional>
#include <vector>

#include "autograd/Gradcheck.h"
#include "autograd/Node.h"
#include "autograd_test_helpers.h"
#include "ops/api/rand.h"

namespace mt_test {

using Fn = std::function<mt::Tensor(const mt::autograd::variable_list&)>;

// Uniform in [lo, hi), float64, contiguous, requiring grad.
inline mt::Tensor rnd(std::vector<int64_t> sizes, uint64_t seed, double lo = -1.0, double hi = 1.0) {
  mt::Generator g(seed);
  return (mt::rand(sizes, &g, mt::kFloat64) * (hi - lo) + lo).detach().requires_grad_();
}

// Values away from zero in both signs: |x| in [0.5, 1.5).
inline mt::Tensor rnd_nonzero(std::vector<int64_t> sizes, uint64_t seed) {
  mt::Generator g(seed);
  const mt::Tensor mag = mt::rand(sizes, &g, mt::kFloat64) + 0.5;
  const mt::Tensor sign = mt::rand(sizes, &g, mt::kFloat64).gt(0.5).to(mt::kFloat64) * 2.0 - 1.0;
  return (mag * sign).detach().requires_grad_();
}

// A long tensor of the given values.
inline mt::Tensor longs(std::vector<int64_t> v, std::vector<int64_t> shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(v.size())};
  return mt::tensor(v, mt::kInt64).reshape(shape);
}

// gradcheck, and gradgradcheck when `second` (the formula has nonzero second derivatives).
inline void check(const Fn& f, const mt::autograd::variable_list& in, bool second = true) {
  EXPECT_TRUE(mt::autograd::gradcheck(f, in));
  if (second) {
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, in));
  }
}

// The gradient of sum(f(x)) with respect to x (for hand-worked values).
inline std::vector<double> grad_of(const Fn& f, const mt::Tensor& x) {
  return values(mt::autograd::grad({f({x}).sum()}, {x})[0]);
}

}  // namespace mt_test
