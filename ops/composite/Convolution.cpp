// conv1d and conv2d as compositions: im2col lays each receptive field out as a column, one matrix product
// per group multiplies the columns by the flattened filters, and the bias is added per output channel.
// Autograd, vmap and autocast take them through im2col, matmul and add. conv1d is conv2d over images one
// row high. padding="same" pads so the output has the input's size (stride 1), the extra element of an
// odd total on the far side, as PyTorch does. conv_transpose1d/2d are the adjoint: one matmul per group
// spreads each input pixel into a column of output taps, and col2im sums the columns into the image.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "dispatch/Library.h"
#include "ops/api/add.h"
#include "ops/api/col2im.h"
#include "ops/api/im2col.h"
#include "ops/api/matmul.h"
#include "ops/api/pad.h"

namespace mt {
namespace {

// An int[N] argument of N values, or of one that stands for all (PyTorch's expand_param_if_needed).
std::vector<int64_t> expand_param(IntArrayRef v, const char* name, size_t n) {
  MT_CHECK(v.size() == 1 || v.size() == n, "expected ", name, " to be a single integer value or a list of ", n,
           " values to match the convolution dimensions, but got ", name, "=", v);
  return v.size() == 1 ? std::vector<int64_t>(n, v[0]) : v.vec();
}

// The 2-D geometry of a convolution, each argument expanded to one value per dim.
struct Geometry2d {
  std::vector<int64_t> stride, padding, dilation;
};

// What conv2d and conv_transpose2d check alike, first: the input's and weight's ranks, groups, and each
// dim's stride, padding and dilation (PyTorch's checks, shared by both directions there too).
Geometry2d checked_geometry(const char* op, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                            IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  Geometry2d g{expand_param(stride, "stride", 2), expand_param(padding, "padding", 2),
               expand_param(dilation, "dilation", 2)};
  MT_CHECK(input.dim() == 3 || input.dim() == 4, "Expected 3D (unbatched) or 4D (batched) input to ", op,
           ", but got input of size: ", input.sizes());
  MT_CHECK(weight.dim() == 4, "weight should have at least three dimensions");
  MT_CHECK(groups > 0, "non-positive groups is not supported");
  for (size_t d = 0; d < 2; ++d) {
    MT_CHECK(g.stride[d] > 0, "non-positive stride is not supported");
    MT_CHECK(g.padding[d] >= 0, "negative padding is not supported");
    MT_CHECK(g.dilation[d] > 0, "dilation should be greater than zero");
  }
  return g;
}

// ... and last, after their own channel checks: a bias of out_channels, and the input's dtype the weight's.
// PyTorch's bias message names a transposed convolution.
void check_bias_and_type(const Tensor& x, const Tensor& weight, const std::optional<Tensor>& bias,
                         int64_t out_channels, bool transposed) {
  if (bias && bias->defined())
    MT_CHECK(bias->dim() == 1 && bias->size(0) == out_channels, "Given ", transposed ? "transposed=1, " : "",
             "weight of size ", weight.sizes(), ", expected bias to be 1-dimensional with ", out_channels,
             " elements, but got bias of size ", bias->sizes(), " instead");
  MT_CHECK(x.dtype() == weight.dtype(), "Input type (", x.dtype(), ") and weight type (", weight.dtype(),
           ") should be the same");
}

// The kernels are named apart from the generated mt::conv2d and friends, which argument-dependent lookup
// would otherwise find beside them.
Tensor convolution2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                     IntArrayRef stride_arg, IntArrayRef padding_arg, IntArrayRef dilation_arg, int64_t groups) {
  const auto [stride, padding, dilation] =
      checked_geometry("conv2d", input, weight, stride_arg, padding_arg, dilation_arg, groups);
  const bool batched = input.dim() == 4;
  const Tensor x = batched ? input : input.unsqueeze(0);
  const int64_t n = x.size(0), channels = x.size(1), out_channels = weight.size(0);
  MT_CHECK(out_channels % groups == 0 && out_channels >= groups,
           "Given groups=", groups, ", expected weight to be divisible by ", groups, " at dimension 0, but got weight "
           "of size ", weight.sizes(), " instead");
  MT_CHECK(channels == weight.size(1) * groups, "Given groups=", groups, ", weight of size ", weight.sizes(),
           ", expected input", input.sizes(), " to have ", weight.size(1) * groups, " channels, but got ", channels,
           " channels instead");
  check_bias_and_type(x, weight, bias, out_channels, /*transposed=*/false);
  const int64_t kh = weight.size(2), kw = weight.size(3);
  const Tensor cols = mt::im2col(x, {kh, kw}, dilation, padding, stride);  // [N, C*kh*kw, L]
  const int64_t blocks = cols.size(2);
  // [G, O/G, C/G*kh*kw] x [N, G, C/G*kh*kw, L] -> [N, G, O/G, L]
  const int64_t taps = channels / groups * kh * kw;  // explicit sizes: an empty batch leaves no -1 to infer
  const Tensor w = weight.reshape({groups, out_channels / groups, taps});
  Tensor out = mt::matmul(w, cols.view({n, groups, taps, blocks})).reshape({n, out_channels, blocks});
  const int64_t out_h = (x.size(2) + 2 * padding[0] - dilation[0] * (kh - 1) - 1) / stride[0] + 1;
  out = out.view({n, out_channels, out_h, blocks / out_h});
  if (bias && bias->defined()) out = mt::add(out, bias->view({1, out_channels, 1, 1}));
  return batched ? out : out.squeeze(0);
}

// padding="valid" (none) or "same" (the output as large as the input; stride 1 only).
Tensor convolution2d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                             IntArrayRef stride, std::string_view padding, IntArrayRef dilation_arg, int64_t groups) {
  if (padding == "valid") return convolution2d(input, weight, bias, stride, {0}, dilation_arg, groups);
  MT_CHECK(padding == "same", "Invalid padding string: '", padding, "'");
  for (int64_t s : stride) MT_CHECK(s == 1, "padding='same' is not supported for strided convolutions");
  MT_CHECK(weight.dim() == 4, "weight should have at least three dimensions");
  const std::vector<int64_t> dilation = expand_param(dilation_arg, "dilation", 2);
  // Each dim needs dilation * (k - 1) padding in all; an odd total is padded on both sides by its larger
  // half, and the output's first element (which the near side's extra padding adds) dropped.
  std::vector<int64_t> pad(2);
  std::vector<bool> odd(2);
  for (size_t d = 0; d < 2; ++d) {
    const int64_t total = dilation[d] * (weight.size(2 + d) - 1);
    pad[d] = (total + 1) / 2;
    odd[d] = total % 2 != 0;
  }
  Tensor out = convolution2d(input, weight, bias, stride, pad, dilation, groups);
  for (size_t d = 0; d < 2; ++d)
    if (odd[d]) out = out.narrow(out.dim() - 2 + d, 1, out.size(out.dim() - 2 + d) - 1);
  return out;
}

