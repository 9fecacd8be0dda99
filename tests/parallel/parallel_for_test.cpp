// mt::parallel_for and the thread pool under it: every index runs exactly once, errors reach the caller,
// nested regions run inline, and regions handed over back to back (the pool's spinning path) or after the
// workers went to sleep (its blocking path) all complete. The test code shares only atomics and
// per-index slots between threads, so CI also runs these tests under ThreadSanitizer.
#include <gtest/gtest.h>

#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ops/infra/Parallel.h"
#include "ops/api/std.h"

namespace {

// Whether the caller and a worker each find a core (always so where the count cannot be read).
bool two_cores_free(int threads) {
  const int others = mt::runnable_elsewhere();
  return others < 0 || threads - others >= 2;
}

// Restores the thread count a test changed.
struct NumThreadsGuard {
  NumThreadsGuard() : saved(mt::get_num_threads()) {}
  ~NumThreadsGuard() { mt::set_num_threads(saved); }
  int saved;
};

// Makes every region wake all workers, as chunk counts that a test asserts need; the pool otherwise
// gives a region only the threads it judges free.
struct AlwaysWakeGuard {
  AlwaysWakeGuard() { mt::detail::set_parallel_always_wake(true); }
  ~AlwaysWakeGuard() { mt::detail::set_parallel_always_wake(false); }
};

// Competing threads that spin until destroyed, one per core: the pool's workers lose their cores.
struct BusyThreads {
  explicit BusyThreads(int n) {
    for (int i = 0; i < n; ++i) {
      threads.emplace_back([this] {
        while (!stop.load(std::memory_order_relaxed)) {
        }
      });
    }
  }
  ~BusyThreads() {
    stop = true;
    for (auto& t : threads) t.join();
  }
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
};

// How many times each index of [begin, end) ran, after one parallel_for over it.
std::vector<int> run_counts(int64_t begin, int64_t end, int64_t grain) {
  std::vector<std::atomic<int>> counts(static_cast<size_t>(end));
  mt::parallel_for(begin, end, grain, [&](int64_t b, int64_t e) {
    EXPECT_LE(begin, b);
    EXPECT_LT(b, e);
    EXPECT_LE(e, end);
    for (int64_t i = b; i < e; ++i) counts[static_cast<size_t>(i)].fetch_add(1, std::memory_order_relaxed);
  });
  std::vector<int> out;
  for (auto& c : counts) out.push_back(c.load());
  return out;
}

// parallel_for(0, end, grain) calls its function once, with the whole range, on the calling thread.
void expect_one_chunk_on_the_caller(int64_t end, int64_t grain) {
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> calls{0}, elsewhere{0};
  mt::parallel_for(0, end, grain, [&](int64_t b, int64_t e) {
    calls.fetch_add(1);
    if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, end);
  });
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(elsewhere.load(), 0);
}

TEST(ParallelFor, RunsEveryIndexExactlyOnce) {
  for (int64_t end : {1, 2, 3, 7, 64, 1000, 100003}) {
    for (int64_t grain : {1, 5, 4096}) {
      const std::vector<int> counts = run_counts(0, end, grain);
      for (int64_t i = 0; i < end; ++i) ASSERT_EQ(counts[i], 1) << "end " << end << " grain " << grain << " i " << i;
    }
  }
  const std::vector<int> counts = run_counts(10, 50, 1);  // a range that does not start at 0
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(counts[i], i < 10 ? 0 : 1) << i;
}

TEST(ParallelFor, AnEmptyRangeCallsNothing) {
  std::atomic<int> calls{0};
  mt::parallel_for(5, 5, 1, [&](int64_t, int64_t) { calls.fetch_add(1); });
  mt::parallel_for(5, 2, 1, [&](int64_t, int64_t) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 0);
}

TEST(ParallelFor, UsesUpToFourChunksPerThreadAndRunsSmallRangesOnTheCaller) {
  AlwaysWakeGuard wake_all;
  const int threads = mt::get_num_threads();
  std::atomic<int> chunks{0};
  mt::parallel_for(0, 1000, 1, [&](int64_t, int64_t) { chunks.fetch_add(1); });
  EXPECT_EQ(chunks.load(), threads == 1 ? 1 : threads * mt::kChunksPerThread);
  chunks = 0;
  mt::parallel_for(0, 3000, 1000, [&](int64_t b, int64_t e) {
    chunks.fetch_add(1);
    EXPECT_EQ(e - b, 1000) << "no chunk smaller than the grain";
  });
  EXPECT_EQ(chunks.load(), threads == 1 ? 1 : 3);
  expect_one_chunk_on_the_caller(100, 1000);
}

