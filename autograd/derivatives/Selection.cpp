// Derivatives of the pointwise ops that choose, per element, which input the output comes from:
// maximum/minimum (ties split the gradient evenly, as in PyTorch), clamp (Scalar and Tensor bounds,
// and in place), where, masked_fill (and in place), fill_. The gradient goes where the value came from.
#include "autograd/derivatives/Formulas.h"
#include "ops/api/clamp.h"
#include "ops/api/fill.h"
#include "ops/api/masked_fill.h"
#include "ops/api/maximum.h"
#include "ops/api/minimum.h"
#include "ops/api/where.h"
#include "ops/api/zeros_like.h"

namespace mt::autograd {

namespace {

// maximum (or minimum), as PyTorch 2.x: the winner gets the gradient, the loser none, each side half of it at a
// tie. A NaN on either side neither ties nor loses, so both sides get the whole gradient.
BackwardFunction::Formula extremum_formula(const Tensor& self, const Tensor& other, bool is_max) {
  return [s = SavedVariable(self), o = SavedVariable(other), self_sizes = self.sizes().vec(),
          other_sizes = other.sizes().vec(), is_max](const variable_list& g) {
    const Tensor self_v = s.unpack(), other_v = o.unpack();
    const Tensor split = mt::where(self_v.eq(other_v), g[0] / 2, g[0]);
    const Tensor self_lost = is_max ? self_v.lt(other_v) : self_v.gt(other_v);
    const Tensor other_lost = is_max ? self_v.gt(other_v) : self_v.lt(other_v);
    return variable_list{sum_to(grad_where_not(self_lost, split), self_sizes),
                         sum_to(grad_where_not(other_lost, split), other_sizes)};
  };
}

Tensor maximum(DispatchKeySet ks, const Tensor& self, const Tensor& other) {
  return differentiable<ops::maximum>(
      "MaximumBackward0", {self, other}, [&] { return extremum_formula(self, other, true); }, ks, self, other);
}

Tensor minimum(DispatchKeySet ks, const Tensor& self, const Tensor& other) {
  return differentiable<ops::minimum>(
      "MinimumBackward0", {self, other}, [&] { return extremum_formula(self, other, false); }, ks, self, other);
}

// Where each of self, min and max passes its gradient in clamp (PyTorch's clamp_backward_min_max): self
// inside [min, max], bounds included (PyTorch 2.x's convention: at a bound the gradient is self's, none is the
// bound's); min where self < min (and min < max); max where self > max (or max < min). A NaN self passes to none.
// The masks select (grad_where), so an inf or NaN gradient stays where it flows.
struct ClampMasks {
  Tensor self, min, max;
};

ClampMasks clamp_masks(const Tensor& self, const Tensor& min, const Tensor& max) {
  ClampMasks m;
  if (min.defined() && max.defined()) {
    m.self = self.ge(min).logical_and(self.le(max));
    m.min = self.lt(min).logical_and(min.lt(max));
    m.max = self.gt(max).logical_or(max.lt(min));
  } else if (min.defined()) {
    m.self = self.ge(min);
    m.min = self.lt(min);
  } else if (max.defined()) {
    m.self = self.le(max);
    m.max = self.gt(max);
  }
  return m;
}

Tensor masked_grad(const Tensor& g, const Tensor& mask, IntArrayRef sizes) {
  return sum_to(mask.defined() ? grad_where(mask, g) : g, sizes);
}

Tensor clamp(DispatchKeySet ks, const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max) {
  return differentiable<ops::clamp>(
      "ClampBackward1", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), min, max](const variable_list& g) {
          const Tensor self_v = s.unpack();
          Tensor mask;
          if (min) mask = self_v.ge(*min);
          if (max) mask = mask.defined() ? mask.logical_and(self_v.le(*max)) : self_v.le(*max);
          return variable_list{masked_grad(g[0], mask, self_v.sizes())};
        });
      },
      ks, self, min, max);
}

// In place, the masks are taken from self before the op overwrites it.
Tensor& clamp_(DispatchKeySet ks, Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return differentiable_<ops::clamp_>(
      "ClampBackward1", {self},
      [&] {
        Tensor mask;
        below_autograd([&] {
          if (min) mask = self.ge(*min);
          if (max) mask = mask.defined() ? mask.logical_and(self.le(*max)) : self.le(*max);
        });
        return BackwardFunction::Formula([m = SavedVariable(mask), sizes = self.sizes().vec()](const variable_list& g) {
          return variable_list{masked_grad(g[0], m.unpack(), sizes)};
        });
      },
      ks, self, min, max);
}

BackwardFunction::Formula clamp_tensor_formula(const ClampMasks& masks, const Tensor& self, const Tensor& min,
                                               const Tensor& max) {
  auto sizes_of = [](const Tensor& t) { return t.defined() ? t.sizes().vec() : std::vector<int64_t>(); };
  return [ms = SavedVariable(masks.self), mn = SavedVariable(masks.min), mx = SavedVariable(masks.max),
          self_sizes = self.sizes().vec(), min_sizes = sizes_of(min), max_sizes = sizes_of(max),
          has_min = min.defined(), has_max = max.defined()](const variable_list& g) {
    return variable_list{masked_grad(g[0], ms.unpack(), self_sizes),
                         has_min ? masked_grad(g[0], mn.unpack(), min_sizes) : Tensor(),
                         has_max ? masked_grad(g[0], mx.unpack(), max_sizes) : Tensor()};
  };
}