// conv1d runs conv2d over [N, C, 1, L] with [O, C/G, 1, k] filters: `conv` gets those and the 2-D stride
// and dilation.
using Conv2d = std::function<Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef)>;
Tensor as_conv2d(const Tensor& input, const Tensor& weight, IntArrayRef stride, IntArrayRef dilation,
                 const Conv2d& conv) {
  MT_CHECK(input.dim() == 2 || input.dim() == 3, "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got "
           "input of size: ", input.sizes());
  MT_CHECK(weight.dim() == 3, "weight should have at least three dimensions");
  const std::vector<int64_t> s = expand_param(stride, "stride", 1), d = expand_param(dilation, "dilation", 1);
  return conv(input.unsqueeze(-2), weight.unsqueeze(2), std::vector<int64_t>{1, s[0]}, std::vector<int64_t>{1, d[0]})
      .squeeze(-2);
}

Tensor convolution1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                     IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const std::vector<int64_t> pad = {0, expand_param(padding, "padding", 1)[0]};
  return as_conv2d(input, weight, stride, dilation,
                   [&](const Tensor& x, const Tensor& w, IntArrayRef s, IntArrayRef d) {
                     return convolution2d(x, w, bias, s, pad, d, groups);
                   });
}

Tensor convolution1d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                             IntArrayRef stride, std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return as_conv2d(input, weight, stride, dilation,
                   [&](const Tensor& x, const Tensor& w, IntArrayRef s, IntArrayRef d) {
                     return convolution2d_padding(x, w, bias, s, padding, d, groups);
                   });
}

