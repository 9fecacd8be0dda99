#pragma once
// mt::nn::LayerNorm: normalises over the last len(normalized_shape) dimensions, then scales and shifts
// by a learned weight (ones) and bias (zeros) of that shape. BatchNorm1d and BatchNorm2d: normalise each
// channel with the batch's statistics while training (and track running ones) or with the running ones in
// evaluation, then scale and shift by a learned weight and bias per channel. GroupNorm: the same over each
// sample's groups of channels.
#include <vector>

#include "autograd/nn/Module.h"

namespace mt::nn {

class LayerNorm : public Module {
 public:
  explicit LayerNorm(std::vector<int64_t> normalized_shape, double eps = 1e-5, bool elementwise_affine = true);
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "LayerNorm"; }
  std::string extra_repr() const override;

  const std::vector<int64_t>& normalized_shape() const { return normalized_shape_; }
  double eps() const { return eps_; }

  Tensor weight;  // undefined without elementwise_affine
  Tensor bias;

 private:
  std::vector<int64_t> normalized_shape_;
  double eps_;
};

// libtorch's BatchNormOptions: num_features, then eps 1e-5, momentum 0.1, affine and
// track_running_stats, fluent.
class BatchNormOptions {
 public:
  BatchNormOptions(int64_t num_features) : num_features_(num_features) {}  // NOLINT: libtorch's implicit form
  BatchNormOptions& eps(double v) { return eps_ = v, *this; }
  BatchNormOptions& momentum(double v) { return momentum_ = v, *this; }
  BatchNormOptions& affine(bool v) { return affine_ = v, *this; }
  BatchNormOptions& track_running_stats(bool v) { return track_running_stats_ = v, *this; }
  int64_t num_features() const { return num_features_; }
  double eps() const { return eps_; }
  double momentum() const { return momentum_; }
  bool affine() const { return affine_; }
  bool track_running_stats() const { return track_running_stats_; }

 private:
  int64_t num_features_;
  double eps_ = 1e-5, momentum_ = 0.1;
  bool affine_ = true, track_running_stats_ = true;
};

// D = 1: input [N, C] or [N, C, L]; D = 2: [N, C, H, W]. The buffers running_mean (zeros), running_var
// (ones) and num_batches_tracked (0, counting training batches) are in the state dict.
template <int D>
class BatchNormNd : public Module {
 public:
  explicit BatchNormNd(BatchNormOptions options);
  // Counts the batch and moves the running statistics while training: they are tensors the module holds,
  // so forward is const as every module's.
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return D == 1 ? "BatchNorm1d" : "BatchNorm2d"; }
  std::string extra_repr() const override;
  const BatchNormOptions& options() const { return options_; }

  Tensor weight, bias;  // undefined without affine
  Tensor running_mean, running_var, num_batches_tracked;  // undefined without track_running_stats

 private:
  BatchNormOptions options_;
};

using BatchNorm1d = BatchNormNd<1>;
using BatchNorm2d = BatchNormNd<2>;

// libtorch's GroupNormOptions: num_groups and num_channels, then eps 1e-5 and affine, fluent.
class GroupNormOptions {
 public:
  GroupNormOptions(int64_t num_groups, int64_t num_channels) : num_groups_(num_groups), num_channels_(num_channels) {}
  GroupNormOptions& eps(double v) { return eps_ = v, *this; }
  GroupNormOptions& affine(bool v) { return affine_ = v, *this; }
  int64_t num_groups() const { return num_groups_; }
  int64_t num_channels() const { return num_channels_; }
  double eps() const { return eps_; }
  bool affine() const { return affine_; }

 private:
  int64_t num_groups_, num_channels_;
  double eps_ = 1e-5;
  bool affine_ = true;
};

// input [N, C, *]: each sample's groups of C / num_groups channels normalised together, then a learned
// weight (ones) and bias (zeros) per channel.
class GroupNorm : public Module {
 public:
  explicit GroupNorm(GroupNormOptions options);
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "GroupNorm"; }
  std::string extra_repr() const override;

  Tensor weight, bias;  // undefined without affine

 private:
  GroupNormOptions options_;
};

}  // namespace mt::nn
