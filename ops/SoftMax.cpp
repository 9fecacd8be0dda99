// _softmax and _log_softmax, the kernels (shared by CPU, CUDA and Meta: on Meta the stub does nothing), and
// softmax / log_softmax, the compositions users call: an optional dtype conversion, then the kernel.
#include "ops/SoftMax.h"

#include "dispatch/Library.h"
#include "ops/api/_log_softmax.h"
#include "ops/api/_softmax.h"
#include "ops/api/log_softmax.h"
#include "ops/api/softmax.h"

namespace mt {

MT_DEFINE_STUB(softmax_stub, void(const TensorBase&, const TensorBase&, int64_t, bool));

namespace {

Tensor softmax_kernel(const char* name, const Tensor& self, int64_t dim, bool half_to_float, bool log) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const ScalarType dtype = self.dtype();
  if (!is_floating_point(dtype)) detail::throw_error<NotImplementedError>('"', name, "\" not implemented for '", dtype, "'");
  MT_CHECK(!half_to_float || dtype == kFloat16, "conversion is supported for Half type only");
  Tensor out(TensorImpl::empty(self.sizes(), half_to_float ? kFloat32 : dtype, self.device()));
  if (out.numel() > 0) softmax_stub(self.device().type(), out, self, d, log);
  return out;
}

Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_kernel("softmax", self, dim, half_to_float, false);
}
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_kernel("log_softmax", self, dim, half_to_float, true);
}

// With a dtype the input is converted first, so the kernel computes in (and returns) that dtype.
Tensor softmax_int(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return mt::_softmax(dtype ? self.to(*dtype) : self, dim, false);
}
Tensor log_softmax_int(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return mt::_log_softmax(dtype ? self.to(*dtype) : self, dim, false);
}

void register_kernels(Library& m) {
  m.impl("_softmax", MT_FN(_softmax));
  m.impl("_log_softmax", MT_FN(_log_softmax));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("softmax.int", MT_FN(softmax_int));
  m.impl("log_softmax.int", MT_FN(log_softmax_int));
}

}  // namespace mt
