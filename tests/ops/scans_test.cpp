// The scans (cumsum, cumprod, logcumsumexp, cummax, cummin, the in-place forms) and flip against naive
// references in double precision and hand-worked cases: every dtype and result dtype, any dim and layout,
// accumulation in double, integer wrapping, infinities and NaN, ties, 0-dim and empty tensors, Meta shapes,
// and every argument error.
#include <cmath>
#include <functional>
#include <limits>

#include "reference.h"
#include "ops/api/empty.h"
#include "ops/api/max.h"
#include "ops/api/min.h"
#include "ops/api/ones.h"
#include "ops/api/std.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

const double kNaN = std::nan("");
constexpr double kInf = std::numeric_limits<double>::infinity();

// Applies `line` to every line of t's logical values along dim: line(inputs) gives the outputs.
std::vector<double> along_lines(const Tensor& t, int64_t dim,
                                const std::function<std::vector<double>(const std::vector<double>&)>& line) {
  const std::vector<double> v = values(t);
  if (t.dim() == 0) return line(v);
  const int64_t d = dim < 0 ? dim + t.dim() : dim;
  const int64_t n = t.size(d);
  int64_t inner = 1;
  for (int64_t k = d + 1; k < t.dim(); ++k) inner *= t.size(k);
  const int64_t outer = n == 0 ? 0 : t.numel() / (n * inner);
  std::vector<double> out(v.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      std::vector<double> in(n);
      for (int64_t j = 0; j < n; ++j) in[j] = v[(o * n + j) * inner + i];
      const std::vector<double> r = line(in);
      for (int64_t j = 0; j < n; ++j) out[(o * n + j) * inner + i] = r[j];
    }
  }
  return out;
}

// Equal values, where NaN equals NaN and infinities compare as numbers.
void expect_exactly(const Tensor& actual, const std::vector<double>& expected) {
  const std::vector<double> a = values(actual);
  ASSERT_EQ(a.size(), expected.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(a[i])) << "at " << i;
    else EXPECT_EQ(a[i], expected[i]) << "at " << i;
  }
}

std::vector<double> running(const std::vector<double>& in, double start,
                            const std::function<double(double, double)>& f) {
  std::vector<double> out;
  double acc = start;
  for (double x : in) out.push_back(acc = f(acc, x));
  return out;
}

TEST(Cumsum, MatchesANaiveSumForEveryDtypeDimAndLayout) {
  for (ScalarType dt : kAllDtypes) {
    const Tensor x = random_tensor({4, 5, 6}, dt, 1).transpose(0, 2);  // (6, 5, 4), not contiguous
    for (int64_t dim : {0, 1, 2, -1}) {
      SCOPED_TRACE(::testing::Message() << dt << " dim " << dim);
      const Tensor s = x.cumsum(dim);
      EXPECT_EQ(s.dtype(), is_integral(dt, true) ? kInt64 : dt);
      const std::vector<double> expected =
          along_lines(x, dim, [](const std::vector<double>& l) { return running(l, 0, std::plus<double>()); });
      // Sums of halves in [-4, 4] stay exact in every dtype but the 16-bit floats, which round each result.
      expect_values_near(s, expected, dt == kFloat16 || dt == kBFloat16 ? tolerance(dt) : 0);
      const Tensor p = x.cumprod(dim, kFloat64);
      expect_values_near(p, along_lines(x, dim, [](const std::vector<double>& l) {
                           return running(l, 1, std::multiplies<double>());
                         }),
                         1e-12);
    }
  }
}

TEST(Cumsum, AccumulatesFloatsInDoubleAndWrapsIntegers) {
  // float32 would lose the 1 beside 1e8; the double accumulator keeps it.
  EXPECT_EQ(values(mt::tensor({1e8, 1.0, -1e8, 1.0}).cumsum(0)), (std::vector<double>{1e8, 1e8, 1, 2}));
  const int64_t hi = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(mt::tensor({hi, int64_t{1}}).cumsum(0)[1].item<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(values(mt::tensor({16, 16, 16}, TensorOptions(kUInt8)).cumprod(0)), (std::vector<double>{16, 256, 4096}));
  EXPECT_EQ(values(mt::tensor({100, 100, 100}, TensorOptions(kInt16)).cumsum(0, kInt8)),
            (std::vector<double>{100, -56, 44}));  // 200 and 300 wrapped to int8
  EXPECT_EQ(values(mt::tensor({true, true, false}).cumsum(0)), (std::vector<double>{1, 2, 2}));
  const Tensor f = mt::tensor({1.5, 2.5}).cumsum(0, kInt32);  // converted first, as PyTorch's self.to(dtype)
  EXPECT_EQ(f.dtype(), kInt32);
  EXPECT_EQ(values(f), (std::vector<double>{1, 3}));
  expect_exactly(mt::tensor({2.0, kInf, 0.0}).cumprod(0), {2, kInf, kNaN});  // inf * 0
}

TEST(Cumsum, InPlaceFormsKeepSelfsDtype) {
  Tensor a = mt::ones({3}, TensorOptions(kInt32));
  EXPECT_EQ(&a.cumsum_(0), &a);
  EXPECT_EQ(a.dtype(), kInt32);
  EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3}));
  Tensor b = mt::tensor({1.0, 2.0, 3.0});
  b.cumprod_(0);
  EXPECT_EQ(values(b), (std::vector<double>{1, 2, 6}));
  Tensor m = mt::tensor({{1.0, 2.0}, {3.0, 4.0}});
  m.select(1, 1).cumsum_(0);  // through a strided view
  EXPECT_EQ(values(m), (std::vector<double>{1, 2, 3, 6}));
}

