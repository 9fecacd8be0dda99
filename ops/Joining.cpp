// cat and the compositions built on it and on the views: stack, repeat.
#include "dispatch/Library.h"
#include "ops/infra/TensorIterator.h"
#include "ops/api/cat.h"
#include "ops/api/repeat.h"
#include "ops/api/stack.h"
#include "ops/api/t.h"
#include "ops/Views.h"
#include "ops/Factories.h"
#include "tensor/TypePromotion.h"

namespace mt {
namespace {

// One allocation, then the copy_ op writes each input into its slice of the result (converting its
// dtype), so cat is a composition every backend with copy_ has.
Tensor cat(ArrayRef<Tensor> tensors, int64_t dim) {
  MT_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  ResultTypeState state;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    MT_CHECK(t.dim() > 0, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    check_same_device(tensors[0].device(), t);
    state = update_result_type_state(t, state);
  }
  const ScalarType dtype = result_type(state);
  // PyTorch's legacy rule: 1-D empty tensors take part in the dtype only, whatever the other shapes.
  auto skipped = [](const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; };
  const Tensor* ref = nullptr;
  for (const Tensor& t : tensors) {
    if (!skipped(t)) {
      ref = &t;
      break;
    }
  }
  if (!ref) return Tensor(TensorImpl::empty({0}, dtype, tensors[0].device()));

  const int64_t d = maybe_wrap_dim(dim, ref->dim());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skipped(t)) continue;
    MT_CHECK(t.dim() == ref->dim(), "Tensors must have same number of dimensions: got ", ref->dim(), " and ", t.dim());
    for (int64_t j = 0; j < t.dim(); ++j) {
      MT_CHECK(j == d || t.size(j) == ref->size(j), "Sizes of tensors must match except in dimension ", d,
               ". Expected size ", ref->size(j), " but got size ", t.size(j), " for tensor number ", i, " in the list.");
    }
    total += t.size(d);
  }
  DimVector sizes = to_dim_vector(ref->sizes());
  sizes[d] = total;
  Tensor out(TensorImpl::empty(sizes, dtype, ref->device()));
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (skipped(t) || t.size(d) == 0) continue;
    Tensor slice = narrow_view(out, d, offset, t.size(d));
    slice.copy_(t);
    offset += t.size(d);
  }
  return out;
}

Tensor stack(ArrayRef<Tensor> tensors, int64_t dim) {
  MT_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const int64_t d = maybe_wrap_dim(dim, tensors[0].dim() + 1);
  std::vector<Tensor> parts;
  parts.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    MT_CHECK(tensors[i].sizes() == tensors[0].sizes(), "stack expects each tensor to be equal size, but got ",
             tensors[0].sizes(), " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
    parts.push_back(tensors[i].unsqueeze(d));
  }
  return mt::cat(parts, d);
}

// Self, viewed as [1, s0, 1, s1, ...] (padded with leading 1s to the length of `repeats`), is expanded to
// [r0, s0, r1, s1, ...], copied into a contiguous tensor and read as [r0 * s0, r1 * s1, ...]. The copy
// always happens: the result never aliases self. Views and a copy, rather than copy_ into a new tensor,
// so that vmap (which cannot write a batched value into an unbatched tensor) runs it with its own rules.
Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  const int64_t n = static_cast<int64_t>(repeats.size());
  MT_CHECK(n >= self.dim(), "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  DimVector interleaved, tiled_shape, target;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = i < n - self.dim() ? 1 : self.size(i - (n - self.dim()));
    interleaved.push_back(1);
    interleaved.push_back(s);
    tiled_shape.push_back(repeats[i]);
    tiled_shape.push_back(s);
    target.push_back(repeats[i] * s);
  }
  for (int64_t s : target) MT_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", IntArrayRef(target));
  for (int64_t r : repeats) MT_CHECK(r >= 0, "Trying to create tensor with negative dimension ", r, ": ", repeats);
  const Tensor tiled = self.view(interleaved).expand(tiled_shape);
  return (tiled.is_contiguous() ? tiled.clone() : tiled.contiguous()).view(target);
}

void register_kernels(Library& m) {
  m.impl("cat", MT_FN(cat));
}

void register_compositions(Library& m) {
  m.impl("stack", MT_FN(stack));
  m.impl("repeat", MT_FN(repeat));
}

}  // namespace

// cat only allocates and calls copy_, so, like clone, it serves every backend from
// CompositeExplicitAutograd (which also receives the call with an empty list, to report it).
MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_compositions(m); }

}  // namespace mt
