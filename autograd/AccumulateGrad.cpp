#include "autograd/AccumulateGrad.h"

#include <limits>

#include "autograd/GradMode.h"
#include "ops/api/max.h"
#include "ops/TensorOperators.h"

namespace mt::autograd {

AccumulateGrad::AccumulateGrad(Tensor variable) : Node("AccumulateGrad", {}), variable_(std::move(variable)) {
  // Ready leaves accumulate before anything else runs, as in PyTorch.
  set_sequence_nr(std::numeric_limits<uint64_t>::max());
  add_input_metadata(variable_);
}

namespace {

// Nothing but `g` reaches its memory: no other handle on it, and its storage is shared at most with the
// base a view op recorded for it, when only that record keeps the base alive.
bool holds_its_memory_alone(const Tensor& g) {
  const TensorImpl* impl = g.unsafeGetTensorImpl();
  if (impl->use_count() != 1 || !g.is_contiguous()) return false;
  auto holders = impl->storage().use_count();
  const AutogradMeta* meta = get_autograd_meta(g);
  if (meta && meta->view && meta->view->base.unsafeGetTensorImpl()->use_count() == 1) --holders;
  return holders == 1;
}

}  // namespace

variable_list AccumulateGrad::apply(variable_list&& grads) {
  Tensor g = std::move(grads[0]);
  AutogradMeta& meta = *get_autograd_meta(variable_);
  for (const auto& hook : meta.leaf_hooks) {
    if (!g.defined()) break;
    Tensor replaced = hook(g);
    if (!replaced.defined()) continue;
    check_hook_result(g, replaced);
    g = std::move(replaced);
  }
  if (!g.defined()) return {};
  if (!meta.grad.defined()) {
    // The gradient becomes .grad itself when nothing else holds it and it is dense; otherwise a copy,
    // so that accumulating into .grad later cannot write through to another tensor.
    if (GradMode::is_enabled()) {
      meta.grad = std::move(g);
    } else if (holds_its_memory_alone(g)) {
      if (AutogradMeta* g_meta = get_autograd_meta(g)) g_meta->view.reset();
      meta.grad = std::move(g);
    } else {
      meta.grad = g.clone();
    }
  } else if (GradMode::is_enabled()) {
    meta.grad = meta.grad + g;  // create_graph: .grad keeps its history
  } else {
    meta.grad.add_(g);
  }
  return {};
}

}  // namespace mt::autograd
