#include "autograd/nn/Pooling.h"

#include <sstream>

#include "ops/api/adaptive_avg_pool2d.h"
#include "ops/api/avg_pool2d.h"
#include "ops/api/max_pool2d.h"

namespace mt::nn {

Tensor MaxPool2d::forward(const Tensor& input) const {
  const MaxPool2dOptions& o = options_;
  return mt::max_pool2d(input, o.kernel_size(), o.stride(), o.padding(), o.dilation(), o.ceil_mode());
}

namespace {

// PyTorch prints the arguments as given: one int where one was given.
std::string value(const std::vector<int64_t>& v) {
  if (v.size() == 1) return std::to_string(v[0]);
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

}  // namespace

std::string MaxPool2d::extra_repr() const {
  const MaxPool2dOptions& o = options_;
  std::ostringstream ss;
  ss << "kernel_size=" << value(o.kernel_size())
     << ", stride=" << value(o.stride().empty() ? o.kernel_size() : o.stride()) << ", padding=" << value(o.padding())
     << ", dilation=" << value(o.dilation()) << ", ceil_mode=" << (o.ceil_mode() ? "True" : "False");
  return ss.str();
}

Tensor AvgPool2d::forward(const Tensor& input) const {
  const AvgPool2dOptions& o = options_;
  return mt::avg_pool2d(input, o.kernel_size(), o.stride(), o.padding(), o.ceil_mode(), o.count_include_pad(),
                        o.divisor_override());
}

std::string AvgPool2d::extra_repr() const {
  const AvgPool2dOptions& o = options_;
  std::ostringstream ss;
  ss << "kernel_size=" << value(o.kernel_size())
     << ", stride=" << value(o.stride().empty() ? o.kernel_size() : o.stride()) << ", padding=" << value(o.padding());
  return ss.str();
}

Tensor AdaptiveAvgPool2d::forward(const Tensor& input) const {
  const std::vector<int64_t> both = output_size_.size() == 1 ? std::vector<int64_t>(2, output_size_[0]) : output_size_;
  return mt::adaptive_avg_pool2d(input, both);
}

std::string AdaptiveAvgPool2d::extra_repr() const { return "output_size=" + value(output_size_); }

}  // namespace mt::nn
