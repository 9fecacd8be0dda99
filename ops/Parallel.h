#pragma once
// Intra-op parallelism for CPU kernels: parallel_for splits [begin, end) into contiguous chunks, which
// the caller and the workers of a persistent pool (sized to the machine) claim as they come. Small
// ranges run inline on the caller.
#include <cstdint>
#include <functional>

namespace mt {

// Below this many elements of work a kernel stays on one thread: waking a worker costs more.
constexpr int64_t kParallelGrain = 32768;
// Up to this many chunks per thread (none smaller than the grain): a worker that another process
// preempts in the middle of a chunk holds the caller up for that chunk only.
constexpr int kChunksPerThread = 4;

// The default is the machine's thread count, or MT_NUM_THREADS when it is set.
int get_num_threads();
void set_num_threads(int n);  // 1 turns intra-op parallelism off

// Calls f(chunk_begin, chunk_end) over disjoint chunks covering [begin, end), in parallel when the
// range is at least two grains. Exceptions from any chunk are rethrown on the caller.
void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& f);

}  // namespace mt
