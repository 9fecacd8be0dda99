#include "ops/infra/Parallel.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

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

// Waits until `ready()`, spinning for up to `spin` first, then `block()`s (sleeps until notified), so an
// idle pool costs no CPU. The spin does not call sched_yield: those system calls made a memory-bound
// softmax 10% slower.
template <typename Ready, typename Block>
void spin_then_block(const Ready& ready, const Block& block, std::chrono::microseconds spin) {
  const auto deadline = std::chrono::steady_clock::now() + spin;
  for (int i = 1; !ready(); ++i) {
    cpu_relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() > deadline) return block();
  }
}

// A worker spins this long for the next region: a training step's regions are 100-200 us apart, and a
// worker that slept meanwhile takes 15-50 us (more in a VM) to wake, longer than many regions run.
constexpr auto kWorkerSpin = std::chrono::microseconds(500);
// The caller waits this long for chunks still running before it sleeps: a worker that takes longer has
// lost its core, and a spinning caller would only keep it off the caller's.
constexpr auto kCallerSpin = std::chrono::microseconds(50);
// A caller that waits longer than this, and than two chunks take it, for the chunks of workers that
// were awake when the region began, or that runs every chunk itself for longer than this while they
// were awake, has met contention: another thread holds their cores.
constexpr auto kLate = std::chrono::microseconds(10);
// Under contention a region runs on the caller and the workers that happen to be awake; once in this
// long it wakes the sleeping ones too, to find out whether the cores are free again.
constexpr auto kProbeInterval = std::chrono::milliseconds(20);
// How long a reading of whether a core is free for a sleeping worker holds: it costs a few us.
constexpr auto kFreeCheck = std::chrono::milliseconds(1);

