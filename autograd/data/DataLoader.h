#pragma once
// mt::data::DataLoader: a dataset's examples in batches, as torch.utils.data.DataLoader. Each pass
// (begin()) is an epoch: the order is drawn (shuffle: one random permutation from the loader's
// generator, as PyTorch's RandomSampler draws it), cut into batches of batch_size (the last one short
// unless drop_last), each collated by the dataset's get_batch (the examples stacked) and transformed.
//
// With num_workers > 0, that many threads make the batches ahead of the loop, at most
// num_workers * prefetch_factor of them at a time, and the loop receives them in order. An error in a
// worker is thrown by the loop at the batch it broke; a new epoch, or the loader's destruction, stops
// the workers of the last one (mid-epoch too) and waits for them.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "autograd/data/Dataset.h"
#include "autograd/data/Transforms.h"

namespace mt::data {

struct DataLoaderOptions {
  int64_t batch_size = 1;
  bool shuffle = false;
  bool drop_last = false;
  int num_workers = 0;  // 0: each batch is made by the loop's thread when it asks for it
  int prefetch_factor = 2;
  Generator* generator = nullptr;  // the shuffle's; the default generator where null
  transforms::Transform transform = {};  // applied to each collated batch
};

class DataLoader {
 public:
  DataLoader(std::shared_ptr<const Dataset> dataset, DataLoaderOptions options = {});
  ~DataLoader();
  DataLoader(const DataLoader&) = delete;
  DataLoader& operator=(const DataLoader&) = delete;

  // Batches per epoch (Python's len(loader)).
  int64_t size() const;

  class Iterator {
   public:
    using value_type = Example;
    using difference_type = std::ptrdiff_t;
    const Example& operator*() const { return batch_; }
    const Example* operator->() const { return &batch_; }
    Iterator& operator++();
    bool operator==(const Iterator& other) const { return index_ == other.index_; }
    bool operator!=(const Iterator& other) const { return index_ != other.index_; }

   private:
    friend class DataLoader;
    Iterator(DataLoader* loader, int64_t index);
    DataLoader* loader_;
    int64_t index_;
    Example batch_;
  };

  // Starts an epoch (stopping the last one's workers) and makes its first batch.
  Iterator begin();
  Iterator end();

 private:
  // One batch as a worker left it: the batch or the error making it raised.
  struct Made {
    Example batch;
    std::exception_ptr error;
  };

  Example make(int64_t batch) const;
  Example next(int64_t batch);  // batch `batch` of the epoch, in order
  void work();
  void stop();

  std::shared_ptr<const Dataset> dataset_;
  DataLoaderOptions options_;
  std::vector<int64_t> order_;  // this epoch's example indices
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable made_, taken_;
  std::map<int64_t, Made> ready_;  // made and not yet taken (under mutex_)
  int64_t next_to_make_ = 0, next_to_take_ = 0;  // under mutex_
  bool stopping_ = false;  // under mutex_
};

}  // namespace mt::data
