// Batching rules of im2col and col2im. Each takes one item (an image [C, H, W], columns [C*kh*kw, L]) or a
// batch of them, so a sample that is one item runs as a batch of B, and a sample that is a batch of N folds
// into one of B * N, split again in the result. conv1d and conv2d decompose into these and matmul.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"

namespace mt::functorch {

namespace {

// kItemRank: the rank of one item (3 for im2col's image, 2 for col2im's columns).
template <int64_t kItemRank>
void fold_into_batch_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, op.schema().arguments.size(), vmap.level())) return call_unbatched(op, stack);
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
  Tensor x = batch_at_front(args[0].toTensorRef(), vmap.level(), vmap.batch_size());
  if (x.dim() != kItemRank + 1 && x.dim() != kItemRank + 2) raise_logical_error(op, stack);
  const bool items = x.dim() == kItemRank + 2;
  const int64_t batch = x.size(0), n = items ? x.size(1) : 1;
  if (items) x = x.flatten(0, 1);
  args[0] = x;
  op.callBoxed(stack);
  if (items) {
    const Tensor r = stack->back().toTensorRef();
    std::vector<int64_t> sizes = {batch, n};
    for (int64_t d = 1; d < r.dim(); ++d) sizes.push_back(r.size(d));
    stack->back() = r.view(sizes);
  }
  wrap_results(op, stack, 0, vmap.level());
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("im2col", CppFunction::makeFromBoxedFunction<&fold_into_batch_rule<3>>());
  m.impl("col2im", CppFunction::makeFromBoxedFunction<&fold_into_batch_rule<2>>());
}

}  // namespace mt::functorch
