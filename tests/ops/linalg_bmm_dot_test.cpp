// bmm and dot against naive double-precision loops (every dtype, strided and broadcast inputs, batches
// split across threads, zero-size dims, out=, errors), the Meta kernels of mm, bmm, addmm and dot, and
// the Tensor methods.
#include <cmath>

#include "linalg_reference.h"
#include "ops/api/addmm.h"
#include "ops/api/bmm.h"
#include "ops/api/dot.h"
#include "ops/api/empty.h"
#include "ops/api/mm.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

struct BmmShape {
  int64_t batch, m, k, n;
};
// Small; odd batch split across threads; even batch split by batch entry (where the GEMM is Eigen's).
const BmmShape kBmmShapes[] = {{2, 3, 4, 5}, {1, 1, 1, 1}, {3, 80, 80, 80}, {8, 64, 64, 40}, {4, 1, 9, 2}};

TEST(LinalgBmm, MatchesReferenceForEveryDtype) {
  uint64_t seed = 1;
  for (ScalarType dt : kMatmulTypes) {
    for (const BmmShape& s : kBmmShapes) {
      const Tensor a = random_tensor({s.batch, s.m, s.k}, dt, seed++);
      const Tensor b = random_tensor({s.batch, s.k, s.n}, dt, seed++);
      const Tensor r = mt::bmm(a, b);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(r.sizes(), IntArrayRef({s.batch, s.m, s.n}));
      expect_values_near(r, naive_bmm(a, b), tolerance(dt));
    }
  }
}

TEST(LinalgBmm, ReadsStridedAndBroadcastBatches) {
  const int64_t B = 3, m = 4, k = 5, n = 6;
  for (ScalarType dt : {kFloat32, kFloat16}) {
    const Tensor a_base = random_tensor({B * m * k}, dt, 10), b_base = random_tensor({B * k * n}, dt, 11);
    const Tensor a_inputs[] = {
        strided_view(a_base, {B, m, k}, {m * k, 1, m}),        // each matrix transposed
        strided_view(a_base, {B, m, k}, {1, k * B, B}),        // batch innermost: no GEMM layout, packed
        strided_view(a_base, {B, m, k}, {0, k, 1}),            // one matrix broadcast over the batch
    };
    const Tensor b_inputs[] = {
        strided_view(b_base, {B, k, n}, {k * n, n, 1}),
        strided_view(b_base, {B, k, n}, {k * n, 1, k}),
        strided_view(b_base, {B, k, n}, {0, 1, k}),
    };
    for (const Tensor& a : a_inputs)
      for (const Tensor& b : b_inputs) expect_values_near(mt::bmm(a, b), naive_bmm(a, b), tolerance(dt));
  }
}

TEST(LinalgBmm, OutFormsAndZeroSizes) {
  const Tensor a = random_tensor({2, 3, 4}, kFloat64, 20), b = random_tensor({2, 4, 5}, kFloat64, 21);
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  Tensor& r = mt::bmm_out(out, a, b);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 3, 5}));
  expect_values_near(out, naive_bmm(a, b), 0);
  // A transposed output view is written in place.
  Tensor base = mt::zeros({30}, TensorOptions(kFloat64));
  Tensor t_out = strided_view(base, {2, 3, 5}, {15, 1, 3});
  mt::bmm_out(t_out, a, b);
  expect_values_near(t_out, naive_bmm(a, b), 0);
  Tensor f32 = mt::empty({2, 3, 5});
  expect_error<TypeError>([&] { mt::bmm_out(f32, a, b); },
                          "Expected out tensor to have dtype mt.float64, but got mt.float32 instead");

  EXPECT_EQ(mt::bmm(mt::ones({0, 3, 4}), mt::ones({0, 4, 5})).sizes(), IntArrayRef({0, 3, 5}));
  expect_values_near(mt::bmm(mt::ones({2, 3, 0}), mt::ones({2, 0, 5})), std::vector<double>(30, 0), 0);
}

TEST(LinalgBmm, Errors) {
  expect_error<RuntimeError>([] { mt::bmm(mt::zeros({2, 3, 4}), mt::zeros({3, 4, 5})); },
                             "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [3, 4].");
  expect_error<RuntimeError>([] { mt::bmm(mt::zeros({2, 3, 4}), mt::zeros({2, 5, 5})); },
                             "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].");
  expect_error<RuntimeError>([] { mt::bmm(mt::zeros({3, 4}), mt::zeros({2, 4, 5})); }, "batch1 must be a 3D tensor");
  expect_error<RuntimeError>([] { mt::bmm(mt::zeros({2, 3, 4}), mt::zeros({4, 5})); }, "batch2 must be a 3D tensor");
  expect_error<TypeError>([] { mt::bmm(mt::zeros({2, 3, 4}), mt::zeros({2, 4, 5}, TensorOptions(kFloat64))); },
                          "expected scalar type mt.float32 but found mt.float64");
  const Tensor bools = mt::zeros({2, 2, 2}, TensorOptions(kBool));
  expect_error<NotImplementedError>([&] { mt::bmm(bools, bools); }, "\"bmm\" not implemented for 'mt.bool'");
}

// --- dot -----------------------------------------------------------------------------------------------

std::vector<double> naive_dot(const Tensor& a, const Tensor& b) {
  double sum = 0;
  for (int64_t i = 0; i < a.numel(); ++i) sum += element(a, i) * element(b, i);
  return {sum};
}

