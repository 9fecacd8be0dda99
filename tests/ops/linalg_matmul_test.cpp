// matmul (every rank case, broadcast batch dims, folded and batched paths), linear and outer against
// naive double-precision loops written from their definitions; out=, zero-size dims, Meta and errors.
#include <cmath>

#include "linalg_reference.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/linear.h"
#include "ops/api/matmul.h"
#include "ops/api/mv.h"
#include "ops/api/ones.h"
#include "ops/api/outer.h"
#include "ops/api/t.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

struct MatmulCase {
  std::vector<int64_t> a, b, result, batch;
};
const MatmulCase kCases[] = {
    {{3}, {3}, {}, {}},                                  // dot
    {{2, 3}, {3}, {2}, {}},                              // matrix @ vector
    {{3}, {3, 4}, {4}, {}},                              // vector @ matrix
    {{2, 3}, {3, 4}, {2, 4}, {}},                        // mm
    {{2, 2, 3}, {3, 4}, {2, 2, 4}, {2}},                 // batch @ matrix
    {{3, 2, 2, 3}, {3}, {3, 2, 2}, {3, 2}},              // batch @ vector
    {{3}, {2, 3, 4}, {2, 4}, {2}},                       // vector @ batch
    {{2, 3}, {5, 3, 4}, {5, 2, 4}, {5}},                 // matrix @ batch
    {{2, 3, 4}, {2, 4, 5}, {2, 3, 5}, {2}},              // bmm
    {{2, 1, 2, 3}, {3, 3, 4}, {2, 3, 2, 4}, {2, 3}},     // broadcast batch dims
    {{1, 2, 3}, {5, 3, 4}, {5, 2, 4}, {5}},              // broadcast size-1 batch
    {{5, 2, 3}, {1, 3, 4}, {5, 2, 4}, {5}},              //
    {{3, 1, 2, 4}, {2, 4, 5}, {3, 2, 2, 5}, {3, 2}},     //
    {{2, 2, 3, 4}, {2, 2, 4, 5}, {2, 2, 3, 5}, {2, 2}},  //
};

// A tensor of logical shape `shape` whose last two dims are swapped in memory (a 1-D one is stepped).
Tensor transposed_last(const std::vector<int64_t>& shape, ScalarType dt, uint64_t seed) {
  const int64_t d = static_cast<int64_t>(shape.size());
  if (d == 1) return strided_view(random_tensor({2 * shape[0]}, dt, seed), shape, {2});
  std::vector<int64_t> memory = shape;
  std::swap(memory[d - 1], memory[d - 2]);
  const Tensor base = random_tensor(memory, dt, seed);
  std::vector<int64_t> strides(base.strides().begin(), base.strides().end());
  std::swap(strides[d - 1], strides[d - 2]);
  return strided_view(base, shape, strides);
}

TEST(LinalgMatmul, EveryRankCaseMatchesReferenceForEveryDtype) {
  uint64_t seed = 1;
  for (ScalarType dt : kMatmulTypes) {
    for (const MatmulCase& c : kCases) {
      const Tensor a = random_tensor(c.a, dt, seed++), b = random_tensor(c.b, dt, seed++);
      const Tensor r = mt::matmul(a, b);
      EXPECT_EQ(r.sizes(), IntArrayRef(c.result)) << IntArrayRef(c.a) << " @ " << IntArrayRef(c.b);
      EXPECT_EQ(r.dtype(), dt);
      expect_values_near(r, naive_matmul(a, b, c.batch), tolerance(dt));
    }
  }
}

// Transposed operands take the other paths: a batch whose rows do not fold goes to bmm, a vector times
// a batch stored transposed folds into one product.
TEST(LinalgMatmul, TransposedAndSteppedOperands) {
  uint64_t seed = 100;
  for (ScalarType dt : {kFloat32, kInt64}) {
    for (const MatmulCase& c : kCases) {
      const Tensor a = transposed_last(c.a, dt, seed++), b = transposed_last(c.b, dt, seed++);
      const Tensor plain_a = random_tensor(c.a, dt, seed++), plain_b = random_tensor(c.b, dt, seed++);
      expect_values_near(mt::matmul(a, b), naive_matmul(a, b, c.batch), tolerance(dt));
      expect_values_near(mt::matmul(plain_a, b), naive_matmul(plain_a, b, c.batch), tolerance(dt));
      expect_values_near(mt::matmul(a, plain_b), naive_matmul(a, plain_b, c.batch), tolerance(dt));
    }
  }
}

