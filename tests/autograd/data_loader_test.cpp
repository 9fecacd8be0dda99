// mt::data::DataLoader: batches in order and their sizes (drop_last or not), a seeded shuffle that is
// PyTorch's permutation and changes each epoch, workers that give the same batches in the same order,
// an error in a worker reaching the loop at its batch, a loader destroyed or restarted mid-epoch
// stopping its workers, the transforms, and every bad option.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/arange.h"
#include "ops/api/full.h"
#include "ops/api/ones.h"
#include "ops/api/stack.h"

namespace {

using mt::Tensor;
using mt::data::DataLoader;
using mt::data::Example;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;

// n examples: data i is [i, i] (float), target i is i.
std::shared_ptr<mt::data::TensorDataset> numbered(int64_t n) {
  const Tensor i = mt::arange(n, mt::TensorOptions(mt::kInt64));
  return std::make_shared<mt::data::TensorDataset>(mt::stack({i, i}, 1).to(mt::kFloat32), i);
}

// The targets of each batch of one epoch.
std::vector<std::vector<double>> epoch(DataLoader& loader) {
  std::vector<std::vector<double>> batches;
  for (const Example& b : loader) batches.push_back(values(b.target));
  return batches;
}

TEST(DataLoader, BatchesInOrderWithAShortLastOneUnlessDropped) {
  DataLoader loader(numbered(7), {.batch_size = 3});
  EXPECT_EQ(loader.size(), 3);
  EXPECT_EQ(epoch(loader), (std::vector<std::vector<double>>{{0, 1, 2}, {3, 4, 5}, {6}}));
  DataLoader dropping(numbered(7), {.batch_size = 3, .drop_last = true});
  EXPECT_EQ(dropping.size(), 2);
  EXPECT_EQ(epoch(dropping), (std::vector<std::vector<double>>{{0, 1, 2}, {3, 4, 5}}));
  // Batches stack the examples: data [B, 2].
  for (const Example& b : loader) {
    EXPECT_EQ(b.data.size(1), 2);
    EXPECT_EQ(values(b.data.select(1, 0)), values(b.target));
  }
  DataLoader empty(numbered(2), {.batch_size = 3, .drop_last = true});
  EXPECT_EQ(empty.size(), 0);
  EXPECT_TRUE(epoch(empty).empty());
}

TEST(DataLoader, ShuffleDrawsPyTorchsPermutationFromItsGeneratorEachEpoch) {
  mt::Generator g(11);
  DataLoader loader(numbered(10), {.batch_size = 4, .shuffle = true, .generator = &g});
  mt::Generator reference(11);
  for (int e = 0; e < 3; ++e) {
    const std::vector<int64_t> order = mt::data::random_permutation(10, reference);
    std::vector<double> seen;
    for (const auto& b : epoch(loader)) seen.insert(seen.end(), b.begin(), b.end());
    EXPECT_EQ(seen, std::vector<double>(order.begin(), order.end())) << "epoch " << e;
  }
}

TEST(DataLoader, WorkersGiveTheSameBatchesInTheSameOrder) {
  const auto data = numbered(103);
  for (int workers : {1, 2, 4}) {
    for (int prefetch : {1, 3}) {
      SCOPED_TRACE(std::to_string(workers) + " workers, prefetch " + std::to_string(prefetch));
      mt::Generator a(5), b(5);
      DataLoader serial(data, {.batch_size = 8, .shuffle = true, .generator = &a});
      DataLoader threaded(data,
                          {.batch_size = 8, .shuffle = true, .num_workers = workers, .prefetch_factor = prefetch, .generator = &b});
      for (int e = 0; e < 2; ++e) EXPECT_EQ(epoch(threaded), epoch(serial));
    }
  }
}

// A dataset whose example `bad` throws; each example takes `delay` to make.
class Faulty : public mt::data::Dataset {
 public:
  Faulty(int64_t n, int64_t bad, std::chrono::microseconds delay = {}) : n_(n), bad_(bad), delay_(delay) {}
  int64_t size() const override { return n_; }
  Example get(int64_t i) const override {
    made.fetch_add(1);
    std::this_thread::sleep_for(delay_);
    MT_CHECK_VALUE(i != bad_, "example ", i, " is broken");
    return {mt::full({1}, static_cast<double>(i)), mt::full({}, i, mt::TensorOptions(mt::kInt64))};
  }
  mutable std::atomic<int> made{0};

