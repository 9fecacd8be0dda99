// The batching rule of max_pool2d_with_indices: it takes one image [C, H, W] or a batch of them, which
// fold_into_batch_rule folds vmap's batch into (both results split again). max_pool2d composes it.
#include "dispatch/Library.h"
#include "functorch/batching/BatchingHelpers.h"

namespace mt::functorch {

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("max_pool2d_with_indices", CppFunction::makeFromBoxedFunction<&fold_into_batch_rule<3>>());
}

}  // namespace mt::functorch
