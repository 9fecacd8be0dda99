// mm and addmm against a naive double-precision triple loop: every dtype, every input and output layout
// (transposed, padded, stepped, broadcast), products large enough to be split across threads, zero-size
// dims, out= and in-place forms, and every error.
#include <array>
#include <cmath>
#include <limits>

#include "linalg_reference.h"
#include "ops/infra/Parallel.h"
#include "ops/api/addmm.h"
#include "ops/api/bmm.h"
#include "ops/api/dot.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/max.h"
#include "ops/api/min.h"
#include "ops/api/mm.h"
#include "ops/api/ones.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

enum class Layout { Contiguous, Transposed, PaddedRows, PaddedCols, Stepped, BroadcastRow };
const Layout kLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::PaddedRows,
                           Layout::PaddedCols, Layout::Stepped,    Layout::BroadcastRow};

// An r x c matrix of random values laid out in memory as `layout` says.
Tensor matrix(int64_t r, int64_t c, ScalarType dt, uint64_t seed, Layout layout) {
  switch (layout) {
    case Layout::Contiguous: return random_tensor({r, c}, dt, seed);
    case Layout::Transposed: return strided_view(random_tensor({r * c}, dt, seed), {r, c}, {1, r});
    case Layout::PaddedRows: return strided_view(random_tensor({r * (c + 3)}, dt, seed), {r, c}, {c + 3, 1}, 1);
    case Layout::PaddedCols: return strided_view(random_tensor({(r + 2) * c}, dt, seed), {r, c}, {1, r + 2}, 2);
    case Layout::Stepped: return strided_view(random_tensor({4 * r * c}, dt, seed), {r, c}, {2 * c, 2}, 1);
    case Layout::BroadcastRow: return strided_view(random_tensor({c}, dt, seed), {r, c}, {0, 1});
  }
  return {};
}

struct MmShape {
  int64_t m, k, n;
};
// The last two are large enough to run on several threads (split by columns, then by rows) where the
// GEMM is Eigen's (always for float16, bfloat16 and int64).
const MmShape kShapes[] = {{3, 4, 5}, {1, 7, 1}, {5, 1, 6}, {2, 3, 1}, {17, 33, 9}, {130, 70, 150}, {1200, 160, 6}};

TEST(LinalgMm, MatchesReferenceForEveryDtype) {
  uint64_t seed = 1;
  for (ScalarType dt : kMatmulTypes) {
    for (const MmShape& s : kShapes) {
      const Tensor a = random_tensor({s.m, s.k}, dt, seed++), b = random_tensor({s.k, s.n}, dt, seed++);
      const Tensor r = mt::mm(a, b);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), IntArrayRef({s.m, s.n}));
      EXPECT_TRUE(r.is_contiguous());
      expect_values_near(r, naive_addmm(a, b), tolerance(dt));
    }
  }
}

TEST(LinalgMm, ReadsEveryInputLayout) {
  uint64_t seed = 50;
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16, kInt64}) {
    for (Layout la : kLayouts) {
      for (Layout lb : kLayouts) {
        const Tensor a = matrix(6, 5, dt, seed++, la), b = matrix(5, 7, dt, seed++, lb);
        expect_values_near(mt::mm(a, b), naive_addmm(a, b), tolerance(dt));
      }
    }
  }
}

// k = 1 takes the one-pass outer-product path: every layout, into row- and column-major outputs, and in
// a batch split across the threads.
TEST(LinalgMm, OuterProductsOfEveryLayout) {
  uint64_t seed = 80;
  for (ScalarType dt : {kFloat32, kFloat64}) {
    for (Layout la : kLayouts) {
      for (Layout lb : kLayouts) {
        const Tensor a = matrix(6, 1, dt, seed++, la), b = matrix(1, 7, dt, seed++, lb);
        expect_values_near(mt::mm(a, b), naive_addmm(a, b), tolerance(dt));
        expect_values_near(mt::mm(b.t(), a.t()).t(), naive_addmm(a, b), tolerance(dt));
      }
    }
  }
  const Tensor a = mt::randn({64, 300, 1}), b = mt::randn({64, 1, 200});
  const Tensor out = mt::bmm(a, b);
  for (int64_t q : {0, 31, 63}) expect_values_near(out[q], naive_addmm(a[q], b[q]), 1e-5);
}

