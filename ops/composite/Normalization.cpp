// layer_norm, batch_norm and group_norm as compositions: each slice (layer_norm: over the trailing
// `normalized_shape` dims; batch_norm: each channel over the batch and the spatial dims; group_norm: each
// sample's group of channels with their spatial dims) is shifted by its mean and scaled by
// 1 / sqrt(biased variance + eps), then the optional weight and bias apply. 16-bit inputs are normalised in
// float32 and rounded once at the end, as PyTorch's kernels do.
#include "autograd/GradMode.h"
#include "dispatch/Library.h"
#include "ops/api/batch_norm.h"
#include "ops/api/group_norm.h"
#include "ops/api/layer_norm.h"
#include "ops/api/rsqrt.h"
#include "ops/api/t.h"
#include "ops/api/var.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

// weight and bias have the input's dtype, or float32 for a 16-bit input (PyTorch's mixed-dtype layer_norm).
void check_affine(const char* name, const std::optional<Tensor>& t, IntArrayRef normalized_shape, ScalarType dtype) {
  if (!t) return;
  MT_CHECK(t->sizes() == normalized_shape, "Expected ", name, " to be of same shape as normalized_shape, but got ",
           name, " of shape ", t->sizes(), " and normalized_shape = ", normalized_shape);
  const bool reduced = dtype == kFloat16 || dtype == kBFloat16;
  if (t->dtype() == dtype || (reduced && t->dtype() == kFloat32)) return;
  MT_CHECK(!reduced, "mixed dtype (CPU): expect parameter to have scalar type of Float");
  MT_CHECK(false, "expected scalar type ", dtype, " but found ", t->dtype());
}

// cudnn_enable is accepted for PyTorch's signature; there is no cuDNN here.
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool /*cudnn_enable*/) {
  const int64_t n = static_cast<int64_t>(normalized_shape.size());
  MT_CHECK(n >= 1, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
                   "but got normalized_shape = ", normalized_shape);
  check_affine("weight", weight, normalized_shape, input.dtype());
  check_affine("bias", bias, normalized_shape, input.dtype());
  const int64_t axis = input.dim() - n;
  if (axis < 0 || input.sizes().slice(axis) != normalized_shape) {
    std::ostringstream expected;
    expected << "[*";
    for (int64_t s : normalized_shape) expected << ", " << s;
    MT_CHECK(false, "Given normalized_shape=", normalized_shape, ", expected input with shape ", expected.str(),
             "], but got input of size", input.sizes());
  }
  if (!is_floating_point(input.dtype())) {
    detail::throw_error<NotImplementedError>("\"layer_norm\" not implemented for '", input.dtype(), "'");
  }
  const bool reduced_precision = input.dtype() == kFloat16 || input.dtype() == kBFloat16;
  const Tensor x = reduced_precision ? input.to(kFloat32) : input;
  std::vector<int64_t> dims;
  for (int64_t d = axis; d < input.dim(); ++d) dims.push_back(d);
  const Tensor mean = x.mean(dims, /*keepdim=*/true);
  const Tensor var = mt::var(x, dims, /*correction=*/0, /*keepdim=*/true);
  Tensor out = (x - mean) * mt::rsqrt(var + eps);
  if (weight) out = out * *weight;
  if (bias) out = out + *bias;
  return reduced_precision ? out.to(input.dtype()) : out;
}

// A [C] parameter or running statistic of batch_norm.
void check_channels(const char* name, const std::optional<Tensor>& t, int64_t channels) {
  if (t && t->defined())
    MT_CHECK(t->dim() == 1 && t->numel() == channels, name, " should contain ", channels, " elements not ",
             t->numel());
}

