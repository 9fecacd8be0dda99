// Derivatives of the joining and indexing ops: cat, index_select, gather, scatter (src, value, add, and
// their in-place forms), take, put, tril/triu. Gradients that spread the output's gradient back over
// self use scatter_add (take: put with accumulate), so they are differentiable again. (stack and repeat
// are compositions of these.)
#include "autograd/derivatives/Formulas.h"
#include "ops/api/cat.h"
#include "ops/api/gather.h"
#include "ops/api/index_select.h"
#include "ops/api/put.h"
#include "ops/api/scatter.h"
#include "ops/api/scatter_add.h"
#include "ops/api/take.h"
#include "ops/api/tril.h"
#include "ops/api/triu.h"
#include "ops/api/zeros.h"

namespace mt::autograd {

namespace {

// cat skips 1-D empty inputs (PyTorch's legacy rule); they get no gradient.
bool skipped_by_cat(IntArrayRef sizes) { return sizes.size() == 1 && sizes[0] == 0; }

Tensor cat(DispatchKeySet ks, ArrayRef<Tensor> tensors, int64_t dim) {
  Tensor out = below_autograd([&] { return ops::cat::redispatch(ks & after_autograd_keyset, tensors, dim); });
  if (any_requires_grad(tensors)) {
    std::vector<std::vector<int64_t>> sizes;
    for (const Tensor& t : tensors) sizes.push_back(t.sizes().vec());
    record_list("CatBackward0", tensors, out, [sizes, d = maybe_wrap_dim(dim, out.dim())](const variable_list& g) {
      variable_list grads;
      int64_t offset = 0;
      for (const auto& s : sizes) {
        if (skipped_by_cat(s)) {
          grads.emplace_back();
          continue;
        }
        grads.push_back(g[0].narrow(d, offset, s[d]));
        offset += s[d];
      }
      return grads;
    });
  }
  return out;
}

// index (1-D, along dim) as a tensor of `sizes`, for scatter_add.
Tensor index_along(const Tensor& index, IntArrayRef sizes, int64_t dim) {
  std::vector<int64_t> shape(sizes.size(), 1);
  shape[dim] = -1;
  return index.reshape(shape).expand(sizes).contiguous();
}

Tensor index_select(DispatchKeySet ks, const Tensor& self, int64_t dim, const Tensor& index) {
  return differentiable<ops::index_select>(
      "IndexSelectBackward0", {self},
      [&] {
        return BackwardFunction::Formula(
            [i = SavedVariable(index), sizes = self.sizes().vec(), dim](const variable_list& g) {
              if (sizes.empty()) return variable_list{g[0].reshape(sizes)};
              const int64_t d = maybe_wrap_dim(dim, static_cast<int64_t>(sizes.size()));
              const Tensor index_v = index_along(i.unpack().to(kInt64), g[0].sizes(), d);  // int32 too
              return variable_list{zeros(sizes, g[0].options()).scatter_add(d, index_v, g[0])};
            });
      },
      ks, self, dim, index);
}

Tensor gather(DispatchKeySet ks, const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  return differentiable<ops::gather>(
      "GatherBackward0", {self},
      [&] {
        return BackwardFunction::Formula(
            [i = SavedVariable(index), sizes = self.sizes().vec(), dim](const variable_list& g) {
              return variable_list{zeros(sizes, g[0].options()).scatter_add(dim, i.unpack(), g[0])};
            });
      },
      ks, self, dim, index, sparse_grad);
}

// src may be larger than index; the elements scatter did not read get no gradient.
Tensor pad_to(Tensor t, IntArrayRef sizes) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) == sizes[d]) continue;
    std::vector<int64_t> pad = t.sizes().vec();
    pad[d] = sizes[d] - t.size(d);
    t = mt::cat({t, zeros(pad, t.options())}, d);
  }
  return t;
}

// The gradients of scatter(self, dim, index, src) (`add`: scatter_add): self keeps the gradient where
// nothing was written; src gets the gradient of the places it was written to.
BackwardFunction::Formula scatter_formula(const Tensor& index, const Tensor& src, int64_t dim, bool add) {
  return [i = SavedVariable(index), src_sizes = src.defined() ? src.sizes().vec() : std::vector<int64_t>(), dim, add,
          has_src = src.defined()](const variable_list& g) {
    const Tensor index_v = i.unpack();
    variable_list grads{add ? g[0] : g[0].scatter(dim, index_v, 0.0)};
    if (has_src) grads.push_back(pad_to(g[0].gather(dim, index_v), src_sizes));
    return grads;
  };
}

Tensor scatter_src(DispatchKeySet ks, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return differentiable<ops::scatter_src>(
      "ScatterBackward0", {self, src}, [&] { return scatter_formula(index, src, dim, false); }, ks, self, dim, index,
      src);
}

Tensor scatter_value(DispatchKeySet ks, const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return differentiable<ops::scatter_value>(
      "ScatterBackward1", {self}, [&] { return scatter_formula(index, Tensor(), dim, false); }, ks, self, dim, index,
      value);
}

