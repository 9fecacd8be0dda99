// Batching rule of the factory that takes its size from arguments but dispatches on a tensor:
// new_empty_strided. (The *_like factories keep their input's shape and share the pointwise rule.)
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"

namespace mt::functorch {

namespace {

// Each sample's buffer has the requested layout; the samples lie one after another, each spanning the
// memory its layout reaches.
void new_empty_strided_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!is_batched_at_level(args[0].toTensorRef(), vmap.level())) return call_unbatched(op, stack);
  const std::vector<int64_t> size = args[1].toIntList(), stride = args[2].toIntList();
  int64_t span = 1;
  for (size_t d = 0; d < size.size() && d < stride.size(); ++d) span = size[d] == 0 ? 0 : span + (size[d] - 1) * stride[d];
  std::vector<int64_t> batched_size{vmap.batch_size()}, batched_stride{span};
  batched_size.insert(batched_size.end(), size.begin(), size.end());
  batched_stride.insert(batched_stride.end(), stride.begin(), stride.end());
  args[0] = unwrap_at_level(args[0].toTensorRef(), vmap.level()).first;
  args[1] = IValue(std::move(batched_size));
  args[2] = IValue(std::move(batched_stride));
  call_unbatched(op, stack);
  stack->back() = IValue(make_batched(stack->back().toTensor(), 0, vmap.level()));
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("new_empty_strided", CppFunction::makeFromBoxedFunction<&new_empty_strided_rule>());
}

}  // namespace mt::functorch