TEST(LinalgMm, WritesIntoStridedOutputsAndLeavesGapsAlone) {
  const Tensor a = random_tensor({4, 3}, kFloat32, 1), b = random_tensor({3, 5}, kFloat32, 2);
  const std::vector<double> expected = naive_addmm(a, b);
  struct OutLayout {
    int64_t storage;
    std::vector<int64_t> strides;
  };
  const OutLayout outs[] = {{20, {1, 4}}, {4 * 7, {7, 1}}, {6 * 5, {1, 6}}, {4 * 5 * 4, {10, 2}}};
  for (const OutLayout& o : outs) {
    Tensor base = mt::full({o.storage}, 7.f);
    Tensor out = strided_view(base, {4, 5}, o.strides);
    Tensor& r = mt::mm_out(out, a, b);
    EXPECT_TRUE(r.is_same(out));
    EXPECT_EQ(out.strides(), IntArrayRef(o.strides));
    expect_values_near(out, expected, 0);
    // Elements of the storage outside the view keep their value.
    int64_t touched = 0;
    for (double v : values(base)) touched += v != 7.0;
    EXPECT_LE(touched, 20);
  }
}

// Products split into one block per thread, and (from 2^25 multiply-adds, while other threads compete for
// the cores) into several blocks per thread.
TEST(LinalgMm, LargeProductsGiveTheSameResultOnOneThread) {
  for (const auto& [m, k, n] : {std::array<int64_t, 3>{256, 200, 300}, std::array<int64_t, 3>{520, 256, 300}}) {
    const Tensor a = random_tensor({m, k}, kFloat32, 3), b = random_tensor({k, n}, kFloat32, 4);
    const std::vector<double> expected = naive_addmm(a, b);
    expect_values_near(mt::mm(a, b), expected, 0);
    const int threads = get_num_threads();
    set_num_threads(1);
    expect_values_near(mt::mm(a, b), expected, 0);
    set_num_threads(threads);
  }
}

// Float32 operands whose lines are a multiple of 256 floats apart, which oneDNN's AVX2 kernels read from a
// copy spaced otherwise: contiguous, transposed, and a slice of wider rows, on either side of the product.
TEST(LinalgMm, OperandsWithLinesAMultipleOf256FloatsApart) {
  const Tensor a = random_tensor({192, 512}, kFloat32, 5);
  const Tensor slice = strided_view(random_tensor({512 * 1024}, kFloat32, 6), {512, 300}, {1024, 1}, 100);
  for (const Tensor& b : {random_tensor({512, 512}, kFloat32, 7), random_tensor({512, 512}, kFloat32, 8).t(), slice}) {
    expect_values_near(mt::mm(a, b), naive_addmm(a, b), 0);
    expect_values_near(mt::mm(b.t(), a.t()), naive_addmm(b.t(), a.t()), 0);
  }
}

TEST(LinalgMm, SixteenBitTypesSumInFloat) {
  // 4096 ones: a float16 or bfloat16 running sum would stop growing at 2048 or 256.
  for (ScalarType dt : {kFloat16, kBFloat16}) {
    const Tensor a = mt::ones({1, 4096}, TensorOptions(dt)), b = mt::ones({4096, 2}, TensorOptions(dt));
    expect_values_near(mt::mm(a, b), {4096, 4096}, 0);
  }
}

// int64 products and sums wrap around, as in PyTorch (computed unsigned: no undefined behaviour).
TEST(LinalgMm, Int64OverflowWrapsAround) {
  const int64_t big = std::numeric_limits<int64_t>::max(), low = std::numeric_limits<int64_t>::min();
  const Tensor a = mt::tensor({big, low, int64_t{3}}).view({1, 3}), b = mt::tensor({int64_t{2}, low, big}).view({3, 1});
  const uint64_t expected = static_cast<uint64_t>(big) * 2u + static_cast<uint64_t>(low) * static_cast<uint64_t>(low) +
                            3u * static_cast<uint64_t>(big);
  EXPECT_EQ(mt::mm(a, b).item<int64_t>(), static_cast<int64_t>(expected));
  EXPECT_EQ(mt::dot(a.view({3}), b.view({3})).item<int64_t>(), static_cast<int64_t>(expected));
  EXPECT_EQ(mt::bmm(a.unsqueeze(0), b.unsqueeze(0)).item<int64_t>(), static_cast<int64_t>(expected));
}

