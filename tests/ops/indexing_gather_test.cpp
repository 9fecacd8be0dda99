// index_select and gather: values against naive coordinate references for every dtype, strided and
// 0-dim operands, empty indices, Meta shapes, threads, and every error.
#include "ops/infra/Parallel.h"
#include "views_test_util.h"
#include "ops/api/empty.h"
#include "ops/api/gather.h"
#include "ops/api/index_select.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

Tensor longs(const std::vector<int64_t>& v, std::vector<int64_t> shape) {
  return mt::tensor(v, shape, TensorOptions(kInt64));
}

// Index values (7 i + 3) mod size: scattered, repeating, reproducible, all within [0, size).
Tensor pattern_index(std::vector<int64_t> shape, int64_t size) {
  Tensor idx = mt::empty(shape, TensorOptions(kInt64));
  for (int64_t i = 0; i < idx.numel(); ++i) idx.data_ptr<int64_t>()[i] = (i * 7 + 3) % size;
  return idx;
}

// gather's definition: out[c] = self[c with c[dim] replaced by index[c]].
std::vector<double> naive_gather(const Tensor& self, int64_t dim, const Tensor& index) {
  return reference(index.sizes(), [&](const Coords& c) {
    Coords src = c;
    if (!src.empty()) src[dim] = static_cast<int64_t>(at(index, c));
    return at(self, src);
  });
}

TEST(IndexingGather, IndexSelectPicksSlicesAlongADim) {
  for (ScalarType dt : kEveryDtype) {
    const Tensor x = iota({2, 3, 4}, dt);
    for (int64_t dim : {0, 1, 2, -1}) {
      const int64_t d = dim < 0 ? dim + 3 : dim;
      const Tensor idx = pattern_index({5}, x.size(d));
      const Tensor r = x.index_select(dim, idx);
      std::vector<int64_t> shape = {2, 3, 4};
      shape[d] = 5;
      ASSERT_EQ(r.sizes(), IntArrayRef(shape));
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_TRUE(r.is_contiguous());
      EXPECT_EQ(values(r), reference(shape, [&](const Coords& c) {
                  Coords src = c;
                  src[d] = static_cast<int64_t>(element(idx, c[d]));
                  return at(x, src);
                }));
    }
  }
}

TEST(IndexingGather, IndexSelectStridedZeroDimAndEmpty) {
  const Tensor x = iota({3, 4}).t();                                                 // (4, 3) strides (1, 4)
  const Tensor idx = longs({2, 9, 0, 9, 2, 9}, {6}).slice(0, 0, std::nullopt, 2);  // [2, 0, 2], stride 2
  const Tensor r = mt::index_select(x, 1, idx);
  expect_geometry(r, {4, 3}, {3, 1}, 0);
  EXPECT_EQ(values(r), reference({4, 3}, [&](const Coords& c) {
              return at(x, {c[0], static_cast<int64_t>(element(idx, c[1]))});
            }));
  const Tensor v = mt::tensor({3.f, 4.f});
  expect_geometry(v.index_select(0, mt::tensor(int64_t(1))), {1}, {1}, 0);
  EXPECT_EQ(values(v.index_select(0, mt::tensor(int64_t(1)))), (std::vector<double>{4}));
  const Tensor s = mt::tensor(3.f);
  EXPECT_EQ(s.index_select(0, longs({0}, {1})).dim(), 0);
  EXPECT_EQ(s.index_select(0, mt::tensor(int64_t(0))).item<float>(), 3.f);
  expect_geometry(x.index_select(1, longs({}, {0})), {4, 0}, {1, 1}, 0);
  const Tensor m = mt::empty({2, 3}, meta_options(kFloat64)).index_select(1, mt::empty({5}, meta_options(kInt64)));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dtype(), kFloat64);
  expect_geometry(m, {2, 5}, {5, 1}, 0);
}

// PyTorch takes int32 indices too: the same slices as the int64 index, also strided, on Meta and under
// autograd (the gradient scatters through the int32 index).
TEST(IndexingGather, IndexSelectTakesInt32Indices) {
  const Tensor x = iota({3, 4, 2});
  const Tensor idx = pattern_index({5}, 4);
  EXPECT_EQ(values(x.index_select(1, idx.to(kInt32))), values(x.index_select(1, idx)));
  const Tensor strided = idx.to(kInt32).slice(0, 0, std::nullopt, 2);
  EXPECT_EQ(values(x.index_select(-2, strided)), values(x.index_select(-2, idx.slice(0, 0, std::nullopt, 2))));
  const Tensor m = mt::empty({2, 3}, meta_options(kFloat32)).index_select(0, mt::empty({4}, meta_options(kInt32)));
  expect_geometry(m, {4, 3}, {3, 1}, 0);
  const Tensor w = mt::tensor({1.0, 2.0, 3.0}).requires_grad_();
  mt::index_select(w, 0, mt::tensor({2, 2, 0}, TensorOptions(kInt32))).sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{1, 0, 2}));
}

