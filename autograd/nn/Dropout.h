#pragma once
// mt::nn::Dropout: zeroes each element with probability p and scales the rest by 1/(1-p) while the
// module is training; the identity after eval(). Dropout1d and Dropout2d zero whole channels instead
// (feature_dropout): [N, C, L] or [C, L] inputs, and [N, C, H, W] or, as PyTorch still reads a 3-D input
// there, [N, C, L].
#include "autograd/nn/Module.h"
#include "tensor/Generator.h"

namespace mt::nn {

// What the dropout modules share (PyTorch's _DropoutNd): p, checked, and the generator masks are drawn
// from (the default generator when it is null).
class DropoutNd : public Module {
 public:
  std::string extra_repr() const override;
  double p() const { return p_; }

 protected:
  DropoutNd(double p, Generator* generator);
  double p_;
  Generator* generator_;
};

class Dropout : public DropoutNd {
 public:
  explicit Dropout(double p = 0.5, Generator* generator = nullptr) : DropoutNd(p, generator) {}
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "Dropout"; }
};

class Dropout1d : public DropoutNd {
 public:
  explicit Dropout1d(double p = 0.5, Generator* generator = nullptr) : DropoutNd(p, generator) {}
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "Dropout1d"; }
};

class Dropout2d : public DropoutNd {
 public:
  explicit Dropout2d(double p = 0.5, Generator* generator = nullptr) : DropoutNd(p, generator) {}
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "Dropout2d"; }
};

}  // namespace mt::nn
