#include "autograd/nn/Normalization.h"

#include <sstream>

#include "autograd/GradMode.h"
#include "ops/Factories.h"
#include "ops/api/batch_norm.h"
#include "ops/api/group_norm.h"
#include "ops/api/layer_norm.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace mt::nn {

LayerNorm::LayerNorm(std::vector<int64_t> normalized_shape, double eps, bool elementwise_affine)
    : normalized_shape_(std::move(normalized_shape)), eps_(eps) {
  if (elementwise_affine) {
    weight = register_parameter("weight", mt::ones(normalized_shape_));
    bias = register_parameter("bias", mt::zeros(normalized_shape_));
  }
}

Tensor LayerNorm::forward(const Tensor& input) const {
  if (!weight.defined()) return mt::layer_norm(input, normalized_shape_, std::nullopt, std::nullopt, eps_);
  return mt::layer_norm(input, normalized_shape_, weight, bias, eps_);
}

std::string LayerNorm::extra_repr() const {
  std::ostringstream ss;
  ss << "[";
  for (size_t i = 0; i < normalized_shape_.size(); ++i) ss << (i ? ", " : "") << normalized_shape_[i];
  ss << "], eps=" << eps_ << ", elementwise_affine=" << (weight.defined() ? "true" : "false");
  return ss.str();
}

template <int D>
BatchNormNd<D>::BatchNormNd(BatchNormOptions options) : options_(std::move(options)) {
  const int64_t c = options_.num_features();
  MT_CHECK_VALUE(c > 0, name(), ": num_features must be positive, but got ", c);
  if (options_.affine()) {
    weight = register_parameter("weight", mt::ones({c}));
    bias = register_parameter("bias", mt::zeros({c}));
  }
  if (options_.track_running_stats()) {
    running_mean = register_buffer("running_mean", mt::zeros({c}));
    running_var = register_buffer("running_var", mt::ones({c}));
    num_batches_tracked = register_buffer("num_batches_tracked", mt::zeros({}, TensorOptions(kInt64)));
  }
}

template <int D>
Tensor BatchNormNd<D>::forward(const Tensor& input) const {
  if constexpr (D == 1) {
    MT_CHECK_VALUE(input.dim() == 2 || input.dim() == 3, "expected 2D or 3D input (got ", input.dim(), "D input)");
  } else {
    MT_CHECK_VALUE(input.dim() == 4, "expected 4D input (got ", input.dim(), "D input)");
  }
  const bool tracking = running_mean.defined();
  // Without running statistics a module normalises with the batch's in evaluation too (PyTorch's rule).
  const bool use_batch_stats = is_training() || !tracking;
  if (is_training() && tracking) {
    const NoGradGuard no_grad;
    num_batches_tracked.add_(1);
  }
  const auto opt = [](const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; };
  return mt::batch_norm(input, opt(weight), opt(bias), opt(running_mean), opt(running_var), use_batch_stats,
                        options_.momentum(), options_.eps(), false);
}

template <int D>
std::string BatchNormNd<D>::extra_repr() const {
  std::ostringstream ss;
  ss << options_.num_features() << ", eps=" << options_.eps() << ", momentum=" << options_.momentum()
     << ", affine=" << (options_.affine() ? "True" : "False")
     << ", track_running_stats=" << (options_.track_running_stats() ? "True" : "False");
  return ss.str();
}

template class BatchNormNd<1>;
template class BatchNormNd<2>;

GroupNorm::GroupNorm(GroupNormOptions options) : options_(std::move(options)) {
  MT_CHECK_VALUE(options_.num_groups() > 0 && options_.num_channels() % options_.num_groups() == 0,
                 "num_channels must be divisible by num_groups");
  if (options_.affine()) {
    weight = register_parameter("weight", mt::ones({options_.num_channels()}));
    bias = register_parameter("bias", mt::zeros({options_.num_channels()}));
  }
}

Tensor GroupNorm::forward(const Tensor& input) const {
  const auto opt = [](const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; };
  return mt::group_norm(input, options_.num_groups(), opt(weight), opt(bias), options_.eps());
}

std::string GroupNorm::extra_repr() const {
  std::ostringstream ss;
  ss << options_.num_groups() << ", " << options_.num_channels() << ", eps=" << options_.eps()
     << ", affine=" << (options_.affine() ? "True" : "False");
  return ss.str();
}

}  // namespace mt::nn
