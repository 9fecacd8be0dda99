#pragma once
// mt::nn::functional::interpolate and mt::nn::Upsample (libtorch's): resize [N, C, H, W] images to a size
// or by a scale factor, by nearest neighbour or bilinear interpolation (upsample_nearest2d,
// upsample_bilinear2d), with PyTorch's argument rules.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autograd/nn/Module.h"

namespace mt::nn {

// size or scale_factor (one value for every spatial dim, or one per dim); mode "nearest" (the default) or
// "bilinear"; align_corners for bilinear only (false when unset); recompute_scale_factor: compute the output
// size from the scale factor and interpolate by that size's ratio instead of the factor.
class InterpolateOptions {
 public:
  InterpolateOptions& size(std::vector<int64_t> v) { return size_ = std::move(v), *this; }
  InterpolateOptions& scale_factor(std::vector<double> v) { return scale_factor_ = std::move(v), *this; }
  InterpolateOptions& mode(std::string v) { return mode_ = std::move(v), *this; }
  InterpolateOptions& align_corners(bool v) { return align_corners_ = v, *this; }
  InterpolateOptions& recompute_scale_factor(bool v) { return recompute_scale_factor_ = v, *this; }

  const std::optional<std::vector<int64_t>>& size() const { return size_; }
  const std::optional<std::vector<double>>& scale_factor() const { return scale_factor_; }
  const std::string& mode() const { return mode_; }
  std::optional<bool> align_corners() const { return align_corners_; }
  std::optional<bool> recompute_scale_factor() const { return recompute_scale_factor_; }

 private:
  std::optional<std::vector<int64_t>> size_;
  std::optional<std::vector<double>> scale_factor_;
  std::string mode_ = "nearest";
  std::optional<bool> align_corners_, recompute_scale_factor_;
};

using UpsampleOptions = InterpolateOptions;

namespace functional {
using InterpolateFuncOptions = InterpolateOptions;
Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options = {});
}  // namespace functional

class Upsample : public Module {
 public:
  explicit Upsample(UpsampleOptions options = {}) : options_(std::move(options)) {}
  Tensor forward(const Tensor& input) const { return functional::interpolate(input, options_); }
  std::string name() const override { return "Upsample"; }
  std::string extra_repr() const override;

 private:
  UpsampleOptions options_;
};

}  // namespace mt::nn
