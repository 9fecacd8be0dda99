#include "autograd/nn/Dropout.h"

#include <sstream>

#include "ops/api/dropout.h"
#include "ops/api/feature_dropout.h"

namespace mt::nn {

DropoutNd::DropoutNd(double p, Generator* generator) : p_(p), generator_(generator) {
  MT_CHECK_VALUE(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
}

std::string DropoutNd::extra_repr() const {
  std::ostringstream ss;
  ss << "p=" << p_;
  return ss.str();
}

Tensor Dropout::forward(const Tensor& input) const { return mt::dropout(input, p_, is_training(), generator_); }

Tensor Dropout1d::forward(const Tensor& input) const {
  MT_CHECK(input.dim() == 2 || input.dim() == 3, "dropout1d: Expected 2D or 3D input, but received a ", input.dim(),
           "D input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, "
           "a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).");
  if (input.dim() == 3) return mt::feature_dropout(input, p_, is_training(), generator_);
  return mt::feature_dropout(input.unsqueeze(0), p_, is_training(), generator_).squeeze(0);
}

// PyTorch warns for inputs other than 4-D ones (3-D is read as [N, C, L]; other ranks are deprecated and
// will be errors): here they are errors now, and a 3-D input is dropped channel-wise as PyTorch does.
Tensor Dropout2d::forward(const Tensor& input) const {
  MT_CHECK(input.dim() == 3 || input.dim() == 4, "dropout2d: Received a ", input.dim(),
           "-D input to dropout2d; dropout2d exists to provide channel-wise dropout on inputs with 2 spatial "
           "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs): use dropout "
           "instead.");
  return mt::feature_dropout(input, p_, is_training(), generator_);
}

}  // namespace mt::nn
