#include "autograd/nn/Activation.h"

#include "ops/api/gelu.h"
#include "ops/api/relu.h"
#include "ops/api/std.h"

namespace mt::nn {

Tensor ReLU::forward(const Tensor& input) const { return mt::relu(input); }

GELU::GELU(std::string approximate) : approximate_(std::move(approximate)) {
  // Checked here too, so a typo fails where the model is built rather than at its first forward.
  MT_CHECK(approximate_ == "none" || approximate_ == "tanh", "approximate argument must be either none or tanh.");
}

Tensor GELU::forward(const Tensor& input) const { return mt::gelu(input, approximate_); }

}  // namespace mt::nn