// The transposed convolution of an [N, C, H, W] input with [C, O/G, kh, kw] filters: output size
// (H - 1) * stride - 2 * padding + dilation * (kh - 1) + output_padding + 1 per dim. col2im sums the columns
// of taps into the whole image they reach, without padding; the output is its part from `padding` on, and
// where the output padding reaches past it, zeros (only the bias reaches there).
Tensor convolution_transpose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                               IntArrayRef stride_arg, IntArrayRef padding_arg, IntArrayRef output_padding_arg,
                               int64_t groups, IntArrayRef dilation_arg) {
  const auto [stride, padding, dilation] =
      checked_geometry("conv_transpose2d", input, weight, stride_arg, padding_arg, dilation_arg, groups);
  const std::vector<int64_t> output_padding = expand_param(output_padding_arg, "output_padding", 2);
  for (size_t d = 0; d < 2; ++d) {
    MT_CHECK(output_padding[d] >= 0, "negative output_padding is not supported");
    MT_CHECK(output_padding[d] < stride[d] || output_padding[d] < dilation[d],
             "output padding must be smaller than either stride or dilation, but got output_padding_height: ",
             output_padding[0], " output_padding_width: ", output_padding[1], " stride_height: ", stride[0],
             " stride_width: ", stride[1], " dilation_height: ", dilation[0], " dilation_width: ", dilation[1]);
  }
  const bool batched = input.dim() == 4;
  const Tensor x = batched ? input : input.unsqueeze(0);
  const int64_t n = x.size(0), channels = x.size(1);
  MT_CHECK(x.size(2) > 0 && x.size(3) > 0, "non-empty 3D or 4D (batch mode) tensor expected for input, but got: ",
           input.sizes());
  MT_CHECK(weight.size(0) % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ", groups,
           " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  MT_CHECK(channels == weight.size(0), "Given transposed=1, weight of size ", weight.sizes(), ", expected input",
           input.sizes(), " to have ", weight.size(0), " channels, but got ", channels, " channels instead");
  const int64_t out_channels = weight.size(1) * groups;
  check_bias_and_type(x, weight, bias, out_channels, /*transposed=*/true);
  const int64_t kh = weight.size(2), kw = weight.size(3);
  std::vector<int64_t> reach(2), out_size(2);  // the image the taps reach, and the output's size
  for (size_t d = 0; d < 2; ++d) {
    reach[d] = (x.size(2 + d) - 1) * stride[d] + dilation[d] * (weight.size(2 + d) - 1) + 1;
    out_size[d] = reach[d] - 2 * padding[d] + output_padding[d];
  }
  MT_CHECK(out_size[0] > 0 && out_size[1] > 0, "Given input size per channel: (", x.size(2), " x ", x.size(3),
           "). Calculated output size per channel: (", out_size[0], " x ", out_size[1], "). Output size is too small");
  // [G, C/G, O/G*kh*kw] transposed x [N, G, C/G, H*W] -> [N, G, O/G*kh*kw, H*W]
  const int64_t taps = out_channels / groups * kh * kw, pixels = x.size(2) * x.size(3);
  const Tensor w = weight.reshape({groups, channels / groups, taps}).transpose(1, 2);
  const Tensor cols =
      mt::matmul(w, x.reshape({n, groups, channels / groups, pixels})).reshape({n, out_channels * kh * kw, pixels});
  Tensor out = mt::col2im(cols, reach, {kh, kw}, dilation, {0, 0}, stride);
  std::vector<int64_t> zeros_after(4);  // mt::pad's order: the last dim's (before, after) first
  for (size_t d = 0; d < 2; ++d) {
    const int64_t start = std::min(padding[d], reach[d]), kept = std::min(out_size[d], reach[d] - start);
    out = out.narrow(2 + d, start, kept);
    zeros_after[3 - 2 * d] = out_size[d] - kept;
  }
  if (zeros_after[1] > 0 || zeros_after[3] > 0) out = mt::pad(out, zeros_after);
  if (bias && bias->defined()) out = mt::add(out, bias->view({1, out_channels, 1, 1}));
  return batched ? out : out.squeeze(0);
}

Tensor convolution_transpose1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                               IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding, int64_t groups,
                               IntArrayRef dilation) {
  MT_CHECK(input.dim() == 2 || input.dim() == 3, "Expected 2D (unbatched) or 3D (batched) input to "
           "conv_transpose1d, but got input of size: ", input.sizes());
  MT_CHECK(weight.dim() == 3, "weight should have at least three dimensions");
  const std::vector<int64_t> s = expand_param(stride, "stride", 1), p = expand_param(padding, "padding", 1),
                             o = expand_param(output_padding, "output_padding", 1),
                             d = expand_param(dilation, "dilation", 1);
  return convolution_transpose2d(input.unsqueeze(-2), weight.unsqueeze(2), bias, {1, s[0]}, {0, p[0]}, {0, o[0]},
                                 groups, {1, d[0]})
      .squeeze(-2);
}

void register_kernels(Library& m) {
  m.impl("conv_transpose2d.input", MT_FN(convolution_transpose2d));
  m.impl("conv_transpose1d", MT_FN(convolution_transpose1d));
  m.impl("conv2d", MT_FN(convolution2d));
  m.impl("conv2d.padding", MT_FN(convolution2d_padding));
  m.impl("conv1d", MT_FN(convolution1d));
  m.impl("conv1d.padding", MT_FN(convolution1d_padding));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_kernels(m); }

}  // namespace mt
