#include "autograd/data/DataLoader.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace mt::data {

DataLoader::DataLoader(std::shared_ptr<const Dataset> dataset, DataLoaderOptions options)
    : dataset_(std::move(dataset)), options_(std::move(options)) {
  MT_CHECK_VALUE(dataset_ != nullptr, "DataLoader: the dataset is null");
  MT_CHECK_VALUE(options_.batch_size > 0, "batch_size should be a positive integer value, but got batch_size=",
                 options_.batch_size);
  MT_CHECK_VALUE(options_.num_workers >= 0,
                 "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.");
  MT_CHECK_VALUE(options_.num_workers == 0 || options_.prefetch_factor > 0,
                 "prefetch_factor option should be a positive integer, but got ", options_.prefetch_factor);
}

DataLoader::~DataLoader() { stop(); }

int64_t DataLoader::size() const {
  const int64_t n = dataset_->size(), b = options_.batch_size;
  return options_.drop_last ? n / b : (n + b - 1) / b;
}

Example DataLoader::make(int64_t batch) const {
  const int64_t begin = batch * options_.batch_size;
  const int64_t end = std::min<int64_t>(begin + options_.batch_size, static_cast<int64_t>(order_.size()));
  Example e = dataset_->get_batch(std::vector<int64_t>(order_.begin() + begin, order_.begin() + end));
  return options_.transform ? options_.transform(std::move(e)) : e;
}

void DataLoader::work() {
  const int64_t batches = size();
  const int64_t ahead = int64_t{options_.num_workers} * options_.prefetch_factor;
  for (;;) {
    int64_t batch = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      taken_.wait(lock, [&] { return stopping_ || next_to_make_ >= batches || next_to_make_ < next_to_take_ + ahead; });
      if (stopping_ || next_to_make_ >= batches) return;
      batch = next_to_make_++;
    }
    Made made;
    try {
      made.batch = make(batch);
    } catch (...) {
      made.error = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ready_.emplace(batch, std::move(made));
    }
    made_.notify_all();
  }
}

Example DataLoader::next(int64_t batch) {
  if (workers_.empty()) return make(batch);
  Made made;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    made_.wait(lock, [&] { return ready_.count(batch) > 0; });
    auto it = ready_.find(batch);
    made = std::move(it->second);
    ready_.erase(it);
    next_to_take_ = batch + 1;
  }
  taken_.notify_all();
  if (made.error) std::rethrow_exception(made.error);
  return std::move(made.batch);
}

void DataLoader::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  taken_.notify_all();
  for (std::thread& w : workers_) w.join();
  workers_.clear();
  ready_.clear();
  stopping_ = false;
  next_to_make_ = next_to_take_ = 0;
}

DataLoader::Iterator DataLoader::begin() {
  stop();
  const int64_t n = dataset_->size();
  if (options_.shuffle) {
    order_ = random_permutation(n, options_.generator ? *options_.generator : default_generator());
  } else {
    order_.resize(static_cast<size_t>(n));
    std::iota(order_.begin(), order_.end(), 0);
  }
  const int threads = static_cast<int>(std::min<int64_t>(options_.num_workers, size()));
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  return Iterator(this, 0);
}

DataLoader::Iterator DataLoader::end() { return Iterator(nullptr, size()); }

DataLoader::Iterator::Iterator(DataLoader* loader, int64_t index) : loader_(loader), index_(index) {
  if (loader_ && index_ < loader_->size()) batch_ = loader_->next(index_);
}

DataLoader::Iterator& DataLoader::Iterator::operator++() {
  ++index_;
  batch_ = index_ < loader_->size() ? loader_->next(index_) : Example{};
  return *this;
}

}  // namespace mt::data
