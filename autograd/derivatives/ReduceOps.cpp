// Derivatives of the reductions: sum, mean, prod (zeros included), max/min and amax/amin (ties share
// the gradient evenly; max.dim/min.dim send it to the returned index), var/std, norm (every p), logsumexp.
#include "autograd/derivatives/Formulas.h"
#include "ops/ReduceOps.h"
#include "ops/api/amax.h"
#include "ops/api/amin.h"
#include "ops/api/logsumexp.h"
#include "ops/api/max.h"
#include "ops/api/mean.h"
#include "ops/api/median.h"
#include "ops/api/min.h"
#include "ops/api/nanmedian.h"
#include "ops/api/norm.h"
#include "ops/api/prod.h"
#include "ops/api/std.h"
#include "ops/api/sum.h"
#include "ops/api/var.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

#include <cmath>

namespace mt::autograd {

namespace {

// A reduction's result (or gradient) with the reduced dims back, of size 1.
Tensor keep_reduced(const Tensor& t, size_t ndim, DimMask mask, bool keepdim) {
  Tensor r = t;
  if (!keepdim) {
    for (size_t d = 0; d < ndim; ++d)
      if (mask >> d & 1) r = r.unsqueeze(static_cast<int64_t>(d));
  }
  return r;
}

// The gradient of a reduction over `mask`, spread back over self's shape.
Tensor expand_reduced(const Tensor& grad, IntArrayRef self_sizes, DimMask mask, bool keepdim) {
  return keep_reduced(grad, self_sizes.size(), mask, keepdim).expand(self_sizes);
}

std::vector<int64_t> mask_dims(DimMask mask, size_t ndim) {
  std::vector<int64_t> dims;
  for (size_t d = 0; d < ndim; ++d)
    if (mask >> d & 1) dims.push_back(static_cast<int64_t>(d));
  return dims;
}

int64_t reduced_count(IntArrayRef sizes, DimMask mask) {
  int64_t n = 1;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (mask >> d & 1) n *= sizes[d];
  return n;
}

Tensor sum(DispatchKeySet ks, const Tensor& self, std::optional<ScalarType> dtype) {
  return differentiable<ops::sum>(
      "SumBackward0", {self},
      [&] {
        return BackwardFunction::Formula(
            [sizes = self.sizes().vec()](const variable_list& g) { return variable_list{g[0].expand(sizes)}; });
      },
      ks, self, dtype);
}

Tensor sum_dim(DispatchKeySet ks, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType> dtype) {
  return differentiable<ops::sum_dim_IntList>(
      "SumBackward1", {self},
      [&] {
        return BackwardFunction::Formula(
            [sizes = self.sizes().vec(), mask = make_dim_mask(dim, self.dim()), keepdim](const variable_list& g) {
              return variable_list{expand_reduced(g[0], sizes, mask, keepdim)};
            });
      },
      ks, self, dim, keepdim, dtype);
}

Tensor mean(DispatchKeySet ks, const Tensor& self, std::optional<ScalarType> dtype) {
  return differentiable<ops::mean>(
      "MeanBackward0", {self},
      [&] {
        return BackwardFunction::Formula([sizes = self.sizes().vec(), n = self.numel()](const variable_list& g) {
          return variable_list{g[0].expand(sizes) / static_cast<double>(n)};
        });
      },
      ks, self, dtype);
}

Tensor mean_dim(DispatchKeySet ks, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                std::optional<ScalarType> dtype) {
  return differentiable<ops::mean_dim>(
      "MeanBackward1", {self},
      [&] {
        const DimMask mask = make_dim_mask(dim, self.dim());
        return BackwardFunction::Formula(
            [sizes = self.sizes().vec(), mask, keepdim, n = reduced_count(self.sizes(), mask)](const variable_list& g) {
              return variable_list{expand_reduced(g[0], sizes, mask, keepdim) / static_cast<double>(n)};
            });
      },
      ks, self, dim, keepdim, dtype);
}

// --- prod ---------------------------------------------------------------------------------------------

// The product of the other elements of each element's slice (over `mask`), without dividing by zero,
// written so that its own derivative (prod's second derivative) is right too. With p the product of
// the slice's nonzero elements and z the sum of its zeros (0, but it carries their gradient):
// - no zero: p / x;
// - one zero: p at the zero, z * p / x elsewhere (0, growing with the zero);
// - two zeros: (z - x) * p at each zero (0, growing with the other zero), 0 elsewhere;
// - more: 0 everywhere, with a zero derivative.
Tensor prod_of_others(const Tensor& self, DimMask mask) {
  const std::vector<int64_t> dims = mask_dims(mask, self.dim());
  const Tensor is_zero = self.eq(0);
  const Tensor nonzero = self.masked_fill(is_zero, 1.0);
  Tensor p = dims.empty() ? nonzero : nonzero.prod(dims[0], true);
  for (size_t i = 1; i < dims.size(); ++i) p = p.prod(dims[i], true);
  const Tensor zero_mask = is_zero.to(self.dtype());
  const Tensor zeros_in_slice = zero_mask.sum(dims, /*keepdim=*/true);
  const Tensor z = (self * zero_mask).sum(dims, /*keepdim=*/true);
  const Tensor one_zero = zeros_in_slice.eq(1);
  const Tensor p_over_x = p / nonzero;
  const Tensor at_zero = mt::where(one_zero, p, mt::where(zeros_in_slice.eq(2), (z - self) * p, 0.0));
  const Tensor elsewhere = mt::where(zeros_in_slice.eq(0), p_over_x, mt::where(one_zero, z * p_over_x, 0.0));
  return mt::where(is_zero, at_zero, elsewhere);
}

Tensor prod(DispatchKeySet ks, const Tensor& self, std::optional<ScalarType> dtype) {
  return differentiable<ops::prod>(
      "ProdBackward0", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self)](const variable_list& g) {
          const Tensor self_v = s.unpack();
          if (self_v.dim() == 0) return variable_list{g[0].to(self_v.dtype())};
          const DimMask all = make_dim_mask(std::nullopt, self_v.dim());
          return variable_list{(g[0].expand(self_v.sizes()) * prod_of_others(self_v, all)).to(self_v.dtype())};
        });
      },
      ks, self, dtype);
}

