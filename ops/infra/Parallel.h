#pragma once
// Intra-op parallelism for CPU kernels: parallel_for splits [begin, end) into contiguous chunks, which
// the caller and the workers of a persistent pool (sized to the machine) claim as they come. Small
// ranges run inline on the caller.
#include <chrono>
#include <cstdint>
#include <functional>

namespace mt {

// Below this many elements of work a kernel stays on one thread. Measured on a training step's
// pointwise ops: a 100k-element add on two cores gained 15% alone and lost 30 us inside the step, where
// its operands live in the caller's cache and then have to move back.
constexpr int64_t kParallelGrain = 1 << 17;
// A region of fewer grains than this uses only workers that are awake (spinning after the previous
// region); larger ones wake sleeping workers too, whose wake-up (15-50 us, more in a VM) it outlasts.
constexpr int64_t kWakeGrains = 4;
// Up to this many chunks per thread (none smaller than the grain): a worker that another process
// preempts in the middle of a chunk holds the caller up for that chunk only.
constexpr int kChunksPerThread = 4;

// The default is available_cpus(), or MT_NUM_THREADS when it is set (and no more).
int get_num_threads();
void set_num_threads(int n);  // 1 turns intra-op parallelism off
// The CPUs this process may use, read once: its affinity mask (taskset, a cpuset) capped by its cgroup's
// CPU quota (a container's cpu.max), not the machine's count.
int available_cpus();

// Calls f(chunk_begin, chunk_end) over disjoint chunks covering [begin, end), in parallel when the
// range is at least two grains and other threads are free to help (else f(begin, end) on the caller).
// Exceptions from any chunk are rethrown on the caller.
void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& f);
// As above, where the caller knows better than the count of grains whether the region outlasts waking a
// sleeping worker (a matrix product cut into a few large blocks per thread).
void parallel_for(int64_t begin, int64_t end, int64_t grain, bool wake, const std::function<void(int64_t, int64_t)>& f);

// How many threads a region started now would get, at most get_num_threads(): fewer while other
// threads hold the cores (the pool finds out as it runs). For kernels that cut their work by thread count:
// the answer counts as a request for a region, and the next parallel_for on this thread, started within a
// few us, runs on the plan it was given.
int parallel_threads(bool wake);

// How many threads the kernel has runnable on this machine outside this process's pool (the caller and
// the awake workers), or -1 where it does not say (Linux's /proc/loadavg). A few us: for kernels that hand
// a long region to threads of their own, which the pool cannot shield from contention.
int runnable_elsewhere();

// Tells the pool that `count` threads of this process outside it spin for the next `duration`, yielding
// to other threads (OpenBLAS's after each threaded call): runnable_elsewhere() and
// the pool's reading of free cores leave them out until then.
void expect_spinning_threads(int count, std::chrono::milliseconds duration);

namespace detail {
// For tests that count chunks: while set, every region wakes all workers and the pool never holds back
// for contention, so a region of g grains always gets min(g, threads * kChunksPerThread) chunks.
void set_parallel_always_wake(bool on);
}  // namespace detail

}  // namespace mt
