#include "autograd/nn/Conv.h"

#include <cmath>
#include <sstream>

#include "ops/Factories.h"
#include "ops/api/conv1d.h"
#include "ops/api/conv2d.h"
#include "ops/api/conv_transpose1d.h"
#include "ops/api/conv_transpose2d.h"
#include "ops/api/pad.h"

namespace mt::nn {

namespace {

// kaiming_uniform_(a=sqrt(5)) on a filter bank and PyTorch's rule for its bias: U(-b, b), b = 1/sqrt(fan_in).
Tensor uniform_for_fan_in(IntArrayRef sizes, int64_t fan_in, Generator* generator) {
  const double bound = fan_in > 0 ? 1.0 / std::sqrt(static_cast<double>(fan_in)) : 0.0;
  return mt::rand(sizes, generator).mul_(2 * bound).sub_(bound);
}

// Registers a convolution module's weight, [out, in / groups, *kernel] ([in, out / groups, *kernel]
// transposed), and bias [out], after the checks on the channels. PyTorch's fan_in is the weight's dim 1
// times the kernel.
template <typename Options>
void register_filters(Module& module, Tensor& weight, Tensor& bias, const Options& o, bool transposed,
                      Generator* generator) {
  MT_CHECK_VALUE(o.groups() > 0, "groups must be a positive integer");
  MT_CHECK_VALUE(o.in_channels() % o.groups() == 0, "in_channels must be divisible by groups");
  MT_CHECK_VALUE(o.out_channels() % o.groups() == 0, "out_channels must be divisible by groups");
  const int64_t per_group = (transposed ? o.out_channels() : o.in_channels()) / o.groups();
  std::vector<int64_t> shape = {transposed ? o.in_channels() : o.out_channels(), per_group};
  int64_t fan_in = per_group;
  for (int64_t k : o.kernel_size()) {
    shape.push_back(k);
    fan_in *= k;
  }
  weight = module.register_parameter("weight", uniform_for_fan_in(shape, fan_in, generator));
  if (o.bias()) bias = module.register_parameter("bias", uniform_for_fan_in({o.out_channels()}, fan_in, generator));
}

// A tuple as Python prints it: (3, 3), or (3,) for one value.
std::string tuple_repr(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

}  // namespace

template <size_t D>
ConvOptions<D>& ConvOptions<D>::padding_mode(std::string mode) {
  MT_CHECK_VALUE(mode == "zeros" || mode == "reflect" || mode == "replicate" || mode == "circular",
                 "padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got padding_mode='",
                 mode, "'");
  padding_mode_ = std::move(mode);
  return *this;
}

template <size_t D>
ConvNd<D>::ConvNd(ConvOptions<D> options, Generator* generator) : options_(std::move(options)) {
  const ConvOptions<D>& o = options_;
  MT_CHECK_VALUE(o.kernel_size().size() == D && o.stride().size() == D && o.dilation().size() == D, name(),
                 ": kernel_size, stride and dilation need 1 or ", D, " values");
  if (const auto* mode = std::get_if<std::string>(&o.padding())) {
    MT_CHECK_VALUE(*mode == "same" || *mode == "valid", "Invalid padding string '", *mode,
                   "', should be one of {'valid', 'same'}");
    for (int64_t s : o.stride())
      MT_CHECK_VALUE(*mode != "same" || s == 1, "padding='same' is not supported for strided convolutions");
  }
  register_filters(*this, weight, bias, o, /*transposed=*/false, generator);
}

// The padding a mode other than "zeros" applies with mt::pad, as (before, after) pairs from the last dim
// backwards (PyTorch's _reversed_padding_repeated_twice); "same" splits each dim's total as conv2d does.
template <size_t D>
std::vector<int64_t> pad_amounts(const ConvOptions<D>& o) {
  std::vector<int64_t> amounts;
  for (size_t k = D; k-- > 0;) {
    if (const auto* mode = std::get_if<std::string>(&o.padding())) {
      const int64_t total = *mode == "same" ? o.dilation()[k] * (o.kernel_size()[k] - 1) : 0;
      amounts.insert(amounts.end(), {total / 2, total - total / 2});
    } else {
      const int64_t p = std::get<std::vector<int64_t>>(o.padding())[k];
      amounts.insert(amounts.end(), {p, p});
    }
  }
  return amounts;
}

template <size_t D>
Tensor ConvNd<D>::forward(const Tensor& input) const {
  const ConvOptions<D>& o = options_;
  const std::optional<Tensor> b = bias.defined() ? std::optional<Tensor>(bias) : std::nullopt;
  if (o.padding_mode() != "zeros") {
    const Tensor padded = mt::pad(input, pad_amounts(o), o.padding_mode());
    const std::vector<int64_t> none(D, 0);
    if constexpr (D == 1)
      return mt::conv1d(padded, weight, b, o.stride(), none, o.dilation(), o.groups());
    else
      return mt::conv2d(padded, weight, b, o.stride(), none, o.dilation(), o.groups());
  }
  const auto* mode = std::get_if<std::string>(&o.padding());
  if constexpr (D == 1) {
    if (mode) return mt::conv1d(input, weight, b, o.stride(), *mode, o.dilation(), o.groups());
    return mt::conv1d(input, weight, b, o.stride(), std::get<std::vector<int64_t>>(o.padding()), o.dilation(),
                      o.groups());
  } else {
    if (mode) return mt::conv2d(input, weight, b, o.stride(), *mode, o.dilation(), o.groups());
    return mt::conv2d(input, weight, b, o.stride(), std::get<std::vector<int64_t>>(o.padding()), o.dilation(),
                      o.groups());
  }
}

template <size_t D>
std::string ConvNd<D>::extra_repr() const {
  const ConvOptions<D>& o = options_;
  std::ostringstream ss;
  ss << o.in_channels() << ", " << o.out_channels() << ", kernel_size=" << tuple_repr(o.kernel_size())
     << ", stride=" << tuple_repr(o.stride());
  if (const auto* mode = std::get_if<std::string>(&o.padding()))
    ss << ", padding=" << *mode;
  else if (std::get<std::vector<int64_t>>(o.padding()) != std::vector<int64_t>(D, 0))
    ss << ", padding=" << tuple_repr(std::get<std::vector<int64_t>>(o.padding()));
  if (o.dilation() != std::vector<int64_t>(D, 1)) ss << ", dilation=" << tuple_repr(o.dilation());
  if (o.groups() != 1) ss << ", groups=" << o.groups();
  if (!bias.defined()) ss << ", bias=False";
  if (o.padding_mode() != "zeros") ss << ", padding_mode=" << o.padding_mode();
  return ss.str();
}

template <size_t D>
ConvTransposeOptions<D>& ConvTransposeOptions<D>::padding_mode(std::string mode) {
  MT_CHECK_VALUE(mode == "zeros", "Only \"zeros\" padding mode is supported for ConvTranspose", D, "d");
  return *this;
}

template <size_t D>
ConvTransposeNd<D>::ConvTransposeNd(ConvTransposeOptions<D> options, Generator* generator)
    : options_(std::move(options)) {
  const ConvTransposeOptions<D>& o = options_;
  MT_CHECK_VALUE(o.kernel_size().size() == D && o.stride().size() == D && o.padding().size() == D &&
                     o.output_padding().size() == D && o.dilation().size() == D,
                 name(), ": kernel_size, stride, padding, output_padding and dilation need 1 or ", D, " values");
  register_filters(*this, weight, bias, o, /*transposed=*/true, generator);
}

template <size_t D>
Tensor ConvTransposeNd<D>::forward(const Tensor& input, const std::vector<int64_t>& output_size) const {
  const ConvTransposeOptions<D>& o = options_;
  std::vector<int64_t> output_padding = o.output_padding();
  if (!output_size.empty()) {
    // PyTorch's _output_padding: the padding that reaches output_size, which must lie between the sizes
    // that padding 0 and stride - 1 give.
    const int64_t non_spatial = input.dim() == static_cast<int64_t>(D) + 2 ? 2 : 1;
    std::vector<int64_t> size = output_size;
    if (size.size() == D + non_spatial) size.erase(size.begin(), size.begin() + non_spatial);
    MT_CHECK_VALUE(size.size() == D, "ConvTranspose", D, "D: for ", input.dim(), "D input, output_size must have ", D,
                   " or ", D + non_spatial, " elements (got ", output_size.size(), ")");
    std::vector<int64_t> min_sizes(D), max_sizes(D);
    for (size_t d = 0; d < D; ++d) {
      min_sizes[d] = (input.size(non_spatial + d) - 1) * o.stride()[d] - 2 * o.padding()[d] +
                     o.dilation()[d] * (o.kernel_size()[d] - 1) + 1;
      max_sizes[d] = min_sizes[d] + o.stride()[d] - 1;
    }
    for (size_t d = 0; d < D; ++d)
      MT_CHECK_VALUE(size[d] >= min_sizes[d] && size[d] <= max_sizes[d], "requested an output size of ",
                     IntArrayRef(size), ", but valid sizes range from ", IntArrayRef(min_sizes), " to ",
                     IntArrayRef(max_sizes), " (for an input of ", input.sizes().slice(non_spatial), ")");
    for (size_t d = 0; d < D; ++d) output_padding[d] = size[d] - min_sizes[d];
  }
  const std::optional<Tensor> b = bias.defined() ? std::optional<Tensor>(bias) : std::nullopt;
  if constexpr (D == 1)
    return mt::conv_transpose1d(input, weight, b, o.stride(), o.padding(), output_padding, o.groups(), o.dilation());
  else
    return mt::conv_transpose2d(input, weight, b, o.stride(), o.padding(), output_padding, o.groups(), o.dilation());
}

template <size_t D>
std::string ConvTransposeNd<D>::extra_repr() const {
  const ConvTransposeOptions<D>& o = options_;
  std::ostringstream ss;
  ss << o.in_channels() << ", " << o.out_channels() << ", kernel_size=" << tuple_repr(o.kernel_size())
     << ", stride=" << tuple_repr(o.stride());
  if (o.padding() != std::vector<int64_t>(D, 0)) ss << ", padding=" << tuple_repr(o.padding());
  if (o.dilation() != std::vector<int64_t>(D, 1)) ss << ", dilation=" << tuple_repr(o.dilation());
  if (o.output_padding() != std::vector<int64_t>(D, 0)) ss << ", output_padding=" << tuple_repr(o.output_padding());
  if (o.groups() != 1) ss << ", groups=" << o.groups();
  if (!bias.defined()) ss << ", bias=False";
  return ss.str();
}

template class ConvOptions<1>;
template class ConvOptions<2>;
template class ConvNd<1>;
template class ConvNd<2>;
template class ConvTransposeOptions<1>;
template class ConvTransposeOptions<2>;
template class ConvTransposeNd<1>;
template class ConvTransposeNd<2>;

}  // namespace mt::nn