Tensor scatter_add(DispatchKeySet ks, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return differentiable<ops::scatter_add>(
      "ScatterAddBackward0", {self, src}, [&] { return scatter_formula(index, src, dim, true); }, ks, self, dim, index,
      src);
}

// The in-place forms stay by hand: they save index after the op has run. differentiable_ builds the formula
// first, which would refuse an inference-tensor index before the op writes self instead of after.
Tensor& scatter__src(DispatchKeySet ks, Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self, src});
  below_autograd(
      [&]() -> Tensor& { return ops::scatter__src::redispatch(ks & after_autograd_keyset, self, dim, index, src); });
  if (rg) record("ScatterBackward0", {self, src}, {self}, scatter_formula(index, src, dim, false));
  return self;
}

Tensor& scatter__value(DispatchKeySet ks, Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self});
  below_autograd([&]() -> Tensor& {
    return ops::scatter__value::redispatch(ks & after_autograd_keyset, self, dim, index, value);
  });
  if (rg) record("ScatterBackward1", {self}, {self}, scatter_formula(index, Tensor(), dim, false));
  return self;
}

Tensor& scatter_add_(DispatchKeySet ks, Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self, src});
  below_autograd(
      [&]() -> Tensor& { return ops::scatter_add_::redispatch(ks & after_autograd_keyset, self, dim, index, src); });
  if (rg) record("ScatterAddBackward0", {self, src}, {self}, scatter_formula(index, src, dim, true));
  return self;
}

Tensor take(DispatchKeySet ks, const Tensor& self, const Tensor& index) {
  return differentiable<ops::take>(
      "TakeBackward0", {self},
      [&] {
        return BackwardFunction::Formula(
            [i = SavedVariable(index), sizes = self.sizes().vec()](const variable_list& g) {
              return variable_list{zeros(sizes, g[0].options()).put(i.unpack(), g[0], /*accumulate=*/true)};
            });
      },
      ks, self, index);
}

// Like scatter: self keeps the gradient where put did not write (all of it when accumulating); source
// gets the gradient of the places it was written to.
Tensor put(DispatchKeySet ks, const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  return differentiable<ops::put>(
      "PutBackward0", {self, source},
      [&] {
        return BackwardFunction::Formula(
            [i = SavedVariable(index), source_sizes = source.sizes().vec(), accumulate](const variable_list& g) {
              const Tensor index_v = i.unpack();
              Tensor grad_self = accumulate ? g[0] : g[0].put(index_v, zeros(source_sizes, g[0].options()));
              return variable_list{std::move(grad_self), g[0].take(index_v).reshape(source_sizes)};
            });
      },
      ks, self, index, source, accumulate);
}

Tensor tril(DispatchKeySet ks, const Tensor& self, int64_t diagonal) {
  return differentiable<ops::tril>(
      "TrilBackward0", {self},
      [&] {
        return BackwardFunction::Formula(
            [diagonal](const variable_list& g) { return variable_list{g[0].tril(diagonal)}; });
      },
      ks, self, diagonal);
}

Tensor triu(DispatchKeySet ks, const Tensor& self, int64_t diagonal) {
  return differentiable<ops::triu>(
      "TriuBackward0", {self},
      [&] {
        return BackwardFunction::Formula(
            [diagonal](const variable_list& g) { return variable_list{g[0].triu(diagonal)}; });
      },
      ks, self, diagonal);
}

Tensor& tril_(DispatchKeySet ks, Tensor& self, int64_t diagonal) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self});
  below_autograd([&]() -> Tensor& { return ops::tril_::redispatch(ks & after_autograd_keyset, self, diagonal); });
  if (rg) {
    record("TrilBackward0", {self}, {self},
           [diagonal](const variable_list& g) { return variable_list{g[0].tril(diagonal)}; });
  }
  return self;
}

Tensor& triu_(DispatchKeySet ks, Tensor& self, int64_t diagonal) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self});
  below_autograd([&]() -> Tensor& { return ops::triu_::redispatch(ks & after_autograd_keyset, self, diagonal); });
  if (rg) {
    record("TriuBackward0", {self}, {self},
           [diagonal](const variable_list& g) { return variable_list{g[0].triu(diagonal)}; });
  }
  return self;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("cat", MT_FN(cat));
  m.impl("index_select", MT_FN(index_select));
  m.impl("gather", MT_FN(gather));
  m.impl("scatter.src", MT_FN(scatter_src));
  m.impl("scatter.value", MT_FN(scatter_value));
  m.impl("scatter_add", MT_FN(scatter_add));
  m.impl("scatter_.src", MT_FN(scatter__src));
  m.impl("scatter_.value", MT_FN(scatter__value));
  m.impl("scatter_add_", MT_FN(scatter_add_));
  m.impl("take", MT_FN(take));
  m.impl("put", MT_FN(put));
  m.impl("tril", MT_FN(tril));
  m.impl("triu", MT_FN(triu));
  m.impl("tril_", MT_FN(tril_));
  m.impl("triu_", MT_FN(triu_));
}

}  // namespace mt::autograd
