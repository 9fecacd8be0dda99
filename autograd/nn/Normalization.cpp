#include "autograd/nn/Normalization.h"

#include <sstream>

#include "ops/Factories.h"
#include "ops/api/layer_norm.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace mt::nn {

LayerNorm::LayerNorm(std::vector<int64_t> normalized_shape, double eps, bool elementwise_affine)
    : normalized_shape_(std::move(normalized_shape)), eps_(eps) {
  if (elementwise_affine) {
    weight = register_parameter("weight", mt::ones(normalized_shape_));
    bias = register_parameter("bias", mt::zeros(normalized_shape_));
  }
}

Tensor LayerNorm::forward(const Tensor& input) const {
  if (!weight.defined()) return mt::layer_norm(input, normalized_shape_, std::nullopt, std::nullopt, eps_);
  return mt::layer_norm(input, normalized_shape_, weight, bias, eps_);
}

std::string LayerNorm::extra_repr() const {
  std::ostringstream ss;
  ss << "[";
  for (size_t i = 0; i < normalized_shape_.size(); ++i) ss << (i ? ", " : "") << normalized_shape_[i];
  ss << "], eps=" << eps_ << ", elementwise_affine=" << (weight.defined() ? "true" : "false");
  return ss.str();
}

}  // namespace mt::nn
