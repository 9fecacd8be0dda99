#pragma once
// mt::nn::Dropout: zeroes each element with probability p and scales the rest by 1/(1-p) while the
// module is training; the identity after eval().
#include "autograd/nn/Module.h"
#include "tensor/Generator.h"

namespace mt::nn {

class Dropout : public Module {
 public:
  // Masks are drawn from `generator`, or the default generator when it is null.
  explicit Dropout(double p = 0.5, Generator* generator = nullptr);
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "Dropout"; }
  std::string extra_repr() const override;
  double p() const { return p_; }

 private:
  double p_;
  Generator* generator_;
};

}  // namespace mt::nn
