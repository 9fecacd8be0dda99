// The scans on every device: the input is made contiguous (in the result's dtype, which the sums and
// products widen integers and bool to int64 for) and the stubs walk its lines. On Meta the stubs do nothing.
#include <tuple>

#include "dispatch/Library.h"
#include "ops/Copy.h"
#include "ops/Factories.h"
#include "ops/api/clone.h"
#include "ops/api/cumprod.h"
#include "ops/api/cumsum.h"
#include "ops/api/empty_like.h"
#include "ops/Scans.h"

namespace mt {

MT_DEFINE_STUB(scan_stub, void(const TensorBase&, const TensorBase&, int64_t, Scan));
MT_DEFINE_STUB(cum_extremum_stub, void(const TensorBase&, const TensorBase&, const TensorBase&, int64_t, bool));

namespace {

Tensor scan(const char* name, Scan op, const Tensor& self, int64_t dim, ScalarType dtype) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  MT_CHECK_NOT_IMPLEMENTED(dtype != kBool, '"', name, "\" not implemented for '", dtype, "'");
  const Tensor input = as_dtype(self, dtype).contiguous();
  Tensor out = empty_like(input);
  if (input.numel() != 0) scan_stub(self.device().type(), out, input, self.dim() == 0 ? 0 : d, op);
  return out;
}

// PyTorch's cumsum and cumprod: integers and bool accumulate in int64 unless a dtype is asked for.
ScalarType accumulate_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), /*include_bool=*/true) ? kInt64 : self.dtype();
}

Tensor cumsum_kernel(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan("cumsum", Scan::Sum, self, dim, accumulate_dtype(self, dtype));
}
Tensor cumprod_kernel(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan("cumprod", Scan::Prod, self, dim, accumulate_dtype(self, dtype));
}
Tensor logcumsumexp_kernel(const Tensor& self, int64_t dim) {
  MT_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"logcumsumexp\" not implemented for '", self.dtype(), "'");
  return scan("logcumsumexp", Scan::LogSumExp, self, dim, self.dtype());
}

std::tuple<Tensor, Tensor> cum_extremum(const Tensor& self, int64_t dim, bool max) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const Tensor input = self.contiguous();
  Tensor values = empty_like(input);
  Tensor indices = empty_like(input, TensorOptions().dtype(kInt64));
  if (input.numel() != 0) cum_extremum_stub(self.device().type(), values, indices, input, self.dim() == 0 ? 0 : d, max);
  return {values, indices};
}
std::tuple<Tensor, Tensor> cummax_kernel(const Tensor& self, int64_t dim) { return cum_extremum(self, dim, true); }
std::tuple<Tensor, Tensor> cummin_kernel(const Tensor& self, int64_t dim) { return cum_extremum(self, dim, false); }

void register_kernels(Library& m) {
  m.impl("cumsum", MT_FN(cumsum_kernel));
  m.impl("cumprod", MT_FN(cumprod_kernel));
  m.impl("logcumsumexp", MT_FN(logcumsumexp_kernel));
  m.impl("cummax", MT_FN(cummax_kernel));
  m.impl("cummin", MT_FN(cummin_kernel));
}

// The in-place forms write the scan into self, whose dtype it is converted to (copy_ wraps integers).
Tensor& cumsum__composite(Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return self.copy_(mt::cumsum(self, dim, dtype));
}
// cumprod's derivative reads its input, which the copy then overwrites: where autograd may record it, the
// product is taken of a copy (PyTorch's in-place derivatives keep such an "original self" the same way).
Tensor& cumprod__composite(Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return self.copy_(mt::cumprod(self.requires_grad() ? self.clone() : self, dim, dtype));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("cumsum_", MT_FN(cumsum__composite));
  m.impl("cumprod_", MT_FN(cumprod__composite));
}

}  // namespace mt
