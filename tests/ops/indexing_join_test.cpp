// cat, stack, repeat against a naive coordinate reference: every dtype and mixed dtypes (promotion),
// non-contiguous inputs, zero-size and legacy empty inputs, Meta tensors, and every error.
#include "views_test_util.h"
#include "ops/api/cat.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/api/stack.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

// cat's result at c: the input whose range along dim holds c[dim], at the shifted coordinate.
std::vector<double> naive_cat(const std::vector<Tensor>& parts, int64_t dim, IntArrayRef out_shape) {
  return reference(out_shape, [&](const Coords& c) {
    int64_t k = c[dim];
    for (const Tensor& p : parts) {
      if (p.dim() == 1 && p.size(0) == 0) continue;
      if (k < p.size(dim)) {
        Coords local = c;
        local[dim] = k;
        return at(p, local);
      }
      k -= p.size(dim);
    }
    ADD_FAILURE() << "coordinate outside every input";
    return 0.0;
  });
}

TEST(IndexingJoin, CatConcatenatesAlongADim) {
  for (ScalarType dt : kEveryDtype) {
    const Tensor a = iota({2, 3, 4}, dt), b = iota({2, 2, 4}, dt);
    const Tensor r = mt::cat({a, b}, 1);
    EXPECT_EQ(r.dtype(), dt);
    expect_geometry(r, {2, 5, 4}, {20, 4, 1}, 0);
    EXPECT_EQ(values(r), naive_cat({a, b}, 1, r.sizes()));
    EXPECT_FALSE(same_storage(r, a));
  }
  // Non-contiguous inputs give a contiguous result.
  const Tensor x = iota({2, 3, 4});
  const Tensor xt = x.transpose(1, 2), stepped = iota({2, 8, 3}).slice(1, 0, std::nullopt, 2);
  const Tensor r = mt::cat({xt, stepped, xt}, -2);
  expect_geometry(r, {2, 12, 3}, {36, 3, 1}, 0);
  EXPECT_EQ(values(r), naive_cat({xt, stepped, xt}, 1, r.sizes()));
  expect_geometry(mt::cat({x.transpose(1, 2), x.transpose(1, 2)}, 0), {4, 4, 3}, {12, 3, 1}, 0);
  EXPECT_EQ(values(mt::cat({x}, 0)), values(x));
  expect_geometry(mt::cat({x, x}, -1), {2, 3, 8}, {24, 8, 1}, 0);
  expect_geometry(mt::cat({x, mt::zeros({2, 0, 4})}, 1), {2, 3, 4}, {12, 4, 1}, 0);
}

TEST(IndexingJoin, CatPromotesAcrossInputs) {
  const Tensor i = mt::tensor({1, 2}), f = mt::tensor({0.5f}), b = mt::tensor({true});
  const Tensor r = mt::cat({i, f});
  EXPECT_EQ(r.dtype(), kFloat32);
  EXPECT_EQ(values(r), (std::vector<double>{1, 2, 0.5}));
  EXPECT_EQ(mt::cat({b, mt::tensor({2})}).dtype(), kInt64);
  EXPECT_EQ(values(mt::cat({b, mt::tensor({2})})), (std::vector<double>{1, 2}));
  EXPECT_EQ(mt::cat({mt::ones({1}, TensorOptions(kFloat16)), mt::ones({1}, TensorOptions(kBFloat16))}).dtype(), kFloat32);
  EXPECT_EQ(mt::cat({f, mt::ones({1}, TensorOptions(kFloat64))}).dtype(), kFloat64);
}