TEST(LinalgMm, ZeroSizeDims) {
  EXPECT_EQ(mt::mm(mt::ones({0, 3}), mt::ones({3, 4})).sizes(), IntArrayRef({0, 4}));
  EXPECT_EQ(mt::mm(mt::ones({3, 4}), mt::ones({4, 0})).sizes(), IntArrayRef({3, 0}));
  // k = 0: a sum of nothing, whatever the output held.
  Tensor out = mt::full({3, 4}, std::nan(""));
  mt::mm_out(out, mt::ones({3, 0}), mt::ones({0, 4}));
  expect_values_near(out, std::vector<double>(12, 0), 0);
  expect_values_near(mt::addmm(mt::full({4}, 2., TensorOptions(kFloat64)), mt::ones({3, 0}, TensorOptions(kFloat64)),
                               mt::ones({0, 4}, TensorOptions(kFloat64)), 3, 5),
                     std::vector<double>(12, 6), 0);
}

TEST(LinalgMm, OutIsResizedOnlyWhenEmptyAndKeepsItsDtype) {
  const Tensor a = random_tensor({2, 3}, kFloat32, 5), b = random_tensor({3, 5}, kFloat32, 6);
  Tensor out = mt::empty({0});
  mt::mm_out(out, a, b);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 5}));
  expect_values_near(out, naive_addmm(a, b), 0);

  Tensor wrong = mt::zeros({7});
  expect_error<RuntimeError>([&] { mt::mm_out(wrong, a, b); },
                             "mm: output with shape [7] doesn't match the result shape [2, 5]");
  EXPECT_EQ(wrong.sizes(), IntArrayRef({7}));
  Tensor dbl = mt::zeros({2, 5}, TensorOptions(kFloat64));
  expect_error<TypeError>([&] { mt::mm_out(dbl, a, b); },
                          "Expected out tensor to have dtype mt.float32, but got mt.float64 instead");
  expect_values_near(dbl, std::vector<double>(10, 0), 0);
}

TEST(LinalgMm, OutMayBeAnInput) {
  Tensor a = random_tensor({4, 4}, kFloat64, 7);
  const Tensor b = random_tensor({4, 4}, kFloat64, 8);
  const std::vector<double> expected = naive_addmm(a, b);
  mt::mm_out(a, a, b);
  expect_values_near(a, expected, 0);

  Tensor x = random_tensor({4, 4}, kFloat64, 9);
  const std::vector<double> x0 = values(x);
  const std::vector<double> expected2 = naive_addmm(x, b, 2, [&](int64_t i, int64_t j) { return x0[i * 4 + j]; }, 3);
  x.addmm_(x, b, 3, 2);
  expect_values_near(x, expected2, 0);
}