TEST(LinalgMatmul, ResultsAreContiguous) {
  for (const MatmulCase& c : kCases) {
    const Tensor r = mt::matmul(transposed_last(c.a, kFloat64, 7), transposed_last(c.b, kFloat64, 8));
    EXPECT_TRUE(r.is_contiguous()) << IntArrayRef(c.a) << " @ " << IntArrayRef(c.b);
  }
}

TEST(LinalgMatmul, ZeroSizeDims) {
  EXPECT_EQ(mt::matmul(mt::ones({0, 3}), mt::ones({3})).sizes(), IntArrayRef({0}));
  EXPECT_EQ(mt::matmul(mt::ones({2, 0, 3}), mt::ones({3, 4})).sizes(), IntArrayRef({2, 0, 4}));
  EXPECT_EQ(mt::matmul(mt::ones({0, 2, 3}), mt::ones({1, 3, 4})).sizes(), IntArrayRef({0, 2, 4}));
  EXPECT_EQ(mt::matmul(mt::ones({3, 5, 0}), mt::ones({0, 0})).sizes(), IntArrayRef({3, 5, 0}));
  expect_values_near(mt::matmul(mt::ones({3, 0}), mt::ones({0, 4})), std::vector<double>(12, 0), 0);
  expect_values_near(mt::matmul(mt::ones({2, 3, 0}), mt::ones({0})), std::vector<double>(6, 0), 0);
  expect_values_near(mt::matmul(mt::ones({0}), mt::ones({0})), {0}, 0);
}

TEST(LinalgMatmul, OutForm) {
  struct OutCase {
    std::vector<int64_t> a, b, result, batch;
  };
  const OutCase cases[] = {{{3}, {3}, {}, {}}, {{4, 3}, {3}, {4}, {}}, {{2, 4, 3}, {3, 5}, {2, 4, 5}, {2}}};
  uint64_t seed = 300;
  for (const OutCase& c : cases) {
    const Tensor a = random_tensor(c.a, kFloat32, seed++), b = random_tensor(c.b, kFloat32, seed++);
    Tensor out = mt::empty({0});
    Tensor& r = mt::matmul_out(out, a, b);
    EXPECT_TRUE(r.is_same(out));
    EXPECT_EQ(out.sizes(), IntArrayRef(c.result));
    expect_values_near(out, naive_matmul(a, b, c.batch), 0);
  }
  const Tensor a = random_tensor({3, 2}, kFloat32, 310), b = random_tensor({2, 4}, kFloat32, 311);
  // A transposed out keeps its strides.
  Tensor base = mt::zeros({12});
  Tensor t_out = strided_view(base, {3, 4}, {1, 3});
  mt::matmul_out(t_out, a, b);
  EXPECT_EQ(t_out.strides(), IntArrayRef({1, 3}));
  expect_values_near(t_out, naive_matmul(a, b, {}), 0);

  Tensor dbl = mt::full({3, 4}, 9., TensorOptions(kFloat64));
  expect_error<TypeError>([&] { mt::matmul_out(dbl, a, b); },
                          "Expected out tensor to have dtype mt.float32, but got mt.float64 instead");
  expect_values_near(dbl, std::vector<double>(12, 9), 0);
  Tensor wrong = mt::zeros({5});
  expect_error<RuntimeError>([&] { mt::matmul_out(wrong, a, b); },
                             "matmul: output with shape [5] doesn't match the result shape [3, 4]");
}

TEST(LinalgMatmul, MetaShapes) {
  const TensorOptions meta = TensorOptions(kFloat32).device(kMeta);
  for (const MatmulCase& c : kCases) {
    const Tensor r = mt::matmul(mt::empty(c.a, meta), mt::empty(c.b, meta));
    EXPECT_TRUE(r.is_meta());
    EXPECT_EQ(r.sizes(), IntArrayRef(c.result));
  }
}

