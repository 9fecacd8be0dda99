#include "autograd/nn/Linear.h"

#include <cmath>
#include <sstream>

#include "ops/Factories.h"
#include "ops/api/flatten.h"
#include "ops/api/linear.h"
#include "ops/api/rand.h"

namespace mt::nn {

namespace {

// U(-bound, bound) as a new tensor (made before it is registered, so nothing is recorded).
Tensor uniform(IntArrayRef sizes, double bound, Generator* generator) {
  Tensor t = mt::rand(sizes, generator);
  t.mul_(2 * bound).sub_(bound);
  return t;
}

}  // namespace

Linear::Linear(int64_t in_features, int64_t out_features, bool bias, Generator* generator)
    : in_features_(in_features), out_features_(out_features) {
  MT_CHECK_VALUE(in_features >= 0 && out_features >= 0,
                 "Linear: in_features and out_features must be non-negative, but got in_features=", in_features,
                 ", out_features=", out_features);
  // kaiming_uniform_(a=sqrt(5)): gain sqrt(2 / (1 + 5)), bound = gain * sqrt(3 / fan_in) = 1 / sqrt(fan_in).
  const double bound = in_features > 0 ? 1.0 / std::sqrt(static_cast<double>(in_features)) : 0.0;
  weight = register_parameter("weight", uniform({out_features, in_features}, bound, generator));
  if (bias) this->bias = register_parameter("bias", uniform({out_features}, bound, generator));
}

Tensor Linear::forward(const Tensor& input) const {
  return bias.defined() ? mt::linear(input, weight, bias) : mt::linear(input, weight);
}

std::string Linear::extra_repr() const {
  std::ostringstream ss;
  ss << "in_features=" << in_features_ << ", out_features=" << out_features_
     << ", bias=" << (bias.defined() ? "true" : "false");
  return ss.str();
}

Flatten::Flatten(int64_t start_dim, int64_t end_dim) : start_dim_(start_dim), end_dim_(end_dim) {}

Tensor Flatten::forward(const Tensor& input) const { return mt::flatten(input, start_dim_, end_dim_); }

std::string Flatten::extra_repr() const {
  return "start_dim=" + std::to_string(start_dim_) + ", end_dim=" + std::to_string(end_dim_);
}

}  // namespace mt::nn
