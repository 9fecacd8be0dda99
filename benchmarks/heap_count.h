#pragma once
// Heap use of the code under measurement. The benchmark binary's malloc family counts the bytes and calls
// made on every thread (the pool's workers too) while counting is on, then hands them to glibc's; off, it
// costs one relaxed load per call.
#include <cstdint>

namespace mt_bench {

struct HeapCount {
  uint64_t bytes = 0;
  uint64_t calls = 0;
};

void start_heap_count();
HeapCount stop_heap_count();

// The heap allocations f makes, by any thread, while it runs.
template <typename F>
HeapCount count_heap(F&& f) {
  start_heap_count();
  f();
  return stop_heap_count();
}

}  // namespace mt_bench
