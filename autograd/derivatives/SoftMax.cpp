// Derivatives of _softmax and _log_softmax (softmax, log_softmax and the softmax-based losses are
// compositions over these), recomputing the result from the saved input.
#include "ops/api/softmax.h"
#include "autograd/derivatives/Formulas.h"
#include "ops/api/_log_softmax_ops.h"
#include "ops/api/_softmax.h"
#include "ops/api/log_softmax.h"

namespace mt::autograd {

namespace {

Tensor softmax(DispatchKeySet ks, const Tensor& self, int64_t dim, bool half_to_float) {
  return differentiable<ops::_softmax>(
      "SoftmaxBackward0", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), dim, half_to_float](const variable_list& g) {
          const Tensor y = mt::_softmax(s.unpack(), dim, half_to_float);
          return variable_list{y * (g[0] - (g[0] * y).sum({dim}, /*keepdim=*/true))};
        });
      },
      ks, self, dim, half_to_float);
}

Tensor log_softmax(DispatchKeySet ks, const Tensor& self, int64_t dim, bool half_to_float) {
  return differentiable<ops::_log_softmax>(
      "LogSoftmaxBackward0", {self},
      [&] {
        return BackwardFunction::Formula([s = SavedVariable(self), dim, half_to_float](const variable_list& g) {
          const Tensor p = mt::_softmax(s.unpack(), dim, half_to_float);
          return variable_list{g[0] - p * g[0].sum({dim}, /*keepdim=*/true)};
        });
      },
      ks, self, dim, half_to_float);
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  m.impl("_softmax", MT_FN(softmax));
  m.impl("_log_softmax", MT_FN(log_softmax));
}

}  // namespace mt::autograd