TEST(LinalgMatmul, Errors) {
  expect_error<RuntimeError>([] { mt::matmul(mt::zeros({}), mt::zeros({3})); },
                             "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  expect_error<RuntimeError>([] { mt::matmul(mt::zeros({3}), mt::zeros({})); },
                             "both arguments to matmul need to be at least 1D, but they are 1D and 0D");
  expect_error<RuntimeError>([] { mt::matmul(mt::zeros({3}), mt::zeros({4})); },
                             "inconsistent tensor size, expected tensor [3] and src [4]");
  expect_error<RuntimeError>(
      [] {
        mt::matmul(mt::zeros({2, 3}), mt::zeros({4}));
      },
      "size mismatch, got input (2), mat (2x3), vec (4)");
  expect_error<RuntimeError>([] { mt::matmul(mt::zeros({3}), mt::zeros({4, 5})); },
                             "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)");
  expect_error<RuntimeError>([] { mt::matmul(mt::zeros({2, 2, 3}), mt::zeros({4, 5})); },
                             "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)");
  expect_error<RuntimeError>(
      [] {
        mt::matmul(mt::zeros({2, 2, 3}), mt::zeros({4}));
      },
      "size mismatch, got input (4), mat (4x3), vec (4)");
  expect_error<RuntimeError>([] { mt::matmul(mt::zeros({2, 2, 3}), mt::zeros({2, 4, 5})); },
                             "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
  expect_error<RuntimeError>([] { mt::matmul(mt::zeros({2, 2, 3}), mt::zeros({3, 3, 4})); },
                             "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
                             "dimension 0");
  expect_error<TypeError>([] { mt::matmul(mt::zeros({2, 3}, TensorOptions(kFloat64)), mt::zeros({3, 2})); },
                          "expected m1 and m2 to have the same dtype, but got: mt.float64 != mt.float32");
  // 2-D @ 1-D is mv, PyTorch's addmv into a result made like the vector.
  expect_error<TypeError>([] { mt::matmul(mt::zeros({2, 3}, TensorOptions(kFloat64)), mt::zeros({3})); },
                          "addmv input tensors must have the same dtype, but got mt.float32, mt.float64, and mt.float32");
  expect_error<TypeError>([] { mt::matmul(mt::zeros({3}, TensorOptions(kInt64)), mt::zeros({3})); },
                          "dot : expected both vectors to have same dtype, but found mt.int64 and mt.float32");
}

// --- mv --------------------------------------------------------------------------------------------------

TEST(LinalgMv, MatchesReferenceForEveryDtypeAndLayout) {
  uint64_t seed = 350;
  for (ScalarType dt : kMatmulTypes) {
    const Tensor a = random_tensor({4, 3}, dt, seed++), v = random_tensor({3}, dt, seed++);
    const Tensor r = mt::mv(a, v);
    EXPECT_EQ(r.sizes(), IntArrayRef({4}));
    EXPECT_EQ(r.dtype(), dt);
    expect_values_near(r, naive_matmul(a, v, {}), tolerance(dt));
    expect_values_near(a.mv(v), naive_matmul(a, v, {}), tolerance(dt));
  }
  const Tensor at = transposed_last({4, 3}, kFloat64, 360), vs = transposed_last({3}, kFloat64, 361);
  expect_values_near(mt::mv(at, vs), naive_matmul(at, vs, {}), 1e-12);
  EXPECT_EQ(mt::mv(mt::zeros({0, 3}), mt::zeros({3})).sizes(), IntArrayRef({0}));
  expect_values_near(mt::mv(mt::ones({2, 0}), mt::zeros({0})), {0, 0}, 0);
  const TensorOptions meta = TensorOptions(kFloat32).device(kMeta);
  const Tensor m = mt::mv(mt::empty({5, 2}, meta), mt::empty({2}, meta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes(), IntArrayRef({5}));
}

TEST(LinalgMv, Errors) {
  expect_error<RuntimeError>([] { mt::mv(mt::zeros({3}), mt::zeros({3})); },
                             "vector + matrix @ vector expected, got 1, 1, 1");
  expect_error<RuntimeError>(
      [] {
        mt::mv(mt::zeros({2, 3}), mt::zeros({3, 1}));
      },
      "vector + matrix @ vector expected, got 1, 2, 2");
  expect_error<RuntimeError>(
      [] {
        mt::mv(mt::zeros({2, 2, 3}), mt::zeros({3}));
      },
      "vector + matrix @ vector expected, got 1, 3, 1");
  expect_error<RuntimeError>(
      [] {
        mt::mv(mt::zeros({2, 3}), mt::zeros({4}));
      },
      "size mismatch, got input (2), mat (2x3), vec (4)");
  expect_error<TypeError>(
      [] {
        mt::mv(mt::zeros({2, 3}, TensorOptions(kFloat64)), mt::zeros({3}));
      },
      "addmv input tensors must have the same dtype, but got mt.float32, mt.float64, and mt.float32");
}

// --- linear ----------------------------------------------------------------------------------------------

// input @ weight^T + bias from the definitions; weight^T is a transposed view built by hand.
std::vector<double> naive_linear(const Tensor& input, const Tensor& weight, const Tensor* bias,
                                 const std::vector<int64_t>& batch) {
  const Tensor wt = weight.dim() == 2 ? strided_view(weight, {weight.size(1), weight.size(0)},
                                                     {weight.stride(1), weight.stride(0)}, weight.storage_offset())
                                      : weight;
  std::vector<double> out = naive_matmul(input, wt, batch);
  if (bias) {
    const int64_t n = weight.dim() == 2 ? weight.size(0) : 1;
    for (size_t i = 0; i < out.size(); ++i) out[i] += element(*bias, bias->dim() == 0 ? 0 : i % n);
  }
  return out;
}

TEST(LinalgLinear, MatchesReferenceWithAndWithoutBias) {
  uint64_t seed = 400;
  for (ScalarType dt : kMatmulTypes) {
    const Tensor x = random_tensor({4, 3}, dt, seed++), w = random_tensor({5, 3}, dt, seed++);
    const Tensor bias = random_tensor({5}, dt, seed++);
    const Tensor with_bias = mt::linear(x, w, bias);
    EXPECT_EQ(with_bias.sizes(), IntArrayRef({4, 5}));
    EXPECT_EQ(with_bias.dtype(), dt);
    expect_values_near(with_bias, naive_linear(x, w, &bias, {}), tolerance(dt));
    expect_values_near(mt::linear(x, w), naive_linear(x, w, nullptr, {}), tolerance(dt));
  }
}

TEST(LinalgLinear, BatchedOneDimAndScalarBias) {
  const Tensor w = random_tensor({5, 3}, kFloat64, 500), bias = random_tensor({5}, kFloat64, 501);
  // Contiguous batches fold into one addmm; a transposed one goes through matmul and add.
  const Tensor x = random_tensor({2, 4, 3}, kFloat64, 502);
  const Tensor xt = transposed_last({2, 4, 3}, kFloat64, 503);
  EXPECT_EQ(mt::linear(x, w, bias).sizes(), IntArrayRef({2, 4, 5}));
  expect_values_near(mt::linear(x, w, bias), naive_linear(x, w, &bias, {2}), 1e-12);
  expect_values_near(mt::linear(xt, w, bias), naive_linear(xt, w, &bias, {2}), 1e-12);
  const Tensor x4 = random_tensor({2, 1, 2, 3}, kFloat64, 504);
  EXPECT_EQ(mt::linear(x4, w, bias).sizes(), IntArrayRef({2, 1, 2, 5}));
  expect_values_near(mt::linear(x4, w, bias), naive_linear(x4, w, &bias, {2, 1}), 1e-12);

  const Tensor v = random_tensor({3}, kFloat64, 505);
  EXPECT_EQ(mt::linear(v, w, bias).sizes(), IntArrayRef({5}));
  expect_values_near(mt::linear(v, w, bias), naive_linear(v, w, &bias, {}), 1e-12);
  const Tensor scalar_bias = random_tensor({}, kFloat64, 506);
  expect_values_near(mt::linear(x, w, scalar_bias), naive_linear(x, w, &scalar_bias, {2}), 1e-12);
  // A 1-D weight gives one output per row.
  const Tensor w1 = random_tensor({3}, kFloat64, 507);
  EXPECT_EQ(mt::linear(v, w1).dim(), 0);
  expect_values_near(mt::linear(random_tensor({4, 3}, kFloat64, 508), w1),
                     naive_matmul(random_tensor({4, 3}, kFloat64, 508), w1, {}), 1e-12);
  EXPECT_EQ(mt::linear(mt::empty({2, 0, 3}), mt::empty({5, 3}), mt::zeros({5})).sizes(), IntArrayRef({2, 0, 5}));
}

TEST(LinalgLinear, MetaAndErrors) {
  const TensorOptions meta = TensorOptions(kFloat32).device(kMeta);
  EXPECT_EQ(mt::linear(mt::empty({7, 2, 3}, meta), mt::empty({4, 3}, meta), mt::empty({4}, meta)).sizes(),
            IntArrayRef({7, 2, 4}));
  expect_error<RuntimeError>([] { mt::linear(mt::zeros({2, 3}), mt::zeros({4, 2})); },
                             "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)");
  expect_error<RuntimeError>([] { mt::linear(mt::zeros({2, 3}), mt::zeros({4, 3}), mt::zeros({5})); },
                             "The expanded size of the tensor (4) must match the existing size (5) at non-singleton "
                             "dimension 1");
  expect_error<RuntimeError>([] { mt::linear(mt::zeros({}), mt::zeros({4, 3})); },
                             "both arguments to matmul need to be at least 1D, but they are 0D and 2D");
  const Tensor f64_bias = mt::zeros({4}, TensorOptions(kFloat64));
  expect_error<TypeError>([&] { mt::linear(mt::zeros({2, 3}), mt::zeros({4, 3}), f64_bias); },
                          "self and mat2 must have the same dtype, but got mt.float64 and mt.float32");
  expect_error<TypeError>([&] { mt::linear(mt::zeros({2, 3}, TensorOptions(kFloat64)), mt::zeros({4, 3}), mt::zeros({4})); },
                          "mat1 and mat2 must have the same dtype, but got mt.float64 and mt.float32");
  expect_error<TypeError>([&] { mt::linear(mt::zeros({2, 3}), mt::zeros({4, 3}, TensorOptions(kFloat64))); },
                          "expected m1 and m2 to have the same dtype, but got: mt.float32 != mt.float64");
}

// --- outer -----------------------------------------------------------------------------------------------

TEST(LinalgOuter, MatchesReferenceAndPromotes) {
  struct Case {
    ScalarType a, b, result;
  };
  const Case cases[] = {{kFloat32, kFloat32, kFloat32}, {kInt64, kFloat32, kFloat32}, {kBool, kBool, kBool},
                        {kInt64, kBool, kInt64},         {kFloat16, kBFloat16, kFloat32}, {kFloat64, kInt64, kFloat64}};
  uint64_t seed = 600;
  for (const Case& c : cases) {
    const Tensor a = random_tensor({3}, c.a, seed++);
    const Tensor b = strided_view(random_tensor({8}, c.b, seed++), {4}, {2}, 1);
    const Tensor r = mt::outer(a, b);
    EXPECT_EQ(r.sizes(), IntArrayRef({3, 4}));
    EXPECT_EQ(r.dtype(), c.result);
    std::vector<double> expected;
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j)
        expected.push_back(c.result == kBool ? (element(a, i) != 0 && element(b, j) != 0)
                                             : element(a, i) * element(b, j));
    expect_values_near(r, expected, tolerance(c.result));
  }
  EXPECT_EQ(mt::outer(mt::ones({0}), mt::ones({4})).sizes(), IntArrayRef({0, 4}));
}

TEST(LinalgOuter, Errors) {
  expect_error<RuntimeError>([] { mt::outer(mt::zeros({3, 1}), mt::zeros({4})); },
                             "outer: Expected 1-D argument self, but got 2-D");
  expect_error<RuntimeError>([] { mt::outer(mt::zeros({3}), mt::zeros({})); },
                             "outer: Expected 1-D argument vec2, but got 0-D");
}

}  // namespace