Tensor prod_dim_int(DispatchKeySet ks, const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return differentiable<ops::prod_dim_int>(
      "ProdBackward1", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), dim, keepdim](const variable_list& g) {
          const Tensor self_v = s.unpack();
          if (self_v.dim() == 0) return variable_list{g[0].to(self_v.dtype())};
          const DimMask mask = make_dim_mask(dim, self_v.dim());
          return variable_list{
              (expand_reduced(g[0], self_v.sizes(), mask, keepdim) * prod_of_others(self_v, mask)).to(self_v.dtype())};
        });
      },
      ks, self, dim, keepdim, dtype);
}

// --- max, min, amax, amin -----------------------------------------------------------------------------

// The gradient of a reduction that picks a value: shared evenly among the elements of each slice equal to the
// result. max and min select them (PyTorch's evenly_distribute_backward): an inf or NaN gradient reaches them only,
// and where the result is NaN, the NaNs are what was picked. amax and amin multiply by the mask, as PyTorch's
// scale_grad_by_count does (there an inf gradient gives NaN elsewhere in its slice, and a NaN slice NaN throughout).
Tensor evenly_distributed(const Tensor& grad, const Tensor& self, const Tensor& result, DimMask mask, bool keepdim,
                          bool select) {
  const Tensor value = keep_reduced(result, self.dim(), mask, keepdim);
  Tensor picked = self.eq(value);
  if (select) picked = picked.logical_or(self.ne(self).logical_and(value.ne(value)));
  const Tensor weights = picked.to(grad.dtype());
  const std::vector<int64_t> dims = mask_dims(mask, self.dim());
  const Tensor share =
      keep_reduced(grad, self.dim(), mask, keepdim) / (dims.empty() ? weights : weights.sum(dims, true));
  return select ? grad_where(picked, share) : share * weights;
}

