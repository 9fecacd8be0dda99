#pragma once
// Gradient clipping, as torch.nn.utils.clip_grad_norm_ and clip_grad_value_: in place on each
// parameter's .grad (parameters without one are skipped), under no_grad.
#include <limits>
#include <vector>

#include "tensor/Tensor.h"

namespace mt::nn::utils {

// Scales the gradients by max_norm / (total_norm + 1e-6) where that is below 1, total_norm being the
// norm of order `norm_type` (inf: the largest magnitude) of all gradients together; returns total_norm.
// A non-finite total is an error when `error_if_nonfinite`, else the gradients are scaled by it anyway.
double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm, double norm_type = 2,
                       bool error_if_nonfinite = false);

// Clamps every gradient element into [-clip_value, clip_value].
void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value);

}  // namespace mt::nn::utils
