// Batching rules of im2col and col2im. Each takes one item (an image [C, H, W], columns [C*kh*kw, L]) or a
// batch of them, which fold_into_batch_rule folds vmap's batch into. conv1d and conv2d decompose into these
// and matmul.
#include "dispatch/Library.h"
#include "functorch/batching/BatchingHelpers.h"

namespace mt::functorch {

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("im2col", CppFunction::makeFromBoxedFunction<&fold_into_batch_rule<3>>());
  m.impl("col2im", CppFunction::makeFromBoxedFunction<&fold_into_batch_rule<2>>());
}

}  // namespace mt::functorch