template <typename Op>
Tensor full_extremum(const char* name, DispatchKeySet ks, const Tensor& self) {
  return differentiable<Op>(
      name, {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self)](const variable_list& g) {
          const Tensor self_v = s.unpack();
          const Tensor result = Op::call(self_v);
          return variable_list{evenly_distributed(g[0], self_v, result, make_dim_mask(std::nullopt, self_v.dim()),
                                                  false, /*select=*/true)};
        });
      },
      ks, self);
}

Tensor max(DispatchKeySet ks, const Tensor& self) { return full_extremum<ops::max>("MaxBackward1", ks, self); }
Tensor min(DispatchKeySet ks, const Tensor& self) { return full_extremum<ops::min>("MinBackward1", ks, self); }
// median() and nanmedian() (ops/composite/Sorting.cpp) share their gradient as max() does, as in PyTorch.
Tensor median(DispatchKeySet ks, const Tensor& self) { return full_extremum<ops::median>("MedianBackward0", ks, self); }
Tensor nanmedian(DispatchKeySet ks, const Tensor& self) {
  return full_extremum<ops::nanmedian>("NanmedianBackward0", ks, self);
}

template <typename Op>
Tensor extremum_dims(const char* name, DispatchKeySet ks, const Tensor& self, IntArrayRef dim, bool keepdim) {
  return differentiable<Op>(
      name, {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), dims = dim.vec(), keepdim](const variable_list& g) {
          const Tensor self_v = s.unpack();
          const Tensor result = Op::call(self_v, dims, keepdim);
          return variable_list{evenly_distributed(g[0], self_v, result, make_dim_mask(IntArrayRef(dims), self_v.dim()),
                                                  keepdim, /*select=*/false)};
        });
      },
      ks, self, dim, keepdim);
}

Tensor amax(DispatchKeySet ks, const Tensor& self, IntArrayRef dim, bool keepdim) {
  return extremum_dims<ops::amax>("AmaxBackward0", ks, self, dim, keepdim);
}
Tensor amin(DispatchKeySet ks, const Tensor& self, IntArrayRef dim, bool keepdim) {
  return extremum_dims<ops::amin>("AminBackward0", ks, self, dim, keepdim);
}

// max.dim / min.dim: the gradient goes to the index returned (PyTorch's value_selecting_reduction_backward).
// The indices are saved: they are an integer output, which autograd never tracks.
template <typename Op>
std::tuple<Tensor, Tensor> extremum_dim(const char* name, DispatchKeySet ks, const Tensor& self, int64_t dim,
                                        bool keepdim) {
  auto [values, indices] =
      below_autograd([&] { return Op::redispatch(ks & after_autograd_keyset, self, dim, keepdim); });
  if (compute_requires_grad({self})) {
    record(name, {self}, {values},
           [i = SavedVariable(indices), sizes = self.sizes().vec(), dim, keepdim](const variable_list& g) {
             if (sizes.empty()) return variable_list{g[0]};
             const int64_t d = maybe_wrap_dim(dim, static_cast<int64_t>(sizes.size()));
             const Tensor index = keepdim ? i.unpack() : i.unpack().unsqueeze(d);
             const Tensor grad = keepdim ? g[0] : g[0].unsqueeze(d);
             return variable_list{zeros(sizes, g[0].options()).scatter(d, index, grad)};
           });
  }
  return {values, indices};
}

std::tuple<Tensor, Tensor> max_dim(DispatchKeySet ks, const Tensor& self, int64_t dim, bool keepdim) {
  return extremum_dim<ops::max_dim>("MaxBackward0", ks, self, dim, keepdim);
}
std::tuple<Tensor, Tensor> min_dim(DispatchKeySet ks, const Tensor& self, int64_t dim, bool keepdim) {
  return extremum_dim<ops::min_dim>("MinBackward0", ks, self, dim, keepdim);
}

// --- var, std -----------------------------------------------------------------------------------------

