// Shape ops that are compositions of the primitive views (ViewOps.cpp): reshape, flatten, unflatten,
// t, movedim, expand_as, narrow, unbind, split, chunk. Registered at CompositeImplicitAutograd, so
// autograd, vmap and every backend get them from the primitives; but for unbind and split (see below).
// And contiguous (see below).
#include "dispatch/Library.h"
#include "ops/api/chunk.h"
#include "ops/api/contiguous.h"
#include "ops/api/empty.h"
#include "ops/api/expand_as.h"
#include "ops/api/flatten.h"
#include "ops/api/movedim.h"
#include "ops/api/narrow.h"
#include "ops/api/reshape.h"
#include "ops/api/reshape_as.h"
#include "ops/api/split.h"
#include "ops/api/split_with_sizes.h"
#include "ops/api/t.h"
#include "ops/api/unbind.h"
#include "ops/api/unflatten.h"
#include "ops/api/view_as.h"
#include "ops/Views.h"
#include "ops/Factories.h"

namespace mt {
namespace {

// A view when the strides allow one, else a contiguous copy: reshape copies only when it must.
Tensor reshape(const Tensor& self, IntArrayRef shape) {
  const DimVector sizes = infer_view_size(shape, self.numel());
  if (compute_view_strides(self.sizes(), self.strides(), sizes)) return self.view(sizes);
  return self.contiguous().view(sizes);
}

Tensor view_as(const Tensor& self, const Tensor& other) { return self.view(other.sizes()); }
Tensor reshape_as(const Tensor& self, const Tensor& other) { return self.reshape(other.sizes()); }

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  const int64_t start = maybe_wrap_dim(start_dim, self.dim()), end = maybe_wrap_dim(end_dim, self.dim());
  MT_CHECK(start <= end, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (self.dim() == 0) return self.reshape({1});
  if (start == end) return self;
  DimVector shape;
  int64_t merged = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d < start || d > end) {
      shape.push_back(self.size(d));
    } else {
      merged *= self.size(d);
      if (d == end) shape.push_back(merged);
    }
  }
  return self.reshape(shape);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  MT_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  bool inferred = false;
  int64_t known = 1;
  for (int64_t s : sizes) {
    MT_CHECK(s >= -1, "invalid shape dimension ", s);
    MT_CHECK(s != -1 || !inferred, "only one dimension can be inferred");
    inferred = inferred || s == -1;
    if (s != -1) known *= s;
  }
  const bool fits = inferred ? (known > 0 ? size % known == 0 : size == 0) : known == size;
  MT_CHECK(fits, "unflatten: Provided sizes ", sizes, " don't multiply up to the size of dim ", d, " (", size,
           ") in the input tensor");
  const DimVector split = infer_view_size(sizes, size);
  DimVector shape;
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (i != d) {
      shape.push_back(self.size(i));
    } else {
      for (int64_t s : split) shape.push_back(s);
    }
  }
  return self.view(shape);
}

Tensor t(const Tensor& self) {
  MT_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return self.transpose(0, self.dim() < 2 ? 0 : 1);
}

Tensor movedim_intlist(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  MT_CHECK(source.size() == destination.size(), "movedim: Invalid source or destination dims: source (", source,
           " dims) should contain the same number of dims as destination (", destination, " dims)");
  const int64_t n = self.dim();
  // order[i]: the dim of self that ends up at position i (-1 while unassigned).
  DimVector order, src, dst;
  order.resize(std::max<int64_t>(n, 1));
  for (auto& o : order) o = -1;
  for (int64_t s : source) src.push_back(maybe_wrap_dim(s, n));
  for (int64_t s : destination) dst.push_back(maybe_wrap_dim(s, n));
  SmallVector<bool, 6> src_used, dst_used;
  src_used.resize(order.size());
  dst_used.resize(order.size());
  for (size_t i = 0; i < src.size(); ++i) {
    MT_CHECK(!src_used[src[i]], "movedim: repeated dim in `source` (", source, ")");
    src_used[src[i]] = true;
  }
  for (size_t i = 0; i < dst.size(); ++i) {
    MT_CHECK(!dst_used[dst[i]], "movedim: repeated dim in `destination` (", destination, ")");
    dst_used[dst[i]] = true;
    order[dst[i]] = src[i];
  }
  // The dims not moved keep their relative order in the positions left free.
  int64_t next = 0;
  for (int64_t pos = 0; pos < n; ++pos) {
    if (order[pos] != -1) continue;
    while (src_used[next]) ++next;
    order[pos] = next++;
  }
  order.resize(n);
  return self.permute(order);
}

Tensor movedim_int(const Tensor& self, int64_t source, int64_t destination) {
  return mt::movedim(self, IntArrayRef(source), IntArrayRef(destination));
}

