#include "autograd/AutogradMeta.h"

#include "autograd/AccumulateGrad.h"
#include "autograd/CopySlices.h"

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

const std::shared_ptr<Node>& grad_fn(const Tensor& t) {
  static const std::shared_ptr<Node> none;
  AutogradMeta* meta = get_autograd_meta(t);
  if (!meta) return none;
  ViewInfo* view = meta->view.get();
  if (view && (!meta->grad_fn || view->attr_version != t.unsafeGetTensorImpl()->version()) &&
      requires_grad(view->base)) {
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

void as_view(const Tensor& self, const Tensor& view) {
  const AutogradMeta* self_meta = get_autograd_meta(self);
  const Tensor& base = self_meta && self_meta->view ? self_meta->view->base : self;
  auto info = std::make_unique<ViewInfo>(ViewInfo{base, view.sizes().vec(), view.strides().vec(), view.storage_offset(),
                                                  view.unsafeGetTensorImpl()->version()});
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
