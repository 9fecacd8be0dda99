#pragma once
// Naive double-precision references for the linear algebra tests: triple loops over logical indices of
// tensors of any layout, written from the mathematical definitions. Operands are read into doubles once
// (values()), so the loops cost plain arithmetic even in unoptimised and sanitized builds.
#include <vector>

#include "reference.h"

namespace mt::testing {

inline const ScalarType kMatmulTypes[] = {kFloat32, kFloat64, kFloat16, kBFloat16, kInt64};

// beta * self[i][j] + alpha * sum_k a[i][k] b[k][j], row by row. `self` (optional) is given as a
// function of (i, j) so that tests can broadcast it however they like.
inline std::vector<double> naive_addmm(const Tensor& a, const Tensor& b, double alpha = 1,
                                       const std::function<double(int64_t, int64_t)>& self = nullptr,
                                       double beta = 0) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  const std::vector<double> va = values(a), vb = values(b);
  std::vector<double> out;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += va[i * k + p] * vb[p * n + j];
      out.push_back((self && beta != 0 ? beta * self(i, j) : 0) + alpha * sum);
    }
  }
  return out;
}

inline std::vector<double> naive_bmm(const Tensor& a, const Tensor& b) {
  const int64_t batch = a.size(0), m = a.size(1), k = a.size(2), n = b.size(2);
  const std::vector<double> va = values(a), vb = values(b);
  std::vector<double> out;
  for (int64_t q = 0; q < batch; ++q)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p) sum += va[(q * m + i) * k + p] * vb[(q * k + p) * n + j];
        out.push_back(sum);
      }
  return out;
}

// matmul from its definition: a vector is a one-row (left) or one-column (right) matrix, batch dims
// broadcast, and each entry of the result is row i of a times column j of b. `batch` is the broadcast
// batch shape, given by the test.
inline std::vector<double> naive_matmul(const Tensor& a, const Tensor& b, const std::vector<int64_t>& batch) {
  const int64_t da = a.dim(), db = b.dim();
  const int64_t n = da > 1 ? a.size(-2) : 1, k = a.size(-1), p = db > 1 ? b.size(-1) : 1;
  int64_t count = 1;
  for (int64_t s : batch) count *= s;
  // Flat offset (in logical order) of matrix `q` of the batch inside operand t with `tdims` batch dims.
  auto batch_offset = [&](const Tensor& t, int64_t tdims, int64_t matrix_numel, int64_t q) {
    int64_t offset = 0, mul = matrix_numel;
    for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
      const int64_t coord = q % batch[d];
      q /= batch[d];
      const int64_t td = d - (static_cast<int64_t>(batch.size()) - tdims);
      if (td < 0) continue;
      offset += (t.size(td) == 1 ? 0 : coord) * mul;
      mul *= t.size(td);
    }
    return offset;
  };
  const std::vector<double> va = values(a), vb = values(b);
  std::vector<double> out;
  for (int64_t q = 0; q < count; ++q) {
    const int64_t oa = batch_offset(a, std::max<int64_t>(da - 2, 0), n * k, q);
    const int64_t ob = batch_offset(b, std::max<int64_t>(db - 2, 0), k * p, q);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < p; ++j) {
        double sum = 0;
        for (int64_t r = 0; r < k; ++r) sum += va[oa + i * k + r] * vb[ob + r * p + j];
        out.push_back(sum);
      }
  }
  return out;
}

}  // namespace mt::testing