Tensor expand_as(const Tensor& self, const Tensor& other) { return self.expand(other.sizes()); }

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  MT_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  MT_CHECK(length >= 0, "narrow(): length must be non-negative.");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  MT_CHECK_INDEX(start >= -size && start <= size, "start out of range (expected to be in range of [", -size, ", ",
                 size, "], but got ", start, ")");
  if (start < 0) start += size;
  MT_CHECK(start <= size - length, "start (", start, ") + length (", length, ") exceeds dimension size (", size, ").");
  return self.slice(d, start, start + length, 1);
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.size(d);
  std::vector<Tensor> out;
  out.reserve(n);
  for (int64_t i = 0; i < n; ++i) out.push_back(self.select(d, i));
  return out;
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  MT_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    MT_CHECK(s >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
             split_sizes);
    total += s;
  }
  MT_CHECK(total == size, "split_with_sizes expects split_sizes to sum exactly to ", size,
           " (input tensor's size at dimension ", d, "), but got split_sizes=", split_sizes);
  std::vector<Tensor> out;
  out.reserve(split_sizes.size());
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    out.push_back(self.narrow(d, start, s));
    start += s;
  }
  return out;
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  MT_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  MT_CHECK(split_size >= 0, "split expects split_size be non-negative, but got split_size=", split_size);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  MT_CHECK(split_size != 0 || size == 0, "split_size can only be 0 if dimension size is 0, but got dimension size of ",
           size);
  // Equal pieces and a shorter last one; an empty dim still gives one (empty) piece.
  const int64_t pieces = split_size == 0 ? 1 : std::max<int64_t>((size + split_size - 1) / split_size, 1);
  std::vector<Tensor> out;
  out.reserve(pieces);
  for (int64_t i = 0; i < pieces; ++i) {
    const int64_t start = i * split_size;
    out.push_back(self.narrow(d, start, std::min(split_size, size - start)));
  }
  return out;
}

std::vector<Tensor> split_sizes(const Tensor& self, IntArrayRef split_size, int64_t dim) {
  return mt::split_with_sizes(self, split_size, dim);
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  MT_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  MT_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  const int64_t split_size = (size + chunks - 1) / chunks;
  // An empty dim splits into `chunks` empty pieces, which split() cannot express.
  if (size == 0) return mt::split_with_sizes(self, std::vector<int64_t>(chunks, 0), d);
  return mt::split(self, split_size, d);
}

// PyTorch's aliases: broadcast_to is expand without `implicit`, swapaxes and swapdims are transpose.
Tensor broadcast_to(const Tensor& self, IntArrayRef size) { return self.expand(size); }
Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1) { return self.transpose(axis0, axis1); }

// x.mT, x.mH and x.adjoint(): the last two dims of a matrix or a batch of them swapped (and conjugated, which
// changes nothing for the real dtypes here).
Tensor matrix_transpose(const Tensor& self, const char* name) {
  MT_CHECK(self.dim() >= 2, "tensor.", name, " is only supported on matrices or batches of matrices. Got ", self.dim(),
           "-D tensor.");
  return self.transpose(-2, -1);
}
Tensor mT(const Tensor& self) { return matrix_transpose(self, "mT"); }
Tensor mH(const Tensor& self) { return matrix_transpose(self, "mH"); }
Tensor adjoint(const Tensor& self) { return matrix_transpose(self, "adjoint()"); }

Tensor contiguous(const Tensor& self) {
  if (self.is_contiguous()) return self;
  Tensor out = mt::empty(self.sizes(), self.options());
  out.copy_(self);
  return out;
}

void register_kernels(Library& m) {
  m.impl("reshape", MT_FN(reshape));
  m.impl("view_as", MT_FN(view_as));
  m.impl("reshape_as", MT_FN(reshape_as));
  m.impl("flatten.using_ints", MT_FN(flatten));
  m.impl("unflatten.int", MT_FN(unflatten));
  m.impl("t", MT_FN(t));
  m.impl("movedim.intlist", MT_FN(movedim_intlist));
  m.impl("movedim.int", MT_FN(movedim_int));
  m.impl("moveaxis.intlist", MT_FN(movedim_intlist));  // numpy's name
  m.impl("moveaxis.int", MT_FN(movedim_int));
  m.impl("expand_as", MT_FN(expand_as));
  m.impl("broadcast_to", MT_FN(broadcast_to));
  m.impl("swapaxes", MT_FN(swapaxes));
  m.impl("swapdims", MT_FN(swapaxes));
  m.impl("mT", MT_FN(mT));
  m.impl("mH", MT_FN(mH));
  m.impl("adjoint", MT_FN(adjoint));
  m.impl("narrow", MT_FN(narrow));
  m.impl("split.sizes", MT_FN(split_sizes));
  m.impl("chunk", MT_FN(chunk));
}

void register_explicit_kernels(Library& m) {
  m.impl("contiguous", MT_FN(contiguous));
  m.impl("unbind.int", MT_FN(unbind));
  m.impl("split.Tensor", MT_FN(split));
  m.impl("split_with_sizes", MT_FN(split_with_sizes));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_kernels(m); }

// contiguous copies with copy_, which records no history: it is CompositeExplicitAutograd, with its
// own derivative in autograd/derivatives/Copy.cpp. unbind, split and split_with_sizes are
// CompositeExplicitAutograd too, as in PyTorch: autograd makes their views outputs of one node
// (UnbindBackward0...), which an in-place op must not rebase (autograd/AutogradMeta.h, CreationMeta).
MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) { register_explicit_kernels(m); }

}  // namespace mt
