// Derivatives of _softmax and _log_softmax (softmax, log_softmax and the softmax-based losses are
// compositions over these), recomputing the result from the saved input.
#include "autograd/derivatives/Formulas.h"
#include "ops/api/_log_softmax_ops.h"
#include "ops/api/_softmax.h"
#include "ops/api/log_softmax.h"
#include "ops/api/softmax.h"

namespace mt::autograd {

namespace {

Tensor softmax(DispatchKeySet ks, const Tensor& self, int64_t dim, bool half_to_float) {
  Tensor out = below_autograd([&] { return ops::_softmax::redispatch(ks & after_autograd_keyset, self, dim, half_to_float); });
  if (compute_requires_grad({self})) {
    record("SoftmaxBackward0", {self}, {out}, [s = SavedVariable(self), dim, half_to_float](const variable_list& g) {
      const Tensor y = mt::_softmax(s.unpack(), dim, half_to_float);
      return variable_list{y * (g[0] - (g[0] * y).sum({dim}, /*keepdim=*/true))};
    });
  }
  return out;
}

Tensor log_softmax(DispatchKeySet ks, const Tensor& self, int64_t dim, bool half_to_float) {
  Tensor out =
      below_autograd([&] { return ops::_log_softmax::redispatch(ks & after_autograd_keyset, self, dim, half_to_float); });
  if (compute_requires_grad({self})) {
    record("LogSoftmaxBackward0", {self}, {out}, [s = SavedVariable(self), dim, half_to_float](const variable_list& g) {
      const Tensor p = mt::_softmax(s.unpack(), dim, half_to_float);
      return variable_list{g[0] - p * g[0].sum({dim}, /*keepdim=*/true)};
    });
  }
  return out;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("_softmax", MT_FN(softmax));
  m.impl("_log_softmax", MT_FN(log_softmax));
}

}  // namespace mt::autograd
