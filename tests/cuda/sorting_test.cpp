// sort on CUDA (cub's stable segmented sort of ops/Sorting.h's keys) against the CPU's radix sort: both are
// stable, so values and indices agree exactly, ties included. Every dtype, both directions, rows short and
// long (one row of 2^20 too), any dim and layout, NaN, infinities and signed zeros, and the compositions
// (topk, kthvalue, median, nanmedian) with their gradients.
#include <cmath>
#include <limits>
#include <vector>

#include "cuda_test_helpers.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"

namespace {

using mt_test::expect_close_to_cpu;
using mt_test::kOnCuda;

const std::vector<mt::ScalarType> kAllTypes =
    mt_test::with_narrow_integers({mt::kBool, mt::kInt64, mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16});

mt::Tensor random_input(mt::IntArrayRef sizes, mt::ScalarType dtype, uint64_t seed) {
  mt::Generator gen(seed);
  if (dtype == mt::kBool) return mt::randint(0, 2, sizes, &gen).to(mt::kBool);
  if (mt::is_integral(dtype, false)) return mt::randint(-100, 100, sizes, &gen).to(dtype);
  return (mt::randn(sizes, &gen, mt::kFloat64) * 100).to(dtype);
}

void expect_sort_matches_cpu(const mt::Tensor& x, int64_t dim, bool descending) {
  const auto [v, i] = x.to(mt::kCUDA).sort(dim, descending);
  const auto [cv, ci] = x.sort(dim, descending);
  expect_close_to_cpu(v, cv, 0);
  expect_close_to_cpu(i, ci, 0);
}

TEST(CudaSort, MatchesTheCpuForEveryDtypeDimAndLayout) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kAllTypes) {
    for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{1}, {7}, {300}, {64, 33}, {5, 3000}}) {
      const mt::Tensor x = random_input(shape, dt, 11);
      for (int64_t dim : {int64_t{0}, int64_t{-1}}) {
        for (bool descending : {false, true}) {
          SCOPED_TRACE(::testing::Message() << dt << " numel " << x.numel() << " dim " << dim << " " << descending);
          expect_sort_matches_cpu(x, dim, descending);
        }
      }
    }
    expect_sort_matches_cpu(random_input({40, 3, 6}, dt, 12).transpose(0, 2), 1, false);
  }
}

TEST(CudaSort, SpecialValuesOneLongRowZeroDimAndEmpty) {
  MT_SKIP_WITHOUT_GPU();
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const mt::Tensor x = mt::tensor({nan, 1.0, -inf, -0.0, 0.0, inf, nan, -1.0}, mt::TensorOptions(dt)).repeat({9});
    expect_sort_matches_cpu(x, 0, false);
    expect_sort_matches_cpu(x, 0, true);
  }
  expect_sort_matches_cpu(random_input({1 << 20}, mt::kFloat32, 13), 0, false);
  expect_sort_matches_cpu(mt::tensor(4.0), 0, false);
  const auto [v, i] = mt::zeros({3, 0}, kOnCuda).sort();
  EXPECT_TRUE(v.is_cuda());
  EXPECT_EQ(i.sizes(), (std::vector<int64_t>{3, 0}));
}

TEST(CudaSort, CompositionsAndGradients) {
  MT_SKIP_WITHOUT_GPU();
  mt::Tensor x = random_input({6, 50}, mt::kFloat32, 14);
  x.select(0, 2).select(0, 7).fill_(std::nan(""));
  const mt::Tensor g = x.to(mt::kCUDA);
  expect_close_to_cpu(std::get<1>(g.topk(5)), std::get<1>(x.topk(5)), 0);
  expect_close_to_cpu(std::get<0>(g.kthvalue(9, 1)), std::get<0>(x.kthvalue(9, 1)), 0);
  expect_close_to_cpu(std::get<1>(g.median(1)), std::get<1>(x.median(1)), 0);
  expect_close_to_cpu(std::get<1>(g.nanmedian(1)), std::get<1>(x.nanmedian(1)), 0);
  expect_close_to_cpu(g.nanmedian(), x.nanmedian(), 0);
  const mt::Tensor w = mt::randn({6, 50});
  auto grad_of_sort = [&](const mt::Tensor& t) {
    const mt::Tensor leaf = t.detach().requires_grad_();
    return mt::autograd::grad({(std::get<0>(leaf.sort()) * w.to(t.device())).sum()}, {leaf})[0];
  };
  expect_close_to_cpu(grad_of_sort(g), grad_of_sort(x), 0);
}

}  // namespace
