#include "ops/ReduceOps.h"

#include <limits>

#include "dispatch/Library.h"
#include "ops/Copy.h"

namespace mt {

MT_DEFINE_STUB(sum_stub, ReduceFn);
MT_DEFINE_STUB(mean_stub, ReduceFn);
MT_DEFINE_STUB(prod_stub, ReduceFn);
MT_DEFINE_STUB(amax_stub, ReduceFn);
MT_DEFINE_STUB(amin_stub, ReduceFn);
MT_DEFINE_STUB(all_stub, ReduceFn);
MT_DEFINE_STUB(any_stub, ReduceFn);
MT_DEFINE_STUB(logsumexp_stub, ReduceFn);
MT_DEFINE_STUB(max_with_indices_stub, ArgReduceFn);
MT_DEFINE_STUB(min_with_indices_stub, ArgReduceFn);
MT_DEFINE_STUB(var_stub, void(const TensorBase&, const TensorBase&, DimMask, double, bool));
MT_DEFINE_STUB(norm_stub, void(const TensorBase&, const TensorBase&, DimMask, double));

DimMask make_dim_mask(std::optional<IntArrayRef> dims, int64_t ndim, bool empty_means_all) {
  MT_CHECK(ndim <= kMaxReduceDims, "only tensors with up to ", kMaxReduceDims, " dims are supported");
  if (!dims || (dims->empty() && empty_means_all))
    return ndim == kMaxReduceDims ? ~DimMask(0) : (DimMask(1) << ndim) - 1;
  DimMask mask = 0;
  for (int64_t d : *dims) {
    const int64_t wrapped = maybe_wrap_dim(d, ndim);
    MT_CHECK(!(mask >> wrapped & 1), "dim ", wrapped, " appears multiple times in the list of dims");
    mask |= DimMask(1) << wrapped;
  }
  return mask;
}

DimMask make_dim_mask(int64_t dim, int64_t ndim) { return make_dim_mask(IntArrayRef(dim), ndim); }

std::vector<int64_t> reduced_shape(IntArrayRef sizes, DimMask mask, bool keepdim) {
  std::vector<int64_t> shape;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (!(mask >> d & 1)) shape.push_back(sizes[d]);
    else if (keepdim) shape.push_back(1);
  }
  return shape;
}

namespace {

Tensor new_output(const Tensor& self, DimMask mask, bool keepdim, ScalarType dtype) {
  return Tensor(TensorImpl::empty(reduced_shape(self.sizes(), mask, keepdim), dtype, self.device()));
}

Tensor reduce(DispatchStub<ReduceFn>& stub, const Tensor& self, DimMask mask, bool keepdim, ScalarType dtype) {
  Tensor out = new_output(self, mask, keepdim, dtype);
  stub(self.device().type(), out, as_dtype(self, dtype), mask);
  return out;
}

// max, min, amax, amin and the arg-reductions have no identity: every reduced dim needs elements.
void check_nonempty_reduction(const char* name, const Tensor& self, DimMask mask, bool dim_given) {
  if (self.numel() != 0) return;
  MT_CHECK(dim_given, name, "(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                            "reduction dim with the 'dim' argument.");
  for (int64_t d = 0; d < self.dim(); ++d) {
    MT_CHECK_INDEX(!(mask >> d & 1) || self.size(d) != 0, name, "(): Expected reduction dim ", d,
                   " to have non-zero size.");
  }
}

// sum and prod: integers and bools accumulate in int64, as in PyTorch.
ScalarType sum_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), /*include_bool=*/true) ? kInt64 : self.dtype();
}

// --- the registered kernels, one per overload ------------------------------------------------------------

Tensor sum_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce(sum_stub, self, make_dim_mask(dim, self.dim()), keepdim, sum_dtype(self, dtype));
}
Tensor sum_all(const Tensor& self, std::optional<ScalarType> dtype) { return sum_dim(self, std::nullopt, false, dtype); }

Tensor mean_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  if (dtype) {
    MT_CHECK(is_floating_point(*dtype), "mean(): could not infer output dtype. Optional dtype must be either a "
                                        "floating point or complex dtype. Got: ", *dtype);
  } else {
    MT_CHECK(is_floating_point(self.dtype()), "mean(): could not infer output dtype. Input dtype must be either a "
                                              "floating point or complex dtype. Got: ", self.dtype());
  }
  return reduce(mean_stub, self, make_dim_mask(dim, self.dim()), keepdim, dtype.value_or(self.dtype()));
}
Tensor mean_all(const Tensor& self, std::optional<ScalarType> dtype) {
  return mean_dim(self, std::nullopt, false, dtype);
}