Tensor clamp_Tensor(DispatchKeySet ks, const Tensor& self, const std::optional<Tensor>& min,
                    const std::optional<Tensor>& max) {
  const Tensor lo = min ? *min : Tensor(), hi = max ? *max : Tensor();
  return differentiable<ops::clamp_Tensor>(
      "ClampBackward0", {self, lo, hi},
      [&] { return clamp_tensor_formula(below_autograd([&] { return clamp_masks(self, lo, hi); }), self, lo, hi); }, ks,
      self, min, max);
}

Tensor& clamp__Tensor(DispatchKeySet ks, Tensor& self, const std::optional<Tensor>& min,
                      const std::optional<Tensor>& max) {
  const Tensor lo = min ? *min : Tensor(), hi = max ? *max : Tensor();
  return differentiable_<ops::clamp__Tensor>(
      "ClampBackward0", {self, lo, hi},
      [&] { return clamp_tensor_formula(below_autograd([&] { return clamp_masks(self, lo, hi); }), self, lo, hi); }, ks,
      self, min, max);
}

Tensor where_self(DispatchKeySet ks, const Tensor& condition, const Tensor& self, const Tensor& other) {
  return differentiable<ops::where_self>(
      "WhereBackward0", {self, other},
      [&] {
        return BackwardFunction::Formula([c = SavedVariable(condition), self_sizes = self.sizes().vec(),
                                          other_sizes = other.sizes().vec()](const variable_list& g) {
          const Tensor cond = c.unpack();
          return variable_list{sum_to(grad_where(cond, g[0]), self_sizes),
                               sum_to(grad_where_not(cond, g[0]), other_sizes)};
        });
      },
      ks, condition, self, other);
}

// masked_fill: self keeps the gradient where it was not overwritten; a tensor value gets the sum of the
// gradient where it was written.
BackwardFunction::Formula masked_fill_formula(const Tensor& mask, IntArrayRef self_sizes, const Tensor& value) {
  return [m = SavedVariable(mask), self_sizes = self_sizes.vec(),
          value_sizes = value.defined() ? value.sizes().vec() : std::vector<int64_t>(),
          has_value = value.defined()](const variable_list& g) {
    const Tensor mask_v = m.unpack();
    variable_list grads{sum_to(g[0].masked_fill(mask_v, 0.0), self_sizes)};
    if (has_value) grads.push_back(grad_where(mask_v, g[0]).sum().view(value_sizes));
    return grads;
  };
}

Tensor masked_fill_Scalar(DispatchKeySet ks, const Tensor& self, const Tensor& mask, const Scalar& value) {
  return differentiable<ops::masked_fill_Scalar>(
      "MaskedFillBackward0", {self}, [&] { return masked_fill_formula(mask, self.sizes(), Tensor()); }, ks, self, mask,
      value);
}

Tensor masked_fill_Tensor(DispatchKeySet ks, const Tensor& self, const Tensor& mask, const Tensor& value) {
  return differentiable<ops::masked_fill_Tensor>(
      "MaskedFillBackward1", {self, value}, [&] { return masked_fill_formula(mask, self.sizes(), value); }, ks, self,
      mask, value);
}

// The in-place forms stay by hand: they save mask after the op has run. differentiable_ builds the formula
// first, which would refuse an inference-tensor mask before the op writes self instead of after.
Tensor& masked_fill__Scalar(DispatchKeySet ks, Tensor& self, const Tensor& mask, const Scalar& value) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self});
  below_autograd(
      [&]() -> Tensor& { return ops::masked_fill__Scalar::redispatch(ks & after_autograd_keyset, self, mask, value); });
  if (rg) record("MaskedFillBackward0", {self}, {self}, masked_fill_formula(mask, self.sizes(), Tensor()));
  return self;
}

Tensor& masked_fill__Tensor(DispatchKeySet ks, Tensor& self, const Tensor& mask, const Tensor& value) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self, value});
  below_autograd(
      [&]() -> Tensor& { return ops::masked_fill__Tensor::redispatch(ks & after_autograd_keyset, self, mask, value); });
  if (rg) record("MaskedFillBackward1", {self, value}, {self}, masked_fill_formula(mask, self.sizes(), value));
  return self;
}

// fill_ overwrites every element: nothing flows back to what self was (fill_.Tensor and zero_ are
// compositions of copy_ and fill_).
Tensor& fill__Scalar(DispatchKeySet ks, Tensor& self, const Scalar& value) {
  return differentiable_<ops::fill__Scalar>(
      "FillBackward0", {self},
      [] {
        return BackwardFunction::Formula([](const variable_list& g) { return variable_list{mt::zeros_like(g[0])}; });
      },
      ks, self, value);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("maximum", MT_FN(maximum));
  m.impl("minimum", MT_FN(minimum));
  m.impl("clamp", MT_FN(clamp));
  m.impl("clamp_", MT_FN(clamp_));
  m.impl("clamp.Tensor", MT_FN(clamp_Tensor));
  m.impl("clamp_.Tensor", MT_FN(clamp__Tensor));
  m.impl("where.self", MT_FN(where_self));
  m.impl("masked_fill.Scalar", MT_FN(masked_fill_Scalar));
  m.impl("masked_fill.Tensor", MT_FN(masked_fill_Tensor));
  m.impl("masked_fill_.Scalar", MT_FN(masked_fill__Scalar));
  m.impl("masked_fill_.Tensor", MT_FN(masked_fill__Tensor));
  m.impl("fill_.Scalar", MT_FN(fill__Scalar));
}

}  // namespace mt::autograd
