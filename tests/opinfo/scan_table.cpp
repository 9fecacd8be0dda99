// The rows of the scans along one dim. References are running combinations in double; the indices of
// cummax and cummin (the latest position of the extremum) are tests/ops/scans_test.cpp's.
#include <algorithm>
#include <cmath>

#include "opinfo/OpInfo.h"
#include "ops/api/cummax.h"
#include "ops/api/cummin.h"
#include "ops/api/cumprod.h"
#include "ops/api/cumsum.h"
#include "ops/api/logcumsumexp.h"

namespace mt_test {

namespace {

using mt::autocast::CastPolicy;

double sum_step(double acc, double x) { return acc + x; }
double prod_step(double acc, double x) { return acc * x; }
double logaddexp_step(double acc, double x) {
  const double hi = std::max(acc, x);
  return std::isinf(hi) && hi < 0 ? hi : hi + std::log1p(std::exp(-std::fabs(acc - x)));
}
// NaN, once met, is the extremum from there on.
double max_step(double acc, double x) { return std::isnan(acc) || std::isnan(x) ? std::nan("") : std::max(acc, x); }
double min_step(double acc, double x) { return std::isnan(acc) || std::isnan(x) ? std::nan("") : std::min(acc, x); }

}  // namespace

const std::vector<ScanOpInfo>& scan_ops() {
  static const std::vector<ScanOpInfo> rows{
      ScanOpInfo{.name = "cumsum",
                 .op = [](const Tensor& x, int64_t dim) { return mt::cumsum(x, dim); },
                 .inplace = [](Tensor& x, int64_t dim) -> Tensor& { return x.cumsum_(dim); },
                 .step = sum_step,
                 .integers = Integers::to_int64,
                 .cuda_autocast = CastPolicy::fp32_set_opt_dtype},
      // Samples near 1 keep a line's product in float16's range.
      ScanOpInfo{.name = "cumprod",
                 .op = [](const Tensor& x, int64_t dim) { return mt::cumprod(x, dim); },
                 .inplace = [](Tensor& x, int64_t dim) -> Tensor& { return x.cumprod_(dim); },
                 .step = prod_step,
                 .lo = 0.5,
                 .hi = 1.5,
                 .integers = Integers::to_int64,
                 .cuda_autocast = CastPolicy::fp32_set_opt_dtype},
      ScanOpInfo{.name = "logcumsumexp",
                 .op = [](const Tensor& x, int64_t dim) { return mt::logcumsumexp(x, dim); },
                 .step = logaddexp_step},
      ScanOpInfo{.name = "cummax",
                 .op = [](const Tensor& x, int64_t dim) { return std::get<0>(mt::cummax(x, dim)); },
                 .step = max_step,
                 .integers = Integers::kept},
      ScanOpInfo{.name = "cummin",
                 .op = [](const Tensor& x, int64_t dim) { return std::get<0>(mt::cummin(x, dim)); },
                 .step = min_step,
                 .integers = Integers::kept},
  };
  return rows;
}

}  // namespace mt_test
