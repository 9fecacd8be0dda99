// sort's radix and insertion paths and the scans on special values, built like special_values_test.cpp
// against the library's kernels and once per x86-64 level: every order PyTorch defines (NaN last, -0.0 equal
// to 0.0, denormals, the extremes, integer wrap-around) holds whatever the compiler vectorised.
#include <dlfcn.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ops/Factories.h"
#include "ops/api/max.h"
#include "ops/api/randint.h"
#include "ops/api/std.h"
#include "ops/Scans.h"
#include "ops/Sorting.h"

namespace {

using namespace mt;

std::vector<double> specials() {
  const double inf = std::numeric_limits<double>::infinity();
  return {0.0, -0.0, 1, -1, 1e-40, -1e-40, 1e-310, 3.4e38, -3.4e38, 1e300, inf, -inf, std::nan(""), 0.5, -2};
}

std::vector<double> as_doubles(const Tensor& t) {
  const Tensor d = t.to(kFloat64).contiguous();
  return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

// Non-decreasing with NaN last (descending: NaN first, then non-increasing), ties in their first order.
void expect_stably_sorted(const Tensor& x, bool descending) {
  const auto [v, i] = x.sort(0, descending);
  const std::vector<double> in = as_doubles(x), out = as_doubles(v), idx = as_doubles(i);
  for (size_t k = 0; k < out.size(); ++k) {
    EXPECT_EQ(std::isnan(out[k]) ? 1 : 0, std::isnan(in[static_cast<size_t>(idx[k])]) ? 1 : 0);
    if (k == 0) continue;
    const double a = out[k - 1], b = out[k];
    if (descending) {
      EXPECT_TRUE(std::isnan(a) || (!std::isnan(b) && a >= b)) << "at " << k;
    } else {
      EXPECT_TRUE(std::isnan(b) || (!std::isnan(a) && a <= b)) << "at " << k;
    }
    const bool tie = (a == b) || (std::isnan(a) && std::isnan(b));
    if (tie) {
      EXPECT_LT(idx[k - 1], idx[k]) << "at " << k;
    }
  }
}

TEST(SortAndScan, SortsSpecialValuesOnBothPaths) {
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16, kBFloat16}) {
    const Tensor x = mt::tensor(specials(), TensorOptions(kFloat64)).to(dt);
    for (const Tensor& t : {x, x.repeat({8})}) {  // 15 elements sort by insertion, 120 by radix
      SCOPED_TRACE(::testing::Message() << dt << " of " << t.numel());
      expect_stably_sorted(t, false);
      expect_stably_sorted(t, true);
    }
  }
  for (ScalarType dt : {kUInt8, kInt8, kInt16, kInt32, kInt64}) {
    Generator gen(1);
    const Tensor x = mt::randint(-1000, 1000, {200}, &gen, TensorOptions(kInt64)).to(dt);
    expect_stably_sorted(x, false);
    expect_stably_sorted(x, true);
  }
}

TEST(SortAndScan, ScansSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> sums = as_doubles(mt::tensor({1e-40, 1e-40, 3.4e38, 3.4e38, -inf, inf}).cumsum(0));
  EXPECT_EQ(sums[1], 2 * static_cast<double>(1e-40f));  // denormals add exactly
  EXPECT_EQ(sums[3], inf);  // float32 overflows when the double sum is stored
  EXPECT_EQ(sums[4], -inf);
  EXPECT_TRUE(std::isnan(sums[5]));
  const int64_t hi = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(mt::tensor({hi, hi}).cumsum(0)[1].item<int64_t>(), -2);
  const auto [v, i] = mt::tensor({1.0, std::nan(""), 2.0}).cummax(0);
  EXPECT_TRUE(std::isnan(v[2].item<double>()));
  EXPECT_EQ(i[2].item<int64_t>(), 1);
}

TEST(SortAndScan, RunsThisProgramsKernels) {
  for (void* fn : {reinterpret_cast<void*>(sort_stub.kernel(kCPU)), reinterpret_cast<void*>(scan_stub.kernel(kCPU))}) {
    Dl_info kernel{}, program{};
    ASSERT_NE(dladdr(fn, &kernel), 0);
    ASSERT_NE(dladdr(reinterpret_cast<void*>(&as_doubles), &program), 0);
    if (std::string(MT_ISA_LEVEL) == "library") EXPECT_NE(kernel.dli_fbase, program.dli_fbase);
    else EXPECT_EQ(kernel.dli_fbase, program.dli_fbase) << "the " << MT_ISA_LEVEL << " kernels did not register";
  }
}

}  // namespace
