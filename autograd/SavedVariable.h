#pragma once
// A tensor a backward formula saved from the forward pass. It remembers the tensor's version, so that
// using it after an in-place change raises PyTorch's error instead of computing a wrong gradient.
// Formulas save inputs only (an op's own output would make its node own itself through the output's
// metadata); where PyTorch saves the result, they recompute it from the input.
#include <string>

#include "autograd/Node.h"

namespace mt::autograd {

class SavedVariable {
 public:
  SavedVariable() = default;
  explicit SavedVariable(const Tensor& t);

  Tensor unpack() const;

 private:
  Tensor data_;
  std::string grad_fn_name_;  // for the version error
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
};

}  // namespace mt::autograd
