#include "ops/Parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace mt {

namespace {

// A hint to the core that this is a spin-wait loop (fewer wasted cycles, and a hyperthread sibling runs
// faster).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Waits until `ready()`, spinning for a short while first: back-to-back parallel regions (a training
// step's pointwise ops and products) then hand work over in about a microsecond, where a sleeping
// thread takes ~15 us to wake. Past the spin, `block()` sleeps until notified, so an idle pool costs no
// CPU. The spin does not call sched_yield: those system calls made a memory-bound softmax 10% slower.
template <typename Ready, typename Block>
void spin_then_block(const Ready& ready, const Block& block) {
  constexpr auto kSpin = std::chrono::microseconds(50);
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (int i = 1; !ready(); ++i) {
    cpu_relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() > deadline) return block();
  }
}

// Workers wait for a job; the caller runs chunk 0 itself and waits for the rest. The job's fields are
// published by the release increment of `generation_` (and under `mutex_`, for a sleeping worker).
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
      error_ = nullptr;
      pending_.store(n - 1, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    try {
      job(0);
    } catch (...) {
      record_error(std::current_exception());
    }
    spin_then_block([&] { return pending_.load(std::memory_order_acquire) == 0; },
                    [&] {
                      std::unique_lock<std::mutex> lock(mutex_);
                      done_.wait(lock, [&] { return pending_.load(std::memory_order_acquire) == 0; });
                    });
    std::lock_guard<std::mutex> lock(mutex_);
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
      const auto has_job = [&] { return generation_.load(std::memory_order_acquire) != seen; };
      spin_then_block(has_job, [&] {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || has_job(); });
      });
      const std::function<void(int)>* job;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stop_) return;
        seen = generation_.load(std::memory_order_relaxed);
        if (index >= chunks_) continue;
        job = job_;
      }
      try {
        (*job)(index);
      } catch (...) {
        record_error(std::current_exception());
      }
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mutex_);  // so that the caller cannot miss the notification
        done_.notify_one();
      }
    }
  }

  std::vector<std::thread> threads_;
  std::mutex call_mutex_, mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  int chunks_ = 0;
  std::atomic<int> pending_{0};
  std::atomic<uint64_t> generation_{0};
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