TEST(LinalgMm, Errors) {
  const Tensor f = mt::zeros({2, 3});
  expect_error<RuntimeError>([&] { mt::mm(f, mt::zeros({4, 5})); },
                             "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  expect_error<RuntimeError>([&] { mt::mm(mt::zeros({2, 3, 1}), mt::zeros({4, 5})); }, "self must be a matrix");
  expect_error<RuntimeError>([&] { mt::mm(f, mt::zeros({3})); }, "mat2 must be a matrix");
  expect_error<TypeError>([&] { mt::mm(f, mt::zeros({3, 5}, TensorOptions(kFloat64))); },
                          "expected m1 and m2 to have the same dtype, but got: mt.float32 != mt.float64");
  // Shapes are checked before dtypes, as PyTorch does.
  expect_error<RuntimeError>([&] { mt::mm(f, mt::zeros({4, 5}, TensorOptions(kFloat64))); },
                             "mat1 and mat2 shapes cannot be multiplied");
  const Tensor bools = mt::zeros({2, 2}, TensorOptions(kBool));
  expect_error<NotImplementedError>([&] { mt::mm(bools, bools); },
                                    "\"addmm_impl_cpu_\" not implemented for 'mt.bool'");
  // An empty out that would have been resized keeps its shape.
  Tensor bool_out = mt::empty({0}, TensorOptions(kBool));
  expect_error<NotImplementedError>([&] { mt::mm_out(bool_out, bools, bools); }, "not implemented for 'mt.bool'");
  EXPECT_EQ(bool_out.sizes(), IntArrayRef({0}));
  expect_error<RuntimeError>([&] { mt::mm(f, mt::zeros({3, 5}, TensorOptions().device(kMeta))); },
                             "Expected all tensors to be on the same device");
}

// --- addmm -------------------------------------------------------------------------------------------

TEST(LinalgAddmm, BetaAlphaAndBroadcastSelfForEveryDtype) {
  struct Case {
    std::vector<int64_t> self;
    double beta, alpha;
  };
  const Case cases[] = {{{4, 5}, 1, 1}, {{5}, 0.5, 2},     {{1, 5}, 2, -1},
                        {{4, 1}, 0, 3}, {{}, -1.5, 0.5}, {{4, 5}, 2, 0}};
  uint64_t seed = 200;
  for (ScalarType dt : kMatmulTypes) {
    for (const Case& c : cases) {
      // Integer tensors take integer scalars (PyTorch truncates others).
      const double beta = dt == kInt64 ? std::trunc(c.beta) : c.beta;
      const double alpha = dt == kInt64 ? std::trunc(c.alpha) : c.alpha;
      const Tensor self = random_tensor(c.self, dt, seed++);
      const Tensor a = random_tensor({4, 3}, dt, seed++), b = random_tensor({3, 5}, dt, seed++);
      const Scalar sb = dt == kInt64 ? Scalar(static_cast<int64_t>(beta)) : Scalar(beta);
      const Scalar sa = dt == kInt64 ? Scalar(static_cast<int64_t>(alpha)) : Scalar(alpha);
      const Tensor r = mt::addmm(self, a, b, sb, sa);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), IntArrayRef({4, 5}));
      auto self_at = [&](int64_t i, int64_t j) {
        const int64_t flat = c.self.size() == 2 ? (c.self[0] == 1 ? 0 : i) * c.self[1] + (c.self[1] == 1 ? 0 : j)
                                                : (c.self.size() == 1 ? j : 0);
        return element(self, flat);
      };
      expect_values_near(r, naive_addmm(a, b, alpha, self_at, beta), tolerance(dt));
    }
  }
}

// A batch-1 linear layer's product is one row (and its transpose one column); the broadcast self is
// copied into the result along its long side, from a stepped self as from a contiguous one.
TEST(LinalgAddmm, OneRowAndOneColumnProductsWithABroadcastStridedSelf) {
  for (ScalarType dt : {kFloat32, kFloat64}) {
    const Tensor bias = strided_view(random_tensor({14}, dt, 500), {7}, {2});
    const Tensor row = random_tensor({1, 3}, dt, 501), b = random_tensor({3, 7}, dt, 502);
    expect_values_near(mt::addmm(bias, row, b, 0.5, 2),
                       naive_addmm(row, b, 2, [&](int64_t, int64_t j) { return element(bias, j); }, 0.5),
                       tolerance(dt));
    const Tensor column_bias = strided_view(random_tensor({21}, dt, 503), {7, 1}, {3, 1});
    const Tensor a = random_tensor({7, 3}, dt, 504), column = random_tensor({3, 1}, dt, 505);
    expect_values_near(mt::addmm(column_bias, a, column),
                       naive_addmm(a, column, 1, [&](int64_t i, int64_t) { return element(column_bias, i); }, 1),
                       tolerance(dt));
  }
}

TEST(LinalgAddmm, BetaZeroIgnoresNanInSelfAndAlphaZeroIgnoresTheProduct) {
  const Tensor nan_self = mt::full({2, 5}, std::nan(""));
  const Tensor a = mt::ones({2, 3}), b = mt::ones({3, 5});
  expect_values_near(mt::addmm(nan_self, a, b, 0), std::vector<double>(10, 3), 0);
  Tensor in_place = mt::full({2, 5}, std::nan(""));
  in_place.addmm_(a, b, 0, 2);
  expect_values_near(in_place, std::vector<double>(10, 6), 0);
  // alpha == 0 does not read the matrices, as BLAS.
  expect_values_near(mt::addmm(mt::ones({2, 5}), mt::full({2, 3}, std::nan("")), b, 2, 0),
                     std::vector<double>(10, 2), 0);
}

TEST(LinalgAddmm, IntegerTensorsTruncateFloatingScalars) {
  const Tensor one = mt::ones({2, 2}, TensorOptions(kInt64));
  // beta 0.5 -> 0 and alpha 1.7 -> 1, as PyTorch.
  expect_values_near(mt::addmm(one, one, one, 0.5, 1.7), {2, 2, 2, 2}, 0);
}

