#include "autograd/CopySlices.h"

#include "autograd/derivatives/AsStridedBackward.h"
#include "ops/api/as_strided.h"

namespace mt::autograd {

namespace {

// A gradient buffer laid out like `base` in memory, so that the view's geometry (relative to the
// base's storage offset) addresses the same elements in it. Made from the gradient, so that under vmap
// it is batched like the gradient.
Tensor buffer_like(const TensorGeometry& base, const Tensor& like) {
  return like.new_empty_strided(base.sizes, base.strides);
}

Tensor region(const Tensor& buffer, const TensorGeometry& base, const TensorGeometry& view) {
  return mt::as_strided(buffer, view.sizes, view.strides, buffer.storage_offset() + view.storage_offset - base.storage_offset);
}

std::vector<Edge> copy_slices_edges(const Tensor& base, const Node& fn) {
  std::vector<Edge> edges{gradient_edge(base)};
  edges.insert(edges.end(), fn.next_edges().begin() + 1, fn.next_edges().end());
  return edges;
}

}  // namespace

TensorGeometry TensorGeometry::of(const Tensor& t) {
  return {t.sizes().vec(), t.strides().vec(), t.storage_offset()};
}

CopySlices::CopySlices(const Tensor& base, const TensorGeometry& view, std::shared_ptr<Node> fn)
    : Node("CopySlices", copy_slices_edges(base, *fn)), base_(TensorGeometry::of(base)), view_(view), fn_(std::move(fn)) {}

variable_list CopySlices::apply(variable_list&& grads) {
  if (!grads[0].defined()) return variable_list(next_edges().size());
  Tensor result = buffer_like(base_, grads[0]);
  result.copy_(grads[0]);
  Tensor slice = region(result, base_, view_);
  variable_list fn_grads = fn_->apply({slice.clone()});
  if (fn_grads[0].defined()) {
    slice.copy_(fn_grads[0]);
  } else {
    slice.zero_();
  }
  fn_grads[0] = std::move(result);
  return fn_grads;
}

AsStridedBackward::AsStridedBackward(const Tensor& base, const TensorGeometry& view)
    : Node("AsStridedBackward0", {gradient_edge(base)}), base_(TensorGeometry::of(base)), view_(view) {}

// Not copied into the view's region of a buffer: the view may overlap itself (an expand), where its gradients add up.
variable_list AsStridedBackward::apply(variable_list&& grads) {
  if (!grads[0].defined()) return {Tensor()};
  return {as_strided_backward(grads[0], base_, view_)};
}

}  // namespace mt::autograd
