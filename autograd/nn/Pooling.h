#pragma once
// mt::nn::MaxPool2d, AvgPool2d and AdaptiveAvgPool2d: the poolings with options as libtorch's
// (`MaxPool2d(MaxPool2dOptions(2).stride(1))`, or `MaxPool2d(2)`).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autograd/nn/Module.h"

namespace mt::nn {

// The kernel size (one value for both dims, or two); stride (by default the kernel size), padding 0,
// dilation 1 and ceil_mode false, fluent.
class MaxPool2dOptions {
 public:
  using Sizes = std::vector<int64_t>;
  MaxPool2dOptions(int64_t kernel_size) : MaxPool2dOptions(Sizes{kernel_size}) {}  // NOLINT: libtorch's implicit form
  MaxPool2dOptions(Sizes kernel_size) : kernel_size_(std::move(kernel_size)) {}    // NOLINT
  MaxPool2dOptions& stride(Sizes v) { return stride_ = std::move(v), *this; }
  MaxPool2dOptions& stride(int64_t v) { return stride(Sizes{v}); }
  MaxPool2dOptions& padding(Sizes v) { return padding_ = std::move(v), *this; }
  MaxPool2dOptions& padding(int64_t v) { return padding(Sizes{v}); }
  MaxPool2dOptions& dilation(Sizes v) { return dilation_ = std::move(v), *this; }
  MaxPool2dOptions& dilation(int64_t v) { return dilation(Sizes{v}); }
  MaxPool2dOptions& ceil_mode(bool v) { return ceil_mode_ = v, *this; }

  const Sizes& kernel_size() const { return kernel_size_; }
  const Sizes& stride() const { return stride_; }
  const Sizes& padding() const { return padding_; }
  const Sizes& dilation() const { return dilation_; }
  bool ceil_mode() const { return ceil_mode_; }

 private:
  Sizes kernel_size_, stride_ = {}, padding_ = {0}, dilation_ = {1};
  bool ceil_mode_ = false;
};

// input [N, C, H, W] or [C, H, W] -> the maximum of each window; no parameters.
class MaxPool2d : public Module {
 public:
  explicit MaxPool2d(MaxPool2dOptions options) : options_(std::move(options)) {}
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "MaxPool2d"; }
  std::string extra_repr() const override;
  const MaxPool2dOptions& options() const { return options_; }

 private:
  MaxPool2dOptions options_;
};

// The kernel size (one value or two); stride (by default the kernel size), padding 0, ceil_mode false,
// count_include_pad true and no divisor_override, fluent.
class AvgPool2dOptions {
 public:
  using Sizes = std::vector<int64_t>;
  AvgPool2dOptions(int64_t kernel_size) : AvgPool2dOptions(Sizes{kernel_size}) {}  // NOLINT: libtorch's implicit form
  AvgPool2dOptions(Sizes kernel_size) : kernel_size_(std::move(kernel_size)) {}    // NOLINT
  AvgPool2dOptions& stride(Sizes v) { return stride_ = std::move(v), *this; }
  AvgPool2dOptions& stride(int64_t v) { return stride(Sizes{v}); }
  AvgPool2dOptions& padding(Sizes v) { return padding_ = std::move(v), *this; }
  AvgPool2dOptions& padding(int64_t v) { return padding(Sizes{v}); }
  AvgPool2dOptions& ceil_mode(bool v) { return ceil_mode_ = v, *this; }
  AvgPool2dOptions& count_include_pad(bool v) { return count_include_pad_ = v, *this; }
  AvgPool2dOptions& divisor_override(std::optional<int64_t> v) { return divisor_override_ = v, *this; }

  const Sizes& kernel_size() const { return kernel_size_; }
  const Sizes& stride() const { return stride_; }
  const Sizes& padding() const { return padding_; }
  bool ceil_mode() const { return ceil_mode_; }
  bool count_include_pad() const { return count_include_pad_; }
  std::optional<int64_t> divisor_override() const { return divisor_override_; }

 private:
  Sizes kernel_size_, stride_ = {}, padding_ = {0};
  bool ceil_mode_ = false, count_include_pad_ = true;
  std::optional<int64_t> divisor_override_;
};

// input [N, C, H, W] or [C, H, W] -> the mean of each window; no parameters.
class AvgPool2d : public Module {
 public:
  explicit AvgPool2d(AvgPool2dOptions options) : options_(std::move(options)) {}
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "AvgPool2d"; }
  std::string extra_repr() const override;

 private:
  AvgPool2dOptions options_;
};

// input [..., H, W] -> [..., output_size]: the mean of PyTorch's adaptive windows (global average pooling
// with output size 1).
class AdaptiveAvgPool2d : public Module {
 public:
  AdaptiveAvgPool2d(int64_t output_size) : output_size_{output_size} {}  // NOLINT
  AdaptiveAvgPool2d(std::vector<int64_t> output_size) : output_size_(std::move(output_size)) {}  // NOLINT
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return "AdaptiveAvgPool2d"; }
  std::string extra_repr() const override;

 private:
  std::vector<int64_t> output_size_;
};

}  // namespace mt::nn
