// CPU kernels of nll_loss_forward and nll_loss_backward: one pass over the targets each, where the
// composition that serves the other backends (ops/composite/Loss.cpp) takes a dozen ops. The input is
// read as (N, C, S): N samples (1 for an unbatched input), C classes, S positions (the product of the
// spatial dims d1, ...; 1 without them).
#include <algorithm>

#include "dispatch/Library.h"
#include "ops/Reduction.h"
#include "ops/Loss.h"
#include "tensor/DtypeDispatch.h"
#include "tensor/TensorImpl.h"

namespace mt {
namespace {

struct NllShape {
  int64_t samples, classes, positions;
  int64_t targets() const { return samples * positions; }
  // Where the input (or its gradient) holds class c of the i-th target.
  int64_t offset(int64_t i, int64_t c) const { return ((i / positions) * classes + c) * positions + i % positions; }
};

NllShape nll_shape(const Tensor& self) {
  const int64_t classes = self.size(self.dim() == 1 ? 0 : 1);
  const int64_t samples = self.dim() == 1 ? 1 : self.size(0);
  int64_t positions = 1;
  for (int64_t d = 2; d < self.dim(); ++d) positions *= self.size(d);
  return {samples, classes, positions};
}

// Every target is a class or ignore_index: checked before anything is written, as PyTorch's message.
void check_targets(const int64_t* target, int64_t n, int64_t classes, int64_t ignore_index) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = target[i];
    MT_CHECK_INDEX(c == ignore_index || (c >= 0 && c < classes), "Target ", c, " is out of bounds.");
  }
}

Tensor new_tensor(IntArrayRef sizes, const Tensor& like) {
  return Tensor(TensorImpl::empty(sizes, like.dtype(), like.device()));
}

std::tuple<Tensor, Tensor> nll_loss_forward_cpu(const Tensor& self, const Tensor& target,
                                                const std::optional<Tensor>& weight, int64_t reduction,
                                                int64_t ignore_index) {
  detail::check_nll_loss(self, target, weight, reduction);
  const NllShape shape = nll_shape(self);
  const Tensor input = self.contiguous(), targets = target.contiguous();
  const Tensor weights = weight ? weight->contiguous() : Tensor();
  const int64_t n = shape.targets();
  check_targets(targets.data_ptr<int64_t>(), n, shape.classes, ignore_index);
  Tensor output = new_tensor(reduction == Reduction::None ? target.sizes() : IntArrayRef{}, self);
  Tensor total_weight = new_tensor({}, self);
  dispatch_floating_types(self.dtype(), "nll_loss_forward_out_frame", [&]<typename T>() {
    const T* x = input.data_ptr<T>();
    const T* w = weights.defined() ? weights.data_ptr<T>() : nullptr;
    const int64_t* t = targets.data_ptr<int64_t>();
    T* out = output.data_ptr<T>();
    double sum = 0, weight_sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t c = t[i];
      if (c == ignore_index) {
        if (reduction == Reduction::None) out[i] = T(0);
        continue;
      }
      const double wc = w ? static_cast<double>(w[c]) : 1.0;
      const T loss = static_cast<T>(-wc * static_cast<double>(x[shape.offset(i, c)]));
      if (reduction == Reduction::None) out[i] = loss;
      sum += static_cast<double>(loss);
      weight_sum += wc;
    }
    if (reduction == Reduction::Sum) *out = static_cast<T>(sum);
    if (reduction == Reduction::Mean) *out = static_cast<T>(sum / weight_sum);  // nothing counted: 0 / 0, NaN
    *total_weight.data_ptr<T>() = static_cast<T>(weight_sum);
  });
  return {output, total_weight};
}

Tensor nll_loss_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                             const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                             const Tensor& total_weight) {
  detail::check_nll_loss(self, target, weight, reduction);
  if (reduction == Reduction::None) {
    MT_CHECK(grad_output.sizes() == target.sizes(), "Expected grad_output of size ", target.sizes(), ", got ",
             grad_output.sizes());
  } else {
    MT_CHECK(grad_output.numel() == 1, "Expected a single element grad_output tensor, but got: ", grad_output.sizes());
  }
  MT_CHECK(total_weight.numel() == 1,
           "expected total_weight to be a single element tensor, got: ", total_weight.sizes(), " (",
           total_weight.numel(), " elements)");
  MT_CHECK(grad_output.dtype() == self.dtype() && total_weight.dtype() == self.dtype(), "expected scalar type ",
           self.dtype(), " but found ",
           grad_output.dtype() != self.dtype() ? grad_output.dtype() : total_weight.dtype());
  const NllShape shape = nll_shape(self);
  const Tensor targets = target.contiguous(), grads = grad_output.contiguous();
  const Tensor weights = weight ? weight->contiguous() : Tensor();
  const int64_t n = shape.targets();
  check_targets(targets.data_ptr<int64_t>(), n, shape.classes, ignore_index);
  Tensor grad_input = new_tensor(self.sizes(), self);
  dispatch_floating_types(self.dtype(), "nll_loss_backward_out_frame", [&]<typename T>() {
    T* gi = grad_input.data_ptr<T>();
    std::fill(gi, gi + grad_input.numel(), T(0));
    const T* w = weights.defined() ? weights.data_ptr<T>() : nullptr;
    const int64_t* t = targets.data_ptr<int64_t>();
    const T* g = grads.data_ptr<T>();
    const double scale = reduction == Reduction::Mean ? 1.0 / static_cast<double>(*total_weight.data_ptr<T>()) : 1.0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t c = t[i];
      if (c == ignore_index) continue;
      const double wc = w ? static_cast<double>(w[c]) : 1.0;
      const double gv = static_cast<double>(g[reduction == Reduction::None ? i : 0]) * scale;
      gi[shape.offset(i, c)] = static_cast<T>(-wc * gv);
    }
  });
  return grad_input;
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) {
  m.impl("nll_loss_forward", MT_FN(nll_loss_forward_cpu));
  m.impl("nll_loss_backward", MT_FN(nll_loss_backward_cpu));
}

}  // namespace mt
