#include "ops/infra/ReduceIterator.h"

#include <algorithm>
#include <cstdlib>

namespace mt {

int64_t StridedSpace::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

void StridedSpace::locate(int64_t pos, int64_t& offset, int64_t& step) const {
  offset = 0;
  step = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t c = pos % sizes[d];
    pos /= sizes[d];
    offset += c * strides[d];
    step += c * steps[d];
  }
}

namespace {

struct Dim {
  int64_t size, stride, step;
};
using Dims = SmallVector<Dim, 6>;

// Merges each dim into the previous (inner) one when walking both is walking one, for the input offset
// and, with `check_steps`, for the second coordinate too.
Dims coalesce(const Dims& dims, bool check_steps) {
  Dims out;
  for (const Dim& d : dims) {
    if (!out.empty()) {
      Dim& inner = out.back();
      if (d.stride == inner.stride * inner.size && (!check_steps || d.step == inner.step * inner.size)) {
        inner.size *= d.size;
        continue;
      }
    }
    out.push_back(d);
  }
  return out;
}

// A space with no dims has one position.
StridedSpace to_space(const Dims& dims) {
  StridedSpace s;
  for (const Dim& d : dims) {
    s.sizes.push_back(d.size);
    s.strides.push_back(d.stride);
    s.steps.push_back(d.step);
  }
  if (dims.empty()) {
    s.sizes.push_back(1);
    s.strides.push_back(0);
    s.steps.push_back(0);
  }
  return s;
}

int64_t abs_stride(const Dim& d) { return std::abs(d.stride); }
bool faster(const Dim& a, const Dim& b) { return abs_stride(a) < abs_stride(b); }

}  // namespace

ReduceIterator::ReduceIterator(const TensorBase& input, DimMask mask, bool index_order) {
  MT_INTERNAL_ASSERT(input.dim() <= kMaxReduceDims);
  // Innermost dim first. Size-1 dims move no offset and no index, so they are left out.
  Dims kept, reduced;
  int64_t out_step = 1, index_step = 1;
  for (int64_t d = input.dim() - 1; d >= 0; --d) {
    const int64_t size = input.size(d);
    if (size == 1) continue;
    if (mask >> d & 1) {
      reduced.push_back({size, input.stride(d), index_step});
      index_step *= size;
    } else {
      kept.push_back({size, input.stride(d), out_step});
      out_step *= size;
    }
  }
  if (!index_order) {
    std::stable_sort(reduced.begin(), reduced.end(), faster);
  }
  reduced = coalesce(reduced, index_order);
  kept = coalesce(kept, true);  // the output is contiguous over them: only input strides block a merge

  // Vertical when a kept dim is faster in memory than every reduced dim, or when each output reduces
  // only a few elements: then many outputs advance side by side instead of one short chain at a time.
  constexpr int64_t kShortReduction = 16;
  int64_t reduce_numel = 1;
  for (const Dim& d : reduced) reduce_numel *= d.size;
  if (!kept.empty() && !reduced.empty()) {
    const Dim* fastest_kept = std::min_element(kept.begin(), kept.end(), faster);
    const Dim* fastest_reduced = std::min_element(reduced.begin(), reduced.end(), faster);
    if (abs_stride(*fastest_kept) < abs_stride(*fastest_reduced) || reduce_numel <= kShortReduction) {
      vertical_ = true;
      vec_size_ = fastest_kept->size;
      vec_stride_ = fastest_kept->stride;
      vec_step_ = fastest_kept->step;
      Dims rest;
      for (const Dim* d = kept.begin(); d != kept.end(); ++d)
        if (d != fastest_kept) rest.push_back(*d);
      kept = rest;
    }
  }
  groups_ = to_space(kept);
  reduced_ = to_space(reduced);
}

}  // namespace mt
