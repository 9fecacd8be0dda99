// Derivatives of the view ops: view, expand, transpose, unsqueeze, squeeze, permute (their gradients
// are views or reductions of the output's gradient), select, slice, diagonal, as_strided (whose
// gradients place the output's gradient into zeros of self's shape, with scatter so that they are
// differentiable again), and unbind, split, split_with_sizes, whose views are the outputs of one node
// (so that an in-place op on one of them is refused: see CreationMeta), and whose gradients are the
// outputs' stacked or concatenated (chunk and split.sizes are compositions of these).
#include <algorithm>
#include <vector>

#include "autograd/derivatives/AsStridedBackward.h"
#include "autograd/derivatives/Formulas.h"
#include "ops/api/arange.h"
#include "ops/api/as_strided.h"
#include "ops/api/cat.h"
#include "ops/api/diagonal.h"
#include "ops/api/expand.h"
#include "ops/api/permute.h"
#include "ops/api/select.h"
#include "ops/api/slice.h"
#include "ops/api/split.h"
#include "ops/api/split_with_sizes.h"
#include "ops/api/squeeze.h"
#include "ops/api/stack.h"
#include "ops/api/transpose.h"
#include "ops/api/unbind.h"
#include "ops/api/unsqueeze.h"
#include "ops/api/view.h"

namespace mt::autograd {

namespace {

Tensor view(DispatchKeySet ks, const Tensor& self, IntArrayRef size) {
  Tensor out = below_autograd([&] { return ops::view::redispatch(ks & after_autograd_keyset, self, size); });
  if (compute_requires_grad({self})) {
    record("ViewBackward0", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{g[0].reshape(sizes)};
    });
  }
  return out;
}

Tensor expand(DispatchKeySet ks, const Tensor& self, IntArrayRef size, bool implicit) {
  Tensor out = below_autograd([&] { return ops::expand::redispatch(ks & after_autograd_keyset, self, size, implicit); });
  if (compute_requires_grad({self})) {
    record("ExpandBackward0", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{sum_to(g[0], sizes)};
    });
  }
  return out;
}

Tensor transpose_int(DispatchKeySet ks, const Tensor& self, int64_t dim0, int64_t dim1) {
  Tensor out =
      below_autograd([&] { return ops::transpose_int::redispatch(ks & after_autograd_keyset, self, dim0, dim1); });
  if (compute_requires_grad({self})) {
    record("TransposeBackward0", {self}, {out},
           [dim0, dim1](const variable_list& g) { return variable_list{g[0].transpose(dim0, dim1)}; });
  }
  return out;
}

Tensor unsqueeze(DispatchKeySet ks, const Tensor& self, int64_t dim) {
  Tensor out = below_autograd([&] { return ops::unsqueeze::redispatch(ks & after_autograd_keyset, self, dim); });
  if (compute_requires_grad({self})) {
    record("UnsqueezeBackward0", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{g[0].view(sizes)};
    });
  }
  return out;
}

Tensor squeeze(DispatchKeySet ks, const Tensor& self) {
  Tensor out = below_autograd([&] { return ops::squeeze::redispatch(ks & after_autograd_keyset, self); });
  if (compute_requires_grad({self})) {
    record("SqueezeBackward0", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{g[0].reshape(sizes)};
    });
  }
  return out;
}

Tensor squeeze_dim(DispatchKeySet ks, const Tensor& self, int64_t dim) {
  Tensor out = below_autograd([&] { return ops::squeeze_dim::redispatch(ks & after_autograd_keyset, self, dim); });
  if (compute_requires_grad({self})) {
    record("SqueezeBackward1", {self}, {out}, [sizes = self.sizes().vec()](const variable_list& g) {
      return variable_list{g[0].reshape(sizes)};
    });
  }
  return out;
}

Tensor permute(DispatchKeySet ks, const Tensor& self, IntArrayRef dims) {
  Tensor out = below_autograd([&] { return ops::permute::redispatch(ks & after_autograd_keyset, self, dims); });
  if (compute_requires_grad({self})) {
    std::vector<int64_t> inverse(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) inverse[maybe_wrap_dim(dims[i], self.dim())] = static_cast<int64_t>(i);
    record("PermuteBackward0", {self}, {out},
           [inverse](const variable_list& g) { return variable_list{g[0].permute(inverse)}; });
  }
  return out;
}

Tensor select_int(DispatchKeySet ks, const Tensor& self, int64_t dim, int64_t index) {
  Tensor out = below_autograd([&] { return ops::select_int::redispatch(ks & after_autograd_keyset, self, dim, index); });
  if (compute_requires_grad({self})) {
    const int64_t d = maybe_wrap_dim(dim, self.dim());
    const int64_t i = index < 0 ? index + self.size(d) : index;
    record("SelectBackward0", {self}, {out}, [sizes = self.sizes().vec(), d, i](const variable_list& g) {
      return variable_list{place_along(g[0].unsqueeze(d), sizes, d, arange(i, i + 1, 1, kInt64))};
    });
  }
  return out;
}

