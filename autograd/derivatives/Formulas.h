#pragma once
// What the derivative formulas (the Autograd-key kernels in this folder) share: running the op below
// the autograd layer, recording its node, and reducing a broadcast gradient back to an input's shape.
#include <functional>
#include <initializer_list>
#include <type_traits>

#include "autograd/AutogradMeta.h"
#include "autograd/BackwardFunction.h"
#include "autograd/GradMode.h"
#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "ops/Factories.h"
#include "ops/infra/MemoryOverlap.h"
#include "ops/TensorOperators.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"

namespace mt::autograd {

// Runs `f` (the op's redispatch) with the autograd layers excluded, so that ops its kernels call
// from the top record nothing either.
template <typename F>
decltype(auto) below_autograd(F&& f) {
  ExcludeDispatchKeyGuard guard(autograd_dispatch_keyset_with_ADInplaceOrView);
  return f();
}

// In-place ops that will record a node (`any_requires_grad`: an input requires grad): a leaf that requires
// grad must not change under autograd, nor may a view whose history cannot be rebased (see CreationMeta)
// (PyTorch's rules).
inline void check_inplace(const Tensor& self, bool any_requires_grad) {
  if (!any_requires_grad || !GradMode::is_enabled()) return;
  const AutogradMeta* meta = get_autograd_meta(self);
  if (meta && meta->view) {
    handle_view_on_rebase(*meta, /*indirect=*/false);
    MT_CHECK(!(meta->view->base.is_leaf() && requires_grad(meta->view->base)),
             "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
  MT_CHECK(!(requires_grad(self) && self.is_leaf()),
           "a leaf Variable that requires grad is being used in an in-place operation.");
}

// The formulas' form, which looks at self alone: a view that does not require grad written with an
// operand that does is refused by the ADInplaceOrView layer, which sees every operand.
inline void check_inplace(const Tensor& self) { check_inplace(self, requires_grad(self)); }

// An operand that an in-place op saves before it runs. When it shares self's memory, the op's write makes
// it stale and backward refuses it by its version (as PyTorch does); it is then saved detached, because
// self's new grad_fn would otherwise hold self itself, a reference cycle that is never freed.
inline Tensor operand_to_save_inplace(const Tensor& self, const Tensor& operand) {
  return operand.defined() && shares_storage(self, operand) ? operand.detach() : operand;
}

// An op's Autograd kernel, written once. The functional form runs Op below autograd and, when an input
// requires grad, records `node` on the output with edges to `inputs` and the backward that make_formula()
// -- or make_formula(output), for one that needs the result -- builds then (what it saves; it is not
// called otherwise).
template <typename Op, typename MakeFormula, typename... Args>
Tensor differentiable(const char* node, std::initializer_list<std::reference_wrapper<const Tensor>> inputs,
                      const MakeFormula& make_formula, DispatchKeySet ks, const Args&... args) {
  Tensor out = below_autograd([&] { return Op::redispatch(ks & after_autograd_keyset, args...); });
  if (!compute_requires_grad(inputs)) return out;
  if constexpr (std::is_invocable_v<const MakeFormula&>)
    record(node, inputs, {out}, make_formula());
  else
    record(node, inputs, {out}, make_formula(out));
  return out;
}

// The in-place form checks self first and builds the backward before the op writes self, from
// make_formula(original): a copy of self's old value taken with autograd on (PyTorch's original_self). A
// formula that needs nothing of self takes no argument, and no copy is made; so does one that needs the copy
// for some gradients only (mul_: other's), which then makes it itself, since it runs before the op writes.
template <typename Op, typename MakeFormula, typename... Args>
Tensor& differentiable_(const char* node, std::initializer_list<std::reference_wrapper<const Tensor>> inputs,
                        const MakeFormula& make_formula, DispatchKeySet ks, Tensor& self, const Args&... args) {
  check_inplace(self);
  const bool rg = compute_requires_grad(inputs);
  BackwardFunction::Formula formula;
  if (rg) {
    if constexpr (std::is_invocable_v<const MakeFormula&>)
      formula = make_formula();
    else
      formula = make_formula(self.clone());
  }
  below_autograd([&]() -> Tensor& { return Op::redispatch(ks & after_autograd_keyset, self, args...); });
  if (rg) record(node, inputs, {self}, std::move(formula));
  return self;
}

// The gradient where `mask` holds and 0 elsewhere (grad_where_not: where it does not), selected as PyTorch's
// where-based formulas and threshold_backward select it: an inf or NaN gradient from upstream gives 0 where it does
// not flow, where multiplying by the mask would give 0 * inf = NaN.
inline Tensor grad_where(const Tensor& mask, const Tensor& grad) { return mt::where(mask, grad, 0.0); }
inline Tensor grad_where_not(const Tensor& mask, const Tensor& grad) { return mt::where(mask, 0.0, grad); }

// Sums a gradient over the dims that broadcasting added or expanded, to `sizes`.
inline Tensor sum_to(const Tensor& grad, IntArrayRef sizes) {
  if (grad.sizes() == sizes) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (d < lead || (sizes[d - lead] == 1 && grad.size(d) != 1)) dims.push_back(d);
  }
  Tensor summed = dims.empty() ? grad : grad.sum(dims, /*keepdim=*/true);
  return summed.view(sizes);
}

// compute_requires_grad() for a list of inputs (cat).
inline bool any_requires_grad(ArrayRef<Tensor> inputs) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor& t : inputs)
    if (requires_grad(t)) return true;
  return false;
}

// record() for an op whose inputs are a list (cat): one next edge per tensor of `inputs`.
inline void record_list(const char* name, ArrayRef<Tensor> inputs, const Tensor& output,
                        BackwardFunction::Formula formula) {
  check_differentiable_output(output);
  set_history(output, std::make_shared<BackwardFunction>(name, collect_next_edges(inputs), std::move(formula)));
}

// A tensor of `sizes` that is zero except along `dim`, where slice k is g's slice k placed at
// position positions[k] (a 1-D int64 tensor). The gradient of select, slice, diagonal; scatter makes it
// differentiable in g.
inline Tensor place_along(const Tensor& g, IntArrayRef sizes, int64_t dim, const Tensor& positions) {
  std::vector<int64_t> shape(g.dim(), 1);
  shape[dim] = -1;
  const Tensor index = positions.view(shape).expand(g.sizes()).contiguous();
  return zeros(sizes, g.options()).scatter(dim, index, g);
}

}  // namespace mt::autograd
