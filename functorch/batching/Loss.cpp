// Batching rules of the losses that are not compositions (most are, and need none): the loss of
// every sample without reduction, then each sample's reduction over its own elements; nll_loss_forward
// and nll_loss_backward decompose into ops that have rules.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"
#include "ops/Loss.h"
#include "ops/Reduction.h"
#include "ops/api/div.h"
#include "ops/api/mean.h"
#include "ops/api/sum.h"

namespace mt::functorch {

namespace {

// An optional weight: batched, it broadcasts from behind the batch dim of inputs of logical rank `rank`.
IValue batched_weight(const IValue& weight, int64_t level, int64_t rank) {
  if (!weight.isTensor()) return weight;
  auto [value, bdim] = unwrap_at_level(weight.toTensorRef(), level);
  return bdim ? pad_to_logical_rank(move_bdim_to_front(value, bdim), rank) : value;
}

// binary_cross_entropy(self, target, weight?, reduction): self and target must have the same size,
// so both get the batch; a batched weight broadcasts from behind the batch dim.
void binary_cross_entropy_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, 3, vmap.level())) return call_unbatched(op, stack);
  const int64_t reduction = args[3].toInt();
  const int64_t rank = args[0].toTensorRef().dim();
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);  // only values are touched below
  args[0] = batch_at_front(args[0].toTensorRef(), vmap.level(), vmap.batch_size());
  args[1] = batch_at_front(args[1].toTensorRef(), vmap.level(), vmap.batch_size());
  args[2] = batched_weight(args[2], vmap.level(), rank);
  args[3] = int64_t{Reduction::None};
  op.callBoxed(stack);
  Tensor loss = stack->back().toTensor();
  if (reduction != Reduction::None) {
    const Tensor rows = loss.reshape({vmap.batch_size(), -1});
    loss = reduction == Reduction::Sum ? mt::sum(rows, {1}) : mt::mean(rows, {1});
  }
  stack->back() = make_batched(std::move(loss), 0, vmap.level());
}

// binary_cross_entropy_backward(grad_output, self, target, weight?, reduction): the gradient of every
// element without reduction, each sample's grad_output spread over its elements, and a mean divided
// by the sample's element count.
void binary_cross_entropy_backward_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, 4, vmap.level())) return call_unbatched(op, stack);
  const int64_t reduction = args[4].toInt();
  const Tensor& self = args[1].toTensorRef();
  const int64_t rank = self.dim(), sample_numel = self.numel();
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);  // only values are touched below
  const Tensor input = batch_at_front(self, vmap.level(), vmap.batch_size());
  const Tensor grad = batch_at_front(args[0].toTensorRef(), vmap.level(), vmap.batch_size());
  args[0] = (reduction == Reduction::None ? grad : pad_to_logical_rank(grad, rank)).expand(input.sizes());
  args[1] = input;
  args[2] = batch_at_front(args[2].toTensorRef(), vmap.level(), vmap.batch_size());
  args[3] = batched_weight(args[3], vmap.level(), rank);
  args[4] = int64_t{Reduction::None};
  op.callBoxed(stack);
  Tensor grad_input = stack->back().toTensor();
  if (reduction == Reduction::Mean) grad_input = mt::div(grad_input, static_cast<double>(sample_numel));
  stack->back() = make_batched(std::move(grad_input), 0, vmap.level());
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("nll_loss_forward", MT_FN(detail::nll_loss_forward_decomposed));
  m.impl("nll_loss_backward", MT_FN(detail::nll_loss_backward_decomposed));
  m.impl("binary_cross_entropy", CppFunction::makeFromBoxedFunction<&binary_cross_entropy_rule>());
  m.impl("binary_cross_entropy_backward", CppFunction::makeFromBoxedFunction<&binary_cross_entropy_backward_rule>());
}

}  // namespace mt::functorch
