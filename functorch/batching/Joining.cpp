// Batching rules of cat and stack: every tensor gets the batch dim at the front (an unbatched one is
// expanded to the batch), and the dim moves past it.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"

namespace mt::functorch {

namespace {

// `ExtraRank`: stack adds a dim, so its dim may name the new last one.
template <int64_t ExtraRank>
void join_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, 1, vmap.level())) return call_unbatched(op, stack);
  const std::vector<Tensor>& tensors = args[0].toTensorList();
  int64_t rank = 0;
  for (const Tensor& t : tensors) {
    // cat refuses a 0-dim tensor, whose value would give it a dim to concatenate.
    if (ExtraRank == 0 && t.dim() == 0) raise_logical_error(op, stack);
    rank = std::max(rank, t.dim());
  }
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);  // only values are touched below
  std::vector<Tensor> fronts;
  for (const Tensor& t : tensors) {
    auto [value, bdim] = unwrap_at_level(t, vmap.level());
    if (bdim) {
      fronts.push_back(move_bdim_to_front(value, bdim));
    } else {
      std::vector<int64_t> sizes{vmap.batch_size()};
      sizes.insert(sizes.end(), value.sizes().begin(), value.sizes().end());
      fronts.push_back(value.unsqueeze(0).expand(sizes));
    }
  }
  args[0] = std::move(fronts);
  args[1] = physical_dim(args[1].toInt(), rank + ExtraRank);
  op.callBoxed(stack);
  wrap_results(op, stack, 0, vmap.level());
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("cat", CppFunction::makeFromBoxedFunction<&join_rule<0>>());
  m.impl("stack", CppFunction::makeFromBoxedFunction<&join_rule<1>>());
}

}  // namespace mt::functorch
