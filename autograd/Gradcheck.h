#pragma once
// gradcheck: compares the Jacobian autograd computes for `f` at `inputs` with central finite
// differences. Inputs are float64 and contiguous; those that require grad are checked. Returns true,
// or throws mt::RuntimeError naming the output, the input and both Jacobian entries that disagree.
#include <functional>

#include "autograd/Autograd.h"

namespace mt::autograd {

bool gradcheck(const std::function<Tensor(const variable_list&)>& f, const variable_list& inputs, double eps = 1e-6,
               double atol = 1e-5, double rtol = 1e-3);

// gradgradcheck (PyTorch's semantics): gradchecks the first backward of `f` at `inputs`, computed with
// create_graph=true against random (seeded) grad_outputs, as a function of the inputs and of those
// grad_outputs. So every second derivative of f, and the first backward's linearity in its grad_output,
// are compared with finite differences.
bool gradgradcheck(const std::function<Tensor(const variable_list&)>& f, const variable_list& inputs,
                   double eps = 1e-6, double atol = 1e-5, double rtol = 1e-3, uint64_t seed = 0);

}  // namespace mt::autograd
