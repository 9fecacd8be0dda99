// Conversions: to(dtype / device / other / options), type_as and the one op behind them, _to_copy.
// `to` and type_as are CompositeImplicitAutograd (they decide whether to copy and call _to_copy);
// _to_copy is CompositeExplicitAutograd, a new tensor from the factories plus copy_, so it serves every
// backend and later carries its own derivative.
#include "dispatch/Library.h"
#include "ops/api/_to_copy_ops.h"
#include "ops/api/empty_ops.h"
#include "ops/api/empty_strided_ops.h"
#include "ops/api/to.h"
#include "ops/api/type_as.h"
#include "ops/Views.h"

namespace mt {

namespace {

// A device without an index ("cuda") means whichever index the tensor is on.
bool same_device(Device wanted, Device actual) {
  return wanted.type() == actual.type() && (!wanted.has_index() || wanted.index() == actual.index());
}

Tensor to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device, bool non_blocking) {
  const ScalarType out_dtype = dtype.value_or(self.dtype());
  const Device out_device = device.value_or(self.device());
  MT_CHECK_NOT_IMPLEMENTED(!self.is_meta() || out_device.is_meta(), "Cannot copy out of meta tensor; no data!");
  Tensor out = self.is_contiguous() ? ops::empty::call(self.sizes(), out_dtype, out_device)
                                    : ops::empty_strided::call(self.sizes(), preserve_format_strides(self), out_dtype,
                                                               out_device);
  if (out.is_meta()) return out;
  out.copy_(self, non_blocking);
  return out;
}

Tensor to_dtype_layout(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                       bool non_blocking, bool copy) {
  const bool unchanged = (!dtype || *dtype == self.dtype()) && (!device || same_device(*device, self.device()));
  if (unchanged && !copy) return self;
  return ops::_to_copy::call(self, dtype, device, non_blocking);
}

Tensor to_device(const Tensor& self, Device device, ScalarType dtype, bool non_blocking, bool copy) {
  return to_dtype_layout(self, dtype, device, non_blocking, copy);
}

Tensor to_dtype(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy) {
  return to_dtype_layout(self, dtype, std::nullopt, non_blocking, copy);
}

Tensor to_other(const Tensor& self, const Tensor& other, bool non_blocking, bool copy) {
  return to_dtype_layout(self, other.dtype(), other.device(), non_blocking, copy);
}

Tensor type_as(const Tensor& self, const Tensor& other) { return to_other(self, other, false, false); }

}  // namespace

Tensor Tensor::to(const TensorOptions& options, bool non_blocking, bool copy) const {
  return ops::to_dtype_layout::call(*this, options.dtype_opt(), options.device_opt(), non_blocking, copy);
}

MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) { m.impl("_to_copy", MT_FN(to_copy)); }

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("to.dtype_layout", MT_FN(to_dtype_layout));
  m.impl("to.device", MT_FN(to_device));
  m.impl("to.dtype", MT_FN(to_dtype));
  m.impl("to.other", MT_FN(to_other));
  m.impl("type_as", MT_FN(type_as));
}

}  // namespace mt