 private:
  int64_t n_, bad_;
  std::chrono::microseconds delay_;
};

TEST(DataLoader, AnErrorInAWorkerReachesTheLoopAtItsBatch) {
  for (int workers : {0, 3}) {
    SCOPED_TRACE(std::to_string(workers) + " workers");
    DataLoader loader(std::make_shared<Faulty>(20, 9), {.batch_size = 2, .num_workers = workers});
    std::vector<std::vector<double>> before;
    const std::string m = message_of<mt::ValueError>([&] {
      for (const Example& b : loader) before.push_back(values(b.target));
    });
    EXPECT_TRUE(contains(m, "example 9 is broken")) << m;
    // Batches 0-3 came through; batch 4 holds example 9.
    EXPECT_EQ(before.size(), 4u);
    // The loader starts over cleanly after the error.
    DataLoader again(std::make_shared<Faulty>(4, -1), {.batch_size = 2, .num_workers = workers});
    EXPECT_EQ(epoch(again).size(), 2u);
  }
}

TEST(DataLoader, DestroyedOrRestartedMidEpochItStopsItsWorkers) {
  const auto slow = std::make_shared<Faulty>(400, -1, std::chrono::microseconds(200));
  {
    DataLoader loader(slow, {.batch_size = 2, .num_workers = 2, .prefetch_factor = 2});
    auto it = loader.begin();
    ++it;
  }  // destroyed two batches into 200: the workers stop within a batch or two of the prefetch bound
  const int made = slow->made.load();
  EXPECT_LT(made, 40) << "workers ran on after the loader was destroyed";
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(slow->made.load(), made) << "a worker outlived the loader";
  DataLoader loader(numbered(10), {.batch_size = 3, .num_workers = 2});
  auto it = loader.begin();
  EXPECT_EQ(values(it->target), (std::vector<double>{0, 1, 2}));
  // A new epoch before the last one ended starts from its first batch.
  EXPECT_EQ(epoch(loader).size(), 4u);
}

TEST(DataLoader, TransformsApplyToEachBatch) {
  const auto images = std::make_shared<mt::data::TensorDataset>(
      mt::tensor(std::vector<int64_t>{0, 51, 255, 102}).to(mt::kUInt8).view({2, 2, 1, 1}),
      mt::tensor(std::vector<int64_t>{0, 1}));
  namespace T = mt::data::transforms;
  DataLoader loader(images, {.batch_size = 2, .transform = T::Compose({T::ConvertImageDtype(), T::Normalize({0.2, 0.4}, {0.5, 0.25})})});
  const Example b = *loader.begin();
  EXPECT_EQ(b.data.dtype(), mt::kFloat32);
  // Example 0: (0 - 0.2) / 0.5 and (0.2 - 0.4) / 0.25; example 1: (1 - 0.2) / 0.5 and (0.4 - 0.4) / 0.25.
  const std::vector<double> got = values(b.data), expected = {-0.4, -0.8, 1.6, 0.0};
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-6) << i;
  const Example one = T::Normalize({0.5}, {2})(Example{mt::tensor(std::vector<double>{1.5, -0.5}), {}});
  EXPECT_EQ(values(one.data), (std::vector<double>{0.5, -0.5}));
}

TEST(DataLoader, BadOptionsAndInputsAreErrors) {
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { DataLoader(numbered(3), {.batch_size = 0}); }),
                       "batch_size should be a positive integer value, but got batch_size=0"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { DataLoader(numbered(3), {.num_workers = -1}); }),
                       "num_workers option should be non-negative"));
  EXPECT_THROW(DataLoader(numbered(3), {.num_workers = 1, .prefetch_factor = 0}), mt::ValueError);
  EXPECT_THROW(DataLoader(nullptr), mt::ValueError);
  namespace T = mt::data::transforms;
  EXPECT_THROW(T::Normalize({0.1, 0.2}, {1}), mt::ValueError);
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { T::Normalize({0.1}, {0}); }),
                       "std evaluated to zero after conversion to float, leading to division by zero."));
  EXPECT_TRUE(contains(message_of<mt::TypeError>([] {
                         T::Normalize({0.1}, {1})(Example{mt::ones({2}, mt::kInt64), {}});
                       }),
                       "Input tensor should be a float tensor. Got"));
  EXPECT_THROW(T::Normalize({0.1, 0.2}, {1, 1})(Example{mt::ones({2, 3, 4}), {}}), mt::ValueError);
  EXPECT_THROW(T::ConvertImageDtype(mt::kInt32), mt::ValueError);
}

}  // namespace