int online_cpus() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// The CPUs in this thread's affinity mask (taskset, a cpuset), or none where it cannot be read.
std::vector<int> affinity_mask() {
  cpu_set_t set;
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

int affinity_cpus() {
  const auto cpus = affinity_mask().size();
  return cpus ? static_cast<int>(cpus) : online_cpus();
}

// A cgroup's CPU quota in CPUs (quota / period, rounded up), or 0 where it sets none: cgroup v2's cpu.max
// ("max 100000" or "200000 100000") or v1's cpu.cfs_quota_us (-1 for none) and cpu.cfs_period_us.
int quota_cpus(const std::string& dir, bool v2) {
  long quota = -1, period = 0;
  if (v2) {
    std::ifstream max(dir + "/cpu.max");
    std::string q;
    if (!(max >> q >> period) || q == "max") return 0;
    quota = std::strtol(q.c_str(), nullptr, 10);
  } else {
    std::ifstream q(dir + "/cpu.cfs_quota_us"), p(dir + "/cpu.cfs_period_us");
    if (!(q >> quota) || !(p >> period)) return 0;
  }
  if (quota <= 0 || period <= 0) return 0;
  return static_cast<int>(std::max(1L, (quota + period - 1) / period));
}

// The smallest CPU quota of this process's cgroup and the cgroups above it (a container's limit, set on
// its own cgroup or a parent), or 0 where none applies. /proc/self/cgroup names the cgroup: "0::/path" on
// v2, "N:cpu,cpuacct:/path" on v1.
int cgroup_quota_cpus() {
  std::ifstream cgroups("/proc/self/cgroup");
  int limit = 0;
  for (std::string line; std::getline(cgroups, line);) {
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    const bool v2 = line.compare(0, first, "0") == 0 && controllers.empty();
    std::string root;
    if (v2) {
      root = "/sys/fs/cgroup";
    } else if (("," + controllers + ",").find(",cpu,") != std::string::npos) {
      root = "/sys/fs/cgroup/" + controllers;
    } else {
      continue;
    }
    for (;;) {
      const int quota = quota_cpus(root + (path == "/" ? "" : path), v2);
      if (quota > 0) limit = limit ? std::min(limit, quota) : quota;
      if (path.empty() || path == "/") break;
      path = path.substr(0, std::max<size_t>(path.rfind('/'), 1));
    }
  }
  return limit;
}

// The CPUs this process may use: its affinity mask, capped by its cgroup's CPU quota, as nproc (the
// mask), Java and Go (both) count them. A 2-CPU container on a 64-core host gets 2 threads, not 64.
int usable_cpus() {
  const int quota = cgroup_quota_cpus();
  return quota ? std::min(affinity_cpus(), quota) : affinity_cpus();
}

int hardware_threads() {
  static const int cpus = usable_cpus();
  return cpus;
}

// How many threads the kernel has runnable on the whole machine now, this one included (Linux's
// /proc/loadavg), or -1 where that cannot be read or does not describe the CPUs this process may use:
// under an affinity mask or a quota the count is the host's, whose other CPUs are none of ours. The file
// stays open: each read from offset 0 makes the kernel write it afresh, and pread alone cost 1.4 us in
// the VM here where open, read and close cost 6 (up to 100 under load).
int runnable_threads() {
  static const bool whole_machine = hardware_threads() == online_cpus();
  if (!whole_machine) return -1;
  static const int fd = ::open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[128];
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  if (n <= 0) return -1;
  text[n] = 0;
  // "0.50 0.40 0.30 3/250 12345": the fourth field is runnable/total.
  const char* field = text;
  for (int spaces = 0; spaces < 3 && field; ++spaces) {
    field = std::strchr(field, ' ');
    if (field) ++field;
  }
  if (!field) return -1;
  char* end = nullptr;
  const long running = std::strtol(field, &end, 10);
  return end != field && *end == '/' ? static_cast<int>(running) : -1;
}

// Threads of this process outside the pool that spin, yielding the core to any other runnable thread, until
// a time (expect_spinning_threads): not competitors, though the kernel counts them as runnable.
std::atomic<int> spinning{0};
std::atomic<std::chrono::steady_clock::rep> spinning_until{0};

// How many threads the kernel has runnable outside the caller, the `awake` threads of the pool and the
// spinning ones, or -1 where it does not say.
int runnable_others(int awake) {
  const int running = runnable_threads();
  if (running < 0) return -1;
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  const int spinners = now < spinning_until.load(std::memory_order_relaxed) ? spinning.load(std::memory_order_relaxed) : 0;
  return std::max(0, running - awake - spinners);
}

// One job at a time: `n` chunks that the caller and the workers claim one by one from `claim_`, a word
// holding the job's generation, its chunk count and the next chunk. The caller runs chunks until none is
// left and then waits only for chunks others are still running, so a worker whose core is taken (by
// another process) costs at most a late start, never the whole job, and the pool is never much slower
// than one thread. A worker that wakes after its job ended finds another generation and claims nothing.
// When the caller keeps having to wait for workers that were awake, other threads hold their cores: the
// pool is contended, workers stop spinning and only a probe now and then wakes them, until a region in
// which awake workers kept up, or woken ones helped, clears it. Sleeping workers are not woken while the
// kernel counts no free core for them (a busy process): they would miss the region.
class ThreadPool {
 public:
  // Where the pool spans the process's affinity mask (no cgroup quota below it), each worker is pinned to a
  // CPU of its own, none of them the caller's: left free, the kernel woke workers on the caller's CPU (its
  // wake-up affinity) and they ran their chunks only after the caller's, and the late verdicts (see judge)
  // kept an idle pool serial. The caller is never pinned, so a region first moves the worker off the CPU
  // the caller has moved to (see follow_caller). Under a quota the mask is the host's, which other
  // processes share: nothing is pinned. Under contention the verdicts still take the workers out.
  explicit ThreadPool(int workers) {
    const std::vector<int> cpus = affinity_mask();
    if (cpus.size() == static_cast<size_t>(workers) + 1) {
      const int here = sched_getcpu();
      spare_cpu_ = std::find(cpus.begin(), cpus.end(), here) != cpus.end() ? here : cpus.front();
      for (const int cpu : cpus)
        if (cpu != spare_cpu_) worker_cpus_.push_back(cpu);
    }
    for (int i = 0; i < workers; ++i) {
      threads_.emplace_back([this] { work(); });
      if (!worker_cpus_.empty()) pin(i, worker_cpus_[i]);
    }
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

  // How many threads a region started now gets: the caller and the workers that are awake, and the
  // sleeping ones too (`notify`: they have to be woken) when the region is worth waking them for and the
  // pool is not contended or a probe is due. Every call is a request: it stamps the time of the last one
  // and takes the probe if it is due.
  struct Plan {
    int threads;
    bool notify;
  };
  Plan plan(bool wake) {
    const int awake = size() - sleepers_.load(std::memory_order_seq_cst);
    if (always_wake_.load(std::memory_order_relaxed)) return {size(), awake < size()};
    if (awake == size()) return {awake, false};
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    // Regions asked for in quick succession are worth waking workers for even when each is short:
    // woken, they spin for the ones that follow.
    wake = wake || now - last_request_.exchange(now, std::memory_order_relaxed) < tick(kWorkerSpin);
    const bool contended = contended_.load(std::memory_order_relaxed);
    if (wake && (contended ? probe_due(now, awake) : core_free(now, awake))) return {size(), true};
    return {awake, false};
  }

  void set_always_wake(bool on) { always_wake_.store(on, std::memory_order_relaxed); }

  // Runs job(i) for i in [0, n), n < 65536, the caller taking part, waking sleeping workers if `notify`.
  void run(int n, bool notify, const std::function<void(int)>& job) {
    std::unique_lock<std::mutex> call_lock(call_mutex_);  // one parallel region at a time
    follow_caller();
    const uint64_t generation = ++generation_ & 0xffffffff;  // what claim_ holds of it
    job_ = &job;
    error_ = nullptr;
    finished_.store(0, std::memory_order_relaxed);
    claim_.store(pack(generation, n, 0), std::memory_order_seq_cst);  // publishes the fields above
    const auto start = std::chrono::steady_clock::now();
    const bool all_awake = sleepers_.load(std::memory_order_seq_cst) == 0;
    if (notify && !all_awake) {
      { std::lock_guard<std::mutex> lock(mutex_); }  // a worker between its check and its wait sees the job
      wake_.notify_all();
    }
    const int mine = run_chunks(generation);
    const auto ran_out = std::chrono::steady_clock::now();
    spin_then_block([&] { return finished_.load(std::memory_order_acquire) == n; },
                    [&] {
                      std::unique_lock<std::mutex> lock(mutex_);
                      caller_waiting_ = true;
                      done_.wait(lock, [&] { return finished_.load(std::memory_order_acquire) == n; });
                      caller_waiting_ = false;
                    },
                    kCallerSpin);
    const auto end = std::chrono::steady_clock::now();
    // Workers that were awake are judged: one with a core of its own claims a chunk within a few us and
    // finishes its last less than a chunk's time after the caller ran out of them; one that needs twice
    // that, or claims nothing while the caller runs them all, was late. Late in three of the last eight
    // judged regions, it shares its core; once is VM noise (1-2% of regions here, on an idle machine,
    // and each verdict costs a probe interval of serial regions). A sleeping worker is late by its
    // wake-up, not by contention, but one woken in time to help has a core.
    const auto ran = ran_out - start, wait = end - ran_out;
    if (all_awake && mine > 0 && mine < n) {
      judge(wait > kLate && wait > 2 * ran / mine);
    } else if (all_awake && ran > kLate) {
      judge(true);
    } else if (notify && mine < n) {
      late_ = 0;
      contended_.store(false, std::memory_order_relaxed);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void pin(int worker, int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pthread_setaffinity_np(threads_[worker].native_handle(), sizeof one, &one);
  }
  // Keeps the caller's CPU free of workers. A caller that started on, or was moved to, a worker's CPU
  // otherwise shared it with that worker for the whole run (the kernel does not move a running thread
  // to the idle CPU while the pinned one waits): the worker's chunks ran after the caller's, and the
  // verdicts kept the pool serial, 1.3x slower than one thread. sched_getcpu is a few ns; the swap, a
  // system call, is taken only when the caller has moved.
  void follow_caller() {
    if (worker_cpus_.empty()) return;
    const int here = sched_getcpu();
    if (here == spare_cpu_) return;
    const auto w = std::find(worker_cpus_.begin(), worker_cpus_.end(), here);
    if (w == worker_cpus_.end()) return;  // a CPU outside the mask the pool was made for
    *w = spare_cpu_;
    spare_cpu_ = here;
    pin(static_cast<int>(w - worker_cpus_.begin()), *w);
  }

  void judge(bool late) {
    // A contended pool's workers are awake only after a probe found the cores free: one that kept up
    // has a core again.
    if (!late && contended_.load(std::memory_order_relaxed)) late_ = 0;
    late_ = (late_ << 1 | static_cast<unsigned>(late)) & 0xff;
    contended_.store(std::popcount(late_) >= 3, std::memory_order_relaxed);
  }

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
  static std::chrono::steady_clock::rep tick(std::chrono::steady_clock::duration d) { return d.count(); }
  // A probe is due once per kProbeInterval, and is skipped while no core is free for the workers (a
  // woken worker gets the scheduler's favour at first, which made it look as though the cores were free).
  bool probe_due(std::chrono::steady_clock::rep now, int awake) {
    auto next = next_probe_.load(std::memory_order_relaxed);
    if (now < next) return false;
    if (!next_probe_.compare_exchange_strong(next, now + tick(kProbeInterval), std::memory_order_relaxed)) return false;
    return free_cores(awake) >= 1;
  }
  // Whether a sleeping worker would find a core free, read at most once per kFreeCheck: with a busy process
  // on it, waking the worker only costs the caller a system call and the worker misses the region.
  bool core_free(std::chrono::steady_clock::rep now, int awake) {
    auto checked = free_checked_.load(std::memory_order_relaxed);
    if (now - checked < tick(kFreeCheck) ||
        !free_checked_.compare_exchange_strong(checked, now, std::memory_order_relaxed)) {
      return core_free_.load(std::memory_order_relaxed);
    }
    const bool free = free_cores(awake) >= 1;
    core_free_.store(free, std::memory_order_relaxed);
    return free;
  }
  // The cores left when the caller, our awake workers and the kernel's other runnable threads have theirs.
  static int free_cores(int awake) {
    const int others = runnable_others(awake);
    return others < 0 ? hardware_threads() : hardware_threads() - awake - others;
  }

 public:
  int awake() const { return size() - sleepers_.load(std::memory_order_relaxed); }

 private:
  // A worker spins for the next job only while spinning pays: not under contention, where it would take
  // CPU from the threads that have work, and less each time it arrives too late to claim a chunk (the
  // caller ran them all). A worker woken by a probe spins in full once, so that the next region can tell
  // whether it keeps up.
  void work() {
    uint64_t seen = 0;
    std::chrono::microseconds spin = kWorkerSpin;
    for (;;) {
      const auto has_job = [&] { return generation_of(claim_.load(std::memory_order_seq_cst)) != seen; };
      bool slept = false;
      spin_then_block(
          has_job,
          [&] {
            std::unique_lock<std::mutex> lock(mutex_);
            slept = true;
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
      const bool ran = run_chunks(seen) > 0;
      if (slept) spin = kWorkerSpin;
      else if (contended_.load(std::memory_order_relaxed)) spin = std::chrono::microseconds(0);
      else spin = ran ? kWorkerSpin : spin / 2;
    }
  }

  std::vector<std::thread> threads_;
  std::vector<int> worker_cpus_;  // worker i's CPU where the pool pins them (under call_mutex_)
  int spare_cpu_ = -1;            // the mask's CPU left for the caller
  std::mutex call_mutex_, mutex_;
  std::condition_variable wake_, done_;
  uint64_t generation_ = 0;  // the caller's count of jobs (under call_mutex_)
  unsigned late_ = 0;        // whether awake workers were late, one bit per judged region (under call_mutex_)
  const std::function<void(int)>* job_ = nullptr;
  std::atomic<uint64_t> claim_{0};
  std::atomic<int> finished_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<bool> contended_{false};
  std::atomic<bool> always_wake_{false};  // detail::set_parallel_always_wake
  std::atomic<std::chrono::steady_clock::rep> next_probe_{0}, last_request_{0}, free_checked_{0};  // steady_clock ticks
  std::atomic<bool> core_free_{true};
  bool caller_waiting_ = false;  // under mutex_
  bool stop_ = false;
  std::exception_ptr error_;
};

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

// How many grains [begin, end) holds, the last one partial (none for an empty range).
int64_t grains_in(int64_t begin, int64_t end, int64_t grain) {
  const int64_t g = std::max<int64_t>(grain, 1);
  return end > begin ? (end - begin + g - 1) / g : 0;
}

// A kernel that asks parallel_threads() how to cut its work runs the region it cut with the plan it was
// told: planned again, the region would count the question as a request just before it and wake workers
// the cuts leave nothing for. The plan is kept for the next region on this thread, briefly.
struct Reserved {
  std::chrono::steady_clock::time_point at;
  bool valid = false;
  ThreadPool::Plan plan{};
};
thread_local Reserved reserved;
constexpr auto kReservation = std::chrono::microseconds(20);

ThreadPool::Plan region_plan(bool wake) {
  if (reserved.valid) {
    reserved.valid = false;
    if (std::chrono::steady_clock::now() - reserved.at < kReservation) return reserved.plan;
  }
  return pool().plan(wake);
}

}  // namespace

int get_num_threads() { return num_threads; }
int available_cpus() { return hardware_threads(); }
void set_num_threads(int n) { num_threads = std::clamp(n, 1, pool().size()); }

void detail::set_parallel_always_wake(bool on) { pool().set_always_wake(on); }

int parallel_threads(bool wake) {
  if (num_threads == 1 || in_parallel_region) return 1;
  // Stamped after the plan, which may read /proc/loadavg (a few us, more under load): the reservation measures
  // the kernel's gap between asking and starting its region, and a probe's plan must not expire in it.
  const ThreadPool::Plan plan = pool().plan(wake);
  reserved = {std::chrono::steady_clock::now(), true, plan};
  return std::min(num_threads, reserved.plan.threads);
}

int runnable_elsewhere() { return runnable_others(pool().awake()); }

void expect_spinning_threads(int count, std::chrono::milliseconds duration) {
  const auto until = (std::chrono::steady_clock::now() + duration).time_since_epoch().count();
  spinning.store(count, std::memory_order_relaxed);
  spinning_until.store(until, std::memory_order_relaxed);
}

void parallel_for(int64_t begin, int64_t end, int64_t grain, bool wake, const std::function<void(int64_t, int64_t)>& f) {
  const int64_t n = end - begin;
  if (n <= 0) return;
  const int64_t grains = grains_in(begin, end, grain);
  // Nested regions run inline: the pool is busy with the outer one. So does a region that no other
  // thread would help with, in one piece.
  if (std::min<int64_t>(num_threads, grains) <= 1 || in_parallel_region) {
    f(begin, end);
    return;
  }
  const auto plan = region_plan(wake);
  const int threads = std::min(num_threads, plan.threads);
  if (threads <= 1) {
    f(begin, end);
    return;
  }
  const int chunks = static_cast<int>(std::min<int64_t>(int64_t{threads} * kChunksPerThread, grains));
  const int64_t per_chunk = (n + chunks - 1) / chunks;
  pool().run(chunks, plan.notify, [&](int i) {
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

void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
  parallel_for(begin, end, grain, grains_in(begin, end, grain) >= kWakeGrains, f);
}

}  // namespace mt