// Left to judge, the pool gives a region the caller alone, as one call over the whole range, or 2 to
// get_num_threads() threads with four chunks each, whether its workers are asleep (regions spaced out),
// spinning (back to back) or contended (a competing thread on every core).
TEST(ParallelFor, ARegionRunsInOnePieceOrFourChunksPerThreadItGets) {
  const int threads = mt::get_num_threads();
  const std::thread::id caller = std::this_thread::get_id();
  auto region = [&] {
    std::atomic<int> chunks{0}, elsewhere{0};
    std::atomic<int64_t> covered{0};
    mt::parallel_for(0, 1000, 1, [&](int64_t b, int64_t e) {
      chunks.fetch_add(1);
      covered.fetch_add(e - b);
      if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
    });
    ASSERT_EQ(covered.load(), 1000);
    if (chunks.load() == 1) {
      ASSERT_EQ(elsewhere.load(), 0);
    } else {
      ASSERT_EQ(chunks.load() % mt::kChunksPerThread, 0) << chunks.load();
      ASSERT_LE(chunks.load(), threads * mt::kChunksPerThread);
    }
  };
  for (int i = 0; i < 200; ++i) region();
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    region();
  }
  {
    BusyThreads load(threads);
    for (int i = 0; i < 2000; ++i) region();
  }
}

// A pool that judged itself contended still wakes its workers now and then (every 20 ms) when the kernel
// counts no other runnable threads on their cores, so once the competing threads are gone a region gets
// every thread again. Other processes (ctest runs tests side by side) may hold the cores longer: the pool
// must come back within 100 ms of a stretch with the cores free.
TEST(ParallelFor, TheWorkersComeBackWhenTheCoresAreFreeAgain) {
  const int threads = mt::get_num_threads();
  if (threads == 1) GTEST_SKIP() << "one thread: nothing to come back";
  auto load = std::make_unique<BusyThreads>(threads);
  auto chunks_of_region = [] {
    std::atomic<int> chunks{0};
    mt::parallel_for(0, 1000, 1, [&](int64_t, int64_t) {
      chunks.fetch_add(1);
      const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
      while (std::chrono::steady_clock::now() < until) {
      }
    });
    return chunks.load();
  };
  for (int i = 0; i < 200; ++i) chunks_of_region();
  load.reset();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  auto free_since = std::chrono::steady_clock::now();
  auto longest_free = std::chrono::steady_clock::duration::zero();
  int chunks = 0;
  while (chunks != threads * mt::kChunksPerThread && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    chunks = chunks_of_region();
    const auto now = std::chrono::steady_clock::now();
    if (!two_cores_free(threads)) free_since = now;
    longest_free = std::max(longest_free, now - free_since);
  }
  if (chunks != threads * mt::kChunksPerThread) {
    EXPECT_LT(longest_free, std::chrono::milliseconds(100));
  }
}

// A kernel that cuts its work by parallel_threads() and finds only the caller awake runs alone; asking
// again soon after (the next product of a training step) is a quick successor, worth waking the sleeping
// workers for. The question itself has to count as a request: the region that follows a one-thread answer
// never reaches the pool. Other threads may hold the cores for a while (no worker is woken then), OpenBLAS's
// for about 0.1 s after it starts.
TEST(ParallelFor, AQuestionSoonAfterAnotherGetsTheSleepingWorkersWoken) {
  const int threads = mt::get_num_threads();
  if (threads == 1) GTEST_SKIP() << "one thread: no worker to wake";
  bool woken = false;
  int free_attempts = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!woken && free_attempts < 20 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past a worker's spin: all asleep
    if (mt::parallel_threads(false) != 1 || !two_cores_free(threads)) continue;
    ++free_attempts;
    woken = mt::parallel_threads(false) == threads;
  }
  // One try can meet a neighbour that /proc/loadavg has not shown yet: the verdict needs a few.
  if (!woken && free_attempts < 3) GTEST_SKIP() << "the cores were free only " << free_attempts << " times in 5 s";
  EXPECT_TRUE(woken) << "no worker woken in " << free_attempts << " tries with the cores free";
}

TEST(ParallelFor, OneThreadRunsEverythingOnTheCaller) {
  NumThreadsGuard restore;
  mt::set_num_threads(1);
  EXPECT_EQ(mt::get_num_threads(), 1);
  expect_one_chunk_on_the_caller(1 << 20, 1);
}

