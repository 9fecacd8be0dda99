#include "ops/Copy.h"

#include "dispatch/Library.h"
#include "ops/api/copy_ops.h"
#include "ops/api/empty_strided_ops.h"
#include "ops/infra/TensorIterator.h"
#include "ops/Views.h"

namespace mt {

MT_DEFINE_STUB(copy_stub, void(TensorIterator&));

void copy_into(const TensorBase& dst, const TensorBase& src) {
  if (dst.is_same(src)) return;  // nothing to do, even for an expanded tensor, as in PyTorch
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(dst)
                            .add_input(src)
                            .check_all_same_dtype(false)
                            .keep_output_dtype(true)
                            .resize_outputs(false)
                            .name("copy_")
                            .build();
  if (iter.numel() > 0) copy_stub(iter.device().type(), iter);
}

TensorBase converted_copy(const TensorBase& src, ScalarType dtype) {
  TensorBase dst(TensorImpl::empty(src.sizes(), dtype, src.device()));
  copy_into(dst, src);
  return dst;
}

Tensor as_dtype(const Tensor& t, ScalarType dtype) {
  return t.dtype() == dtype ? t : Tensor(converted_copy(t, dtype));
}

namespace {
Tensor& copy_(Tensor& self, const Tensor& src, bool /*non_blocking*/) {
  copy_into(self, src);
  return self;
}

// A new tensor laid out as clone(self) would be, then the copy_ op: every backend with copy_ has it,
// and being CompositeExplicitAutograd it keeps its own derivative.
Tensor copy(const Tensor& self, const Tensor& src, bool non_blocking) {
  Tensor out = ops::empty_strided::call(self.sizes(), preserve_format_strides(self), self.dtype(), self.device());
  ops::copy_::call(out, src, non_blocking);
  return out;
}
}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { m.impl("copy_", MT_FN(copy_)); }
MT_LIBRARY_IMPL(mt, Meta, m) { m.impl("copy_", MT_FN(copy_)); }
MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) { m.impl("copy", MT_FN(copy)); }

}  // namespace mt
