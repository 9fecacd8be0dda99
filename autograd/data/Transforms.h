#pragma once
// Transforms of a batch's input, as torchvision's: a DataLoader applies its transform to each collated
// batch (one op per batch instead of one per example; the same values).
#include <functional>
#include <vector>

#include "autograd/data/Dataset.h"

namespace mt::data::transforms {

using Transform = std::function<Example(Example)>;

// Integer images to `dtype`, scaled from [0, max of the integer type] to [0, 1]; floating ones are only
// converted (torchvision's ConvertImageDtype).
Transform ConvertImageDtype(ScalarType dtype = kFloat32);

// (x - mean[c]) / std[c] along the channel dim (dim 1 of a batch [N, C, ...]); one value each applies to
// every channel (torchvision's Normalize). Needs a floating input.
Transform Normalize(std::vector<double> mean, std::vector<double> std);

// The transforms in order.
Transform Compose(std::vector<Transform> transforms);

}  // namespace mt::data::transforms