TEST(IndexingJoin, CatSkipsLegacyEmptyOneDimTensors) {
  const Tensor x = iota({2, 3});
  const Tensor empty = mt::zeros({0});
  EXPECT_EQ(values(mt::cat({x, empty}, 0)), values(x));
  const Tensor r = mt::cat({x, empty, x}, 1);
  expect_geometry(r, {2, 6}, {6, 1}, 0);
  EXPECT_EQ(values(r), naive_cat({x, empty, x}, 1, r.sizes()));
  expect_geometry(mt::cat({empty, x}, -1), {2, 3}, {3, 1}, 0);       // dim wraps against x
  expect_geometry(mt::cat({empty, empty}, 3), {0}, {1}, 0);          // all skipped: no dim to wrap
  EXPECT_EQ(mt::cat({empty, mt::zeros({0}, TensorOptions(kInt64))}).dtype(), kFloat32);
  // A skipped tensor still takes part in the dtype.
  EXPECT_EQ(mt::cat({mt::tensor({true, false}), mt::zeros({0}, TensorOptions(kInt64))}).dtype(), kInt64);
  expect_geometry(mt::cat({mt::zeros({0, 3}), mt::zeros({2, 3})}), {2, 3}, {3, 1}, 0);
  expect_geometry(mt::cat({mt::zeros({1, 0}), empty}), {1, 0}, {1, 1}, 0);
}

TEST(IndexingJoin, CatOnMetaGivesShapeAndDtype) {
  const Tensor r = mt::cat({mt::empty({2, 3}, meta_options(kInt64)), mt::empty({2, 5}, meta_options(kFloat16))}, 1);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.dtype(), kFloat16);
  expect_geometry(r, {2, 8}, {8, 1}, 0);
  expect_error<RuntimeError>([] { mt::cat({mt::empty({2, 3}, meta_options()), mt::empty({3, 3}, meta_options())}, 1); },
                             "Sizes of tensors must match except in dimension 1");
}

