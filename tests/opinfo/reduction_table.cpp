// The rows of the reductions that give one value per slice. References are plain loops in double over the
// slice's elements; max/min/argmax/argmin (values with indices) and the scans have suites of their own.
#include <algorithm>
#include <cmath>
#include <limits>

#include "opinfo/OpInfo.h"
#include "ops/api/all.h"
#include "ops/api/amax.h"
#include "ops/api/amin.h"
#include "ops/api/any.h"
#include "ops/api/logsumexp.h"
#include "ops/api/mean.h"
#include "ops/api/nanmean.h"
#include "ops/api/nansum.h"
#include "ops/api/norm.h"
#include "ops/api/prod.h"
#include "ops/api/std.h"
#include "ops/api/sum.h"
#include "ops/api/var.h"

namespace mt_test {

namespace {

using mt::autocast::CastPolicy;
using Slice = std::vector<double>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double sum_ref(const Slice& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}
double mean_ref(const Slice& v) { return sum_ref(v) / static_cast<double>(v.size()); }
double prod_ref(const Slice& v) {
  double p = 1;
  for (double x : v) p *= x;
  return p;
}
double amax_ref(const Slice& v) { return *std::max_element(v.begin(), v.end()); }
double amin_ref(const Slice& v) { return *std::min_element(v.begin(), v.end()); }
double logsumexp_ref(const Slice& v) {
  double s = 0;
  for (double x : v) s += std::exp(x);
  return std::log(s);
}
// Bessel's correction (PyTorch's default, correction=1): the sum of squared deviations over n - 1.
double var_ref(const Slice& v) {
  const double m = mean_ref(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size() - 1);
}
double std_ref(const Slice& v) { return std::sqrt(var_ref(v)); }
double norm_ref(const Slice& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}
double all_ref(const Slice& v) { return std::all_of(v.begin(), v.end(), [](double x) { return x != 0; }); }
double any_ref(const Slice& v) { return std::any_of(v.begin(), v.end(), [](double x) { return x != 0; }); }

// One row of an op whose dims are a list: its dims form and its full form, spelled through its name.
#define MT_REDUCTION_ROW(fn, overload, ...)                                                                 \
  ReductionOpInfo {                                                                                         \
    .name = overload,                                                                                       \
    .op = [](const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) { return mt::fn(x, dims, keepdim); }, \
    .full = [](const Tensor& x) { return mt::fn(x); }, __VA_ARGS__                                          \
  }

}  // namespace

const std::vector<ReductionOpInfo>& reduction_ops() {
  static const std::vector<ReductionOpInfo> rows{
      MT_REDUCTION_ROW(sum, "sum.dim_IntList", .reference = sum_ref, .empty = 0, .integers = Integers::to_int64,
                       .cuda_autocast = CastPolicy::fp32_set_opt_dtype),
      MT_REDUCTION_ROW(mean, "mean.dim", .reference = mean_ref, .empty = kNaN),
      // On samples without NaN, sum and mean (tests/ops/reductions_nan_test.cpp has the NaN).
      MT_REDUCTION_ROW(nansum, "nansum", .reference = sum_ref, .empty = 0, .integers = Integers::to_int64),
      MT_REDUCTION_ROW(nanmean, "nanmean", .reference = mean_ref, .empty = kNaN),
      // One dim at a time, as PyTorch's prod.dim_int; samples near 1 keep a slice's product in float16's range.
      ReductionOpInfo{
          .name = "prod.dim_int",
          .op = [](const Tensor& x, const std::vector<int64_t>& dims,
                   bool keepdim) { return mt::prod(x, dims.at(0), keepdim); },
          .full = [](const Tensor& x) { return mt::prod(x); },
          .reference = prod_ref,
          .dim_list = false,
          .lo = 0.5,
          .hi = 1.5,
          .empty = 1,
          .integers = Integers::to_int64,
          .cpu_autocast = CastPolicy::fp32,
          .cuda_autocast = CastPolicy::fp32_set_opt_dtype},
      MT_REDUCTION_ROW(amax, "amax", .reference = amax_ref, .integers = Integers::kept),
      MT_REDUCTION_ROW(amin, "amin", .reference = amin_ref, .integers = Integers::kept),
      // No form without dims, as PyTorch's.
      ReductionOpInfo{.name = "logsumexp",
                      .op = [](const Tensor& x, const std::vector<int64_t>& dims,
                               bool keepdim) { return mt::logsumexp(x, dims, keepdim); },
                      .reference = logsumexp_ref,
                      .empty = -kInf,
                      .integers = Integers::to_float,
                      .cuda_autocast = CastPolicy::fp32},
      // An empty slice has n - 1 = -1 degrees of freedom: NaN, as PyTorch's (with a warning there).
      ReductionOpInfo{.name = "var.correction",
                      .op = [](const Tensor& x, const std::vector<int64_t>& dims,
                               bool keepdim) { return mt::var(x, dims, std::nullopt, keepdim); },
                      .full = [](const Tensor& x) { return mt::var(x); },
                      .reference = var_ref,
                      .empty = kNaN},
      ReductionOpInfo{.name = "std.correction",
                      .op = [](const Tensor& x, const std::vector<int64_t>& dims,
                               bool keepdim) { return mt::std(x, dims, std::nullopt, keepdim); },
                      .full = [](const Tensor& x) { return mt::std(x); },
                      .reference = std_ref,
                      .empty = kNaN},
      ReductionOpInfo{.name = "norm.ScalarOpt_dim",
                      .op = [](const Tensor& x, const std::vector<int64_t>& dims,
                               bool keepdim) { return mt::norm(x, 2, dims, keepdim); },
                      .full = [](const Tensor& x) { return mt::norm(x); },
                      .reference = norm_ref,
                      .empty = 0,
                      .cuda_autocast = CastPolicy::fp32},
      MT_REDUCTION_ROW(all, "all.dims", .reference = all_ref, .empty = 1, .integers = Integers::kept,
                       .bool_result = true, .differentiable = false),
      MT_REDUCTION_ROW(any, "any.dims", .reference = any_ref, .empty = 0, .integers = Integers::kept,
                       .bool_result = true, .differentiable = false),
  };
  return rows;
}

}  // namespace mt_test
