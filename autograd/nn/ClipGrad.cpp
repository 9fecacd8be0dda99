#include "autograd/nn/ClipGrad.h"

#include <cmath>
#include <sstream>

#include "autograd/GradMode.h"
#include "ops/api/norm.h"
#include "ops/api/stack.h"

namespace mt::nn::utils {

double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm, double norm_type,
                       bool error_if_nonfinite) {
  std::vector<Tensor> grads;
  for (const Tensor& p : parameters)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (grads.empty()) return 0;
  const NoGradGuard no_grad;
  // Each gradient's norm, then the norm of those: one value read back however many parameters there are.
  std::vector<Tensor> norms;
  norms.reserve(grads.size());
  for (const Tensor& g : grads) norms.push_back(norm(g, norm_type));
  const double total = norm(stack(norms), norm_type).item<double>();
  if (error_if_nonfinite && !std::isfinite(total)) {
    std::ostringstream message;
    message << "The total norm of order " << norm_type
            << " for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and "
               "scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`";
    throw RuntimeError(message.str());
  }
  const double coef = max_norm / (total + 1e-6);
  if (!(coef >= 1))  // NaN scales too, as PyTorch's
    for (const Tensor& g : grads) g.mul_(coef);
  return total;
}

void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value) {
  const NoGradGuard no_grad;
  for (const Tensor& p : parameters)
    if (p.grad().defined()) p.grad().clamp_(Scalar(-clip_value), Scalar(clip_value));
}

}  // namespace mt::nn::utils
