#include "autograd/nn/Upsample.h"

#include <cmath>
#include <sstream>

#include "ops/api/upsample_bilinear2d.h"
#include "ops/api/upsample_nearest2d.h"

namespace mt::nn {

namespace functional {

// PyTorch's F.interpolate, for the modes and the 4-D inputs that have ops here.
Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options) {
  const std::string& mode = options.mode();
  const bool linear = mode == "bilinear";
  MT_CHECK_AS(NotImplementedError, (mode == "nearest" || linear) && input.dim() == 4,
              "interpolate supports 4D inputs (N, C, H, W) in the modes nearest and bilinear, but got a ", input.dim(),
              "D input and mode ", mode);
  MT_CHECK_VALUE(linear || !options.align_corners(),
                 "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | "
                 "trilinear");
  const auto& size = options.size();
  const auto& scale = options.scale_factor();
  MT_CHECK_VALUE(!(size && scale), "only one of size or scale_factor should be defined");
  MT_CHECK_VALUE(size || scale, "either size or scale_factor should be defined");
  const size_t dims = 2;
  std::vector<int64_t> output_size;
  std::optional<double> scales[dims];
  if (size) {
    MT_CHECK_VALUE(size->size() == 1 || size->size() == dims,
                   "Input and output must have the same number of spatial "
                   "dimensions, but got input with spatial dimensions of ",
                   input.sizes().slice(2), " and output size of ", IntArrayRef(*size),
                   ". Please provide input tensor in (N, C, d1, d2, ...,dK) "
                   "format and output size in (o1, o2, ...,oK) format.");
    MT_CHECK_VALUE(!options.recompute_scale_factor().value_or(false),
                   "recompute_scale_factor is not meaningful with an explicit size.");
    for (size_t d = 0; d < dims; ++d) output_size.push_back((*size)[size->size() == 1 ? 0 : d]);
  } else {
    MT_CHECK_VALUE(scale->size() == 1 || scale->size() == dims,
                   "Input and scale_factor must have the same number of "
                   "spatial dimensions, but got input with spatial dimensions of ",
                   input.sizes().slice(2), " and scale_factor of shape ", ArrayRef<double>(*scale),
                   ". Please provide input tensor in (N, C, "
                   "d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.");
    const bool recompute = options.recompute_scale_factor().value_or(false);
    for (size_t d = 0; d < dims; ++d) {
      const double s = (*scale)[scale->size() == 1 ? 0 : d];
      output_size.push_back(static_cast<int64_t>(std::floor(static_cast<double>(input.size(2 + d)) * s)));
      if (!recompute) scales[d] = s;
    }
  }
  if (linear)
    return mt::upsample_bilinear2d(input, output_size, options.align_corners().value_or(false), scales[0], scales[1]);
  return mt::upsample_nearest2d(input, output_size, scales[0], scales[1]);
}

}  // namespace functional

// As PyTorch prints it: scale_factor=2.0 or size=(4, 6), then mode='nearest'.
std::string Upsample::extra_repr() const {
  std::ostringstream ss;
  const auto number = [&](double v) {
    if (v == std::floor(v))
      ss << v << ".0";
    else
      ss << v;
  };
  if (const auto& scale = options_.scale_factor()) {
    ss << "scale_factor=";
    if (scale->size() != 1) ss << "(";
    for (size_t i = 0; i < scale->size(); ++i) {
      if (i) ss << ", ";
      number((*scale)[i]);
    }
    if (scale->size() != 1) ss << ")";
  } else if (const auto& size = options_.size()) {
    ss << "size=";
    if (size->size() != 1) ss << "(";
    for (size_t i = 0; i < size->size(); ++i) ss << (i ? ", " : "") << (*size)[i];
    if (size->size() != 1) ss << ")";
  } else {
    ss << "size=None";
  }
  ss << ", mode='" << options_.mode() << "'";
  return ss.str();
}

}  // namespace mt::nn
