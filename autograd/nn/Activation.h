#pragma once
// Activation modules: parameterless wrappers of the activation ops (relu, gelu, tanh, sigmoid, leaky_relu,
// softmax), so they can sit in a Sequential.
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

class Tanh : public Module {
 public:
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "Tanh"; }
};

class Sigmoid : public Module {
 public:
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "Sigmoid"; }
};

class LeakyReLU : public Module {
 public:
  explicit LeakyReLU(double negative_slope = 0.01);
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "LeakyReLU"; }
  std::string extra_repr() const override;
  double negative_slope() const { return negative_slope_; }

 private:
  double negative_slope_;
};

// Softmax along `dim` (PyTorch's default dim=None, which guesses, has no counterpart: say which).
class Softmax : public Module {
 public:
  explicit Softmax(int64_t dim);
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "Softmax"; }
  std::string extra_repr() const override { return "dim=" + std::to_string(dim_); }
  int64_t dim() const { return dim_; }

 private:
  int64_t dim_;
};

}  // namespace mt::nn
