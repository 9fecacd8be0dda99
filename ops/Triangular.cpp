// tril and triu (and their in-place forms): keep the lower or upper triangle of the last two dims.
// Shared by CPU, CUDA and Meta; the loop is triangular_stub.
#include "dispatch/Library.h"
#include "ops/Indexing.h"
#include "ops/infra/MemoryOverlap.h"

namespace mt {

MT_DEFINE_STUB(triangular_stub, void(const TensorBase&, const TensorBase&, int64_t, bool));

namespace {

void check_matrix(const Tensor& self, const char* op) {
  MT_CHECK(self.dim() >= 2, op, ": input tensor must have at least 2 dimensions");
}

// The functional forms return a new contiguous tensor.
Tensor triangular(const Tensor& self, int64_t diagonal, bool upper) {
  check_matrix(self, upper ? "triu" : "tril");
  Tensor out(TensorImpl::empty(self.sizes(), self.dtype(), self.device()));
  if (out.numel() > 0) triangular_stub(out.device().type(), out, self, diagonal, upper);
  return out;
}

Tensor& triangular_(Tensor& self, int64_t diagonal, bool upper) {
  check_matrix(self, upper ? "triu" : "tril");
  check_no_internal_overlap(self);
  if (self.numel() > 0) triangular_stub(self.device().type(), self, self, diagonal, upper);
  return self;
}

Tensor tril(const Tensor& self, int64_t diagonal) { return triangular(self, diagonal, false); }
Tensor triu(const Tensor& self, int64_t diagonal) { return triangular(self, diagonal, true); }
Tensor& tril_(Tensor& self, int64_t diagonal) { return triangular_(self, diagonal, false); }
Tensor& triu_(Tensor& self, int64_t diagonal) { return triangular_(self, diagonal, true); }

void register_kernels(Library& m) {
  m.impl("tril", MT_FN(tril));
  m.impl("tril_", MT_FN(tril_));
  m.impl("triu", MT_FN(triu));
  m.impl("triu_", MT_FN(triu_));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
