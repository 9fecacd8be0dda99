#pragma once
// What the batching rules share: finding the tensors batched at the current level on a boxed stack,
// calling an op below the Batched key, and the checks whose messages must read like PyTorch's.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "dispatch/Dispatcher.h"
#include "dispatch/Library.h"
#include "functorch/BatchedTensorImpl.h"

namespace mt::functorch {

// Whether any Tensor or Tensor[] argument among `args[0..n)` is batched at `level`.
bool any_batched_at_level(const IValue* args, size_t n, int64_t level);
// Calls `op` on the stack as it is with FuncTorchBatched excluded (nothing is batched at this level).
void call_unbatched(const OperatorHandle& op, Stack* stack);
// Whether the op writes into its first argument and returns it (add_, copy_, ...).
inline bool is_inplace(const FunctionSchema& schema) {
  return !schema.arguments.empty() && schema.arguments[0].alias && schema.arguments[0].alias->is_write &&
         !schema.arguments[0].kwarg_only;
}
// An in-place op can write a batch into `self` only when `self` is batched at this level.
void check_inplace_self_batched(const FunctionSchema& schema, const IValue* args, size_t n, int64_t level);

// The first `n_args` arguments of a boxed call sit at the top of the stack.
inline IValue* arguments_of(const OperatorHandle& op, Stack* stack) {
  return stack->data() + stack->size() - op.schema().arguments.size();
}
// Replaces the arguments on the stack by one result.
inline void return_one(const OperatorHandle& op, Stack* stack, IValue result) {
  stack->erase(stack->end() - op.schema().arguments.size(), stack->end());
  stack->push_back(std::move(result));
}
// Raises the error `op` raises outside vmap on its arguments' logical shapes, by calling it on Meta
// stand-ins of them: for arguments a rule refuses, whose physical call would fail with physical
// numbers in its message, or not at all.
[[noreturn]] void raise_logical_error(const OperatorHandle& op, Stack* stack);
// Wraps every Tensor (and Tensor[] element) result on top of the stack as batched at `bdim`.
void wrap_results(const OperatorHandle& op, Stack* stack, int64_t bdim, int64_t level);

// `d` (a logical dim of a tensor of logical rank `logical_rank`) as a dim of the value with its batch
// dim at the front.
inline int64_t physical_dim(int64_t d, int64_t logical_rank) { return maybe_wrap_dim(d, logical_rank) + 1; }

// What an op does with a 0-dim sample, whose dims wrap as if it had one dim (-1 and 0 name it), as
// outside vmap. Its value [B] has no dim behind the batch for such a dim to name.
enum class ZeroDimSample {
  // Nothing special: its dims wrap against the rank plus extra_rank, which is not 0 (unsqueeze).
  AsIs,
  // A 0-dim tensor gives 0-dim results (softmax, transpose, movedim, reductions): the op runs on the
  // sample as a 1-element vector, and its results lose that dim again.
  KeepsRank,
  // The op runs on the sample as a 1-element vector, whose results it gives (flatten: [1], squeeze: []).
  AsVector,
  // The op takes no 0-dim tensor (select, narrow, chunk, ...): it raises the error it raises outside vmap.
  Refused,
};

// The rule of an op with one tensor argument `self` whose other arguments name logical dims (dim,
// dim0, start_dim, ...): move the batch dim to the front, shift those dims by one, call the op, and
// return its results batched at dim 0.
struct DimRule {
  std::vector<std::string_view> dim_args;
  ZeroDimSample zero_dim = ZeroDimSample::Refused;
  // Dims wrap against the logical rank plus this (unsqueeze: 1, a dim may name the new last one).
  int64_t extra_rank = 0;
  // A reduction: None (or []) means every logical dim.
  bool reduction = false;
  // all.dims and any.dims: [] reduces nothing (the op is then elementwise, the batch dim stays put).
  bool empty_list_reduces_nothing = false;
};
void register_dim_rule(Library& m, const char* op_name, DimRule rule);

// `t` as a value with the batch at the front: its own batch dim, or an expansion to the batch (no copy).
Tensor batch_at_front(const Tensor& t, int64_t level, int64_t batch_size);

// The rule of an op whose first argument is one item of rank `item_rank` (an image [C, H, W] for im2col
// and max_pool2d) or a batch of them: a sample that is one item runs as a batch of B, and a sample that is
// a batch of N folds into one of B * N, split again in every result.
void fold_into_batch(const OperatorHandle& op, Stack* stack, int64_t item_rank);
template <int64_t kItemRank>
void fold_into_batch_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  fold_into_batch(op, stack, kItemRank);
}

}  // namespace mt::functorch
