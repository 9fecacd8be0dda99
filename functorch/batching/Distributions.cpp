// Batching rules of the random ops with a tensor argument, following vmap's randomness flag:
// Error refuses them (PyTorch's default, so a per-sample draw is never silently shared or not),
// Different runs the op on the whole value (one independent draw per entry), Same draws for one
// sample and shares it.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"
#include "ops/Factories.h"
#include "ops/api/empty_like.h"

namespace mt::functorch {

namespace {

void check_randomness_allowed(const VmapInterpreter& vmap) {
  MT_CHECK(vmap.randomness() != Randomness::Error,
           "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
           "'different' randomness flags on vmap or perform the randomness operation out of vmap");
}

// rand_like, randn_like: a Same draw is one sample's, unbatched, so it broadcasts over the batch.
void random_like_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!is_batched_at_level(args[0].toTensorRef(), vmap.level())) return call_unbatched(op, stack);
  check_randomness_allowed(vmap);
  auto [value, bdim] = unwrap_at_level(args[0].toTensorRef(), vmap.level());
  const bool same = vmap.randomness() == Randomness::Same;
  args[0] = same ? value.select(*bdim, 0) : value;
  call_unbatched(op, stack);
  if (!same) wrap_results(op, stack, *bdim, vmap.level());
}

// bernoulli_(self, p): a Same draw fills one sample and is copied into every entry of self.
void bernoulli_inplace_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!is_batched_at_level(args[0].toTensorRef(), vmap.level())) return call_unbatched(op, stack);
  check_randomness_allowed(vmap);
  const IValue self = args[0];
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);  // only values are touched below
  auto [value, bdim] = unwrap_at_level(self.toTensorRef(), vmap.level());
  if (vmap.randomness() == Randomness::Different) {
    args[0] = value;
    op.callBoxed(stack);
  } else {
    const Tensor draw = mt::empty_like(value.select(*bdim, 0));
    args[0] = draw;
    op.callBoxed(stack);
    value.copy_(draw.unsqueeze(*bdim));
  }
  stack->back() = self;
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("rand_like", CppFunction::makeFromBoxedFunction<&random_like_rule>());
  m.impl("randn_like", CppFunction::makeFromBoxedFunction<&random_like_rule>());
  m.impl("bernoulli_.float", CppFunction::makeFromBoxedFunction<&bernoulli_inplace_rule>());
}

}  // namespace mt::functorch