TEST(LinalgAddmm, InPlaceKeepsSelfsLayout) {
  const Tensor a = random_tensor({4, 3}, kFloat64, 300), b = random_tensor({3, 5}, kFloat64, 301);
  for (Layout layout : {Layout::Contiguous, Layout::Transposed, Layout::PaddedRows, Layout::Stepped}) {
    Tensor self = matrix(4, 5, kFloat64, 302, layout);
    const std::vector<double> before = values(self);
    const std::vector<int64_t> strides(self.strides().begin(), self.strides().end());
    const void* data = self.data_ptr();
    Tensor& r = self.addmm_(a, b, 0.5, 2);
    EXPECT_TRUE(r.is_same(self));
    EXPECT_EQ(self.data_ptr(), data);
    EXPECT_EQ(self.strides(), IntArrayRef(strides));
    expect_values_near(self, naive_addmm(a, b, 2, [&](int64_t i, int64_t j) { return before[i * 5 + j]; }, 0.5), 1e-12);
  }
}

TEST(LinalgAddmm, OutForm) {
  const Tensor self = random_tensor({5}, kFloat32, 400);
  const Tensor a = random_tensor({2, 3}, kFloat32, 401), b = random_tensor({3, 5}, kFloat32, 402);
  Tensor out = mt::empty({0});
  Tensor& r = mt::addmm_out(out, self, a, b, 2, 3);
  EXPECT_TRUE(r.is_same(out));
  expect_values_near(out, naive_addmm(a, b, 3, [&](int64_t, int64_t j) { return element(self, j); }, 2), 0);
  Tensor dbl = mt::empty({0}, TensorOptions(kFloat64));
  expect_error<TypeError>([&] { mt::addmm_out(dbl, self, a, b); },
                          "Expected out tensor to have dtype mt.float32, but got mt.float64 instead");
  EXPECT_EQ(dbl.numel(), 0);
  // out may be self.
  Tensor acc = mt::ones({2, 5});
  mt::addmm_out(acc, acc, a, b, 1, 1);
  expect_values_near(acc, naive_addmm(a, b, 1, [](int64_t, int64_t) { return 1.0; }, 1), 0);
}

TEST(LinalgAddmm, Errors) {
  const Tensor f = mt::zeros({2, 3}), g = mt::zeros({3, 5}), s = mt::zeros({2, 5});
  const TensorOptions f64(kFloat64);
  // dtypes first (self against mat2, then mat1 against mat2), then dims, shapes and self's broadcast.
  expect_error<TypeError>([&] { mt::addmm(mt::zeros({2, 5}, f64), f, mt::zeros({4, 5})); },
                          "self and mat2 must have the same dtype, but got mt.float64 and mt.float32");
  expect_error<TypeError>([&] { mt::addmm(s, f, mt::zeros({3, 5}, f64)); },
                          "self and mat2 must have the same dtype, but got mt.float32 and mt.float64");
  expect_error<TypeError>([&] { mt::addmm(s, mt::zeros({2, 3}, f64), g); },
                          "mat1 and mat2 must have the same dtype, but got mt.float64 and mt.float32");
  expect_error<RuntimeError>([&] { mt::addmm(s, mt::zeros({2, 3, 1}), g); }, "mat1 must be a matrix, got 3-D tensor");
  expect_error<RuntimeError>([&] { mt::addmm(s, f, mt::zeros({3})); }, "mat2 must be a matrix, got 1-D tensor");
  expect_error<RuntimeError>([&] { mt::addmm(s, f, mt::zeros({4, 5})); },
                             "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  expect_error<RuntimeError>([&] { mt::addmm(mt::zeros({3, 5}), f, g); },
                             "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
                             "dimension 0");
  expect_error<RuntimeError>([&] { mt::addmm(mt::zeros({2, 1, 5}), f, g); }, "the number of sizes provided (2)");

  Tensor small = mt::full({1, 5}, 4.f);
  expect_error<RuntimeError>([&] { small.addmm_(f, g); },
                             "Bad in-place call: input tensor size [1, 5] and output tensor size [2, 5] should match");
  expect_values_near(small, std::vector<double>(5, 4), 0);
  Tensor bools = mt::ones({2, 2}, TensorOptions(kBool));
  expect_error<NotImplementedError>([&] { bools.addmm_(bools, bools); },
                                    "\"addmm_impl_cpu_\" not implemented for 'mt.bool'");
  expect_values_near(bools, {1, 1, 1, 1}, 0);
}

}  // namespace
