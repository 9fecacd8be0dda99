// index_select, gather, scatter (src and value), scatter_add, one_hot, take and put: argument checks,
// output allocation and index bounds, shared by CPU, CUDA and Meta (on Meta the stubs do nothing). Every
// check, including the bounds of every index, runs before anything is written.
#include "ops/Indexing.h"

#include "dispatch/Library.h"
#include "ops/infra/TensorIterator.h"
#include "ops/Copy.h"
#include "ops/Factories.h"
#include "ops/infra/MemoryOverlap.h"
#include "ops/Views.h"

namespace mt {

MT_DEFINE_STUB(index_outside_stub, void(const TensorBase&, int64_t, int64_t, std::optional<int64_t>&));
MT_DEFINE_STUB(index_min_max_stub, void(const TensorBase&, int64_t&, int64_t&));
MT_DEFINE_STUB(gather_stub, void(const TensorBase&, const TensorBase&, int64_t, const TensorBase&));
MT_DEFINE_STUB(scatter_stub, void(const TensorBase&, int64_t, const TensorBase&, const TensorBase&, ScatterOp));
MT_DEFINE_STUB(scatter_fill_stub, void(const TensorBase&, int64_t, const TensorBase&, const Scalar&));
MT_DEFINE_STUB(take_stub, void(const TensorBase&, const TensorBase&, const TensorBase&));
MT_DEFINE_STUB(put_stub, void(const TensorBase&, const TensorBase&, const TensorBase&, ScatterOp));

void check_take(const TensorBase& self, const TensorBase& index) {
  MT_CHECK(index.dtype() == kInt64, "take(): Expected a long tensor for index, but got ", index.dtype());
  // PyTorch's take is take_out into a tensor on self's device, hence "out".
  MT_CHECK(self.device() == index.device(),
           "take(): self, index and out expected to be in the same device, but got "
           "self.device = ",
           self.device(), ", index.device = ", index.device(), ", and out.device = ", self.device());
  MT_CHECK_INDEX(self.numel() > 0 || index.numel() == 0, "take(): tried to take from an empty tensor");
}

void check_put(const TensorBase& self, const TensorBase& index, const TensorBase& source) {
  MT_CHECK(index.dtype() == kInt64, "put_(): Expected a long tensor for index, but got ", index.dtype());
  MT_CHECK(self.dtype() == source.dtype(),
           "put_(): self and source expected to have the same dtype, but got "
           "self.dtype = ",
           self.dtype(), " and source.dtype = ", source.dtype());
  MT_CHECK(self.device() == source.device() && self.device() == index.device(),
           "put_(): self, index and source expected to be in the same device, but got self.device = ", self.device(),
           ", index.device = ", index.device(), ", and source.device = ", source.device());
  MT_CHECK_INDEX(source.numel() == index.numel(),
                 "put_(): Expected source and index to have the same number of "
                 "elements, but got source.numel() = ",
                 source.numel(), ", index.numel() = ", index.numel());
  MT_CHECK_INDEX(self.numel() > 0 || index.numel() == 0, "put_(): Tried to put elements into an empty tensor");
}

namespace {

std::optional<int64_t> index_outside(const Tensor& index, int64_t low, int64_t high) {
  std::optional<int64_t> outside;
  if (index.numel() > 0) index_outside_stub(index.device().type(), index, low, high, outside);
  return outside;
}

}  // namespace

void check_flat_bounds(const TensorBase& index, int64_t numel) {
  const std::optional<int64_t> i = index_outside(index, -numel, numel);
  MT_CHECK_INDEX(!i, "out of range: tried to access index ", *i, " on a tensor of ", numel, " elements.");
}

namespace {

// Sizes as the indexing ops see them: a 0-dim tensor has one dim of size 1.
int64_t dims_of(const Tensor& t) { return std::max<int64_t>(t.dim(), 1); }
int64_t size_of(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }

void check_index_dtype(const char* op, const Tensor& index) {
  MT_CHECK_TYPE(index.dtype() == kInt64, op, "(): Expected dtype int64 for index");
}

void check_bounds(const Tensor& index, int64_t dim, int64_t size) {
  const std::optional<int64_t> i = index_outside(index, 0, size);
  MT_CHECK_INDEX(!i, "index ", *i, " is out of bounds for dimension ", dim, " with size ", size);
}

Tensor new_like(const Tensor& self, IntArrayRef sizes) {
  return Tensor(TensorImpl::empty(sizes, self.dtype(), self.device()));
}

// --- index_select ------------------------------------------------------------------------------------

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index_arg) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  MT_CHECK_INDEX(index_arg.dim() <= 1, "index_select(): Index is supposed to be a vector");
  MT_CHECK_INDEX(index_arg.dtype() == kInt64 || index_arg.dtype() == kInt32,
                 "index_select(): Expected dtype int32 or int64 for index");
  check_same_device({&self, &index_arg});
  // The loops read int64: an int32 index is copied.
  const Tensor index = as_dtype(index_arg, kInt64);
  const int64_t n = index.numel();
  MT_CHECK_INDEX(self.dim() > 0 || n == 1, "index_select(): Index to scalar can have only 1 value, got ", n,
                 " value(s)");
  if (n > 0 && !index.is_meta()) {
    int64_t lo = 0, hi = 0;
    index_min_max_stub(index.device().type(), index, lo, hi);
    MT_CHECK_INDEX(lo >= 0 && hi < size_of(self, d), "index out of range in self");
  }
  DimVector sizes = to_dim_vector(self.sizes());
  if (self.dim() > 0) sizes[d] = n;
  Tensor out = new_like(self, sizes);
  if (n == 0 || out.numel() == 0) return out;
  // index_select is a gather whose index is `index` along dim and broadcast along the others.
  DimVector index_strides;
  index_strides.resize(sizes.size());
  for (auto& s : index_strides) s = 0;
  if (self.dim() > 0) index_strides[d] = index.dim() == 0 ? 0 : index.stride(0);
  const Tensor expanded = make_view(index, sizes, index_strides, index.storage_offset());
  gather_stub(out.device().type(), out, self, d, expanded);
  return out;
}