TEST(ParallelFor, SetNumThreadsClampsToThePoolSize) {
  NumThreadsGuard restore;
  mt::set_num_threads(0);
  EXPECT_EQ(mt::get_num_threads(), 1);
  mt::set_num_threads(1 << 20);
  EXPECT_EQ(mt::get_num_threads(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

TEST(ParallelFor, AnErrorInAnyChunkReachesTheCallerAndThePoolStaysUsable) {
  AlwaysWakeGuard wake_all;  // one chunk per index, spread over the threads
  const int threads = mt::get_num_threads();
  for (int failing = 0; failing < threads; ++failing) {
    try {
      mt::parallel_for(0, threads, 1, [&](int64_t b, int64_t) {
        if (b == failing) throw std::runtime_error("chunk " + std::to_string(b) + " failed");
      });
      ADD_FAILURE() << "no error from chunk " << failing;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "chunk " + std::to_string(failing) + " failed");
    }
    const std::vector<int> counts = run_counts(0, 1000, 1);
    for (int c : counts) ASSERT_EQ(c, 1);
  }
}

TEST(ParallelFor, NestedRegionsRunInlineOnTheirChunksThread) {
  std::vector<std::atomic<int>> counts(64 * 64);
  std::atomic<int> moved{0};
  mt::parallel_for(0, 64, 1, [&](int64_t ob, int64_t oe) {
    const std::thread::id outer = std::this_thread::get_id();
    for (int64_t i = ob; i < oe; ++i) {
      mt::parallel_for(0, 64, 1, [&](int64_t ib, int64_t ie) {
        if (std::this_thread::get_id() != outer) moved.fetch_add(1);
        for (int64_t j = ib; j < ie; ++j) counts[static_cast<size_t>(i * 64 + j)].fetch_add(1);
      });
    }
  });
  EXPECT_EQ(moved.load(), 0);
  for (auto& c : counts) ASSERT_EQ(c.load(), 1);
}

// Thousands of regions in a row hand work over while the workers still spin; regions spaced further
// apart than the spin find them asleep. Each region's chunks write their own slots, which the caller reads
// after the call: a region that returned before a worker finished would show as a stale value.
TEST(ParallelFor, BackToBackAndSpacedOutRegionsAllComplete) {
  const int threads = mt::get_num_threads();
  std::vector<int64_t> slots(static_cast<size_t>(threads));
  auto region = [&](int64_t round) {
    mt::parallel_for(0, threads, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) slots[static_cast<size_t>(i)] = round;
    });
    for (int64_t i = 0; i < threads; ++i) ASSERT_EQ(slots[static_cast<size_t>(i)], round) << "round " << round;
  };
  for (int64_t round = 1; round <= 20000; ++round) region(round);
  for (int64_t round = 20001; round <= 20010; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    region(round);
  }
}

TEST(ParallelFor, RegionsFromSeveralThreadsAtOnceAllComplete) {
  constexpr int kCallers = 4, kRegions = 500;
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&] {
      for (int r = 0; r < kRegions; ++r)
        mt::parallel_for(0, 1000, 1, [&](int64_t b, int64_t e) { total.fetch_add(e - b, std::memory_order_relaxed); });
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), int64_t{kCallers} * kRegions * 1000);
}

// The caller claims chunks as the workers do, so any thread may run any chunk: each runs exactly once,
// whoever claimed it, in regions handed over back to back.
TEST(ParallelFor, EveryChunkRunsOnceWhicheverThreadClaimsIt) {
  const int threads = mt::get_num_threads();
  constexpr int kRounds = 2000;
  std::vector<std::atomic<int>> runs(static_cast<size_t>(threads) * kRounds);
  for (int round = 0; round < kRounds; ++round) {
    mt::parallel_for(0, threads, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) runs[static_cast<size_t>(round * threads + i)].fetch_add(1);
    });
  }
  for (auto& r : runs) ASSERT_EQ(r.load(), 1);
}

// Where the pool pins its workers (it spans the affinity mask), none runs on the CPU the caller is on,
// wherever the caller moves: a caller moved onto a pinned worker's CPU shared it with the worker for the
// whole run, and the pool fell back to one thread. The test moves itself to each CPU in turn.
TEST(ParallelFor, WorkersRunOffTheCallersCpuWhereverItMoves) {
  cpu_set_t mask;
  ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  const int threads = mt::get_num_threads();
  if (threads == 1 || mt::available_cpus() != CPU_COUNT(&mask)) GTEST_SKIP() << "the pool pins no worker here";
  AlwaysWakeGuard wake;
  const std::thread::id caller = std::this_thread::get_id();
  int worker_chunks = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    std::atomic<int> elsewhere{0}, on_callers_cpu{0};
    for (int region = 0; region < 10; ++region) {
      mt::parallel_for(0, threads * mt::kChunksPerThread, 1, [&](int64_t, int64_t) {
        if (std::this_thread::get_id() != caller) {
          elsewhere.fetch_add(1);
          if (sched_getcpu() == cpu) on_callers_cpu.fetch_add(1);
        }
        const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
        while (std::chrono::steady_clock::now() < until) {
        }
      });
    }
    EXPECT_EQ(on_callers_cpu.load(), 0) << "workers ran chunks on CPU " << cpu << ", the caller's";
    worker_chunks += elsewhere.load();
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof mask, &mask), 0);
  if (worker_chunks == 0) GTEST_SKIP() << "no worker claimed a chunk (other processes held the cores)";
}

