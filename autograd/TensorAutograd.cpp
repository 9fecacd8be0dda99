// The autograd methods of mt::Tensor (declared in tensor/Tensor.h), and detach / detach_.
#include "autograd/AccumulateGrad.h"
#include "autograd/Autograd.h"
#include "autograd/AutogradMeta.h"
#include "dispatch/Library.h"
#include "ops/api/detach_ops.h"
#include "ops/TensorOperators.h"

namespace mt {

using autograd::AutogradMeta;
using autograd::get_autograd_meta;
using autograd::materialize_autograd_meta;

bool Tensor::requires_grad() const { return autograd::requires_grad(*this); }

const Tensor& Tensor::requires_grad_(bool requires_grad) const {
  AutogradMeta* meta = get_autograd_meta(*this);
  if (meta && meta->grad_fn) {
    MT_CHECK(requires_grad, "you can only change requires_grad flags of leaf variables. If you want to use a "
                            "computed variable in a subgraph that doesn't require differentiation use "
                            "var_no_grad = var.detach().");
    return *this;
  }
  if (requires_grad) {
    MT_CHECK(mt::is_floating_point(dtype()), "only Tensors of floating point dtype can require gradients");
    MT_CHECK(!impl()->is_inference() || InferenceMode::is_enabled(),
             "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
  }
  if (requires_grad || meta) materialize_autograd_meta(*this).requires_grad = requires_grad;
  return *this;
}

bool Tensor::is_leaf() const { return autograd::grad_fn(*this) == nullptr; }

const Tensor& Tensor::grad() const {
  static const Tensor undefined;
  const AutogradMeta* meta = get_autograd_meta(*this);
  if (!meta) return undefined;
  return meta->retained_grad ? *meta->retained_grad : meta->grad;
}

Tensor& Tensor::mutable_grad() const { return materialize_autograd_meta(*this).grad; }

std::shared_ptr<autograd::Node> Tensor::grad_fn() const { return autograd::grad_fn(*this); }

uint32_t Tensor::output_nr() const {
  const AutogradMeta* meta = get_autograd_meta(*this);
  return meta ? meta->output_nr : 0;
}

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph) const {
  autograd::backward({*this}, gradient.defined() ? autograd::variable_list{gradient} : autograd::variable_list{},
                     retain_graph, create_graph);
}

void Tensor::register_hook(std::function<Tensor(const Tensor&)> hook) const {
  MT_CHECK(requires_grad(), "cannot register a hook on a tensor that doesn't require gradient");
  AutogradMeta& meta = *get_autograd_meta(*this);
  if (meta.grad_fn) {
    meta.grad_fn->add_pre_hook(meta.output_nr, std::move(hook));
  } else {
    meta.leaf_hooks.push_back(std::move(hook));
  }
}

void Tensor::retain_grad() const {
  MT_CHECK(requires_grad(), "can't retain_grad on Tensor that has requires_grad=False");
  AutogradMeta& meta = *get_autograd_meta(*this);
  if (!meta.grad_fn || meta.retains_grad) return;
  meta.retains_grad = true;
  // The hook shares the slot rather than holding the tensor, which owns its grad_fn, which owns the hook.
  meta.retained_grad = std::make_shared<Tensor>();
  meta.grad_fn->add_pre_hook(meta.output_nr, [slot = meta.retained_grad](const Tensor& g) {
    *slot = slot->defined() ? *slot + g : g.clone();
    return Tensor();
  });
}

namespace {

Tensor detach_alias(const Tensor& self) { return autograd::alias_without_history(self); }

Tensor& detach_in_place(Tensor& self) {
  if (AutogradMeta* meta = get_autograd_meta(self)) {
    MT_CHECK(!meta->view, "Can't detach views in-place. Use detach() instead.");
    meta->grad_fn = nullptr;
    meta->requires_grad = false;
    meta->output_nr = 0;
  }
  return self;
}

// detach_ is how a tracked tensor leaves autograd: the autograd layer lets it through rather than
// refusing a write to a tensor that requires grad.
Tensor& detach_autograd(DispatchKeySet ks, Tensor& self) {
  ExcludeDispatchKeyGuard below(autograd_dispatch_keyset_with_ADInplaceOrView);
  return ops::detach_::redispatch(ks & after_autograd_keyset, self);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) { m.impl("detach_", MT_FN(detach_autograd)); }

MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) {
  m.impl("detach", MT_FN(detach_alias));
  m.impl("detach_", MT_FN(detach_in_place));
}

}  // namespace mt
