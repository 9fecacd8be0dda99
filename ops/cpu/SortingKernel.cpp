// CPU loop of sort: each row's keys (ops/Sorting.h) are sorted with their positions by a least-significant-byte
// radix sort, which is stable, and the values are then read through the sorted positions (so NaN payloads and
// -0.0 come back as they were). Short rows use insertion sort, which is stable too. Rows run in parallel.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "ops/infra/Parallel.h"
#include "ops/Sorting.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

// Below this many elements, the 256-bucket passes cost more than comparing.
constexpr int64_t kInsertionSortMax = 48;
// Rows of about this many elements in all make one task of the parallel loop.
constexpr int64_t kElementsPerTask = 1 << 15;

template <typename K>
void insertion_sort(K* keys, int64_t* positions, int64_t n) {
  for (int64_t i = 1; i < n; ++i) {
    const K key = keys[i];
    const int64_t position = positions[i];
    int64_t j = i;
    for (; j > 0 && keys[j - 1] > key; --j) {
      keys[j] = keys[j - 1];
      positions[j] = positions[j - 1];
    }
    keys[j] = key;
    positions[j] = position;
  }
}

template <typename K>
int byte_of(K key, int b) {
  return static_cast<int>((key >> (8 * b)) & 0xFF);
}

// Sorts keys[0] with positions[0], using keys[1] and positions[1] as scratch; returns which of the two
// buffers holds the result. The histograms of all bytes are counted in one read; a byte every key shares
// needs no pass.
template <typename K>
int radix_sort(std::array<K*, 2> keys, std::array<int64_t*, 2> positions, int64_t n) {
  constexpr int kBytes = sizeof(K);
  std::array<std::array<int64_t, 256>, kBytes> counts{};
  for (int64_t i = 0; i < n; ++i) {
    for (int b = 0; b < kBytes; ++b) ++counts[b][byte_of(keys[0][i], b)];
  }
  int from = 0;
  for (int b = 0; b < kBytes; ++b) {
    std::array<int64_t, 256>& next = counts[b];
    if (next[byte_of(keys[from][0], b)] == n) continue;
    int64_t sum = 0;
    for (int64_t& c : next) sum += std::exchange(c, sum);
    const K* src_keys = keys[from];
    const int64_t* src_positions = positions[from];
    K* dst_keys = keys[1 - from];
    int64_t* dst_positions = positions[1 - from];
    for (int64_t i = 0; i < n; ++i) {
      const int64_t to = next[byte_of(src_keys[i], b)]++;
      dst_keys[to] = src_keys[i];
      dst_positions[to] = src_positions[i];
    }
    from = 1 - from;
  }
  return from;
}

template <typename T>
void sort_rows(const TensorBase& values, const TensorBase& indices, const TensorBase& self, bool descending) {
  using K = sort_key_t<T>;
  const int64_t n = self.size(-1);
  const int64_t rows = self.numel() / n;
  const T* in = self.data_ptr<const T>();
  T* out = values.data_ptr<T>();
  int64_t* out_positions = indices.data_ptr<int64_t>();
  parallel_for(0, rows, std::max<int64_t>(1, kElementsPerTask / n), [&](int64_t begin, int64_t end) {
    std::vector<K> keys(2 * n);
    std::vector<int64_t> scratch(n);
    for (int64_t r = begin; r < end; ++r) {
      const T* row = in + r * n;
      int64_t* positions = out_positions + r * n;
      for (int64_t j = 0; j < n; ++j) {
        keys[j] = sort_key(row[j], descending);
        positions[j] = j;
      }
      if (n <= kInsertionSortMax) {
        insertion_sort(keys.data(), positions, n);
      } else if (radix_sort<K>({keys.data(), keys.data() + n}, {positions, scratch.data()}, n) == 1) {
        std::memcpy(positions, scratch.data(), n * sizeof(int64_t));
      }
      T* sorted = out + r * n;
      for (int64_t j = 0; j < n; ++j) sorted[j] = row[positions[j]];
    }
  });
}

void sort_kernel_cpu(const TensorBase& values, const TensorBase& indices, const TensorBase& self, bool descending) {
  dispatch_all_types(self.dtype(), "sort", [&]<typename T>() { sort_rows<T>(values, indices, self, descending); });
}

}  // namespace

MT_REGISTER_STUB(sort_stub, kCPU, sort_kernel_cpu);

}  // namespace mt
