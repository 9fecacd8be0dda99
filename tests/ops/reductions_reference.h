#pragma once
// Naive double-precision references for the reduction tests: every output element gathers its
// elements in logical (row-major) order, and a plain function of that list gives the expected value.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "reference.h"
#include "ops/api/empty.h"
#include "ops/api/gather.h"
#include "ops/api/std.h"

namespace mt::testing::reductions {

using Dims = std::vector<int64_t>;

// Dims wrapped to [0, ndim); an empty list means every dim.
inline Dims wrapped_dims(const Dims& dims, int64_t ndim) {
  Dims out;
  if (dims.empty()) {
    for (int64_t d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : dims) out.push_back(d < 0 ? d + std::max<int64_t>(ndim, 1) : d);
  return out;
}

inline bool contains(const Dims& dims, int64_t d) { return std::find(dims.begin(), dims.end(), d) != dims.end(); }

inline Dims expected_shape(IntArrayRef sizes, const Dims& dims, bool keepdim) {
  const Dims w = wrapped_dims(dims, static_cast<int64_t>(sizes.size()));
  Dims out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (!contains(w, static_cast<int64_t>(d))) out.push_back(sizes[d]);
    else if (keepdim) out.push_back(1);
  }
  return out;
}

// The elements each output reduces, in logical order; outputs in row-major order of the kept dims.
inline std::vector<std::vector<double>> gather(const Tensor& t, const Dims& dims) {
  const Dims w = wrapped_dims(dims, t.dim());
  // Plain copies of the geometry and values: this runs per element, also in unoptimised test builds.
  const std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
  std::vector<bool> kept(sizes.size());
  int64_t outputs = 1;
  for (int64_t d = 0; d < t.dim(); ++d) {
    kept[d] = !contains(w, d);
    if (kept[d]) outputs *= sizes[d];
  }
  const std::vector<double> v = values(t);
  std::vector<std::vector<double>> groups(outputs);
  for (int64_t flat = 0; flat < static_cast<int64_t>(v.size()); ++flat) {
    int64_t rest = flat, out = 0, mul = 1;
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      const int64_t c = rest % sizes[d];
      rest /= sizes[d];
      if (kept[d]) {
        out += c * mul;
        mul *= sizes[d];
      }
    }
    groups[out].push_back(v[flat]);
  }
  return groups;
}

inline std::vector<double> naive_reduce(const Tensor& t, const Dims& dims,
                                        const std::function<double(const std::vector<double>&)>& f) {
  std::vector<double> out;
  for (const auto& g : gather(t, dims)) out.push_back(f(g));
  return out;
}

inline double ref_sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

// Every dim list of a 3-D tensor, with negative and unordered spellings.
inline std::vector<Dims> dim_lists_3d() {
  return {{0}, {1}, {2}, {-1}, {0, 1}, {0, 2}, {1, 2}, {2, 0}, {-3, -1}, {0, 1, 2}, {1, 0, 2}};
}

// A [3, 4, 5] tensor in four layouts: contiguous, permuted (strides of a [5, 3, 4] base), every other
// element of a larger base, and broadcast along dim 1 (stride 0).
inline std::vector<Tensor> layouts_3d(const std::function<Tensor(IntArrayRef, uint64_t)>& make, uint64_t seed) {
  const Tensor base = make({3, 4, 5}, seed);
  const Tensor perm = make({5, 3, 4}, seed + 1);
  const Tensor big = make({3, 4, 10}, seed + 2);
  const Tensor row = make({3, 1, 5}, seed + 3);
  return {base, strided_view(perm, {3, 4, 5}, {4, 1, 12}), strided_view(big, {3, 4, 5}, {40, 10, 2}, 1),
          strided_view(row, {3, 4, 5}, {5, 0, 1})};
}

// expect_values_near, where an infinite expected value must also be matched exactly.
inline void expect_close(const Tensor& actual, const std::vector<double>& expected, double rel_tol) {
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(expected.size()));
  for (int64_t i = 0; i < actual.numel(); ++i) {
    const double a = element(actual, i), e = expected[i];
    if (std::isnan(e)) EXPECT_TRUE(std::isnan(a)) << "at flat index " << i << ": " << a;
    else if (std::isinf(e)) EXPECT_EQ(a, e) << "at flat index " << i;
    else EXPECT_NEAR(a, e, rel_tol * std::max(1.0, std::abs(e))) << "at flat index " << i;
  }
}

// t's values in another dtype (through copy_, which converts).
inline Tensor converted(const Tensor& t, ScalarType dtype) {
  Tensor out = empty(t.sizes(), TensorOptions(dtype));
  out.copy_(t);
  return out;
}

inline std::string describe(const Tensor& t, const Dims& dims, bool keepdim) {
  std::string s = "strides [";
  for (int64_t st : t.strides()) s += std::to_string(st) + ",";
  s += "] dims [";
  for (int64_t d : dims) s += std::to_string(d) + ",";
  return s + "] keepdim " + std::to_string(keepdim) + " dtype " + std::string(scalar_type_name(t.dtype()));
}

}  // namespace mt::testing::reductions
