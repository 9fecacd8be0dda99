#include "autograd/AutogradMeta.h"

#include "autograd/AccumulateGrad.h"

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

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* meta = get_autograd_meta(t);
  if (!meta) return {};
  if (meta->grad_fn) return {meta->grad_fn, meta->output_nr};
  if (meta->requires_grad) return {grad_accumulator(t), 0};
  return {};
}

Tensor alias_without_history(const Tensor& t) {
  const TensorImpl* src = t.unsafeGetTensorImpl();
  auto impl = make_intrusive<TensorImpl>(src->storage(), src->dtype(), src->key_set());
  impl->set_sizes_and_strides(src->sizes(), src->strides(), src->storage_offset());
  return Tensor(std::move(impl));
}

void set_history(const Tensor& output, const std::shared_ptr<Node>& fn) {
  AutogradMeta& meta = materialize_autograd_meta(output);
  meta.grad_fn = fn;
  meta.output_nr = fn->add_input_metadata(output);
}

}  // namespace mt::autograd