TEST(LinalgDot, MatchesReferenceForEveryDtypeAndLayout) {
  uint64_t seed = 100;
  for (ScalarType dt : kMatmulTypes) {
    for (int64_t n : {0, 1, 5, 1000}) {
      const Tensor a = random_tensor({n}, dt, seed++), b = random_tensor({n}, dt, seed++);
      const Tensor r = mt::dot(a, b);
      EXPECT_EQ(r.dim(), 0);
      EXPECT_EQ(r.dtype(), dt);
      expect_values_near(r, naive_dot(a, b), tolerance(dt));
      const Tensor stepped = strided_view(random_tensor({2 * n + 1}, dt, seed++), {n}, {2}, 1);
      const Tensor broadcast = strided_view(random_tensor({1}, dt, seed++), {n}, {0});
      expect_values_near(mt::dot(stepped, a), naive_dot(stepped, a), tolerance(dt));
      expect_values_near(mt::dot(b, broadcast), naive_dot(b, broadcast), tolerance(dt));
      expect_values_near(mt::dot(broadcast, stepped), naive_dot(broadcast, stepped), tolerance(dt));
    }
  }
}

TEST(LinalgDot, SixteenBitTypesSumInFloat) {
  for (ScalarType dt : {kFloat16, kBFloat16}) {
    const Tensor ones = mt::ones({4096}, TensorOptions(dt));
    EXPECT_EQ(mt::dot(ones, ones).item<double>(), 4096.0);
  }
}

TEST(LinalgDot, Errors) {
  expect_error<RuntimeError>([] { mt::dot(mt::zeros({2, 3}), mt::zeros({3})); },
                             "1D tensors expected, but got 2D and 1D tensors");
  expect_error<RuntimeError>([] { mt::dot(mt::zeros({3}), mt::zeros({})); },
                             "1D tensors expected, but got 1D and 0D tensors");
  expect_error<TypeError>([] { mt::dot(mt::zeros({3}), mt::zeros({4}, TensorOptions(kFloat64))); },
                          "dot : expected both vectors to have same dtype, but found mt.float32 and mt.float64");
  expect_error<RuntimeError>([] { mt::dot(mt::zeros({3}), mt::zeros({4})); },
                             "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of "
                             "elements, but got 3 and 4 elements respectively");
  const Tensor bools = mt::zeros({2}, TensorOptions(kBool));
  expect_error<NotImplementedError>([&] { mt::dot(bools, bools); }, "\"dot\" not implemented for 'mt.bool'");
}

// --- Meta and methods ------------------------------------------------------------------------------------

TEST(LinalgMeta, ShapesAndDtypesWithoutData) {
  const TensorOptions meta = TensorOptions(kFloat64).device(kMeta);
  const Tensor mm = mt::mm(mt::empty({2, 3}, meta), mt::empty({3, 4}, meta));
  EXPECT_TRUE(mm.is_meta());
  EXPECT_EQ(mm.sizes(), IntArrayRef({2, 4}));
  EXPECT_EQ(mm.dtype(), kFloat64);
  EXPECT_EQ(mt::bmm(mt::empty({5, 2, 3}, meta), mt::empty({5, 3, 4}, meta)).sizes(), IntArrayRef({5, 2, 4}));
  EXPECT_EQ(mt::addmm(mt::empty({4}, meta), mt::empty({2, 3}, meta), mt::empty({3, 4}, meta)).sizes(),
            IntArrayRef({2, 4}));
  const Tensor d = mt::dot(mt::empty({3}, meta), mt::empty({3}, meta));
  EXPECT_TRUE(d.is_meta());
  EXPECT_EQ(d.dim(), 0);
  Tensor out = mt::empty({0}, meta);
  mt::mm_out(out, mt::empty({2, 3}, meta), mt::empty({3, 7}, meta));
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 7}));
  // Shape errors are the same as on CPU.
  expect_error<RuntimeError>([&] { mt::mm(mt::empty({2, 3}, meta), mt::empty({4, 3}, meta)); },
                             "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x3)");
}

TEST(LinalgMethods, TensorMethodsCallTheOps) {
  const Tensor a = random_tensor({2, 3}, kFloat64, 500), b = random_tensor({3, 4}, kFloat64, 501);
  expect_values_near(a.mm(b), naive_addmm(a, b), 0);
  expect_values_near(a.matmul(b), naive_addmm(a, b), 0);
  const Tensor s = random_tensor({2, 4}, kFloat64, 502);
  const auto s_at = [&](int64_t i, int64_t j) { return element(s, i * 4 + j); };
  expect_values_near(s.addmm(a, b, 2, 3), naive_addmm(a, b, 3, s_at, 2), 0);
  const Tensor ab = random_tensor({2, 2, 3}, kFloat64, 503), bb = random_tensor({2, 3, 4}, kFloat64, 504);
  expect_values_near(ab.bmm(bb), naive_bmm(ab, bb), 0);
  const Tensor v = random_tensor({3}, kFloat64, 505), w = random_tensor({3}, kFloat64, 506);
  expect_values_near(v.dot(w), naive_dot(v, w), 0);
  EXPECT_EQ(v.outer(w).sizes(), IntArrayRef({3, 3}));
}

}  // namespace
