// layer_norm and embedding against naive double-precision loops: every normalized_shape of 3-D
// inputs, with and without weight and bias, each floating dtype, transposed inputs, empty inputs, the
// embedding lookup for every rank of indices and dtype of weight, Meta shapes and every error.
#include "nn_reference.h"
#include "ops/api/embedding.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/layer_norm.h"
#include "ops/api/ones.h"

namespace {

using namespace mt;
using namespace mt::testing;
using namespace mt::testing::nn;

// Each slice over the last `n` dims: (x - mean) / sqrt(biased var + eps) * w + b (w, b over the slice).
std::vector<double> naive_layer_norm(const Tensor& x, int64_t n, const std::vector<double>& w,
                                     const std::vector<double>& b, double eps) {
  int64_t slice = 1;
  for (int64_t d = x.dim() - n; d < x.dim(); ++d) slice *= x.size(d);
  const std::vector<double> v = values(x);
  std::vector<double> out(v.size());
  for (size_t start = 0; start < v.size(); start += slice) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < slice; ++i) mean += v[start + i] / slice;
    for (int64_t i = 0; i < slice; ++i) var += (v[start + i] - mean) * (v[start + i] - mean) / slice;
    for (int64_t i = 0; i < slice; ++i) {
      out[start + i] = (v[start + i] - mean) / std::sqrt(var + eps) * (w.empty() ? 1 : w[i]) + (b.empty() ? 0 : b[i]);
    }
  }
  return out;
}

double norm_tol(ScalarType dt) { return dt == kFloat32 ? 1e-5 : dt == kFloat64 ? 1e-12 : dt == kFloat16 ? 4e-3 : 3e-2; }

TEST(NNLayers, LayerNormMatchesReferenceForEveryShapeAffineAndDtype) {
  uint64_t seed = 1;
  for (ScalarType dt : kFloatTypes) {
    const Tensor x = random_tensor({2, 3, 4}, dt, seed++);
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{4}, {3, 4}, {2, 3, 4}}) {
      const int64_t n = static_cast<int64_t>(shape.size());
      std::vector<double> w, b;
      for (int64_t i = 0; i < mt::empty(shape).numel(); ++i) {
        w.push_back(0.5 + 0.25 * (i % 5));
        b.push_back(-1 + 0.5 * (i % 3));
      }
      SCOPED_TRACE(x.toString() + " normalized over " + std::to_string(n) + " dims");
      const Tensor plain = mt::layer_norm(x, shape);
      EXPECT_EQ(plain.dtype(), dt);
      EXPECT_EQ(plain.sizes(), x.sizes());
      expect_close(plain, naive_layer_norm(x, n, {}, {}, 1e-5), norm_tol(dt));
      expect_close(mt::layer_norm(x, shape, make(w, shape, dt), make(b, shape, dt), 0.1),
                   naive_layer_norm(x, n, w, b, 0.1), norm_tol(dt));
      expect_close(mt::layer_norm(x, shape, make(w, shape, dt)), naive_layer_norm(x, n, w, {}, 1e-5), norm_tol(dt));
      expect_close(mt::layer_norm(x, shape, std::nullopt, make(b, shape, dt)), naive_layer_norm(x, n, {}, b, 1e-5),
                   norm_tol(dt));
      if (dt == kFloat16 || dt == kBFloat16) {  // float32 weight and bias with a 16-bit input, as in PyTorch
        const Tensor mixed = mt::layer_norm(x, shape, make(w, shape, kFloat32), make(b, shape, kFloat32), 0.1);
        EXPECT_EQ(mixed.dtype(), dt);
        expect_close(mixed, naive_layer_norm(x, n, w, b, 0.1), norm_tol(dt));
      }
    }
  }
}

TEST(NNLayers, LayerNormReadsTransposedInputsAndHandlesConstantAndEmptySlices) {
  const Tensor t = transposed_copy(random_tensor({3, 5, 4}, kFloat32, 10));  // last two dims swapped in memory
  expect_close(mt::layer_norm(t, {4}), naive_layer_norm(t, 1, {}, {}, 1e-5), 1e-5);
  expect_close(mt::layer_norm(t, {5, 4}), naive_layer_norm(t, 2, {}, {}, 1e-5), 1e-5);
  // A constant slice has zero variance: the output is 0, kept finite by eps.
  expect_close(mt::layer_norm(mt::full({2, 3}, 7.0), {3}), std::vector<double>(6, 0), 0);
  // Large offsets do not cost precision.
  const Tensor big = make({1e4 + 1, 1e4 + 2, 1e4 + 3}, {1, 3});
  expect_close(mt::layer_norm(big, {3}), naive_layer_norm(big, 1, {}, {}, 1e-5), 1e-4);
  EXPECT_EQ(mt::layer_norm(mt::empty({0, 3}), {3}).sizes(), IntArrayRef({0, 3}));
  EXPECT_EQ(mt::layer_norm(mt::empty({3, 0}), {0}).sizes(), IntArrayRef({3, 0}));
  expect_close(mt::layer_norm(make({1.5, -2}, {2}), {2}), naive_layer_norm(make({1.5, -2}, {2}), 1, {}, {}, 1e-5), 1e-5);
}

