#pragma once
// Naive double-precision references for the pointwise-op tests (unary maps, three-way broadcasting) and
// a comparison that also accepts matching infinities and NaNs.
#include <cmath>
#include <functional>
#include <vector>

#include "reference.h"
#include "ops/api/empty.h"
#include "ops/api/std.h"

namespace mt::testing {

inline const ScalarType kEveryDtype[] = {kBool, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};
inline const ScalarType kFloatDtypes[] = {kFloat32, kFloat64, kFloat16, kBFloat16};
inline const ScalarType kNumericDtypes[] = {kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};

inline std::vector<double> naive_unary(const Tensor& a, const std::function<double(double)>& f) {
  std::vector<double> v = values(a);
  for (double& x : v) x = f(x);
  return v;
}

inline std::vector<int64_t> broadcast_shape3(IntArrayRef a, IntArrayRef b, IntArrayRef c) {
  const std::vector<int64_t> ab = broadcast_shape(a, b);
  return broadcast_shape(IntArrayRef(ab), c);
}

// The flat logical index into t of element `flat` of the broadcast `shape`.
inline int64_t broadcast_index(const Tensor& t, const std::vector<int64_t>& shape, int64_t flat) {
  int64_t idx = 0, mul = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    const int64_t coord = flat % shape[d];
    flat /= shape[d];
    const int64_t td = d - (static_cast<int64_t>(shape.size()) - t.dim());
    if (td < 0) continue;
    idx += (t.size(td) == 1 ? 0 : coord) * mul;
    mul *= t.size(td);
  }
  return idx;
}

// f applied to a, b and c broadcast together, in logical order.
inline std::vector<double> naive_ternary(const Tensor& a, const Tensor& b, const Tensor& c,
                                         const std::function<double(double, double, double)>& f) {
  const std::vector<int64_t> shape = broadcast_shape3(a.sizes(), b.sizes(), c.sizes());
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  std::vector<double> out(numel);
  for (int64_t i = 0; i < numel; ++i) {
    out[i] = f(element(a, broadcast_index(a, shape, i)), element(b, broadcast_index(b, shape, i)),
               element(c, broadcast_index(c, shape, i)));
  }
  return out;
}

// As expect_values_near, but an expected infinity must be matched exactly and an expected NaN by a NaN.
inline void expect_close(const Tensor& actual, const std::vector<double>& expected, double rel_tol) {
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(expected.size()));
  for (int64_t i = 0; i < actual.numel(); ++i) {
    const double a = element(actual, i), e = expected[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(a)) << "at flat index " << i << ": got " << a << ", expected nan";
    } else if (std::isinf(e)) {
      EXPECT_EQ(a, e) << "at flat index " << i;
    } else {
      EXPECT_NEAR(a, e, rel_tol * std::max(1.0, std::abs(e))) << "at flat index " << i;
    }
  }
}

// A contiguous copy of t (made with empty + copy_, so the tests lean on no other op family).
inline Tensor copy_of(const Tensor& t) {
  Tensor c = empty(t.sizes(), TensorOptions(t.dtype()).device(t.device()));
  c.copy_(t);
  return c;
}

// Each expected value rounded to `dtype`, as a kernel that computes exactly and rounds once would give:
// float32 exp(100) is inf although the double-precision reference is finite.
inline std::vector<double> rounded_to(ScalarType dtype, std::vector<double> v) {
  for (double& x : v) {
    if (dtype == kFloat32) x = static_cast<float>(x);
    else if (dtype == kFloat16) x = static_cast<float>(Half(static_cast<float>(x)));
    else if (dtype == kBFloat16) x = static_cast<float>(BFloat16(static_cast<float>(x)));
  }
  return v;
}

// A non-contiguous rows x cols tensor: the transposed view of a random cols x rows one.
inline Tensor transposed_random(int64_t rows, int64_t cols, ScalarType dtype, uint64_t seed) {
  const Tensor base = random_tensor({cols, rows}, dtype, seed);
  return strided_view(base, {rows, cols}, {1, rows});
}

}  // namespace mt::testing
