#include "ops/Parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
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

// Waits until `ready()`, spinning for up to `spin` first: back-to-back parallel regions (a training
// step's pointwise ops and products) then hand work over in about a microsecond, where a sleeping
// thread takes ~15 us to wake. Past the spin, `block()` sleeps until notified, so an idle pool costs no
// CPU. The spin does not call sched_yield: those system calls made a memory-bound softmax 10% slower.
constexpr auto kSpin = std::chrono::microseconds(50);
template <typename Ready, typename Block>
void spin_then_block(const Ready& ready, const Block& block, std::chrono::microseconds spin = kSpin) {
  const auto deadline = std::chrono::steady_clock::now() + spin;
  for (int i = 1; !ready(); ++i) {
    cpu_relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() > deadline) return block();
  }
}

// One job at a time: `n` chunks that the caller and the workers claim one by one from `claim_`, a word
// holding the job's generation, its chunk count and the next chunk. The caller runs chunks until none is
// left and then waits only for chunks others are still running, so a worker whose core is taken (by
// another process) costs at most a late start, never the whole job, and the pool is never much slower
// than one thread. A worker that wakes after its job ended finds another generation and claims nothing.
class ThreadPool {
 public:
  explicit ThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
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

  // Runs job(i) for i in [0, n), n < 65536, the caller taking part.
  void run(int n, const std::function<void(int)>& job) {
    std::unique_lock<std::mutex> call_lock(call_mutex_);  // one parallel region at a time
    const uint64_t generation = ++generation_ & 0xffffffff;  // what claim_ holds of it
    job_ = &job;
    error_ = nullptr;
    finished_.store(0, std::memory_order_relaxed);
    claim_.store(pack(generation, n, 0), std::memory_order_seq_cst);  // publishes the fields above
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      { std::lock_guard<std::mutex> lock(mutex_); }  // a worker between its check and its wait sees the job
      wake_.notify_all();
    }
    run_chunks(generation);
    spin_then_block([&] { return finished_.load(std::memory_order_acquire) == n; },
                    [&] {
                      std::unique_lock<std::mutex> lock(mutex_);
                      caller_waiting_ = true;
                      done_.wait(lock, [&] { return finished_.load(std::memory_order_acquire) == n; });
                      caller_waiting_ = false;
                    });
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // claim_: generation (32 bits) | chunk count (16) | next chunk (16).
  static uint64_t pack(uint64_t generation, uint64_t n, uint64_t next) { return generation << 32 | n << 16 | next; }
  static uint64_t generation_of(uint64_t c) { return c >> 32; }

  // Claims and runs chunks of job `generation` until none is left; returns how many it ran.
  int run_chunks(uint64_t generation) {
    const auto chunks = [](uint64_t c) { return static_cast<int>((c >> 16) & 0xffff); };
    const auto next = [](uint64_t c) { return static_cast<int>(c & 0xffff); };
    int ran = 0;
    uint64_t c = claim_.load(std::memory_order_acquire);
    while (generation_of(c) == generation && next(c) < chunks(c)) {
      if (!claim_.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      // The claim succeeded, so the job is still this generation's and job_ is its job.
      try {
        (*job_)(next(c));
      } catch (...) {
        record_error(std::current_exception());
      }
      ++ran;
      if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks(c)) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (caller_waiting_) done_.notify_one();
      }
      c = claim_.load(std::memory_order_acquire);
    }
    return ran;
  }
  void record_error(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = e;
  }
  // A worker spins for the next job only while spinning pays: arriving too late to claim a chunk (the
  // caller ran them all, as when another process holds this worker's core) halves its spin, and
  // claiming one restores it. On a busy machine the spin soon drops to nothing, so the worker no
  // longer takes CPU from the threads that have work.
  void work() {
    uint64_t seen = 0;
    std::chrono::microseconds spin = kSpin;
    for (;;) {
      const auto has_job = [&] { return generation_of(claim_.load(std::memory_order_seq_cst)) != seen; };
      spin_then_block(
          has_job,
          [&] {
            std::unique_lock<std::mutex> lock(mutex_);
            sleepers_.fetch_add(1, std::memory_order_seq_cst);
            wake_.wait(lock, [&] { return stop_ || has_job(); });
            sleepers_.fetch_sub(1, std::memory_order_relaxed);
          },
          spin);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stop_) return;
      }
      seen = generation_of(claim_.load(std::memory_order_acquire));
      spin = run_chunks(seen) > 0 ? kSpin : spin / 2;
    }
  }

  std::vector<std::thread> threads_;
  std::mutex call_mutex_, mutex_;
  std::condition_variable wake_, done_;
  uint64_t generation_ = 0;  // the caller's count of jobs (under call_mutex_)
  const std::function<void(int)>* job_ = nullptr;
  std::atomic<uint64_t> claim_{0};
  std::atomic<int> finished_{0};
  std::atomic<int> sleepers_{0};
  bool caller_waiting_ = false;  // under mutex_
  bool stop_ = false;
  std::exception_ptr error_;
};

int hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// MT_NUM_THREADS sets the default, as OMP_NUM_THREADS does PyTorch's; a value that is not a positive
// integer is ignored with a warning.
int default_num_threads() {
  const char* env = std::getenv("MT_NUM_THREADS");
  if (env == nullptr || *env == '\0') return hardware_threads();
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (*end != '\0' || n < 1) {
    std::fprintf(stderr, "microtorch: ignoring MT_NUM_THREADS=%s (expected a positive integer)\n", env);
    return hardware_threads();
  }
  return static_cast<int>(std::min<long>(n, hardware_threads()));
}

int num_threads = default_num_threads();
thread_local bool in_parallel_region = false;

ThreadPool& pool() {
  static ThreadPool instance(hardware_threads() - 1);
  return instance;
}

}  // namespace

int get_num_threads() { return num_threads; }
void set_num_threads(int n) { num_threads = std::clamp(n, 1, pool().size()); }

void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
  const int64_t n = end - begin;
  if (n <= 0) return;
  const int64_t grains = (n + grain - 1) / std::max<int64_t>(grain, 1);
  // Nested regions run inline: the pool is busy with the outer one.
  if (std::min<int64_t>(num_threads, grains) <= 1 || in_parallel_region) {
    f(begin, end);
    return;
  }
  const int chunks = static_cast<int>(std::min<int64_t>(int64_t{num_threads} * kChunksPerThread, grains));
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