TEST(NNLayers, EmbeddingLooksUpRowsForEveryIndexRankAndWeightDtype) {
  uint64_t seed = 20;
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16, kBFloat16, kInt64, kBool}) {
    const Tensor w = random_tensor({5, 3}, dt, seed++);
    const std::vector<double> wv = values(w);
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{4}, {2, 3}, {}, {0}, {2, 0}, {1, 2, 2}}) {
      const Tensor idx0 = mt::empty(shape, TensorOptions(kInt64));
      std::vector<double> iv;
      for (int64_t i = 0; i < idx0.numel(); ++i) iv.push_back(static_cast<double>((i * 3 + 1) % 5));
      const Tensor idx = make(iv, shape, kInt64);
      const Tensor e = mt::embedding(w, idx);
      std::vector<int64_t> expected_shape = shape;
      expected_shape.push_back(3);
      EXPECT_EQ(e.sizes(), IntArrayRef(expected_shape));
      EXPECT_EQ(e.dtype(), dt);
      std::vector<double> expected;
      for (double i : iv)
        for (int64_t j = 0; j < 3; ++j) expected.push_back(wv[static_cast<int64_t>(i) * 3 + j]);
      expect_close(e, expected, 0);
    }
  }
  // A transposed weight and strided indices; padding_idx changes only gradients.
  const Tensor wt = transposed_copy(random_tensor({4, 3}, kFloat64, 40));
  const Tensor idx = strided_view(make({3, 9, 0, 9, 3}, {5}, kInt64), {3}, {2});
  std::vector<double> expected;
  for (int64_t i : {3, 0, 3})
    for (int64_t j = 0; j < 3; ++j) expected.push_back(element(wt, i * 3 + j));
  expect_close(mt::embedding(wt, idx), expected, 0);
  expect_close(mt::embedding(wt, idx, 3), expected, 0);
}

TEST(NNLayers, MetaTensorsGetShapesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor x = mt::empty({2, 3, 4}, meta.dtype(kBFloat16));
  EXPECT_EQ(mt::layer_norm(x, {3, 4}).sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_EQ(mt::layer_norm(x, {4}).dtype(), kBFloat16);
  EXPECT_TRUE(mt::layer_norm(x, {4}).is_meta());
  const Tensor e = mt::embedding(mt::empty({10, 6}, meta), mt::empty({2, 5}, meta.dtype(kInt64)));
  EXPECT_EQ(e.sizes(), IntArrayRef({2, 5, 6}));
  EXPECT_TRUE(e.is_meta());
}

TEST(NNLayers, ErrorsNameTheProblem) {
  const Tensor x = mt::ones({2, 3});
  expect_error<RuntimeError>([&] { mt::layer_norm(x, {4}); },
                             "Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]");
  expect_error<RuntimeError>([&] { mt::layer_norm(x, {2, 4}); },
                             "Given normalized_shape=[2, 4], expected input with shape [*, 2, 4], but got input of size[2, 3]");
  expect_error<RuntimeError>([&] { mt::layer_norm(x, {1, 2, 3}); },
                             "Given normalized_shape=[1, 2, 3], expected input with shape [*, 1, 2, 3], but got input of size[2, 3]");
  expect_error<RuntimeError>([&] { mt::layer_norm(x, std::vector<int64_t>{}); },
                             "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
                             "but got normalized_shape = []");
  expect_error<RuntimeError>([&] { mt::layer_norm(x, {3}, mt::ones({4})); },
                             "Expected weight to be of same shape as normalized_shape, but got weight of shape [4] and "
                             "normalized_shape = [3]");
  expect_error<RuntimeError>([&] { mt::layer_norm(x, {3}, mt::ones({1, 3})); },
                             "Expected weight to be of same shape as normalized_shape, but got weight of shape [1, 3]");
  expect_error<RuntimeError>([&] { mt::layer_norm(x, {3}, std::nullopt, mt::ones({2})); },
                             "Expected bias to be of same shape as normalized_shape, but got bias of shape [2] and "
                             "normalized_shape = [3]");
  expect_error<RuntimeError>([&] { mt::layer_norm(x, {3}, mt::ones({3}, TensorOptions(kFloat64))); },
                             "expected scalar type mt.float32 but found mt.float64");
  expect_error<RuntimeError>([] { mt::layer_norm(mt::ones({2, 3}), {3}, mt::ones({3}, TensorOptions(kFloat16))); },
                             "expected scalar type mt.float32 but found mt.float16");
  expect_error<RuntimeError>(
      [] { mt::layer_norm(mt::ones({2, 3}, TensorOptions(kFloat16)), {3}, mt::ones({3}, TensorOptions(kFloat64))); },
      "mixed dtype (CPU): expect parameter to have scalar type of Float");
  expect_error<NotImplementedError>([] { mt::layer_norm(mt::ones({2, 3}, TensorOptions(kInt64)), {3}); },
                                    "\"layer_norm\" not implemented for 'mt.int64'");
  const Tensor w = mt::ones({4, 3});
  expect_error<IndexError>([&] { mt::embedding(w, mt::tensor({1, 5})); }, "index out of range in self");
  expect_error<IndexError>([&] { mt::embedding(w, mt::tensor({-1})); }, "index out of range in self");
  expect_error<RuntimeError>([&] { mt::embedding(mt::ones({4}), mt::tensor({1})); }, "'weight' must be 2-D");
  expect_error<RuntimeError>([&] { mt::embedding(mt::ones({4, 2, 3}), mt::tensor({1})); }, "'weight' must be 2-D");
  expect_error<RuntimeError>([&] { mt::embedding(w, mt::tensor({1.0})); },
                             "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
                             "Int; but got mt.float32 instead (while checking arguments for embedding)");
}

}  // namespace