// d var / d self = 2 (self - mean) / (N - correction), N the number of elements reduced per result.
Tensor var_grad(const Tensor& grad, const Tensor& self, DimMask mask, double correction, bool keepdim) {
  const std::vector<int64_t> dims = mask_dims(mask, self.dim());
  const double n = static_cast<double>(reduced_count(self.sizes(), mask));
  const Tensor centered = dims.empty() ? self - self.mean() : self - self.mean(dims, /*keepdim=*/true);
  return expand_reduced(grad, self.sizes(), mask, keepdim) * centered * (2.0 / (n - correction));
}

Tensor var_correction(DispatchKeySet ks, const Tensor& self, std::optional<IntArrayRef> dim,
                      const std::optional<Scalar>& correction, bool keepdim) {
  return differentiable<ops::var_correction>(
      "VarBackward0", {self},
      [&] {
        return BackwardFunction::Formula(
            [s = SavedVariable(self), mask = make_dim_mask(dim, self.dim()),
             c = correction ? correction->toDouble() : 1.0,
             keepdim](const variable_list& g) { return variable_list{var_grad(g[0], s.unpack(), mask, c, keepdim)}; });
      },
      ks, self, dim, correction, keepdim);
}

// std = sqrt(var): d std = d var / (2 std), 0 where std is 0.
Tensor std_correction(DispatchKeySet ks, const Tensor& self, std::optional<IntArrayRef> dim,
                      const std::optional<Scalar>& correction, bool keepdim) {
  return differentiable<ops::std_correction>(
      "StdBackward0", {self},
      [&] {
        std::optional<std::vector<int64_t>> dims;
        if (dim) dims = dim->vec();
        return BackwardFunction::Formula([s = SavedVariable(self), dims, correction, keepdim](const variable_list& g) {
          const Tensor self_v = s.unpack();
          const std::optional<IntArrayRef> d = dims ? std::optional<IntArrayRef>(IntArrayRef(*dims)) : std::nullopt;
          const Tensor result = self_v.std(d, correction, keepdim);
          const Tensor grad_var = mt::where(result.eq(0), 0.0, g[0] / (result * 2.0));
          return variable_list{var_grad(grad_var, self_v, make_dim_mask(d, self_v.dim()),
                                        correction ? correction->toDouble() : 1.0, keepdim)};
        });
      },
      ks, self, dim, correction, keepdim);
}

// --- norm ---------------------------------------------------------------------------------------------

// PyTorch's norm_backward: p = 0 has no gradient; p = 1 is sign(self); p = +-inf shares the gradient
// among the elements of largest (smallest) magnitude; otherwise self |self|^(p-2) / norm^(p-1), which is
// 0 where the norm is 0.
Tensor norm_grad(const Tensor& grad, const Tensor& self, double p, DimMask mask, bool keepdim) {
  const std::vector<int64_t> dims = mask_dims(mask, self.dim());
  const IntArrayRef dim_ref(dims);
  const Tensor norm = keep_reduced(self.norm(p, dim_ref, keepdim), self.dim(), mask, keepdim);
  const Tensor g = keep_reduced(grad, self.dim(), mask, keepdim);
  if (p == 0) return zeros_like(self);
  if (p == 1) return g * self.sign();
  if (std::isinf(p)) {
    // NaNs count as picked, as in PyTorch: with sign(NaN) = 0, a NaN slice gets a zero gradient, not 0 / 0.
    const Tensor picked = self.abs().eq(norm).logical_or(self.ne(self)).to(self.dtype());
    return g * self.sign() * picked / picked.sum(dims, /*keepdim=*/true);
  }
  // sign(x) |x|^(p-1), not x |x|^(p-2), which is 0 * inf at x = 0 for p < 2.
  const Tensor powered = self.sign() * self.abs().pow(p - 1);
  const Tensor scaled = p == 2 ? self : p < 1 ? mt::where(self.eq(0), 0.0, powered) : powered;
  // Divided by 1 where the norm is 0, then masked: dividing by 0 there would make the derivative of
  // this formula with respect to g (which jvp takes) 0 / 0 = NaN instead of 0.
  const Tensor zero_norm = norm.eq(0);
  const Tensor safe_norm = mt::where(zero_norm, 1.0, norm);
  return mt::where(zero_norm, 0.0, g * scaled / (p == 2 ? safe_norm : safe_norm.pow(p - 1)));
}

