#include "ops/Parallel.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace mt {

namespace {

// Workers wait for a job; the caller runs chunk 0 itself and waits for the rest.
class ThreadPool {
 public:
  explicit ThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this, i] { work(i + 1); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }
  int size() const { return static_cast<int>(threads_.size()) + 1; }

  // Runs job(i) for i in [0, n) with n <= size(); job(0) on the caller.
  void run(int n, const std::function<void(int)>& job) {
    std::unique_lock<std::mutex> call_lock(call_mutex_);  // one parallel region at a time
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      chunks_ = n;
      pending_ = n - 1;
      ++generation_;
      error_ = nullptr;
    }
    wake_.notify_all();
    try {
      job(0);
    } catch (...) {
      record_error(std::current_exception());
    }
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void record_error(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = e;
  }
  void work(int index) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (index >= chunks_) continue;
        job = job_;
      }
      try {
        (*job)(index);
      } catch (...) {
        record_error(std::current_exception());
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex call_mutex_, mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  int chunks_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

int num_threads = std::max(1u, std::thread::hardware_concurrency());
thread_local bool in_parallel_region = false;

ThreadPool& pool() {
  static ThreadPool instance(std::max(1u, std::thread::hardware_concurrency()) - 1);
  return instance;
}

}  // namespace

int get_num_threads() { return num_threads; }
void set_num_threads(int n) { num_threads = std::clamp(n, 1, pool().size()); }

void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
  const int64_t n = end - begin;
  if (n <= 0) return;
  const int64_t max_chunks = std::min<int64_t>(num_threads, (n + grain - 1) / std::max<int64_t>(grain, 1));
  // Nested regions run inline: the pool is busy with the outer one.
  if (max_chunks <= 1 || in_parallel_region) {
    f(begin, end);
    return;
  }
  const int chunks = static_cast<int>(max_chunks);
  const int64_t per_chunk = (n + chunks - 1) / chunks;
  pool().run(chunks, [&](int i) {
    const int64_t b = begin + i * per_chunk;
    const int64_t e = std::min(end, b + per_chunk);
    if (b >= e) return;
    in_parallel_region = true;
    try {
      f(b, e);
    } catch (...) {
      in_parallel_region = false;
      throw;
    }
    in_parallel_region = false;
  });
}

}  // namespace mt
