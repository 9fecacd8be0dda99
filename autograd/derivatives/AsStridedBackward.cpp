// as_strided_backward (see AsStridedBackward.h): positions in storage as int64 tensors, the gradient gathered and
// scattered through them.
#include "autograd/derivatives/AsStridedBackward.h"

#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>

#include "ops/Factories.h"
#include "ops/api/arange.h"
#include "ops/api/full.h"
#include "ops/api/ones_like.h"
#include "ops/api/zeros.h"
#include "ops/TensorOperators.h"

namespace mt::autograd {

namespace {

// The storage positions of the elements of a tensor of this geometry, counted from `origin`, as an int64 tensor of
// its sizes.
Tensor storage_positions(const TensorGeometry& t, int64_t origin) {
  const IntArrayRef sizes(t.sizes), strides(t.strides);
  Tensor pos = full({}, t.storage_offset - origin, kInt64);
  for (size_t d = 0; d < sizes.size(); ++d) {
    std::vector<int64_t> shape(sizes.size(), 1);
    shape[d] = -1;
    pos = pos + (arange(sizes[d], kInt64) * strides[d]).view(shape);
  }
  return pos.expand(sizes);
}

// The lowest (or highest) storage position a non-empty tensor of this geometry reaches.
int64_t extreme_position(const TensorGeometry& t, bool highest) {
  int64_t offset = t.storage_offset;
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    const int64_t reach = (t.sizes[d] - 1) * t.strides[d];
    offset += highest ? std::max<int64_t>(0, reach) : std::min<int64_t>(0, reach);
  }
  return offset;
}

// Whether two elements of a tensor of this geometry may share a storage position: sorted by stride,
// each dim must step past everything the smaller dims reach (a broadcast dim never does).
bool may_overlap(IntArrayRef sizes, IntArrayRef strides) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of the dims that step
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] > 1) dims.emplace_back(std::abs(strides[d]), sizes[d]);
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;
  for (const auto& [stride, size] : dims) {
    if (stride <= reach) return true;
    reach += stride * (size - 1);
  }
  return false;
}

}  // namespace

Tensor as_strided_backward(const Tensor& grad, const TensorGeometry& input, const TensorGeometry& view) {
  const Tensor z = zeros(input.sizes, grad.options());
  if (grad.numel() == 0 || z.numel() == 0) return z;
  const int64_t lo = std::min(extreme_position(input, false), extreme_position(view, false));
  const int64_t extent = std::max(extreme_position(input, true), extreme_position(view, true)) - lo + 1;
  const Tensor input_pos = storage_positions(input, lo).reshape({-1});
  const Tensor view_pos = storage_positions(view, lo).reshape({-1});
  const Tensor flat = zeros({extent}, grad.options()).scatter_add(0, view_pos, grad.reshape({-1}));
  Tensor result = flat.index_select(0, input_pos);
  if (may_overlap(input.sizes, input.strides)) {
    const Tensor sharing = zeros({extent}, grad.options()).scatter_add(0, input_pos, ones_like(result));
    result = result / sharing.index_select(0, input_pos);
  }
  return result.view(input.sizes);
}

}  // namespace mt::autograd