// --- gather ------------------------------------------------------------------------------------------

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad: a gradient layout*/) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  check_index_dtype("gather", index);
  check_same_device({&self, &index});
  Tensor out = new_like(self, index.sizes());
  if (index.numel() == 0) return out;
  MT_CHECK(dims_of(index) == dims_of(self), "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t i = 0; i < dims_of(self); ++i) {
    MT_CHECK(i == d || size_of(index, i) <= size_of(self, i), "Size does not match at dimension ", i,
             " expected index ", index.sizes(), " to be smaller than self ", self.sizes(), " apart from dimension ", d);
  }
  check_bounds(index, d, size_of(self, d));
  gather_stub(out.device().type(), out, self, d, index);
  return out;
}

// --- scatter, scatter_add ----------------------------------------------------------------------------

// The checks of scatter(self, dim, index, src or value); returns the wrapped dim.
int64_t check_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  check_index_dtype("scatter", index);
  if (src) {
    MT_CHECK_TYPE(src->dtype() == self.dtype(), "scatter(): Expected self.dtype to be equal to src.dtype");
    check_same_device({&self, &index, src});
  } else {
    check_same_device({&self, &index});
  }
  if (index.numel() == 0) return d;
  MT_CHECK(dims_of(index) == dims_of(self), "Index tensor must have the same number of dimensions as self tensor");
  MT_CHECK(!src || dims_of(index) == dims_of(*src),
           "Index tensor must have the same number of dimensions as src tensor");
  for (int64_t i = 0; i < dims_of(self); ++i) {
    const bool fits_self = i == d || size_of(index, i) <= size_of(self, i);
    const bool fits_src = !src || size_of(index, i) <= size_of(*src, i);
    if (src) {
      MT_CHECK(fits_self && fits_src, "Expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
               " apart from dimension ", d, " and to be smaller size than src ", src->sizes());
    } else {
      MT_CHECK(fits_self, "Expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
               " apart from dimension ", d);
    }
  }
  check_bounds(index, d, size_of(self, d));
  return d;
}

// The functional forms write into a contiguous copy of self.
Tensor copy_of(const Tensor& self) {
  Tensor out = new_like(self, self.sizes());
  copy_into(out, self);
  return out;
}

// The in-place forms write self at positions the index picks while reading src and index elsewhere, so
// self may share memory with neither (PyTorch's checks).
void check_scatter_overlap(const Tensor& self, const Tensor& index, const Tensor* src) {
  check_no_internal_overlap(self);
  check_no_overlap(self, index);
  if (src) check_no_overlap(self, *src);
}