TEST(IndexingJoin, CatErrors) {
  const Tensor x = iota({2, 3, 4});
  expect_error<RuntimeError>([] { mt::cat({}); }, "torch.cat(): expected a non-empty list of Tensors");
  expect_error<IndexError>([&] { mt::cat({x, x}, 3); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<RuntimeError>([&] { mt::cat({x, x.slice(1, 0, 2)}, 2); },
                             "Sizes of tensors must match except in dimension 2. Expected size 3 but got size 2 for "
                             "tensor number 1 in the list.");
  expect_error<RuntimeError>([&] { mt::cat({x, x[0]}, 0); }, "Tensors must have same number of dimensions: got 3 and 2");
  expect_error<RuntimeError>([&] { mt::cat({x, mt::zeros({2, 0})}, 1); }, "Tensors must have same number of dimensions: got 3 and 2");
  expect_error<RuntimeError>([] { mt::cat({mt::tensor(1.f), mt::tensor(2.f)}); },
                             "zero-dimensional tensor (at position 0) cannot be concatenated");
  expect_error<RuntimeError>([] { mt::cat({mt::tensor({1.f}), mt::tensor(2.f)}); },
                             "zero-dimensional tensor (at position 1) cannot be concatenated");
  expect_error<RuntimeError>([] { mt::cat({mt::zeros({2}), mt::empty({2}, meta_options())}); },
                             "Expected all tensors to be on the same device, but found at least two devices, cpu and meta!");
}

TEST(IndexingJoin, StackAddsANewDim) {
  for (ScalarType dt : kEveryDtype) {
    const Tensor a = iota({2, 3}, dt), b = iota({3, 2}, dt).t();
    for (int64_t dim : {0, 1, 2, -1}) {
      const Tensor r = mt::stack({a, b}, dim);
      const int64_t d = dim < 0 ? dim + 3 : dim;
      std::vector<int64_t> shape = {2, 3};
      shape.insert(shape.begin() + d, 2);
      ASSERT_EQ(r.sizes(), IntArrayRef(shape));
      EXPECT_EQ(values(r), reference(shape, [&](const Coords& c) {
                  Coords local = c;
                  local.erase(local.begin() + d);
                  return at(c[d] == 0 ? a : b, local);
                }));
    }
  }
  const Tensor x = iota({2, 3, 4});
  expect_geometry(mt::stack({x, x}, 3), {2, 3, 4, 2}, {24, 8, 2, 1}, 0);
  expect_geometry(mt::stack({mt::tensor(3.f), mt::tensor(4.f)}), {2}, {1}, 0);
  const Tensor mixed = mt::stack({mt::tensor({1}), mt::tensor({2.f})});
  EXPECT_EQ(mixed.dtype(), kFloat32);
  expect_geometry(mixed, {2, 1}, {1, 1}, 0);
  expect_geometry(mt::stack({mt::zeros({0}), mt::zeros({0})}), {2, 0}, {1, 1}, 0);
  const Tensor m = mt::stack({mt::empty({2, 3}, meta_options()), mt::empty({2, 3}, meta_options())}, 1);
  EXPECT_TRUE(m.is_meta());
  expect_geometry(m, {2, 2, 3}, {6, 3, 1}, 0);
  expect_error<RuntimeError>([] { mt::stack({}); }, "stack expects a non-empty TensorList");
  expect_error<IndexError>([&] { mt::stack({x, x}, 4); }, "Dimension out of range (expected to be in range of [-4, 3], but got 4)");
  expect_error<RuntimeError>([&] { mt::stack({x, x.slice(0, 0, 1)}); },
                             "stack expects each tensor to be equal size, but got [2, 3, 4] at entry 0 and [1, 3, 4] at entry 1");
}

TEST(IndexingJoin, RepeatTilesTheTensor) {
  for (ScalarType dt : kEveryDtype) {
    const Tensor y = iota({2, 3}, dt).t();  // non-contiguous source
    for (const std::vector<int64_t>& reps : std::vector<std::vector<int64_t>>{{2, 1}, {1, 2}, {2, 3, 2}, {1, 0}}) {
      const Tensor r = y.repeat(reps);
      const int64_t pad = static_cast<int64_t>(reps.size()) - 2;
      std::vector<int64_t> shape;
      for (size_t i = 0; i < reps.size(); ++i)
        shape.push_back(reps[i] * (static_cast<int64_t>(i) < pad ? 1 : y.size(static_cast<int64_t>(i) - pad)));
      ASSERT_EQ(r.sizes(), IntArrayRef(shape));
      EXPECT_TRUE(r.is_contiguous());
      EXPECT_FALSE(same_storage(r, y));
      EXPECT_EQ(values(r), reference(shape, [&](const Coords& c) {
                  return at(y, {c[pad] % y.size(0), c[pad + 1] % y.size(1)});
                }));
    }
  }
  const Tensor y = mt::tensor({{1, 2}, {3, 4}});
  EXPECT_EQ(values(y.t().repeat({1, 2})), (std::vector<double>{1, 3, 1, 3, 2, 4, 2, 4}));
  expect_geometry(y.repeat({1, 2, 3}), {1, 4, 6}, {24, 6, 1}, 0);
  EXPECT_FALSE(same_storage(y.repeat({1, 1}), y)) << "repeat always copies, even when nothing is repeated";
  EXPECT_FALSE(same_storage(y.repeat({0, 1}), y));
  EXPECT_EQ(mt::tensor(5).repeat({}).dim(), 0);
  EXPECT_EQ(values(mt::tensor(5).repeat({3})), (std::vector<double>{5, 5, 5}));
  const Tensor m = mt::empty({2, 3}, meta_options()).repeat({2, 1, 2});
  EXPECT_TRUE(m.is_meta());
  expect_geometry(m, {2, 2, 6}, {12, 6, 1}, 0);
  expect_error<RuntimeError>([&] { y.repeat({2}); },
                             "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  expect_error<RuntimeError>([&] { y.repeat({-1, 2}); }, "Trying to create tensor with negative dimension -2: [-2, 4]");
  expect_error<RuntimeError>([] { mt::zeros({0}).repeat({-1}); }, "Trying to create tensor with negative dimension -1: [-1]");
}

}  // namespace