// Training (or without running statistics) normalises with the batch's statistics and, where running ones
// are given, moves them towards the batch's by `momentum` (the variance unbiased), without autograd;
// evaluation normalises with the running statistics.
Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var, bool training,
                  double momentum, double eps, bool /*cudnn_enabled*/) {
  MT_CHECK(input.dim() >= 2, "batch_norm: expected an input of at least 2 dims [N, C, *], but got input of size ",
           input.sizes());
  if (!is_floating_point(input.dtype())) {
    detail::throw_error<NotImplementedError>("\"batch_norm\" not implemented for '", input.dtype(), "'");
  }
  const int64_t channels = input.size(1);
  check_channels("weight", weight, channels);
  check_channels("bias", bias, channels);
  check_channels("running_mean", running_mean, channels);
  check_channels("running_var", running_var, channels);
  const bool has_running = running_mean && running_mean->defined() && running_var && running_var->defined();
  MT_CHECK(training || has_running, "batch_norm: running_mean and running_var must be defined in evaluation mode");
  const bool reduced_precision = input.dtype() == kFloat16 || input.dtype() == kBFloat16;
  const Tensor x = reduced_precision ? input.to(kFloat32) : input;
  std::vector<int64_t> dims = {0}, shape(input.dim(), 1);
  for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
  shape[1] = channels;
  Tensor mean, var;
  if (training) {
    const int64_t per_channel = input.numel() / std::max<int64_t>(channels, 1);
    MT_CHECK(per_channel > 1, "Expected more than 1 value per channel when training, got input size ", input.sizes());
    mean = x.mean(dims, /*keepdim=*/true);
    var = mt::var(x, dims, /*correction=*/0, /*keepdim=*/true);
    if (has_running) {
      const NoGradGuard no_grad;
      const double unbiased = static_cast<double>(per_channel) / static_cast<double>(per_channel - 1);
      running_mean->mul_(1 - momentum).add_(mean.detach().view({channels}).to(running_mean->dtype()), momentum);
      running_var->mul_(1 - momentum).add_(var.detach().view({channels}).to(running_var->dtype()), momentum * unbiased);
    }
  } else {
    mean = running_mean->view(shape);
    var = running_var->view(shape);
  }
  Tensor out = (x - mean) * mt::rsqrt(var + eps);
  if (weight && weight->defined()) out = out * weight->view(shape);
  if (bias && bias->defined()) out = out + bias->view(shape);
  return reduced_precision ? out.to(input.dtype()) : out;
}

Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool /*cudnn_enabled*/) {
  MT_CHECK(input.dim() >= 2, "Expected at least 2 dimensions for input tensor but received ", input.dim());
  const int64_t n = input.size(0), channels = input.size(1);
  MT_CHECK(num_groups > 0 && channels % num_groups == 0,
           "Expected number of channels in input to be divisible by num_groups, but got input of shape ",
           input.sizes(), " and num_groups=", num_groups);
  for (const auto& [name, t] : {std::pair<const char*, const std::optional<Tensor>&>{"weight", weight}, {"bias", bias}})
    MT_CHECK(!t || !t->defined() || (t->dim() == 1 && t->numel() == channels), "Expected ", name,
             " to be a vector of size equal to the number of channels in input, but got ", name, " of shape ",
             t->sizes(), " and input of shape ", input.sizes());
  if (!is_floating_point(input.dtype())) {
    detail::throw_error<NotImplementedError>("\"group_norm\" not implemented for '", input.dtype(), "'");
  }
  const bool reduced_precision = input.dtype() == kFloat16 || input.dtype() == kBFloat16;
  int64_t per_group = channels / num_groups;  // explicit: an empty batch leaves no -1 to infer
  for (int64_t d = 2; d < input.dim(); ++d) per_group *= input.size(d);
  const Tensor x = (reduced_precision ? input.to(kFloat32) : input).reshape({n, num_groups, per_group});
  const Tensor mean = x.mean({2}, /*keepdim=*/true);
  const Tensor var = mt::var(x, {2}, /*correction=*/0, /*keepdim=*/true);
  Tensor out = ((x - mean) * mt::rsqrt(var + eps)).view(input.sizes());
  std::vector<int64_t> shape(input.dim(), 1);
  shape[1] = channels;
  if (weight && weight->defined()) out = out * weight->view(shape);
  if (bias && bias->defined()) out = out + bias->view(shape);
  return reduced_precision ? out.to(input.dtype()) : out;
}

void register_composites(Library& m) {
  m.impl("layer_norm", MT_FN(layer_norm));
  m.impl("batch_norm", MT_FN(batch_norm));
  m.impl("group_norm", MT_FN(group_norm));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
