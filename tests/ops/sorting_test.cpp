// sort and its compositions (argsort, msort, topk, kthvalue, median, nanmedian) against a stable sort in
// double precision and hand-worked cases: every dtype, short rows (insertion sort) and long ones (radix sort,
// keys of several bytes), any dim and layout, NaN, infinities, signed zeros, integer extremes, ties, 0-dim and
// empty tensors, Meta shapes, and every argument error.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "reference.h"
#include "ops/api/empty.h"
#include "ops/api/max.h"
#include "ops/api/min.h"
#include "ops/api/msort.h"
#include "ops/api/mv.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/sort.h"
#include "ops/api/std.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

const double kNaN = std::nan("");
constexpr double kInf = std::numeric_limits<double>::infinity();

// NaN above every number, in both directions; equal elements keep their order.
bool sorts_before(double a, double b, bool descending) {
  if (descending) return (std::isnan(a) && !std::isnan(b)) || a > b;
  return (!std::isnan(a) && std::isnan(b)) || a < b;
}

struct Sorted {
  std::vector<double> values;
  std::vector<double> indices;
};

// A stable sort of each line of t along dim, in logical row-major order.
Sorted reference_sort(const Tensor& t, int64_t dim, bool descending) {
  const std::vector<double> v = values(t);
  const int64_t d = dim < 0 ? dim + t.dim() : dim;
  const int64_t n = t.size(d);
  int64_t inner = 1;
  for (int64_t k = d + 1; k < t.dim(); ++k) inner *= t.size(k);
  const int64_t outer = t.numel() / (n * inner);
  Sorted s{std::vector<double>(v.size()), std::vector<double>(v.size())};
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t j) { return (o * n + j) * inner + i; };
      std::vector<int64_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return sorts_before(v[at(a)], v[at(b)], descending); });
      for (int64_t r = 0; r < n; ++r) {
        s.values[at(r)] = v[at(order[r])];
        s.indices[at(r)] = static_cast<double>(order[r]);
      }
    }
  }
  return s;
}

void expect_same_values(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(actual[i])) << "at " << i;
    else EXPECT_EQ(actual[i], expected[i]) << "at " << i;
  }
}

void expect_sorted_like_reference(const Tensor& x, int64_t dim, bool descending) {
  const auto [v, i] = mt::sort(x, std::optional<bool>(true), dim, descending);
  EXPECT_EQ(v.dtype(), x.dtype());
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_EQ(v.sizes(), x.sizes());
  EXPECT_TRUE(v.is_contiguous() && i.is_contiguous());
  const Sorted expected = reference_sort(x, dim, descending);
  EXPECT_EQ(values(i), expected.indices);
  expect_same_values(values(v), expected.values);
}

// Values spread over many bytes of the keys: each radix pass has work to do.
Tensor wide_random(IntArrayRef sizes, ScalarType dtype, uint64_t seed) {
  Generator gen(seed);
  if (is_floating_point(dtype)) return (mt::randn(sizes, &gen, TensorOptions(kFloat64)) * 1000).to(dtype);
  if (dtype == kBool || dtype == kUInt8) return random_tensor(sizes, dtype, seed);
  const int64_t bound = dtype == kInt8 ? 128 : dtype == kInt16 ? 32768 : dtype == kInt32 ? int64_t{1} << 31
                                                                                         : int64_t{1} << 50;
  return mt::randint(-bound, bound, sizes, &gen, TensorOptions(kInt64)).to(dtype);
}

TEST(Sort, MatchesAStableReferenceForEveryDtypeDimAndLayout) {
  for (ScalarType dt : kAllDtypes) {
    // 48 and 49 straddle the switch from insertion sort to radix sort; 200 rows of 300 run in parallel.
    for (const std::vector<int64_t>& shape :
         std::vector<std::vector<int64_t>>{{7}, {48}, {49}, {3, 40}, {5, 300}, {200, 300}}) {
      for (bool wide : {false, true}) {
        const Tensor x = wide ? wide_random(shape, dt, 7) : random_tensor(shape, dt, 3);
        for (int64_t dim : {int64_t{0}, int64_t{-1}}) {
          for (bool descending : {false, true}) {
            SCOPED_TRACE(::testing::Message() << dt << " shape " << shape.size() << "-d of " << x.numel()
                                              << " wide " << wide << " dim " << dim << " desc " << descending);
            expect_sorted_like_reference(x, dim, descending);
          }
        }
      }
    }
    const Tensor t = random_tensor({60, 4, 3}, dt, 5).transpose(0, 2);  // (3, 4, 60), not contiguous
    for (int64_t dim : {0, 1, 2}) expect_sorted_like_reference(t, dim, dim == 1);
  }
}

