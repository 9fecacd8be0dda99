// lerp(start, end, weight) = start + weight * (end - start), as PyTorch computes it: from start for
// weights below 0.5 and from end above, so that weight 1 gives end exactly. A composition of pointwise
// ops, so every layer handles it through its parts (d/dstart = 1 - weight, d/dend = weight,
// d/dweight = end - start in both branches).
#include <cmath>

#include "dispatch/Library.h"
#include "ops/api/add.h"
#include "ops/api/where.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

void check_lerp(const Tensor& self, const Tensor& end, const Tensor* weight) {
  MT_CHECK_TYPE(self.dtype() == end.dtype(), "expected dtype ", self.dtype(), " for `end` but got dtype ", end.dtype());
  if (weight) {
    MT_CHECK_TYPE(self.dtype() == weight->dtype(), "expected dtype ", self.dtype(), " for `weight` but got dtype ",
                  weight->dtype());
  }
  MT_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"lerp\" not implemented for '", self.dtype(), "'");
}

// The two branches and the condition that picks between them.
struct Branches {
  Tensor low_weight, from_start, from_end;
};
Branches branches(const Tensor& self, const Tensor& end, const Tensor& weight) {
  const Tensor diff = end - self;
  return {weight.abs() < 0.5, self + weight * diff, end - diff * (1 - weight)};
}

Tensor lerp_tensor(const Tensor& self, const Tensor& end, const Tensor& weight) {
  check_lerp(self, end, &weight);
  const Branches b = branches(self, end, weight);
  return mt::where(b.low_weight, b.from_start, b.from_end);
}
// A scalar weight picks its branch on the host: one add with alpha.
Tensor lerp_scalar(const Tensor& self, const Tensor& end, const Scalar& weight) {
  check_lerp(self, end, nullptr);
  const double w = weight.toDouble();
  const Tensor diff = end - self;
  return std::abs(w) < 0.5 ? mt::add(self, diff, w) : mt::add(end, diff, w - 1);
}
// The result is written into self, which it must not outgrow (copy_ refuses that).
Tensor& lerp__tensor(Tensor& self, const Tensor& end, const Tensor& weight) {
  return self.copy_(lerp_tensor(self, end, weight));
}
Tensor& lerp__scalar(Tensor& self, const Tensor& end, const Scalar& weight) {
  return self.copy_(lerp_scalar(self, end, weight));
}
Tensor& lerp_tensor_out(const Tensor& self, const Tensor& end, const Tensor& weight, Tensor& out) {
  check_lerp(self, end, &weight);
  const Branches b = branches(self, end, weight);
  return mt::where_out(out, b.low_weight, b.from_start, b.from_end);
}
Tensor& lerp_scalar_out(const Tensor& self, const Tensor& end, const Scalar& weight, Tensor& out) {
  check_lerp(self, end, nullptr);
  const double w = weight.toDouble();
  const Tensor diff = end - self;
  return std::abs(w) < 0.5 ? mt::add_out(out, self, diff, w) : mt::add_out(out, end, diff, w - 1);
}

void register_composites(Library& m) {
  m.impl("lerp.Tensor", MT_FN(lerp_tensor));
  m.impl("lerp.Scalar", MT_FN(lerp_scalar));
  m.impl("lerp_.Tensor", MT_FN(lerp__tensor));
  m.impl("lerp_.Scalar", MT_FN(lerp__scalar));
  m.impl("lerp.Tensor_out", MT_FN(lerp_tensor_out));
  m.impl("lerp.Scalar_out", MT_FN(lerp_scalar_out));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
