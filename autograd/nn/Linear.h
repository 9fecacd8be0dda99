#pragma once
// mt::nn::Linear: y = x W^T + b, with PyTorch's default initialisation; and the parameterless layers
// libtorch keeps beside it, Identity and Flatten.
#include <cstdint>

#include "autograd/nn/Module.h"
#include "tensor/Generator.h"

namespace mt::nn {

class Linear : public Module {
 public:
  // weight [out_features, in_features] and bias [out_features] are drawn from
  // U(-1/sqrt(in_features), 1/sqrt(in_features)) -- what PyTorch's kaiming_uniform_(a=sqrt(5)) and its
  // bias rule amount to -- from `generator`, or the default generator when it is null.
  Linear(int64_t in_features, int64_t out_features, bool bias = true, Generator* generator = nullptr);

  // input [..., in_features] -> [..., out_features]
  Tensor forward(const Tensor& input) const;

  std::string name() const override { return "Linear"; }
  std::string extra_repr() const override;

  int64_t in_features() const { return in_features_; }
  int64_t out_features() const { return out_features_; }

  Tensor weight;
  Tensor bias;  // undefined when constructed with bias=false

 private:
  int64_t in_features_;
  int64_t out_features_;
};

// Returns its input (a placeholder where an architecture has a layer to leave out).
class Identity : public Module {
 public:
  Tensor forward(const Tensor& input) const { return input; }
  std::string name() const override { return "Identity"; }
};

// Flattens dims start_dim..end_dim into one (by default all but the batch dim): [N, C, H, W] -> [N, C*H*W].
class Flatten : public Module {
 public:
  explicit Flatten(int64_t start_dim = 1, int64_t end_dim = -1);
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "Flatten"; }
  std::string extra_repr() const override;

 private:
  int64_t start_dim_, end_dim_;
};

}  // namespace mt::nn