TEST(Sort, OrdersNaNAboveInfinityAndKeepsSignedZerosInPlace) {
  const std::vector<double> v = {kNaN, 1, -kInf, -0.0, 0.0, kInf, kNaN, -1};
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16, kBFloat16}) {
    SCOPED_TRACE(::testing::Message() << dt);
    const Tensor x = mt::tensor(v, TensorOptions(dt));
    const auto [up, up_i] = x.sort();
    EXPECT_EQ(values(up_i), (std::vector<double>{2, 7, 3, 4, 1, 5, 0, 6}));
    EXPECT_TRUE(std::signbit(element(up, 2)) && !std::signbit(element(up, 3)));  // -0.0 == 0.0: stable
    const auto [down, down_i] = x.sort(-1, /*descending=*/true);
    EXPECT_EQ(values(down_i), (std::vector<double>{0, 6, 5, 1, 3, 4, 7, 2}));
    expect_same_values(values(down), {kNaN, kNaN, kInf, 1, -0.0, 0.0, -1, -kInf});
    // The same pattern ten times takes the radix sort: equal elements stay in their order.
    expect_sorted_like_reference(x.repeat({10}), 0, false);
    expect_sorted_like_reference(x.repeat({10}), 0, true);
  }
}

TEST(Sort, IntegerExtremesAndBool) {
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(values(std::get<1>(mt::tensor({hi, lo, int64_t{0}, int64_t{-1}, int64_t{1}}).sort())),
            (std::vector<double>{1, 3, 2, 4, 0}));
  EXPECT_EQ(values(std::get<1>(mt::tensor({255, 0, 128, 127}, TensorOptions(kUInt8)).sort())),
            (std::vector<double>{1, 3, 2, 0}));
  EXPECT_EQ(values(std::get<1>(mt::tensor({-128, 127, 0, -1}, TensorOptions(kInt8)).sort())),
            (std::vector<double>{0, 3, 2, 1}));
  const auto [b, bi] = mt::tensor({true, false, true}).sort();
  EXPECT_EQ(values(b), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(values(bi), (std::vector<double>{1, 0, 2}));
}

TEST(Sort, ZeroDimEmptyAndErrors) {
  const auto [v, i] = mt::tensor(5.0).sort();
  EXPECT_EQ(v.dim(), 0);
  EXPECT_EQ(i.dim(), 0);
  EXPECT_EQ(v.item<double>(), 5.0);
  EXPECT_EQ(i.item<int64_t>(), 0);
  const auto [ev, ei] = mt::zeros({3, 0}).sort();
  EXPECT_EQ(ev.sizes(), (std::vector<int64_t>{3, 0}));
  EXPECT_EQ(ei.sizes(), (std::vector<int64_t>{3, 0}));
  expect_error<IndexError>([] { mt::tensor({2, 1}).sort(2); },
                           "Dimension out of range (expected to be in range of [-1, 0], but got 2)");
}

TEST(Sort, MetaTensorsGetShapesAndDtypes) {
  const Tensor x = mt::empty({3, 4}, TensorOptions(kFloat32).device(kMeta));
  const auto [v, i] = x.sort(0);
  EXPECT_TRUE(v.is_meta() && i.is_meta());
  EXPECT_EQ(v.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(i.dtype(), kInt64);
  const auto [tv, ti] = x.topk(2);
  EXPECT_EQ(tv.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(ti.sizes(), (std::vector<int64_t>{3, 2}));
  const auto [mv, mi] = x.median(1, /*keepdim=*/true);
  EXPECT_EQ(mv.sizes(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(mi.dtype(), kInt64);
}

TEST(Sort, ArgsortAndMsort) {
  const Tensor x = mt::tensor({2, 1, 2, 1});
  EXPECT_EQ(values(x.argsort(true, -1, /*descending=*/true)), (std::vector<double>{0, 2, 1, 3}));
  EXPECT_EQ(values(x.argsort(int64_t{0})), (std::vector<double>{1, 3, 0, 2}));
  EXPECT_EQ(values(mt::msort(mt::tensor({{3.0, 1.0}, {2.0, 4.0}}))), (std::vector<double>{2, 1, 3, 4}));
  EXPECT_EQ(mt::msort(mt::tensor(3.0)).item<double>(), 3.0);
}

TEST(Topk, LargestAndSmallestKeepTiesInOrder) {
  const Tensor x = mt::tensor({1.0, 5.0, 3.0, 5.0, 2.0});
  const auto [v, i] = x.topk(3);
  EXPECT_EQ(values(v), (std::vector<double>{5, 5, 3}));
  EXPECT_EQ(values(i), (std::vector<double>{1, 3, 2}));
  const auto [sv, si] = x.topk(2, -1, /*largest=*/false);
  EXPECT_EQ(values(sv), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(si), (std::vector<double>{0, 4}));
  // NaN is the largest.
  const Tensor n = mt::tensor({1.0, kNaN, 3.0});
  EXPECT_EQ(std::get<1>(n.topk(1)).item<int64_t>(), 1);
  EXPECT_EQ(std::get<1>(n.topk(1, 0, false)).item<int64_t>(), 0);
  const auto [cv, ci] = mt::tensor({{1.0, 5.0}, {3.0, 2.0}}).topk(1, 0, false);
  EXPECT_EQ(cv.sizes(), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(cv.is_contiguous());
  EXPECT_EQ(values(cv), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(ci), (std::vector<double>{0, 1}));
  EXPECT_EQ(values(std::get<0>(mt::tensor({1, 3, 2}, TensorOptions(kInt16)).topk(2))), (std::vector<double>{3, 2}));
  // A 0-dim tensor gives itself for k 0 or 1, as in PyTorch.
  EXPECT_EQ(std::get<0>(mt::tensor(5.0).topk(1)).item<double>(), 5.0);
  EXPECT_EQ(std::get<0>(mt::tensor(5.0).topk(0)).dim(), 0);
  EXPECT_EQ(std::get<0>(mt::zeros({0, 3}).topk(2, 1)).sizes(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(std::get<0>(mt::zeros({3, 4}).topk(0)).sizes(), (std::vector<int64_t>{3, 0}));
}

TEST(Topk, Errors) {
  const Tensor x = mt::tensor({1.0, 2.0});
  expect_error<Error>([&] { x.topk(3); }, "selected index k out of range");
  expect_error<Error>([&] { x.topk(-1); }, "selected index k out of range");
  expect_error<Error>([] { mt::tensor(5.0).topk(2); }, "selected index k out of range");
  expect_error<NotImplementedError>([] { mt::tensor({true, false}).topk(1); }, "topk does not support bool dtypes");
  expect_error<IndexError>([&] { x.topk(1, 1); }, "Dimension out of range");
}

TEST(Kthvalue, SelectsTheKthSmallest) {
  const Tensor x = mt::tensor({3.0, 1.0, 4.0, 1.0, 5.0});
  // Sorted stably: 1 (1), 1 (3), 3 (0), 4 (2), 5 (4).
  const std::vector<std::pair<double, int64_t>> expected = {{1, 1}, {1, 3}, {3, 0}, {4, 2}, {5, 4}};
  for (int64_t k = 1; k <= 5; ++k) {
    const auto [v, i] = x.kthvalue(k);
    EXPECT_EQ(v.dim(), 0);
    EXPECT_EQ(v.item<double>(), expected[k - 1].first);
    EXPECT_EQ(i.item<int64_t>(), expected[k - 1].second);
  }
  const Tensor m = mt::tensor({{2, 9, 4}, {7, 1, 5}}, TensorOptions(kInt32));
  const auto [v, i] = m.kthvalue(2, 0, /*keepdim=*/true);
  EXPECT_EQ(v.sizes(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(values(v), (std::vector<double>{7, 9, 5}));
  EXPECT_EQ(values(i), (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(values(std::get<0>(m.kthvalue(3))), (std::vector<double>{9, 7}));
  EXPECT_TRUE(std::isnan(std::get<0>(mt::tensor({1.0, kNaN, 2.0}).kthvalue(3)).item<double>()));
  EXPECT_EQ(std::get<0>(mt::tensor(5.0).kthvalue(1)).item<double>(), 5.0);
}

TEST(Kthvalue, Errors) {
  const Tensor x = mt::tensor({1.0, 2.0});
  expect_error<Error>([&] { x.kthvalue(0); }, "kthvalue(): selected number k out of range for dimension 0");
  expect_error<Error>([&] { x.kthvalue(3); }, "kthvalue(): selected number k out of range for dimension 0");
  expect_error<Error>([] { mt::tensor(5.0).kthvalue(2); }, "selected number k out of range");
  expect_error<IndexError>([] { mt::zeros({0, 3}).kthvalue(1, 0); },
                           "kthvalue(): Expected reduction dim 0 to have non-zero size.");
  expect_error<NotImplementedError>([] { mt::tensor({true}).kthvalue(1); }, "\"kthvalue\" not implemented for");
}

TEST(Median, IsTheLowerMedianAndPropagatesNaN) {
  const Tensor x = mt::tensor({3.0, 1.0, 4.0, 1.0, 5.0, 9.0});
  EXPECT_EQ(x.median().item<double>(), 3.0);  // sorted 1 1 3 4 5 9: the lower of the middle two
  const auto [v, i] = x.median(0);
  EXPECT_EQ(v.item<double>(), 3.0);
  EXPECT_EQ(i.item<int64_t>(), 0);
  const auto [iv, ii] = mt::tensor({2, 1, 2, 1, 2}).median(0);
  EXPECT_EQ(iv.item<int64_t>(), 2);
  EXPECT_EQ(ii.item<int64_t>(), 0);
  const auto [kv, ki] = mt::tensor({{2.0, 1.0, 3.0}, {0.0, 0.0, 0.0}}).median(1, /*keepdim=*/true);
  EXPECT_EQ(kv.sizes(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values(kv), (std::vector<double>{2, 0}));
  EXPECT_EQ(values(ki), (std::vector<double>{0, 1}));
  // A NaN makes the median NaN, at the first NaN.
  const Tensor n = mt::tensor({{1.0, kNaN, 3.0, kNaN}, {4.0, 2.0, 6.0, 8.0}});
  const auto [nv, ni] = n.median(1);
  expect_same_values(values(nv), {kNaN, 4});
  EXPECT_EQ(values(ni), (std::vector<double>{1, 0}));
  EXPECT_TRUE(std::isnan(n.median().item<double>()));
  EXPECT_EQ(mt::tensor(7.0).median().item<double>(), 7.0);
  EXPECT_EQ(std::get<1>(mt::tensor(7.0).median(0)).dim(), 0);
}

TEST(Median, NanmedianIgnoresNaN) {
  const auto [v, i] = mt::tensor({3.0, 1.0, kNaN, 2.0, 1.0}).nanmedian(0);
  // The numbers sorted: 1 (1), 1 (4), 2 (3), 3 (0); the lower median is the second.
  EXPECT_EQ(v.item<double>(), 1.0);
  EXPECT_EQ(i.item<int64_t>(), 4);
  const Tensor rows = mt::tensor({{kNaN, kNaN, kNaN}, {kNaN, 5.0, kNaN}, {3.0, 2.0, 1.0}});
  const auto [rv, ri] = rows.nanmedian(1);
  expect_same_values(values(rv), {kNaN, 5, 2});
  EXPECT_EQ(values(ri), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(rows.nanmedian().item<double>(), 2.0);  // the lower median of 1, 2, 3, 5
  EXPECT_EQ(mt::tensor({4, 8, 6}).nanmedian().item<int64_t>(), 6);
}

TEST(Median, EmptyTensorsAndErrors) {
  EXPECT_TRUE(std::isnan(mt::zeros({0}).median().item<double>()));
  EXPECT_TRUE(std::isnan(mt::zeros({0, 2}).nanmedian().item<double>()));
  expect_error<Error>([] { mt::zeros({0}, TensorOptions(kInt64)).median(); }, "median(): cannot compute the median");
  expect_error<IndexError>([] { mt::zeros({0, 3}).median(0); },
                           "median(): Expected reduction dim 0 to have non-zero size.");
  EXPECT_EQ(std::get<0>(mt::zeros({0, 3}).median(1)).sizes(), (std::vector<int64_t>{0}));
  expect_error<NotImplementedError>([] { mt::tensor({true}).median(); }, "\"median\" not implemented for");
  expect_error<NotImplementedError>([] { mt::tensor({true}).nanmedian(0); }, "\"nanmedian\" not implemented for");
}

}  // namespace
