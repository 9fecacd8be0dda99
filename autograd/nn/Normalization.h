#pragma once
// mt::nn::LayerNorm: normalises over the last len(normalized_shape) dimensions, then scales and shifts
// by a learned weight (ones) and bias (zeros) of that shape.
#include <vector>

#include "autograd/nn/Module.h"

namespace mt::nn {

class LayerNorm : public Module {
 public:
  explicit LayerNorm(std::vector<int64_t> normalized_shape, double eps = 1e-5, bool elementwise_affine = true);
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "LayerNorm"; }
  std::string extra_repr() const override;

  const std::vector<int64_t>& normalized_shape() const { return normalized_shape_; }
  double eps() const { return eps_; }

  Tensor weight;  // undefined without elementwise_affine
  Tensor bias;

 private:
  std::vector<int64_t> normalized_shape_;
  double eps_;
};

}  // namespace mt::nn
