// The scans on CUDA (one thread per line, ops/cuda/ScansKernel.cu) against the CPU: both accumulate in
// double (uint64 for integers), so sums agree to rounding and the extrema exactly. Every dtype, any dim and
// layout, long lines, NaN, flip, and the gradients.
#include <cmath>
#include <vector>

#include "cuda_test_helpers.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"

namespace {

using mt_test::expect_close_to_cpu;

const std::vector<mt::ScalarType> kAllTypes =
    mt_test::with_narrow_integers({mt::kBool, mt::kInt64, mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16});

mt::Tensor random_input(mt::IntArrayRef sizes, mt::ScalarType dtype, uint64_t seed) {
  mt::Generator gen(seed);
  if (dtype == mt::kBool) return mt::randint(0, 2, sizes, &gen).to(mt::kBool);
  if (mt::is_integral(dtype, false)) return mt::randint(-3, 4, sizes, &gen).to(dtype);
  return (mt::randn(sizes, &gen, mt::kFloat64) * 0.5 + 1).to(dtype);
}

TEST(CudaScans, MatchTheCpuForEveryDtypeDimAndLayout) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kAllTypes) {
    const mt::Tensor x = random_input({6, 5, 40}, dt, 21).transpose(0, 2);
    const mt::Tensor g = x.to(mt::kCUDA);
    for (int64_t dim : {0, 1, 2}) {
      SCOPED_TRACE(::testing::Message() << dt << " dim " << dim);
      expect_close_to_cpu(g.cumsum(dim), x.cumsum(dim));
      expect_close_to_cpu(g.cumprod(dim, mt::kFloat64), x.cumprod(dim, mt::kFloat64));
      expect_close_to_cpu(std::get<0>(g.cummax(dim)), std::get<0>(x.cummax(dim)), 0);
      expect_close_to_cpu(std::get<1>(g.cummin(dim)), std::get<1>(x.cummin(dim)), 0);
      expect_close_to_cpu(g.flip({dim}), x.flip({dim}), 0);
      if (x.is_floating_point()) expect_close_to_cpu(g.logcumsumexp(dim), x.logcumsumexp(dim));
    }
  }
}

TEST(CudaScans, LongLinesNaNAndGradients) {
  MT_SKIP_WITHOUT_GPU();
  mt::Tensor x = random_input({3, 100000}, mt::kFloat32, 22);
  x.select(0, 1).select(0, 500).fill_(std::nan(""));
  const mt::Tensor g = x.to(mt::kCUDA);
  expect_close_to_cpu(g.cumsum(1), x.cumsum(1), 1e-4);
  expect_close_to_cpu(std::get<1>(g.cummax(1)), std::get<1>(x.cummax(1)), 0);
  const mt::Tensor w = mt::randn({3, 100000});
  auto grad_of = [&](const mt::Tensor& t) {
    const mt::Tensor leaf = t.narrow(1, 0, 1000).detach().requires_grad_();
    const mt::Tensor weights = w.narrow(1, 0, 1000).to(t.device());
    return mt::autograd::grad({(leaf.cumprod(1) * weights).sum() + (leaf.logcumsumexp(1) * weights).sum()}, {leaf})[0];
  };
  expect_close_to_cpu(grad_of(g.nan_to_num()), grad_of(x.nan_to_num()), 1e-3);
}

}  // namespace
