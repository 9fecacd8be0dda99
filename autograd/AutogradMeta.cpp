#include "autograd/AutogradMeta.h"

#include <sstream>

#include "autograd/AccumulateGrad.h"
#include "autograd/CopySlices.h"
#include "autograd/GradMode.h"
#include "autograd/InferenceMode.h"

namespace mt::autograd {

AutogradMeta& materialize_autograd_meta(const Tensor& t) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  if (!impl->autograd_meta()) impl->set_autograd_meta(std::make_unique<AutogradMeta>());
  return *static_cast<AutogradMeta*>(impl->autograd_meta());
}

std::shared_ptr<Node> grad_accumulator(const Tensor& t) {
  AutogradMeta& meta = materialize_autograd_meta(t);
  std::shared_ptr<Node> acc = meta.grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    meta.grad_accumulator = acc;
  }
  return acc;
}

CreationMeta creation_meta_for_new_view(bool multi_output) {
  if (InferenceMode::is_enabled()) return CreationMeta::INFERENCE_MODE;
  if (!GradMode::is_enabled()) return CreationMeta::NO_GRAD_MODE;
  return multi_output ? CreationMeta::MULTI_OUTPUT_NODE : CreationMeta::DEFAULT;
}

void handle_view_on_rebase(const AutogradMeta& meta, bool indirect) {
  const CreationMeta creation = meta.view->creation_meta;
  if (creation == CreationMeta::DEFAULT) return;
  const Node* fn = meta.grad_fn.get();
  const char* modified = indirect ? "its base or another view of its base has been" : "is being";
  std::ostringstream msg;
  if (creation == CreationMeta::MULTI_OUTPUT_NODE && fn) {
    msg << "Output " << meta.output_nr << " of " << fn->name() << " is a view and " << modified << " modified inplace.";
  } else {
    if (fn) {
      msg << "Output " << meta.output_nr << " of " << fn->name() << " is a view of a view which was created in";
    } else {
      msg << "A view was created in";
    }
    if (creation == CreationMeta::INFERENCE_MODE) {
      msg << " inference mode and " << modified << " modified inplace in normal mode.";
    } else {
      msg << " no_grad mode and " << modified << " modified inplace with grad mode enabled.";
    }
  }
  if (creation == CreationMeta::MULTI_OUTPUT_NODE) {
    msg << " This view is the output of a function that returns multiple views. Such functions do not allow the "
           "output views to be modified inplace. You should replace the inplace operation by an out-of-place one.";
  } else {
    const char* block = creation == CreationMeta::NO_GRAD_MODE ? "no_grad block" : "inference_mode block";
    msg << " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
           "moving both the view and the inplace either both inside the "
        << block
        << " (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
           "tracked).";
  }
  MT_CHECK(false, msg.str());
}

// A view's grad_fn is derived from its base's when the base (or another view of it) changed in place since
// it was recorded, or when it has none although its base requires grad now (it was taken before). A view
// made in no_grad or inference mode keeps none, as in PyTorch: it stays a leaf.
const std::shared_ptr<Node>& grad_fn(const Tensor& t) {
  static const std::shared_ptr<Node> none;
  AutogradMeta* meta = get_autograd_meta(t);
  if (!meta) return none;
  ViewInfo* view = meta->view.get();
  if (!view) return meta->grad_fn;
  const bool stale = view->attr_version != t.unsafeGetTensorImpl()->version();
  if ((stale || (!meta->grad_fn && view->creation_meta == CreationMeta::DEFAULT)) && requires_grad(view->base)) {
    if (stale) handle_view_on_rebase(*meta, /*indirect=*/true);
    meta->grad_fn = std::make_shared<AsStridedBackward>(view->base, TensorGeometry::of(t));
    meta->output_nr = meta->grad_fn->add_input_metadata(t);
    view->attr_version = t.unsafeGetTensorImpl()->version();
  }
  return meta->grad_fn;
}

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* meta = get_autograd_meta(t);
  if (!meta) return {};
  if (grad_fn(t)) return {meta->grad_fn, meta->output_nr};
  if (meta->requires_grad) return {grad_accumulator(t), 0};
  return {};
}

Tensor alias_without_history(const Tensor& t) {
  const TensorImpl* src = t.unsafeGetTensorImpl();
  auto impl = TensorImpl::view_of(*src);
  impl->set_sizes_and_strides(src->sizes(), src->strides(), src->storage_offset());
  return Tensor(std::move(impl));
}

void set_history(const Tensor& output, const std::shared_ptr<Node>& fn) {
  AutogradMeta& meta = materialize_autograd_meta(output);
  meta.grad_fn = fn;
  meta.output_nr = fn->add_input_metadata(output);
  if (meta.view) meta.view->attr_version = output.unsafeGetTensorImpl()->version();
}

void as_view(const Tensor& self, const Tensor& view, CreationMeta creation_meta) {
  const AutogradMeta* self_meta = get_autograd_meta(self);
  const ViewInfo* self_view = self_meta ? self_meta->view.get() : nullptr;
  const Tensor& base = self_view ? self_view->base : self;
  if (self_view && (creation_meta == CreationMeta::DEFAULT || self_view->creation_meta == CreationMeta::INFERENCE_MODE))
    creation_meta = self_view->creation_meta;
  auto info = std::make_unique<ViewInfo>(ViewInfo{base, view.sizes().vec(), view.strides().vec(), view.storage_offset(),
                                                  view.unsafeGetTensorImpl()->version(), creation_meta});
  materialize_autograd_meta(view).view = std::move(info);
}

void rebase_history(const Tensor& self, const std::shared_ptr<Node>& fn) {
  AutogradMeta& meta = materialize_autograd_meta(self);
  if (!meta.view) {
    set_history(self, fn);
    return;
  }
  fn->add_input_metadata(self);
  const Tensor& base = meta.view->base;
  auto copy_slices = std::make_shared<CopySlices>(base, TensorGeometry::of(self), fn);
  AutogradMeta& base_meta = materialize_autograd_meta(base);
  base_meta.grad_fn = copy_slices;
  base_meta.output_nr = copy_slices->add_input_metadata(base);
  meta.grad_fn = nullptr;
  grad_fn(self);  // re-derived from the base's new history
}

}  // namespace mt::autograd
