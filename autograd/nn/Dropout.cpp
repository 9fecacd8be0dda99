#include "autograd/nn/Dropout.h"

#include <sstream>

#include "ops/api/dropout.h"

namespace mt::nn {

Dropout::Dropout(double p, Generator* generator) : p_(p), generator_(generator) {
  MT_CHECK_VALUE(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
}

Tensor Dropout::forward(const Tensor& input) const { return mt::dropout(input, p_, is_training(), generator_); }

std::string Dropout::extra_repr() const {
  std::ostringstream ss;
  ss << "p=" << p_;
  return ss.str();
}

}  // namespace mt::nn
