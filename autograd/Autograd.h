#pragma once
// The user-facing autograd functions: mt::autograd::backward and mt::autograd::grad (the Tensor
// methods requires_grad_(), backward(), grad(), register_hook()... are declared in tensor/Tensor.h and
// defined in autograd/TensorAutograd.cpp).
#include <optional>
#include <vector>

#include "autograd/GradMode.h"
#include "autograd/InferenceMode.h"
#include "tensor/Tensor.h"

namespace mt::autograd {

using variable_list = std::vector<Tensor>;

// Accumulates d(tensors)/d(leaf) into the .grad of every leaf that requires grad. An empty
// grad_tensors entry (or list) means ones, allowed for one-element tensors only. retain_graph defaults
// to create_graph.
void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
              std::optional<bool> retain_graph = std::nullopt, bool create_graph = false);

// d(outputs)/d(inputs) weighted by grad_outputs, without touching any .grad.
variable_list grad(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs = {},
                   std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                   bool allow_unused = false);

}  // namespace mt::autograd