Tensor slice_Tensor(DispatchKeySet ks, const Tensor& self, int64_t dim, std::optional<int64_t> start,
                    std::optional<int64_t> end, int64_t step) {
  Tensor out = below_autograd(
      [&] { return ops::slice_Tensor::redispatch(ks & after_autograd_keyset, self, dim, start, end, step); });
  if (compute_requires_grad({self})) {
    const int64_t d = maybe_wrap_dim(dim, self.dim()), n = self.size(d);
    int64_t first = start.value_or(0);
    if (first < 0) first += n;
    first = std::min(std::max<int64_t>(first, 0), n);
    record("SliceBackward0", {self}, {out},
           [sizes = self.sizes().vec(), d, first, step, len = out.size(d)](const variable_list& g) {
             return variable_list{place_along(g[0], sizes, d, arange(len, kInt64) * step + first)};
           });
  }
  return out;
}

Tensor diagonal(DispatchKeySet ks, const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  Tensor out =
      below_autograd([&] { return ops::diagonal::redispatch(ks & after_autograd_keyset, self, offset, dim1, dim2); });
  if (compute_requires_grad({self})) {
    const int64_t d1 = maybe_wrap_dim(dim1, self.dim()), d2 = maybe_wrap_dim(dim2, self.dim());
    record("DiagonalBackward0", {self}, {out}, [sizes = self.sizes().vec(), offset, d1, d2](const variable_list& g) {
      // The gradient of the diagonal's last dim goes to the flattened (dim1, dim2) plane, then back in place.
      const int64_t n1 = sizes[d1], n2 = sizes[d2], len = g[0].size(-1);
      const int64_t first = std::max<int64_t>(-offset, 0) * n2 + std::max<int64_t>(offset, 0);
      std::vector<int64_t> plane(g[0].sizes().begin(), g[0].sizes().end() - 1);
      plane.push_back(n1 * n2);
      Tensor placed = place_along(g[0], plane, g[0].dim() - 1, arange(len, kInt64) * (n2 + 1) + first);
      plane.back() = n1;
      plane.push_back(n2);
      return variable_list{placed.view(plane).movedim({-2, -1}, {d1, d2})};
    });
  }
  return out;
}

Tensor as_strided(DispatchKeySet ks, const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset) {
  Tensor out = below_autograd(
      [&] { return ops::as_strided::redispatch(ks & after_autograd_keyset, self, size, stride, storage_offset); });
  if (compute_requires_grad({self})) {
    // Summed per storage position, so that overlapping elements of the view add up (see as_strided_backward).
    record("AsStridedBackward0", {self}, {out},
           [input = TensorGeometry::of(self), view = TensorGeometry::of(out)](const variable_list& g) {
             return variable_list{as_strided_backward(g[0], input, view)};
           });
  }
  return out;
}

// One node whose output i is outputs[i]; unused outputs' gradients arrive as zeros.
void record_views_of_one_node(const char* name, const Tensor& self, const std::vector<Tensor>& outputs,
                              BackwardFunction::Formula formula) {
  auto node = std::make_shared<BackwardFunction>(name, std::vector<Edge>{gradient_edge(self)}, std::move(formula));
  for (const Tensor& out : outputs) set_history(out, node);
}

std::vector<Tensor> unbind_int(DispatchKeySet ks, const Tensor& self, int64_t dim) {
  std::vector<Tensor> out =
      below_autograd([&] { return ops::unbind_int::redispatch(ks & after_autograd_keyset, self, dim); });
  if (compute_requires_grad({self})) {
    record_views_of_one_node(
        "UnbindBackward0", self, out,
        [d = maybe_wrap_dim(dim, self.dim())](const variable_list& g) { return variable_list{mt::stack(g, d)}; });
  }
  return out;
}

BackwardFunction::Formula cat_along(const Tensor& self, int64_t dim) {
  return [d = maybe_wrap_dim(dim, self.dim())](const variable_list& g) { return variable_list{mt::cat(g, d)}; };
}

std::vector<Tensor> split_Tensor(DispatchKeySet ks, const Tensor& self, int64_t split_size, int64_t dim) {
  std::vector<Tensor> out =
      below_autograd([&] { return ops::split_Tensor::redispatch(ks & after_autograd_keyset, self, split_size, dim); });
  if (compute_requires_grad({self})) record_views_of_one_node("SplitBackward0", self, out, cat_along(self, dim));
  return out;
}

std::vector<Tensor> split_with_sizes(DispatchKeySet ks, const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  std::vector<Tensor> out = below_autograd(
      [&] { return ops::split_with_sizes::redispatch(ks & after_autograd_keyset, self, split_sizes, dim); });
  if (compute_requires_grad({self})) {
    record_views_of_one_node("SplitWithSizesBackward0", self, out, cat_along(self, dim));
  }
  return out;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("view", MT_FN(view));
  m.impl("expand", MT_FN(expand));
  m.impl("transpose.int", MT_FN(transpose_int));
  m.impl("unsqueeze", MT_FN(unsqueeze));
  m.impl("squeeze", MT_FN(squeeze));
  m.impl("squeeze.dim", MT_FN(squeeze_dim));
  m.impl("permute", MT_FN(permute));
  m.impl("select.int", MT_FN(select_int));
  m.impl("slice.Tensor", MT_FN(slice_Tensor));
  m.impl("diagonal", MT_FN(diagonal));
  m.impl("as_strided", MT_FN(as_strided));
  m.impl("unbind.int", MT_FN(unbind_int));
  m.impl("split.Tensor", MT_FN(split_Tensor));
  m.impl("split_with_sizes", MT_FN(split_with_sizes));
}

}  // namespace mt::autograd
