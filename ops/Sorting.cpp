// sort.stable on every device: the sorted dim is moved last and made contiguous, so the stubs sort rows;
// the results are made contiguous in self's shape again. On Meta the stub does nothing. Every sort is
// stable (a stable sort is a valid unstable one), so `stable` only has to be accepted.
#include <tuple>

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/empty_like.h"
#include "ops/Sorting.h"

namespace mt {

MT_DEFINE_STUB(sort_stub, void(const TensorBase&, const TensorBase&, const TensorBase&, bool));

namespace {

std::tuple<Tensor, Tensor> sort_kernel(const Tensor& self, std::optional<bool>, int64_t dim, bool descending) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t last = self.dim() == 0 ? 0 : self.dim() - 1;
  const Tensor rows = self.dim() == 0 ? self.reshape({1}) : self.movedim(d, last).contiguous();
  Tensor values = empty_like(rows);
  Tensor indices = empty_like(rows, TensorOptions().dtype(kInt64));
  if (rows.numel() != 0) sort_stub(self.device().type(), values, indices, rows, descending);
  if (self.dim() == 0) return {values.reshape({}), indices.reshape({})};
  if (d == last) return {values, indices};
  return {values.movedim(last, d).contiguous(), indices.movedim(last, d).contiguous()};
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { m.impl("sort.stable", MT_FN(sort_kernel)); }
MT_LIBRARY_IMPL(mt, CUDA, m) { m.impl("sort.stable", MT_FN(sort_kernel)); }
MT_LIBRARY_IMPL(mt, Meta, m) { m.impl("sort.stable", MT_FN(sort_kernel)); }

}  // namespace mt
