#pragma once
// What autograd keeps on a tensor (PyTorch's AutogradMeta): its .grad, the node that produced it
// (grad_fn, with the output number), or for a leaf that requires grad, the AccumulateGrad node its
// gradients flow into. Tensors that never touch autograd carry none: the slot in TensorImpl stays empty.
// A view also records its base (PyTorch's DifferentiableViewMeta), so that an in-place op on the view
// rewrites the base's history and the view's history follows in-place changes of the base, and how it was
// made (its CreationMeta), which decides whether that rewriting is allowed.
#include <memory>
#include <vector>

#include "autograd/Node.h"
#include "tensor/TensorImpl.h"

namespace mt::autograd {

// How a view was made (PyTorch's CreationMeta). Only a DEFAULT view (one output of a view op, made with
// grad mode on) may have its history rebased by an in-place op with grad mode on: for the others the
// rewritten history would be wrong (an output of a node with several outputs) or ambiguous (a view made
// where autograd recorded nothing, written where it records), so handle_view_on_rebase refuses it.
enum class CreationMeta : uint8_t { DEFAULT, MULTI_OUTPUT_NODE, NO_GRAD_MODE, INFERENCE_MODE };

// What a view made now gets: it depends on the grad mode, inference mode and whether the op returns a
// list of views.
CreationMeta creation_meta_for_new_view(bool multi_output);

// A view's root base (never itself a view) and the view's geometry in their shared storage.
struct ViewInfo {
  Tensor base;
  std::vector<int64_t> sizes, strides;
  int64_t storage_offset = 0;
  uint32_t attr_version = 0;  // the version counter's value when grad_fn was last derived from the base
  CreationMeta creation_meta = CreationMeta::DEFAULT;
};

struct AutogradMeta final : AutogradMetaInterface {
  Tensor grad;
  std::shared_ptr<Node> grad_fn;
  std::weak_ptr<Node> grad_accumulator;  // owned by the graphs that use it
  std::vector<Node::GradHook> leaf_hooks;  // hooks of a leaf, run by its AccumulateGrad
  bool requires_grad = false;            // set on leaves by requires_grad_()
  bool retains_grad = false;
  std::shared_ptr<Tensor> retained_grad;  // .grad of a non-leaf after retain_grad()
  uint32_t output_nr = 0;
  std::unique_ptr<ViewInfo> view;  // set on the outputs of view ops
};

// nullptr for a tensor autograd has never touched.
inline AutogradMeta* get_autograd_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.unsafeGetTensorImpl()->autograd_meta());
}
AutogradMeta& materialize_autograd_meta(const Tensor& t);

// A view requires grad when its base does, even if the base started to only after the view was taken.
inline bool requires_grad(const Tensor& t) {
  const AutogradMeta* meta = t.defined() ? get_autograd_meta(t) : nullptr;
  if (!meta) return false;
  if (meta->requires_grad || meta->grad_fn) return true;
  return meta->view && requires_grad(meta->view->base);
}

// The node that produced `t` (nullptr for leaves). A view whose base changed in place since the view's
// grad_fn was recorded gets a fresh one reading its gradient out of the base's (AsStridedBackward0).
const std::shared_ptr<Node>& grad_fn(const Tensor& t);

// Where the gradient of `t` goes: its grad_fn's input, its AccumulateGrad, or nowhere.
Edge gradient_edge(const Tensor& t);
std::shared_ptr<Node> grad_accumulator(const Tensor& t);

// A tensor over the same storage and geometry (sharing the version counter), without history.
Tensor alias_without_history(const Tensor& t);

// Makes `fn` the grad_fn of `output`, as its next output.
void set_history(const Tensor& output, const std::shared_ptr<Node>& fn);

// Records `view` (an output of a view op) as a view of `self`'s root base. A view of a view keeps the
// non-DEFAULT creation meta of the view it was taken from, unless it gets one of its own.
void as_view(const Tensor& self, const Tensor& view, CreationMeta creation_meta);

// Refuses, with PyTorch's message, to rebase the history of a view (meta.view is set) whose creation meta
// is not DEFAULT: `indirect` when its base or another view of it was written rather than the view itself.
void handle_view_on_rebase(const AutogradMeta& meta, bool indirect);

// `fn` is the backward of an in-place op that wrote `self`. For a view, the write changed its base:
// the base's new grad_fn is CopySlices(fn), and the view's history is read out of the base's.
void rebase_history(const Tensor& self, const std::shared_ptr<Node>& fn);

}  // namespace mt::autograd
