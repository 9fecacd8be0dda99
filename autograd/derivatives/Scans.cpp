// Derivatives of the scans, as PyTorch's formulas: out_k depends on x_j for j <= k, so each gradient is a
// reversed scan of the output gradient. cumprod's divides by x only before a line's first zero, and takes the
// first zero's own gradient from the products with that zero left out (its second derivative is exact
// away from zeros only). cummax and cummin send each gradient to the position they returned. Outputs the
// formulas need are recomputed from the saved input.

#include "autograd/derivatives/Formulas.h"
#include "ops/api/cummax.h"
#include "ops/api/cummin.h"
#include "ops/api/cumprod.h"
#include "ops/api/cumsum.h"
#include "ops/api/logcumsumexp.h"
#include "ops/api/where.h"
#include "ops/api/zeros_like.h"

namespace mt::autograd {
namespace {

// sum over k >= j of g_k, along dim.
Tensor reversed_cumsum(const Tensor& g, int64_t dim) { return g.flip({dim}).cumsum(dim).flip({dim}); }

Tensor cumsum_grad(const Tensor& g, int64_t dim) { return reversed_cumsum(g, dim); }

Tensor cumprod_grad(const Tensor& g, const Tensor& x, const Tensor& out, int64_t dim) {
  const Tensor zero = x == 0;
  const Tensor zeros_so_far = zero.cumsum(dim);
  const Tensor before_first_zero = zeros_so_far == 0;
  const Tensor first_zero = zero.logical_and(zeros_so_far == 1);
  const Tensor before = reversed_cumsum(g * out, dim) / mt::where(before_first_zero, x, 1);
  const Tensor at_zero = reversed_cumsum(g * mt::where(first_zero, 1, x).cumprod(dim), dim);
  return mt::where(before_first_zero, before, 0) + mt::where(first_zero, at_zero, 0);
}

// d out_k / d x_j = exp(x_j - out_k) for j <= k, split around the line's total c (its last output, the
// largest): exp(x_j - c) <= 1, and exp(c - out_k) overflows only for lines whose values span over 700.
Tensor logcumsumexp_grad(const Tensor& g, const Tensor& x, const Tensor& out, int64_t dim) {
  const Tensor c = out.narrow(dim, out.size(dim) - 1, 1).detach();
  return (x - c).exp() * reversed_cumsum(g * (c - out).exp(), dim);
}

// The dim a scan ran along: 0-dim tensors scan one element, whose gradient is the output's.
template <typename Formula>
Tensor along_dim(const Tensor& g, int64_t dim, int64_t ndim, Formula formula) {
  return ndim == 0 ? g : formula(maybe_wrap_dim(dim, ndim));
}

Tensor cumsum(DispatchKeySet ks, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return differentiable<ops::cumsum>(
      "CumsumBackward0", {self},
      [&] {
        return BackwardFunction::Formula([dim, ndim = self.dim(), dtype = self.dtype()](const variable_list& g) {
          return variable_list{along_dim(g[0], dim, ndim, [&](int64_t d) { return cumsum_grad(g[0].to(dtype), d); })};
        });
      },
      ks, self, dim, dtype);
}

Tensor cumprod(DispatchKeySet ks, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return differentiable<ops::cumprod>(
      "CumprodBackward0", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), dim](const variable_list& g) {
          const Tensor x = s.unpack();
          return variable_list{along_dim(
              g[0], dim, x.dim(), [&](int64_t d) { return cumprod_grad(g[0].to(x.dtype()), x, x.cumprod(d), d); })};
        });
      },
      ks, self, dim, dtype);
}

Tensor logcumsumexp(DispatchKeySet ks, const Tensor& self, int64_t dim) {
  return differentiable<ops::logcumsumexp>(
      "LogcumsumexpBackward0", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), dim](const variable_list& g) {
          const Tensor x = s.unpack();
          return variable_list{along_dim(g[0], dim, x.dim(),
                                         [&](int64_t d) { return logcumsumexp_grad(g[0], x, x.logcumsumexp(d), d); })};
        });
      },
      ks, self, dim);
}

template <typename Op>
std::tuple<Tensor, Tensor> cum_extremum(const char* name, DispatchKeySet ks, const Tensor& self, int64_t dim) {
  auto [values, indices] = below_autograd([&] { return Op::redispatch(ks & after_autograd_keyset, self, dim); });
  if (compute_requires_grad({self})) {
    record(name, {self}, {values}, [i = SavedVariable(indices), dim, ndim = self.dim()](const variable_list& g) {
      return variable_list{
          along_dim(g[0], dim, ndim, [&](int64_t d) { return zeros_like(g[0]).scatter_add(d, i.unpack(), g[0]); })};
    });
  }
  return {values, indices};
}
std::tuple<Tensor, Tensor> cummax(DispatchKeySet ks, const Tensor& self, int64_t dim) {
  return cum_extremum<ops::cummax>("CummaxBackward0", ks, self, dim);
}
std::tuple<Tensor, Tensor> cummin(DispatchKeySet ks, const Tensor& self, int64_t dim) {
  return cum_extremum<ops::cummin>("CumminBackward0", ks, self, dim);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("cumsum", MT_FN(cumsum));
  m.impl("cumprod", MT_FN(cumprod));
  m.impl("logcumsumexp", MT_FN(logcumsumexp));
  m.impl("cummax", MT_FN(cummax));
  m.impl("cummin", MT_FN(cummin));
}

}  // namespace mt::autograd
