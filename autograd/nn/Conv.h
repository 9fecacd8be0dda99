#pragma once
// mt::nn::Conv1d and Conv2d: a learned filter bank applied by conv1d/conv2d, built from options as
// libtorch's are (`Conv2d(Conv2dOptions(1, 32, 3).stride(1).padding(1))`), with PyTorch's default
// initialisation; ConvTranspose1d and ConvTranspose2d likewise for conv_transpose1d/2d.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "autograd/nn/Module.h"
#include "tensor/Generator.h"

namespace mt::nn {

// What the options of every convolution module share, as libtorch's ConvNdOptions and ConvTransposeNdOptions
// do: in_channels, out_channels and the kernel size (one value for every dim, or one per dim), then fluent
// setters returning the derived options: stride 1, dilation 1, groups 1, a bias.
template <typename Derived, size_t D>
class ConvOptionsBase {
 public:
  using Sizes = std::vector<int64_t>;
  ConvOptionsBase(int64_t in_channels, int64_t out_channels, Sizes kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(expand(kernel_size)) {}
  ConvOptionsBase(int64_t in_channels, int64_t out_channels, int64_t kernel_size)
      : ConvOptionsBase(in_channels, out_channels, Sizes{kernel_size}) {}
  Derived& stride(Sizes v) { return stride_ = expand(v), self(); }
  Derived& stride(int64_t v) { return stride(Sizes{v}); }
  Derived& dilation(Sizes v) { return dilation_ = expand(v), self(); }
  Derived& dilation(int64_t v) { return dilation(Sizes{v}); }
  Derived& groups(int64_t v) { return groups_ = v, self(); }
  Derived& bias(bool v) { return bias_ = v, self(); }

  int64_t in_channels() const { return in_channels_; }
  int64_t out_channels() const { return out_channels_; }
  const Sizes& kernel_size() const { return kernel_size_; }
  const Sizes& stride() const { return stride_; }
  const Sizes& dilation() const { return dilation_; }
  int64_t groups() const { return groups_; }
  bool bias() const { return bias_; }

 protected:
  static Sizes expand(const Sizes& v) { return v.size() == 1 ? Sizes(D, v[0]) : v; }
  Derived& self() { return static_cast<Derived&>(*this); }

 private:
  int64_t in_channels_, out_channels_;
  Sizes kernel_size_, stride_ = Sizes(D, 1), dilation_ = Sizes(D, 1);
  int64_t groups_ = 1;
  bool bias_ = true;
};

// Conv1d/Conv2d's: padding 0 (or "same"/"valid"), padding_mode "zeros".
template <size_t D>
class ConvOptions : public ConvOptionsBase<ConvOptions<D>, D> {
  using Base = ConvOptionsBase<ConvOptions<D>, D>;

 public:
  using Base::Base;
  using typename Base::Sizes;
  ConvOptions& padding(Sizes v) { return padding_ = Base::expand(v), *this; }
  ConvOptions& padding(int64_t v) { return padding(Sizes{v}); }
  ConvOptions& padding(std::string_view mode) { return padding_ = std::string(mode), *this; }  // "same" or "valid"
  // "zeros" (conv's own padding), "reflect", "replicate" or "circular" (the input padded by mt::pad first).
  ConvOptions& padding_mode(std::string mode);

  const std::variant<Sizes, std::string>& padding() const { return padding_; }
  const std::string& padding_mode() const { return padding_mode_; }

 private:
  std::variant<Sizes, std::string> padding_ = Sizes(D, 0);
  std::string padding_mode_ = "zeros";
};

using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;

// Applies conv1d (D = 1: input [N, C, L]) or conv2d (D = 2: [N, C, H, W]); an input without the batch dim
// is one sample. weight [out_channels, in_channels / groups, *kernel_size] and bias [out_channels] are drawn
// from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = in_channels / groups * prod(kernel_size): what PyTorch's
// kaiming_uniform_(a=sqrt(5)) and its bias rule amount to.
template <size_t D>
class ConvNd : public Module {
 public:
  explicit ConvNd(ConvOptions<D> options, Generator* generator = nullptr);
  Tensor forward(const Tensor& input) const;
  std::string name() const override { return D == 1 ? "Conv1d" : "Conv2d"; }
  std::string extra_repr() const override;
  const ConvOptions<D>& options() const { return options_; }

  Tensor weight;
  Tensor bias;  // undefined with bias(false)

 private:
  ConvOptions<D> options_;
};

using Conv1d = ConvNd<1>;
using Conv2d = ConvNd<2>;

// ConvTranspose1d/2d's: padding 0 and output_padding 0; "zeros" is the only padding mode.
template <size_t D>
class ConvTransposeOptions : public ConvOptionsBase<ConvTransposeOptions<D>, D> {
  using Base = ConvOptionsBase<ConvTransposeOptions<D>, D>;

 public:
  using Base::Base;
  using typename Base::Sizes;
  ConvTransposeOptions& padding(Sizes v) { return padding_ = Base::expand(v), *this; }
  ConvTransposeOptions& padding(int64_t v) { return padding(Sizes{v}); }
  ConvTransposeOptions& output_padding(Sizes v) { return output_padding_ = Base::expand(v), *this; }
  ConvTransposeOptions& output_padding(int64_t v) { return output_padding(Sizes{v}); }
  ConvTransposeOptions& padding_mode(std::string mode);  // "zeros" alone, as PyTorch

  const Sizes& padding() const { return padding_; }
  const Sizes& output_padding() const { return output_padding_; }

 private:
  Sizes padding_ = Sizes(D, 0), output_padding_ = Sizes(D, 0);
};

using ConvTranspose1dOptions = ConvTransposeOptions<1>;
using ConvTranspose2dOptions = ConvTransposeOptions<2>;

// Applies conv_transpose1d or conv_transpose2d. weight [in_channels, out_channels / groups, *kernel_size]
// and bias [out_channels] are drawn from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = out_channels / groups *
// prod(kernel_size) (PyTorch reads the fan from the weight's second dim). forward(input, output_size) picks
// the output padding that gives output_size (the spatial sizes, or with the batch and channel dims too),
// as libtorch does; without it, the options' output_padding.
template <size_t D>
class ConvTransposeNd : public Module {
 public:
  explicit ConvTransposeNd(ConvTransposeOptions<D> options, Generator* generator = nullptr);
  Tensor forward(const Tensor& input, const std::vector<int64_t>& output_size = {}) const;
  std::string name() const override { return D == 1 ? "ConvTranspose1d" : "ConvTranspose2d"; }
  std::string extra_repr() const override;
  const ConvTransposeOptions<D>& options() const { return options_; }

  Tensor weight;
  Tensor bias;  // undefined with bias(false)

 private:
  ConvTransposeOptions<D> options_;
};

using ConvTranspose1d = ConvTransposeNd<1>;
using ConvTranspose2d = ConvTransposeNd<2>;

}  // namespace mt::nn
