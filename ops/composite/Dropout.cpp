// dropout as a composition: each element is kept with probability 1 - p and scaled by 1 / (1 - p), so
// the expected value is unchanged. Outside training (or for p = 0) the input itself is returned.
// feature_dropout (nn.Dropout1d/2d) keeps or drops whole channels: one draw per (sample, channel),
// broadcast over the rest.
#include <vector>

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/dropout.h"
#include "ops/api/empty_like.h"
#include "ops/api/zeros_like.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

// PyTorch's dropout takes no generator; here a null one is the default generator and a given one
// makes the mask reproducible.
// make_noise() gives the mask's shape: the input's, or one value per channel.
template <typename MakeNoise>
Tensor dropout_impl(const Tensor& input, double p, bool train, Generator* generator, const MakeNoise& make_noise) {
  MT_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!train || p == 0 || input.numel() == 0) return input;
  if (p == 1) return input * mt::zeros_like(input);
  Tensor keep = make_noise();
  keep.bernoulli_(1 - p, generator);
  keep.div_(1 - p);
  return input * keep;
}

Tensor dropout(const Tensor& input, double p, bool train, Generator* generator) {
  return dropout_impl(input, p, train, generator, [&] { return mt::empty_like(input); });
}

Tensor feature_dropout(const Tensor& input, double p, bool train, Generator* generator) {
  return dropout_impl(input, p, train, generator, [&] {
    MT_CHECK(input.dim() >= 2, "Feature dropout requires at least 2 dimensions in the input");
    std::vector<int64_t> sizes(static_cast<size_t>(input.dim()), 1);
    sizes[0] = input.size(0);
    sizes[1] = input.size(1);
    return mt::empty(sizes, input.options());
  });
}

void register_composites(Library& m) {
  m.impl("dropout", MT_FN(dropout));
  m.impl("feature_dropout", MT_FN(feature_dropout));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