Tensor& scatter_src_into(Tensor& out, int64_t d, const Tensor& index, const Tensor& src, ScatterOp op) {
  if (index.numel() > 0) scatter_stub(out.device().type(), out, d, index, src, op);
  return out;
}

Tensor scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = check_scatter(self, dim, index, &src);
  Tensor out = copy_of(self);
  return scatter_src_into(out, d, index, src, ScatterOp::Assign);
}

Tensor& scatter__src(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = check_scatter(self, dim, index, &src);
  check_scatter_overlap(self, index, &src);
  return scatter_src_into(self, d, index, src, ScatterOp::Assign);
}

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = check_scatter(self, dim, index, &src);
  Tensor out = copy_of(self);
  return scatter_src_into(out, d, index, src, ScatterOp::Add);
}

Tensor& scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = check_scatter(self, dim, index, &src);
  check_scatter_overlap(self, index, &src);
  return scatter_src_into(self, d, index, src, ScatterOp::Add);
}

Tensor& scatter_value_into(Tensor& out, int64_t d, const Tensor& index, const Scalar& value) {
  check_value_fits(value, out.dtype());
  if (index.numel() > 0) scatter_fill_stub(out.device().type(), out, d, index, value);
  return out;
}

Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = check_scatter(self, dim, index, nullptr);
  Tensor out = copy_of(self);
  return scatter_value_into(out, d, index, value);
}

Tensor& scatter__value(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = check_scatter(self, dim, index, nullptr);
  check_scatter_overlap(self, index, nullptr);
  return scatter_value_into(self, d, index, value);
}

// --- one_hot -----------------------------------------------------------------------------------------

// A kernel, not a composition: the number of classes may depend on the data.
Tensor one_hot(const Tensor& self, int64_t num_classes) {
  MT_CHECK_TYPE(self.dtype() == kInt64, "one_hot is only applicable to index tensor.");
  if (num_classes == -1) {
    MT_CHECK(!self.is_meta(), "Can not infer total number of classes from meta tensor.");
    MT_CHECK(self.numel() > 0, "Can not infer total number of classes from empty tensor.");
  }
  if (self.numel() > 0 && !self.is_meta()) {
    int64_t lo = 0, hi = 0;
    index_min_max_stub(self.device().type(), self, lo, hi);
    MT_CHECK(lo >= 0, "Class values must be non-negative.");
    if (num_classes == -1) num_classes = hi + 1;
    MT_CHECK(hi < num_classes, "Class values must be smaller than num_classes.");
  }
  DimVector sizes = to_dim_vector(self.sizes()), strides = to_dim_vector(self.strides());
  sizes.push_back(num_classes);
  Tensor out = mt::zeros(sizes, TensorOptions(kInt64).device(self.device()));
  if (out.numel() == 0) return out;
  // out[..., self[...]] = 1: a scatter along the new last dim with self as a [..., 1] index.
  sizes.back() = 1;
  strides.push_back(1);
  scatter_fill_stub(out.device().type(), out, out.dim() - 1, make_view(self, sizes, strides, self.storage_offset()),
                    Scalar(int64_t(1)));
  return out;
}

// --- take, put ---------------------------------------------------------------------------------------

Tensor take(const Tensor& self, const Tensor& index) {
  check_take(self, index);
  check_flat_bounds(index, self.numel());
  Tensor out = new_like(self, index.sizes());
  if (index.numel() > 0) take_stub(out.device().type(), out, self, index);
  return out;
}

Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  check_put(self, index, source);
  check_flat_bounds(index, self.numel());
  Tensor out = copy_of(self);
  if (index.numel() > 0) {
    put_stub(out.device().type(), out, index, source, accumulate ? ScatterOp::Add : ScatterOp::Assign);
  }
  return out;
}

void register_kernels(Library& m) {
  m.impl("index_select", MT_FN(index_select));
  m.impl("gather", MT_FN(gather));
  m.impl("scatter.src", MT_FN(scatter_src));
  m.impl("scatter_.src", MT_FN(scatter__src));
  m.impl("scatter.value", MT_FN(scatter_value));
  m.impl("scatter_.value", MT_FN(scatter__value));
  m.impl("scatter_add", MT_FN(scatter_add));
  m.impl("scatter_add_", MT_FN(scatter_add_));
  m.impl("one_hot", MT_FN(one_hot));
  m.impl("take", MT_FN(take));
  m.impl("put", MT_FN(put));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
