// mt::data's datasets: TensorDataset (single examples and gathered batches), Subset, random_split
// (disjoint, covering, seeded) and the permutation behind shuffling, against hand-worked values and a
// reference Fisher-Yates on std::mt19937 (PyTorch's CPU randperm for n below 2^32 / 20), and every error.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/arange.h"
#include "ops/api/ones.h"

namespace {

using mt::Tensor;
using mt::data::Example;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;

// Ten examples: data row i is [2i, 2i + 1], target i is 10 * i.
std::shared_ptr<mt::data::TensorDataset> ten() {
  return std::make_shared<mt::data::TensorDataset>(mt::arange(20, mt::TensorOptions(mt::kFloat32)).view({10, 2}),
                                                   mt::arange(10, mt::TensorOptions(mt::kInt64)) * 10);
}

TEST(DataTensorDataset, ExamplesAreTheSlicesAndBatchesGatherThem) {
  const auto d = ten();
  EXPECT_EQ(d->size(), 10);
  const Example e = d->get(3);
  EXPECT_EQ(values(e.data), (std::vector<double>{6, 7}));
  EXPECT_EQ(e.target.dim(), 0);
  EXPECT_EQ(e.target.item<int64_t>(), 30);
  const Example b = d->get_batch({4, 0, 4});
  EXPECT_EQ(b.data.sizes().vec(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values(b.data), (std::vector<double>{8, 9, 0, 1, 8, 9}));
  EXPECT_EQ(values(b.target), (std::vector<double>{40, 0, 40}));
  // The base class's collation (stacking get()'s results) gives the same batch.
  const Example stacked = d->Dataset::get_batch({4, 0, 4});
  EXPECT_EQ(values(stacked.data), values(b.data));
  EXPECT_EQ(stacked.target.dtype(), mt::kInt64);
}

TEST(DataTensorDataset, Errors) {
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] {
                         mt::data::TensorDataset(mt::ones({3, 2}), mt::ones({4}));
                       }),
                       "TensorDataset: size mismatch between tensors: data has shape [3, 2] and target [4]"));
  EXPECT_THROW(mt::data::TensorDataset(mt::ones({}), mt::ones({})), mt::ValueError);
  const auto d = ten();
  EXPECT_TRUE(contains(message_of<mt::IndexError>([&] { d->get(10); }),
                       "index 10 is out of range for a dataset of size 10"));
  EXPECT_THROW(d->get(-1), mt::IndexError);
  EXPECT_THROW(d->get_batch({1, 10}), mt::IndexError);
}

TEST(DataSubset, PicksTheIndicesInOrder) {
  const auto d = ten();
  const mt::data::Subset s(d, {7, 2, 2});
  EXPECT_EQ(s.size(), 3);
  EXPECT_EQ(s.get(0).target.item<int64_t>(), 70);
  EXPECT_EQ(values(s.get_batch({2, 0}).target), (std::vector<double>{20, 70}));
  EXPECT_THROW(s.get(3), mt::IndexError);
  EXPECT_THROW(s.get_batch({3}), mt::IndexError);
  EXPECT_THROW(mt::data::Subset(d, {0, 10}), mt::IndexError);
}

// The permutation PyTorch's CPU randperm draws for n below 2^32 / 20, from a std::mt19937 seeded as the
// generator is.
std::vector<int64_t> reference_permutation(int64_t n, uint64_t seed) {
  std::mt19937 engine(static_cast<uint32_t>(seed));
  std::vector<int64_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  for (int64_t i = 0; i < n - 1; ++i) std::swap(p[i], p[i + static_cast<int64_t>(engine() % (n - i))]);
  return p;
}

TEST(DataRandomPermutation, DrawsAsPyTorchsRandperm) {
  for (const int64_t n : {0, 1, 2, 10, 1000}) {
    mt::Generator g(42);
    EXPECT_EQ(mt::data::random_permutation(n, g), reference_permutation(n, 42)) << n;
  }
  mt::Generator g(7);
  std::vector<int64_t> p = mt::data::random_permutation(100, g);
  std::sort(p.begin(), p.end());
  std::vector<int64_t> identity(100);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(p, identity);
}

TEST(DataRandomSplit, DisjointSubsetsCoveringTheDatasetFromOnePermutation) {
  const auto d = ten();
  mt::Generator g(3);
  const auto parts = mt::data::random_split(d, {3, 0, 7}, g);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0]->size(), 3);
  EXPECT_EQ(parts[1]->size(), 0);
  EXPECT_EQ(parts[2]->size(), 7);
  std::vector<int64_t> all = parts[0]->indices();
  all.insert(all.end(), parts[2]->indices().begin(), parts[2]->indices().end());
  EXPECT_EQ(all, reference_permutation(10, 3));
  // Examples come from the dataset through the indices.
  EXPECT_EQ(parts[2]->get(0).target.item<int64_t>(), 10 * parts[2]->indices()[0]);
  // The same seed splits the same way; another seed another way.
  mt::Generator again(3), other(4);
  EXPECT_EQ(mt::data::random_split(d, {3, 7}, again)[0]->indices(), parts[0]->indices());
  EXPECT_NE(mt::data::random_split(d, {5, 5}, other)[0]->indices(),
            std::vector<int64_t>(all.begin(), all.begin() + 5));
}

TEST(DataRandomSplit, LengthsMustSumToTheSize) {
  const auto d = ten();
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::data::random_split(d, {3, 3}); }),
                       "Sum of input lengths does not equal the length of the input dataset! (6 and 10)"));
  EXPECT_THROW(mt::data::random_split(d, {11, -1}), mt::ValueError);
}

}  // namespace