Tensor prod_dim(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce(prod_stub, self, make_dim_mask(dim, self.dim()), keepdim, sum_dtype(self, dtype));
}
Tensor prod_all(const Tensor& self, std::optional<ScalarType> dtype) {
  return reduce(prod_stub, self, make_dim_mask(std::nullopt, self.dim()), false, sum_dtype(self, dtype));
}

Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const DimMask mask = make_dim_mask(dim, self.dim());
  check_nonempty_reduction("amax", self, mask, !dim.empty());
  return reduce(amax_stub, self, mask, keepdim, self.dtype());
}
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const DimMask mask = make_dim_mask(dim, self.dim());
  check_nonempty_reduction("amin", self, mask, !dim.empty());
  return reduce(amin_stub, self, mask, keepdim, self.dtype());
}
Tensor max_all(const Tensor& self) {
  const DimMask mask = make_dim_mask(std::nullopt, self.dim());
  check_nonempty_reduction("max", self, mask, false);
  return reduce(amax_stub, self, mask, false, self.dtype());
}
Tensor min_all(const Tensor& self) {
  const DimMask mask = make_dim_mask(std::nullopt, self.dim());
  check_nonempty_reduction("min", self, mask, false);
  return reduce(amin_stub, self, mask, false, self.dtype());
}

std::tuple<Tensor, Tensor> with_indices(DispatchStub<ArgReduceFn>& stub, const char* name, const Tensor& self,
                                        int64_t dim, bool keepdim) {
  const DimMask mask = make_dim_mask(dim, self.dim());
  check_nonempty_reduction(name, self, mask, true);
  Tensor values = new_output(self, mask, keepdim, self.dtype());
  Tensor indices = new_output(self, mask, keepdim, kInt64);
  stub(self.device().type(), values, indices, self, mask);
  return {values, indices};
}
std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return with_indices(max_with_indices_stub, "max", self, dim, keepdim);
}
std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return with_indices(min_with_indices_stub, "min", self, dim, keepdim);
}

// dim=None reduces the flattened tensor: the index is into self's elements in row-major order.
Tensor arg_reduce(DispatchStub<ArgReduceFn>& stub, const char* name, const Tensor& self, std::optional<int64_t> dim,
                  bool keepdim) {
  MT_CHECK_NOT_IMPLEMENTED(self.dtype() != kBool, '"', name, "\" not implemented for '", self.dtype(), "'");
  if (!dim) {
    MT_CHECK_INDEX(self.numel() != 0, name, "(): Expected reduction dim to be specified for input.numel() == 0.");
  }
  const DimMask mask = dim ? make_dim_mask(*dim, self.dim()) : make_dim_mask(std::nullopt, self.dim());
  check_nonempty_reduction(name, self, mask, true);
  Tensor indices = new_output(self, mask, keepdim, kInt64);
  stub(self.device().type(), Tensor(), indices, self, mask);
  return indices;
}
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(max_with_indices_stub, "argmax", self, dim, keepdim);
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(min_with_indices_stub, "argmin", self, dim, keepdim);
}

Tensor var_std(const Tensor& self, std::optional<IntArrayRef> dim, const std::optional<Scalar>& correction,
               bool keepdim, bool take_sqrt) {
  MT_CHECK(is_floating_point(self.dtype()), "std and var only support floating point and complex dtypes");
  const DimMask mask = make_dim_mask(dim, self.dim());
  Tensor out = new_output(self, mask, keepdim, self.dtype());
  var_stub(self.device().type(), out, self, mask, correction ? correction->toDouble() : 1.0, take_sqrt);
  return out;
}
Tensor var_correction(const Tensor& self, std::optional<IntArrayRef> dim, const std::optional<Scalar>& correction,
                      bool keepdim) {
  return var_std(self, dim, correction, keepdim, false);
}
Tensor std_correction(const Tensor& self, std::optional<IntArrayRef> dim, const std::optional<Scalar>& correction,
                      bool keepdim) {
  return var_std(self, dim, correction, keepdim, true);
}

