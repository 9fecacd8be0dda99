#pragma once
// Activation modules: parameterless wrappers of mt::relu and mt::gelu, so they can sit in a Sequential.
#include <string>

#include "autograd/nn/Module.h"

namespace mt::nn {

class ReLU : public Module {
 public:
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "ReLU"; }
};

class GELU : public Module {
 public:
  // "none": x * Phi(x) exactly; "tanh": the tanh approximation.
  explicit GELU(std::string approximate = "none");
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "GELU"; }
  std::string extra_repr() const override { return "approximate='" + approximate_ + "'"; }
  const std::string& approximate() const { return approximate_; }

 private:
  std::string approximate_;
};

}  // namespace mt::nn