TEST(IndexingGather, IndexSelectErrors) {
  const Tensor x = iota({2, 3, 4});
  expect_error<IndexError>([&] { x.index_select(1, mt::tensor({0.f, 1.f})); },
                           "index_select(): Expected dtype int32 or int64 for index");
  expect_error<IndexError>([&] { x.index_select(1, mt::tensor({true})); }, "Expected dtype int32 or int64 for index");
  for (ScalarType narrow : {kUInt8, kInt8, kInt16}) {
    expect_error<IndexError>([&] { x.index_select(1, mt::tensor({0, 1}, TensorOptions(narrow))); },
                             "Expected dtype int32 or int64 for index");
  }
  expect_error<IndexError>([&] { x.index_select(1, mt::tensor({0, 3}, TensorOptions(kInt32))); },
                           "index out of range in self");
  expect_error<IndexError>([&] { x.index_select(1, longs({0}, {1, 1})); }, "index_select(): Index is supposed to be a vector");
  expect_error<IndexError>([&] { x.index_select(1, longs({0, 3}, {2})); }, "index out of range in self");
  expect_error<IndexError>([&] { x.index_select(1, longs({-1}, {1})); }, "index out of range in self");
  expect_error<IndexError>([] { mt::zeros({0, 3}).index_select(0, longs({0}, {1})); },
                           "index out of range in self");
  expect_error<IndexError>([] { mt::tensor(3.f).index_select(0, longs({0, 0}, {2})); },
                           "index_select(): Index to scalar can have only 1 value, got 2 value(s)");
  expect_error<IndexError>([] { mt::tensor(3.f).index_select(0, longs({1}, {1})); },
                           "index out of range in self");
  expect_error<IndexError>([&] { x.index_select(3, longs({0}, {1})); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<RuntimeError>([&] { x.index_select(0, mt::empty({1}, meta_options(kInt64))); },
                             "Expected all tensors to be on the same device, but found at least two devices, cpu and meta!");
}

TEST(IndexingGather, GatherReadsSelfAtTheIndexAlongDim) {
  const Tensor x = iota({3, 4});
  EXPECT_EQ(values(x.gather(1, longs({0, 3, 1, 1}, {2, 2}))), (std::vector<double>{0, 3, 5, 5}));
  for (ScalarType dt : kEveryDtype) {
    const Tensor self = iota({4, 5, 3}, dt).transpose(0, 2);  // (3, 5, 4), non-contiguous
    for (int64_t dim : {0, 1, 2}) {
      std::vector<int64_t> shape = {2, 4, 3};
      shape[dim] = 6;  // longer than self along dim, shorter or equal elsewhere
      const Tensor idx = pattern_index({shape[2], shape[1], shape[0]}, self.size(dim)).permute({2, 1, 0});
      const Tensor r = mt::gather(self, dim - 3, idx);
      ASSERT_EQ(r.sizes(), IntArrayRef(shape));
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_TRUE(r.is_contiguous());
      EXPECT_EQ(values(r), naive_gather(self, dim, idx));
    }
  }
}

TEST(IndexingGather, GatherZeroDimEmptyMetaAndThreads) {
  const Tensor s = mt::tensor(3.f);
  EXPECT_EQ(s.gather(0, mt::tensor(int64_t(0))).dim(), 0);
  EXPECT_EQ(s.gather(0, mt::tensor(int64_t(0))).item<float>(), 3.f);
  EXPECT_EQ(values(s.gather(0, longs({0, 0}, {2}))), (std::vector<double>{3, 3}));
  EXPECT_EQ(values(mt::tensor({3.f}).gather(0, mt::tensor(int64_t(0)))), (std::vector<double>{3}));
  const Tensor x = iota({3, 4});
  expect_geometry(x.gather(1, longs({}, {0, 2})), {0, 2}, {2, 1}, 0);
  expect_geometry(x.gather(1, longs({}, {2, 0})), {2, 0}, {1, 1}, 0);
  expect_geometry(x.gather(1, longs({}, {0, 7})), {0, 7}, {7, 1}, 0);  // an empty index is not shape-checked
  expect_geometry(x.gather(1, longs({}, {0})), {0}, {1}, 0);
  const Tensor m = mt::gather(mt::empty({3, 4}, meta_options(kFloat16)), 0, mt::empty({2, 4}, meta_options(kInt64)));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dtype(), kFloat16);
  expect_geometry(m, {2, 4}, {4, 1}, 0);
  // Enough elements to split across threads.
  const Tensor big = iota({300, 200});
  const Tensor idx = pattern_index({300, 2 * kParallelGrain / 300}, 200);
  EXPECT_EQ(values(big.gather(1, idx)), naive_gather(big, 1, idx));
}

TEST(IndexingGather, GatherErrors) {
  const Tensor x = iota({3, 4});
  expect_error<TypeError>([&] { x.gather(1, mt::tensor({{0.f}})); }, "gather(): Expected dtype int64 for index");
  expect_error<IndexError>([&] { x.gather(1, longs({0, 4}, {1, 2})); }, "index 4 is out of bounds for dimension 1 with size 4");
  expect_error<IndexError>([&] { x.gather(1, longs({0, -1}, {1, 2})); }, "index -1 is out of bounds for dimension 1 with size 4");
  expect_error<IndexError>([] { mt::tensor(3.f).gather(0, mt::tensor(int64_t(1))); },
                           "index 1 is out of bounds for dimension 0 with size 1");
  expect_error<RuntimeError>([&] { x.gather(1, longs({0, 1}, {2})); },
                             "Index tensor must have the same number of dimensions as input tensor");
  expect_error<RuntimeError>([&] { x.gather(0, longs({0, 1, 2, 2, 2}, {1, 5})); },
                             "Size does not match at dimension 1 expected index [1, 5] to be smaller than self [3, 4] "
                             "apart from dimension 0");
  expect_error<RuntimeError>([&] { x.gather(1, longs({0, 0, 0, 0}, {4, 1})); },
                             "Size does not match at dimension 0 expected index [4, 1] to be smaller than self [3, 4] "
                             "apart from dimension 1");
  expect_error<IndexError>([&] { x.gather(2, longs({0}, {1, 1})); }, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  expect_error<RuntimeError>([] { mt::gather(mt::empty({3, 4}, meta_options()), 1, mt::empty({4, 1}, meta_options(kInt64))); },
                             "Size does not match at dimension 0");
}

}  // namespace