Tensor norm_impl(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
                 std::optional<ScalarType> dtype) {
  if (dtype) {
    MT_CHECK(is_floating_point(*dtype), "norm(): the desired output dtype should be either floating point or "
                                        "complex. Got ", *dtype, " instead.");
  } else {
    MT_CHECK(is_floating_point(self.dtype()), "norm(): input dtype should be either floating point or complex. "
                                              "Got ", self.dtype(), " instead.");
  }
  const ScalarType out_dtype = dtype.value_or(self.dtype());
  const DimMask mask = make_dim_mask(dim, self.dim());
  const double ord = p ? p->toDouble() : 2.0;
  // The inf and negative norms reduce with max or min, which have no value for no elements.
  if (ord < 0 || ord == std::numeric_limits<double>::infinity()) {
    for (int64_t d = 0; d < self.dim(); ++d) {
      if (!(mask >> d & 1) || self.size(d) != 0) continue;
      MT_CHECK(!dim.empty(), "linalg.vector_norm cannot compute the ", Scalar(ord),
               " norm on an empty tensor because the operation does not have an identity");
      MT_CHECK(false, "linalg.vector_norm cannot compute the ", Scalar(ord), " norm on the dimension ", d,
               " because this dimension is empty and the operation does not have an identity");
    }
  }
  Tensor out = new_output(self, mask, keepdim, out_dtype);
  norm_stub(self.device().type(), out, as_dtype(self, out_dtype), mask, ord);
  return out;
}
Tensor norm_scalar(const Tensor& self, const Scalar& p) { return norm_impl(self, p, {}, false, std::nullopt); }
Tensor norm_dim(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim) {
  return norm_impl(self, p, dim, keepdim, std::nullopt);
}
Tensor norm_dim_dtype(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
                      ScalarType dtype) {
  return norm_impl(self, p, dim, keepdim, dtype);
}

// Integers and bools give the default float dtype.
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const ScalarType dtype = is_integral(self.dtype(), /*include_bool=*/true) ? get_default_dtype() : self.dtype();
  return reduce(logsumexp_stub, self, make_dim_mask(dim, self.dim()), keepdim, dtype);
}

// all and any read every dtype as truth values and give bool, except for uint8 inputs, which give uint8
// 0 or 1 (PyTorch keeps that from the days before bool tensors).
Tensor logical_reduce(DispatchStub<ReduceFn>& stub, const Tensor& self, DimMask mask, bool keepdim) {
  Tensor out = new_output(self, mask, keepdim, kBool);
  stub(self.device().type(), out, self, mask);
  return self.dtype() == kUInt8 ? out.to(kUInt8) : out;
}
Tensor all_all(const Tensor& self) { return logical_reduce(all_stub, self, make_dim_mask(std::nullopt, self.dim()), false); }
Tensor all_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return logical_reduce(all_stub, self, make_dim_mask(dim, self.dim()), keepdim);
}
Tensor all_dims(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {
  return logical_reduce(all_stub, self, make_dim_mask(dim, self.dim(), /*empty_means_all=*/false), keepdim);
}
Tensor any_all(const Tensor& self) { return logical_reduce(any_stub, self, make_dim_mask(std::nullopt, self.dim()), false); }
Tensor any_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return logical_reduce(any_stub, self, make_dim_mask(dim, self.dim()), keepdim);
}
Tensor any_dims(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {
  return logical_reduce(any_stub, self, make_dim_mask(dim, self.dim(), /*empty_means_all=*/false), keepdim);
}

// CPU, CUDA and Meta share these kernels: on Meta the stubs do nothing, so only shapes and dtypes are made.
void register_kernels(Library& m) {
  m.impl("sum", MT_FN(sum_all));
  m.impl("sum.dim_IntList", MT_FN(sum_dim));
  m.impl("mean", MT_FN(mean_all));
  m.impl("mean.dim", MT_FN(mean_dim));
  m.impl("prod", MT_FN(prod_all));
  m.impl("prod.dim_int", MT_FN(prod_dim));
  m.impl("max", MT_FN(max_all));
  m.impl("max.dim", MT_FN(max_dim));
  m.impl("min", MT_FN(min_all));
  m.impl("min.dim", MT_FN(min_dim));
  m.impl("amax", MT_FN(amax));
  m.impl("amin", MT_FN(amin));
  m.impl("argmax", MT_FN(argmax));
  m.impl("argmin", MT_FN(argmin));
  m.impl("var.correction", MT_FN(var_correction));
  m.impl("std.correction", MT_FN(std_correction));
  m.impl("norm.Scalar", MT_FN(norm_scalar));
  m.impl("norm.ScalarOpt_dim", MT_FN(norm_dim));
  m.impl("norm.ScalarOpt_dim_dtype", MT_FN(norm_dim_dtype));
  m.impl("logsumexp", MT_FN(logsumexp));
  m.impl("all", MT_FN(all_all));
  m.impl("all.dim", MT_FN(all_dim));
  m.impl("all.dims", MT_FN(all_dims));
  m.impl("any", MT_FN(any_all));
  m.impl("any.dim", MT_FN(any_dim));
  m.impl("any.dims", MT_FN(any_dims));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
