#pragma once
// The gradient of a strided view into its input's storage: as_strided's formula, and the grad_fn of a view whose
// history is rebuilt from its base's (AsStridedBackward0 in autograd/CopySlices.h).
#include "autograd/CopySlices.h"

namespace mt::autograd {

// The gradient for `input` of a view of geometry `view` into the same storage: the view's gradient summed per
// storage position (the elements of a broadcast view share one), then read back at the input's positions. Where
// the input itself overlaps, the elements sharing a position share its gradient evenly, as in PyTorch.
Tensor as_strided_backward(const Tensor& grad, const TensorGeometry& input, const TensorGeometry& view);

}  // namespace mt::autograd
