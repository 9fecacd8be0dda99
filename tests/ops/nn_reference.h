#pragma once
// Naive double-precision references for the NN functional tests (softmax, the losses, layer_norm):
// plain loops over logical indices, built from nothing the tests check.
#include <cmath>
#include <limits>
#include <vector>

#include "reference.h"
#include "ops/Reduction.h"
#include "ops/api/empty.h"
#include "ops/api/std.h"

namespace mt::testing::nn {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const ScalarType kFloatTypes[] = {kFloat32, kFloat64, kFloat16, kBFloat16};

// A tensor of `dtype` holding `v` (row-major for `shape`), written element by element.
inline Tensor make(const std::vector<double>& v, IntArrayRef shape, ScalarType dtype = kFloat32) {
  Tensor out = empty(shape, TensorOptions(dtype));
  for (int64_t i = 0; i < out.numel(); ++i) {
    switch (dtype) {
      case kInt64: out.data_ptr<int64_t>()[i] = static_cast<int64_t>(v[i]); break;
      case kFloat32: out.data_ptr<float>()[i] = static_cast<float>(v[i]); break;
      case kFloat64: out.data_ptr<double>()[i] = v[i]; break;
      case kFloat16: out.data_ptr<Half>()[i] = Half(static_cast<float>(v[i])); break;
      case kBFloat16: out.data_ptr<BFloat16>()[i] = BFloat16(static_cast<float>(v[i])); break;
      case kBool: out.data_ptr<bool>()[i] = v[i] != 0; break;
      default: ADD_FAILURE() << "unsupported dtype";
    }
  }
  return out;
}

inline std::vector<int64_t> shape_of(const Tensor& t) { return std::vector<int64_t>(t.sizes().begin(), t.sizes().end()); }

// The same values, laid out transposed in memory (last two dims swapped), read through a strided view.
inline Tensor transposed_copy(const Tensor& t) {
  const int64_t n = t.dim();
  std::vector<int64_t> sizes = shape_of(t), storage_sizes = sizes;
  std::swap(storage_sizes[n - 1], storage_sizes[n - 2]);
  const std::vector<double> v = values(t);
  std::vector<double> stored(v.size());
  const int64_t rows = sizes[n - 2], cols = sizes[n - 1], batch = t.numel() / std::max<int64_t>(rows * cols, 1);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) stored[b * rows * cols + j * rows + i] = v[b * rows * cols + i * cols + j];
  const Tensor base = make(stored, storage_sizes, t.dtype());
  std::vector<int64_t> strides(base.strides().begin(), base.strides().end());
  std::swap(strides[n - 1], strides[n - 2]);
  return strided_view(base, sizes, strides);
}

// Softmax (or log_softmax) of x along `dim`, in logical order.
inline std::vector<double> naive_softmax(const Tensor& x, int64_t dim, bool log) {
  const std::vector<double> v = values(x);
  if (x.dim() == 0) return {std::isfinite(v[0]) ? (log ? 0.0 : 1.0) : kNaN};
  if (dim < 0) dim += x.dim();
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
  const int64_t len = x.size(dim);
  std::vector<double> out(v.size());
  for (int64_t first = 0; first < x.numel(); ++first) {
    if ((first / inner) % len != 0) continue;  // not a row's element 0
    double max = -kInf, sum = 0;
    for (int64_t k = 0; k < len; ++k) max = std::max(max, v[first + k * inner]);
    for (int64_t k = 0; k < len; ++k) sum += std::exp(v[first + k * inner] - max);
    for (int64_t k = 0; k < len; ++k) {
      const double xk = v[first + k * inner];
      out[first + k * inner] = log ? xk - max - std::log(sum) : std::exp(xk - max) / sum;
    }
  }
  return out;
}

// As expect_values_near, with equal infinities counted as equal.
inline void expect_close(const Tensor& actual, const std::vector<double>& expected, double rel_tol) {
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(expected.size()));
  for (int64_t i = 0; i < actual.numel(); ++i) {
    const double a = element(actual, i), e = expected[i];
    if (std::isnan(e) || std::isinf(e)) {
      EXPECT_TRUE(std::isnan(e) ? std::isnan(a) : a == e) << "at " << i << ": " << a << " vs " << e;
      continue;
    }
    EXPECT_NEAR(a, e, rel_tol * std::max(1.0, std::abs(e))) << "at flat index " << i;
  }
}

// The loss reductions as PyTorch defines them: None keeps the elements, Sum adds them, Mean divides
// the sum by `divisor` (the element count, or the summed weights for nll_loss).
inline std::vector<double> reduce(const std::vector<double>& elements, int64_t reduction, double divisor) {
  if (reduction == Reduction::None) return elements;
  double sum = 0;
  for (double e : elements) sum += e;
  return {reduction == Reduction::Sum ? sum : sum / divisor};
}

}  // namespace mt::testing::nn
