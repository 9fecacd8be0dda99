#include "heap_count.h"

#include <atomic>
#include <cerrno>
#include <cstddef>

// glibc's own allocator, under the names it exports beside malloc's.
extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* p, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
void __libc_free(void* p);
}

namespace {

std::atomic<bool> counting{false};
std::atomic<uint64_t> bytes{0}, calls{0};

void note(size_t size) {
  if (!counting.load(std::memory_order_relaxed)) return;
  bytes.fetch_add(size, std::memory_order_relaxed);
  calls.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

// operator new and every library the binary loads allocate through these.
extern "C" {
void* malloc(size_t size) {
  note(size);
  return __libc_malloc(size);
}
void* calloc(size_t count, size_t size) {
  note(count * size);
  return __libc_calloc(count, size);
}
void* realloc(void* p, size_t size) {
  note(size);
  return __libc_realloc(p, size);
}
void* aligned_alloc(size_t alignment, size_t size) {
  note(size);
  return __libc_memalign(alignment, size);
}
void* memalign(size_t alignment, size_t size) {
  note(size);
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, size_t alignment, size_t size) {
  note(size);
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void free(void* p) { __libc_free(p); }
}

namespace mt_bench {

void start_heap_count() {
  bytes.store(0, std::memory_order_relaxed);
  calls.store(0, std::memory_order_relaxed);
  counting.store(true, std::memory_order_seq_cst);
}

HeapCount stop_heap_count() {
  counting.store(false, std::memory_order_seq_cst);
  return {bytes.load(std::memory_order_relaxed), calls.load(std::memory_order_relaxed)};
}

}  // namespace mt_bench
