#pragma once
// nll_loss_forward / nll_loss_backward as compositions of other ops (ops/composite/Loss.cpp): the
// kernels of CUDA and Meta (CPU has a fused one, ops/cpu/LossKernel.cpp), and the batching
// rules, which decompose; and the argument checks that both share.
#include <optional>
#include <tuple>

#include "tensor/Tensor.h"

namespace mt::detail {

// PyTorch's errors for a bad reduction, shapes (input (C), (N, C) or (N, C, d1, ...) against target (),
// (N) or (N, d1, ...)), dtypes (floating input, int64 target, weight of the input's dtype) and weight size.
void check_nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction);

std::tuple<Tensor, Tensor> nll_loss_forward_decomposed(const Tensor& self, const Tensor& target,
                                                       const std::optional<Tensor>& weight, int64_t reduction,
                                                       int64_t ignore_index);
Tensor nll_loss_backward_decomposed(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                    const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                    const Tensor& total_weight);

}  // namespace mt::detail
