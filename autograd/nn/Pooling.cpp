#include "autograd/nn/Pooling.h"

#include <sstream>

#include "ops/api/max_pool2d.h"

namespace mt::nn {

Tensor MaxPool2d::forward(const Tensor& input) const {
  const MaxPool2dOptions& o = options_;
  return mt::max_pool2d(input, o.kernel_size(), o.stride(), o.padding(), o.dilation(), o.ceil_mode());
}

// PyTorch prints the arguments as given: one int where one was given.
std::string MaxPool2d::extra_repr() const {
  const auto value = [](const std::vector<int64_t>& v) {
    if (v.size() == 1) return std::to_string(v[0]);
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + ")";
  };
  const MaxPool2dOptions& o = options_;
  std::ostringstream ss;
  ss << "kernel_size=" << value(o.kernel_size())
     << ", stride=" << value(o.stride().empty() ? o.kernel_size() : o.stride()) << ", padding=" << value(o.padding())
     << ", dilation=" << value(o.dilation()) << ", ceil_mode=" << (o.ceil_mode() ? "True" : "False");
  return ss.str();
}

}  // namespace mt::nn