// The default thread count a child process of this binary gets, run through `launcher` (a shell prefix:
// environment settings, taskset...): the child reports get_num_threads() as its exit status. -1 where the
// child did not report.
int child_default_threads(const std::string& launcher) {
  char self[4096] = {};
  if (readlink("/proc/self/exe", self, sizeof(self) - 1) <= 0) return -1;
  const std::string command = "MT_PARALLEL_CHILD=1 " + launcher + " '" + self +
                              "' --gtest_filter=ParallelFor.TheDefaultComesFromMtNumThreads >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// MT_NUM_THREADS sets the default thread count, up to the CPUs the process may use.
TEST(ParallelFor, TheDefaultComesFromMtNumThreads) {
  if (std::getenv("MT_PARALLEL_CHILD") != nullptr) std::_Exit(mt::get_num_threads());
#ifdef __SANITIZE_THREAD__
  GTEST_SKIP() << "no child processes under ThreadSanitizer (the Release and ASan stages run this test)";
#endif
  const int cpus = mt::available_cpus();
  EXPECT_EQ(child_default_threads("MT_NUM_THREADS=1"), 1);
  EXPECT_EQ(child_default_threads("MT_NUM_THREADS=100000"), cpus) << "clamped to the CPUs";
  EXPECT_EQ(child_default_threads("MT_NUM_THREADS=two"), cpus) << "ignored, with a warning";
  EXPECT_EQ(child_default_threads("MT_NUM_THREADS=0"), cpus);
}

// Under taskset the default is the affinity mask's CPU count, not the machine's (as nproc).
TEST(ParallelFor, TheDefaultFollowsTheAffinityMask) {
#ifdef __SANITIZE_THREAD__
  GTEST_SKIP() << "no child processes under ThreadSanitizer (the Release and ASan stages run this test)";
#endif
  if (std::system("command -v taskset >/dev/null 2>&1") != 0) GTEST_SKIP() << "taskset (util-linux) not found";
  cpu_set_t mask;
  ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  int first = 0;
  while (!CPU_ISSET(first, &mask)) ++first;
  EXPECT_EQ(child_default_threads("taskset -c " + std::to_string(first)), 1);
  EXPECT_EQ(child_default_threads("taskset -c " + std::to_string(first) + " env MT_NUM_THREADS=8"), 1)
      << "MT_NUM_THREADS is capped by the mask too";
}

// In a cgroup with a CPU quota of one CPU (a 1-CPU container: cgroup v2's cpu.max, or v1's
// cpu.cfs_quota_us), the default is one thread, however many CPUs the machine has. Needs a cgroup hierarchy
// this test may write (root, outside a container); skipped elsewhere.
TEST(ParallelFor, TheDefaultFollowsTheCgroupCpuQuota) {
#ifdef __SANITIZE_THREAD__
  GTEST_SKIP() << "no child processes under ThreadSanitizer (the Release and ASan stages run this test)";
#endif
  const std::string name = "/mt_parallel_test_" + std::to_string(getpid());
  std::string dir;
  std::vector<std::pair<std::string, std::string>> quota;  // file, value
  std::ifstream subtree("/sys/fs/cgroup/cgroup.subtree_control");
  std::string controllers((std::istreambuf_iterator<char>(subtree)), std::istreambuf_iterator<char>());
  if (controllers.find("cpu") != std::string::npos && access("/sys/fs/cgroup", W_OK) == 0) {
    dir = "/sys/fs/cgroup" + name;
    quota = {{"cpu.max", "100000 100000"}};
  } else if (access("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", W_OK) == 0) {
    dir = "/sys/fs/cgroup/cpu" + name;
    quota = {{"cpu.cfs_period_us", "100000"}, {"cpu.cfs_quota_us", "100000"}};
  }
  if (dir.empty() || mkdir(dir.c_str(), 0755) != 0) GTEST_SKIP() << "no writable cgroup with a cpu controller";
  bool set = true;
  for (const auto& [file, value] : quota) {
    std::ofstream out(dir + "/" + file);
    set = set && static_cast<bool>(out << value << std::flush);
  }
  // The shell moves itself into the cgroup, then becomes the child; 200 if it could not move.
  const int threads = set ? child_default_threads("sh -c 'echo $$ > " + dir + "/cgroup.procs || exit 200; exec \"$0\" \"$@\"'")
                          : 200;
  rmdir(dir.c_str());
  if (threads == 200) GTEST_SKIP() << "could not set a CPU quota on " << dir;
  EXPECT_EQ(threads, 1);
}

}  // namespace
