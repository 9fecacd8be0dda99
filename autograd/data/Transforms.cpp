#include "autograd/data/Transforms.h"

#include <limits>
#include <utility>

#include "ops/Factories.h"
#include "ops/api/div.h"
#include "ops/api/mul.h"
#include "ops/api/sub.h"

namespace mt::data::transforms {

namespace {

double integer_max(ScalarType t) {
  switch (t) {
    case kUInt8: return std::numeric_limits<uint8_t>::max();
    case kInt8: return std::numeric_limits<int8_t>::max();
    case kInt16: return std::numeric_limits<int16_t>::max();
    case kInt32: return std::numeric_limits<int32_t>::max();
    case kInt64: return static_cast<double>(std::numeric_limits<int64_t>::max());
    default: return 1;  // bool
  }
}

}  // namespace

Transform ConvertImageDtype(ScalarType dtype) {
  MT_CHECK_VALUE(is_floating_point(dtype), "ConvertImageDtype: converts to a floating dtype, not ", dtype);
  return [dtype](Example e) {
    const ScalarType from = e.data.dtype();
    e.data = is_floating_point(from) ? e.data.to(dtype) : mul(e.data.to(dtype), 1.0 / integer_max(from));
    return e;
  };
}

Transform Normalize(std::vector<double> mean, std::vector<double> std) {
  MT_CHECK_VALUE(!mean.empty() && mean.size() == std.size(), "Normalize: mean and std need the same number of ",
                 "values (one per channel), but got ", mean.size(), " and ", std.size());
  for (double s : std) MT_CHECK_VALUE(s != 0, "std evaluated to zero after conversion to float, leading to division by zero.");
  return [mean = std::move(mean), std = std::move(std)](Example e) {
    MT_CHECK_TYPE(is_floating_point(e.data.dtype()), "Input tensor should be a float tensor. Got ", e.data.dtype(),
                  " (convert it first: ConvertImageDtype)");
    const int64_t channels = static_cast<int64_t>(mean.size());
    if (channels == 1) {
      e.data = div(sub(e.data, mean[0]), std[0]);
      return e;
    }
    MT_CHECK_VALUE(e.data.dim() >= 2 && e.data.size(1) == channels, "Normalize: ", channels,
                   " channel values for a batch of shape ", e.data.sizes(), " (channels are dim 1)");
    // [C] reshaped to [C, 1, ...] broadcasts along dim 1 of the batch.
    std::vector<int64_t> shape(static_cast<size_t>(e.data.dim() - 1), 1);
    shape[0] = channels;
    const Tensor m = tensor(mean).to(e.data.dtype()).view(shape), s = tensor(std).to(e.data.dtype()).view(shape);
    e.data = div(sub(e.data, m), s);
    return e;
  };
}

Transform Compose(std::vector<Transform> transforms) {
  return [transforms = std::move(transforms)](Example e) {
    for (const Transform& t : transforms) e = t(std::move(e));
    return e;
  };
}

}  // namespace mt::data::transforms