// Values in every dtype: its OpInfo row (tests/opinfo/scan_table.cpp).
TEST(Logcumsumexp, LargeValuesInfinitiesAndNaN) {
  // No overflow for large values; -inf contributes nothing; +inf and NaN stay.
  expect_values_near(mt::tensor({1000.0, 1000.0}, TensorOptions(kFloat64)).logcumsumexp(0),
                     {1000, 1000 + std::log(2.0)}, 1e-15);
  expect_exactly(mt::tensor({-kInf, -kInf, 0.0, kInf, 1.0}).logcumsumexp(0), {-kInf, -kInf, 0, kInf, kInf});
  expect_exactly(mt::tensor({1.0, kNaN, 2.0}).logcumsumexp(0), {1, kNaN, kNaN});
}

TEST(Cummax, TiesAndNaNTakeTheLatestPosition) {
  const auto [v, i] = mt::tensor({1.0, 3.0, 3.0, kNaN, 2.0, kNaN, 5.0}).cummax(0);
  expect_exactly(v, {1, 3, 3, kNaN, kNaN, kNaN, kNaN});
  EXPECT_EQ(values(i), (std::vector<double>{0, 1, 2, 3, 3, 5, 5}));
  const auto [mv, mi] = mt::tensor({3.0, 1.0, 1.0, kNaN, 2.0}).cummin(0);
  expect_exactly(mv, {3, 1, 1, kNaN, kNaN});
  EXPECT_EQ(values(mi), (std::vector<double>{0, 1, 2, 3, 3}));
  EXPECT_EQ(values(std::get<1>(mt::tensor({true, false, true}).cummax(0))), (std::vector<double>{0, 0, 2}));
  const auto [cv, ci] = mt::tensor({{1, 5}, {4, 2}, {3, 6}}, TensorOptions(kInt8)).cummax(0);
  EXPECT_EQ(cv.dtype(), kInt8);
  EXPECT_EQ(values(cv), (std::vector<double>{1, 5, 4, 5, 4, 6}));
  EXPECT_EQ(values(ci), (std::vector<double>{0, 0, 1, 0, 1, 2}));
}

TEST(Cummax, MatchesANaiveScanForEveryDtype) {
  for (ScalarType dt : kAllDtypes) {
    const Tensor x = random_tensor({5, 8}, dt, 4).t();
    for (int64_t dim : {0, 1}) {
      SCOPED_TRACE(::testing::Message() << dt << " dim " << dim);
      for (bool max : {true, false}) {
        const auto [v, i] = max ? x.cummax(dim) : x.cummin(dim);
        // The running extremum and the latest position holding it.
        auto scan = [max](const std::vector<double>& l, bool want_index) {
          std::vector<double> out;
          double best = l.empty() ? 0 : l[0];
          int64_t at = 0;
          for (size_t j = 0; j < l.size(); ++j) {
            if (max ? l[j] >= best : l[j] <= best) best = l[j], at = static_cast<int64_t>(j);
            out.push_back(want_index ? static_cast<double>(at) : best);
          }
          return out;
        };
        EXPECT_EQ(values(v), along_lines(x, dim, [&](const std::vector<double>& l) { return scan(l, false); }));
        EXPECT_EQ(values(i), along_lines(x, dim, [&](const std::vector<double>& l) { return scan(l, true); }));
      }
    }
  }
}

TEST(Scans, ZeroDimEmptyMetaAndErrors) {
  EXPECT_EQ(mt::tensor(5.0).cumsum(0).item<double>(), 5.0);
  EXPECT_EQ(mt::tensor(5.0).cumsum(-1).dim(), 0);
  EXPECT_EQ(std::get<1>(mt::tensor(5.0).cummin(0)).item<int64_t>(), 0);
  EXPECT_EQ(mt::zeros({0, 3}).cumsum(0).sizes(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(std::get<1>(mt::zeros({0, 3}).cummax(1)).sizes(), (std::vector<int64_t>{0, 3}));
  const Tensor meta = mt::empty({2, 3}, TensorOptions(kInt32).device(kMeta));
  EXPECT_EQ(meta.cumsum(1).dtype(), kInt64);
  EXPECT_TRUE(meta.cumprod(0).is_meta());
  EXPECT_EQ(std::get<1>(meta.cummax(1)).dtype(), kInt64);
  expect_error<IndexError>([] { mt::tensor({1.0, 2.0}).cumsum(1); },
                           "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  expect_error<NotImplementedError>([] { mt::tensor({1, 2}).logcumsumexp(0); },
                                    "\"logcumsumexp\" not implemented for");
  expect_error<NotImplementedError>([] { mt::tensor({1.0}).cumsum(0, kBool); }, "\"cumsum\" not implemented for");
}

TEST(Flip, ReversesTheNamedDims) {
  const Tensor x = mt::tensor({{1, 2, 3}, {4, 5, 6}});
  EXPECT_EQ(values(x.flip({0, 1})), (std::vector<double>{6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(values(x.flip({-1})), (std::vector<double>{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(values(x.t().flip({0})), (std::vector<double>{3, 6, 2, 5, 1, 4}));
  const Tensor same = x.flip({});
  EXPECT_EQ(values(same), values(x));
  EXPECT_NE(same.data_ptr(), x.data_ptr());  // a copy, as in PyTorch
  EXPECT_EQ(mt::tensor(3.0).flip({0}).item<double>(), 3.0);
  expect_error<Error>([&] { x.flip({0, -2}); }, "dim 0 appears multiple times in the list of dims");
  expect_error<IndexError>([&] { x.flip({2}); }, "Dimension out of range");
}

}  // namespace
