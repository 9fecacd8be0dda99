// max_pool2d: the values of max_pool2d_with_indices (whose indices its derivative uses).
#include "dispatch/Library.h"
#include "ops/api/max_pool2d_with_indices.h"

namespace mt {
namespace {

Tensor max_pool(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(mt::max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { m.impl("max_pool2d", MT_FN(max_pool)); }

}  // namespace mt
