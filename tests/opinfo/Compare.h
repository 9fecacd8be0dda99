#pragma once
// What the OpInfo suites compare with: a dtype's epsilon, a tensor's values in double, exact sameness.
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <microtorch/framework.h>

namespace mt_test {

inline double epsilon(mt::ScalarType t) {
  switch (t) {
    case mt::kFloat64:
      return std::numeric_limits<double>::epsilon();
    case mt::kFloat16:
      return 9.765625e-4;
    case mt::kBFloat16:
      return 7.8125e-3;
    default:
      return std::numeric_limits<float>::epsilon();
  }
}

// Every pair of the special values (NaN, infinities, zeros of both signs) and a few ordinary ones, as the
// first and the second operands' values.
inline std::pair<std::vector<double>, std::vector<double>> special_pairs() {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<double> specials = {nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 2.5};
  std::pair<std::vector<double>, std::vector<double>> pairs;
  for (double a : specials)
    for (double b : specials) {
      pairs.first.push_back(a);
      pairs.second.push_back(b);
    }
  return pairs;
}

// A tensor's values in double precision, in row-major order.
inline std::vector<double> values(const mt::Tensor& t) {
  const mt::Tensor d = t.to(mt::kFloat64).contiguous();
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

// The same dtype, shape and values, NaN matching NaN.
inline bool same(const mt::Tensor& a, const mt::Tensor& b) {
  if (a.dtype() != b.dtype() || a.sizes().vec() != b.sizes().vec()) return false;
  const std::vector<double> x = values(a), y = values(b);
  for (size_t i = 0; i < x.size(); ++i)
    if (!(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i])))) return false;
  return true;
}

}  // namespace mt_test
