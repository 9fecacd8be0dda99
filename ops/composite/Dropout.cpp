// dropout as a composition: each element is kept with probability 1 - p and scaled by 1 / (1 - p), so
// the expected value is unchanged. Outside training (or for p = 0) the input itself is returned.
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
Tensor dropout(const Tensor& input, double p, bool train, Generator* generator) {
  MT_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!train || p == 0 || input.numel() == 0) return input;
  if (p == 1) return input * mt::zeros_like(input);
  Tensor keep = mt::empty_like(input);
  keep.bernoulli_(1 - p, generator);
  keep.div_(1 - p);
  return input * keep;
}

void register_composites(Library& m) { m.impl("dropout", MT_FN(dropout)); }

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