Tensor norm_Scalar(DispatchKeySet ks, const Tensor& self, const Scalar& p) {
  return differentiable<ops::norm_Scalar>(
      "NormBackward0", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), p = p.toDouble()](const variable_list& g) {
          const Tensor self_v = s.unpack();
          return variable_list{norm_grad(g[0], self_v, p, make_dim_mask(std::nullopt, self_v.dim()), false)};
        });
      },
      ks, self, p);
}

Tensor norm_ScalarOpt_dim(DispatchKeySet ks, const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                          bool keepdim) {
  return differentiable<ops::norm_ScalarOpt_dim>(
      "NormBackward1", {self},
      [&] {
        return BackwardFunction::Formula(
            [s = SavedVariable(self), p = p ? p->toDouble() : 2.0, mask = make_dim_mask(dim, self.dim()),
             keepdim](const variable_list& g) { return variable_list{norm_grad(g[0], s.unpack(), p, mask, keepdim)}; });
      },
      ks, self, p, dim, keepdim);
}

Tensor norm_ScalarOpt_dim_dtype(DispatchKeySet ks, const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                                bool keepdim, ScalarType dtype) {
  return differentiable<ops::norm_ScalarOpt_dim_dtype>(
      "NormBackward3", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), p = p ? p->toDouble() : 2.0,
                                          mask = make_dim_mask(dim, self.dim()), keepdim](const variable_list& g) {
          const Tensor self_v = s.unpack();
          return variable_list{norm_grad(g[0].to(self_v.dtype()), self_v, p, mask, keepdim)};
        });
      },
      ks, self, p, dim, keepdim, dtype);
}

// --- logsumexp ----------------------------------------------------------------------------------------

// d logsumexp / d self = exp(self - logsumexp) = softmax over the reduced dims.
Tensor logsumexp(DispatchKeySet ks, const Tensor& self, IntArrayRef dim, bool keepdim) {
  return differentiable<ops::logsumexp>(
      "LogsumexpBackward0", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), dims = dim.vec(), keepdim](const variable_list& g) {
          const Tensor self_v = s.unpack();
          const DimMask mask = make_dim_mask(IntArrayRef(dims), self_v.dim());
          const Tensor result = self_v.logsumexp(mask_dims(mask, self_v.dim()), /*keepdim=*/true);
          return variable_list{keep_reduced(g[0], self_v.dim(), mask, keepdim) * (self_v - result).exp()};
        });
      },
      ks, self, dim, keepdim);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("sum", MT_FN(sum));
  m.impl("sum.dim_IntList", MT_FN(sum_dim));
  m.impl("mean", MT_FN(mean));
  m.impl("mean.dim", MT_FN(mean_dim));
  m.impl("prod", MT_FN(prod));
  m.impl("prod.dim_int", MT_FN(prod_dim_int));
  m.impl("max", MT_FN(max));
  m.impl("min", MT_FN(min));
  m.impl("median", MT_FN(median));
  m.impl("nanmedian", MT_FN(nanmedian));
  m.impl("max.dim", MT_FN(max_dim));
  m.impl("min.dim", MT_FN(min_dim));
  m.impl("amax", MT_FN(amax));
  m.impl("amin", MT_FN(amin));
  m.impl("var.correction", MT_FN(var_correction));
  m.impl("std.correction", MT_FN(std_correction));
  m.impl("norm.Scalar", MT_FN(norm_Scalar));
  m.impl("norm.ScalarOpt_dim", MT_FN(norm_ScalarOpt_dim));
  m.impl("norm.ScalarOpt_dim_dtype", MT_FN(norm_ScalarOpt_dim_dtype));
  m.impl("logsumexp", MT_FN(logsumexp));
}

}  // namespace mt::autograd
