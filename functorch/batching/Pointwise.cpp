// Batching rules of the pointwise ops, all from one boxed rule:
// - one tensor argument (unary ops, Scalar overloads, *_like): apply the op to the value, same bdim;
// - several: move each batch dim to the front and pad the batched arguments to the largest logical
//   rank (Tensor[B, 3] + Tensor[2, 5, 3] -> Tensor[B, 1, 1, 3] + Tensor[2, 5, 3]), so ordinary
//   broadcasting lines the logical dims up; the result is batched at dim 0.
// In-place ops write through those views into self's value and return self. copy, whose result has
// self's shape, has a rule of its own.
#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"
#include "ops/Tags.h"
#include "ops/api/where.h"
#include "tensor/TypePromotion.h"

namespace mt::functorch {

namespace {

// The arguments that take part in type promotion (not where's condition or masked_fill's mask).
bool promotes(const std::string& name) { return name == "self" || name == "other" || name == "exponent"; }

// A batched logical scalar promotes as a 0-dim tensor, but its value has a dim: the physical call
// would let its dtype win (float64 scalar + float32 vector -> float64, not float32). The dtype the
// logical call computes in, when the values need a cast to it.
std::optional<ScalarType> logical_compute_dtype(const FunctionSchema& schema, const IValue* args, int64_t level,
                                                int64_t logical_rank) {
  if (logical_rank == 0) return std::nullopt;
  ResultTypeState state;
  bool batched_scalar = false;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    if (!args[i].isTensor() || !promotes(schema.arguments[i].name)) continue;
    const Tensor& t = args[i].toTensorRef();
    batched_scalar = batched_scalar || (t.dim() == 0 && is_batched_at_level(t, level));
    state = update_result_type_state(t, state);
  }
  if (!batched_scalar) return std::nullopt;
  return result_type(state);
}

// `ExpandSelf`: the result has self's shape (masked_fill), so an unbatched self is first expanded
// to the batch.
template <bool ExpandSelf>
void pointwise_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  const int64_t level = vmap.level();
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  IValue* args = arguments_of(op, stack);
  int64_t n_tensors = 0, n_batched = 0, logical_rank = 0;
  size_t batched_arg = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!args[i].isTensor()) continue;
    const Tensor& t = args[i].toTensorRef();
    ++n_tensors;
    logical_rank = std::max(logical_rank, t.dim());
    if (is_batched_at_level(t, level)) {
      ++n_batched;
      batched_arg = i;
    }
  }
  if (n_batched == 0) return call_unbatched(op, stack);
  const bool inplace = is_inplace(schema);
  if (inplace) check_inplace_self_batched(schema, args, n, level);
  const IValue self = args[0];

  // Below here only values are touched: ops on them skip this level's rules.
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
  int64_t out_bdim = 0;
  if (n_tensors == 1) {
    auto [value, bdim] = unwrap_at_level(args[batched_arg].toTensorRef(), level);
    args[batched_arg] = std::move(value);
    out_bdim = *bdim;
  } else {
    const std::optional<ScalarType> dtype =
        inplace ? std::nullopt : logical_compute_dtype(schema, args, level, logical_rank);
    for (size_t i = 0; i < n; ++i) {
      if (!args[i].isTensor()) continue;
      const bool cast = dtype && promotes(schema.arguments[i].name) && args[i].toTensorRef().dim() == 0 &&
                        args[i].toTensorRef().dtype() != *dtype;
      auto [value, bdim] = unwrap_at_level(args[i].toTensorRef(), level);
      if (cast && bdim) value = value.to(*dtype);
      if (!bdim && !(ExpandSelf && i == 0)) continue;
      Tensor front = move_bdim_to_front(value, bdim);
      if (!bdim) {
        SmallVector<int64_t, 6> sizes{vmap.batch_size()};
        for (int64_t s : value.sizes()) sizes.push_back(s);
        front = value.expand(sizes);
      }
      args[i] = pad_to_logical_rank(front, logical_rank);
    }
  }
  op.callBoxed(stack);
  if (inplace) {
    stack->back() = self;
    return;
  }
  wrap_results(op, stack, out_bdim, level);
}

// masked_fill with a Tensor value: a batched value (0-dim per sample) is a different fill for each sample,
// which the physical op (it takes one 0-dim value) cannot do, so that case is where(mask, value, self)
// at the logical level. Other cases are pointwise.
template <bool InPlace>
void masked_fill_tensor_rule(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  const Tensor& value = args[2].toTensorRef();
  if (!is_batched_at_level(value, vmap.level())) return pointwise_rule<!InPlace>(op, ks, stack);
  if (InPlace) check_inplace_self_batched(op.schema(), args, 3, vmap.level());
  MT_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
           value.dim(), " dimension(s).");
  Tensor self = args[0].toTensor();
  const Tensor filled = mt::where(args[1].toTensorRef(), value.to(self.dtype()), self);
  IValue result = InPlace ? IValue(self.copy_(filled)) : IValue(filled);
  return_one(op, stack, std::move(result));
}

// copy(self, src): self with the batch at the front (a shared self expanded to it), src likewise and
// padded to self's logical rank. A src of higher logical rank is left so, and the copy refuses it.
void copy_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, 2, vmap.level())) return call_unbatched(op, stack);
  const int64_t rank = args[0].toTensorRef().dim();
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
  args[0] = batch_at_front(args[0].toTensorRef(), vmap.level(), vmap.batch_size());
  args[1] = pad_to_logical_rank(batch_at_front(args[1].toTensorRef(), vmap.level(), vmap.batch_size()), rank);
  op.callBoxed(stack);
  wrap_results(op, stack, 0, vmap.level());
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  // The ops whose declarations carry the `pointwise` tag.
#define MT_POINTWISE_RULE(name) m.impl(name, CppFunction::makeFromBoxedFunction<&pointwise_rule<false>>());
  MT_POINTWISE_OPS(MT_POINTWISE_RULE)
#undef MT_POINTWISE_RULE
  m.impl("masked_fill.Scalar", CppFunction::makeFromBoxedFunction<&pointwise_rule<true>>());
  m.impl("masked_fill.Tensor", CppFunction::makeFromBoxedFunction<&masked_fill_tensor_rule<false>>());
  m.impl("masked_fill_.Tensor", CppFunction::makeFromBoxedFunction<&masked_fill_tensor_rule<true>>());
  m.impl("copy", CppFunction::makeFromBoxedFunction<&copy_rule>());
}

}  // namespace mt::functorch
