#include "autograd/nn/Activation.h"

#include <sstream>

#include "ops/api/gelu.h"
#include "ops/api/leaky_relu.h"
#include "ops/api/relu.h"
#include "ops/api/sigmoid.h"
#include "ops/api/softmax.h"
#include "ops/api/std.h"
#include "ops/api/tanh.h"

namespace mt::nn {

Tensor ReLU::forward(const Tensor& input) const { return mt::relu(input); }

GELU::GELU(std::string approximate) : approximate_(std::move(approximate)) {
  // Checked here too, so a typo fails where the model is built rather than at its first forward.
  MT_CHECK(approximate_ == "none" || approximate_ == "tanh", "approximate argument must be either none or tanh.");
}

Tensor GELU::forward(const Tensor& input) const { return mt::gelu(input, approximate_); }

Tensor Tanh::forward(const Tensor& input) const { return mt::tanh(input); }

Tensor Sigmoid::forward(const Tensor& input) const { return mt::sigmoid(input); }

LeakyReLU::LeakyReLU(double negative_slope) : negative_slope_(negative_slope) {}

Tensor LeakyReLU::forward(const Tensor& input) const { return mt::leaky_relu(input, negative_slope_); }

std::string LeakyReLU::extra_repr() const {
  std::ostringstream s;
  s << "negative_slope=" << negative_slope_;
  return s.str();
}

Softmax::Softmax(int64_t dim) : dim_(dim) {}

Tensor Softmax::forward(const Tensor& input) const { return mt::softmax(input, dim_); }

}  // namespace mt::nn
