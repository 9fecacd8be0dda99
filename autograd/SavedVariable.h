#pragma once
// A tensor a backward formula saved from the forward pass. It remembers the tensor's version, so that
// using it after an in-place change raises PyTorch's error instead of computing a wrong gradient. An
// op's own output is kept without its autograd metadata (that would make the node own itself) and
// gets its grad_fn back when unpacked.
#include <memory>
#include <string>

#include "autograd/Node.h"

namespace mt::autograd {

class SavedVariable {
 public:
  SavedVariable() = default;
  SavedVariable(const Tensor& t, bool is_output);

  Tensor unpack() const;

 private:
  Tensor data_;
  std::weak_ptr<Node> output_grad_fn_;  // for a saved output
  std::string grad_fn_name_;            // for the version error
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool has_grad_fn_ = false;
};

}  // namespace mt::autograd
