// The FuncTorchBatched fallback, for every op without a batching rule:
// - ops with a CompositeImplicitAutograd kernel decompose, and their parts meet their own rules;
// - other ops loop over the batch: slice every argument batched at this level with select at its
//   bdim, call the op, and stack the results along a new dim 0 (with a one-time warning per op);
// - in-place ops loop the same way, writing into the slices of `self`.
#include "functorch/BatchedFallback.h"

#include <iostream>
#include <mutex>
#include <set>

#include "dispatch/Library.h"
#include "dispatch/MapTensors.h"
#include "functorch/BatchedTensorImpl.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"
#include "ops/api/stack.h"
#include "ops/api/t.h"

namespace mt::functorch {

namespace {

std::mutex warning_mutex;
VmapWarningHandler warning_handler;
std::set<std::string> warned_ops;

void warn_fallback_once(const OperatorHandle& op) {
  const std::string name = op.operator_name().str();
  std::lock_guard<std::mutex> lock(warning_mutex);
  if (!warned_ops.insert(name).second) return;
  const std::string message = "There is a performance drop because we have not yet implemented the batching rule for " +
                              name + ". Please file us an issue on GitHub so that we can prioritize its implementation.";
  if (warning_handler) {
    warning_handler(message);
  } else {
    std::cerr << "Warning: " << message << "\n";
  }
}

// Argument `v` for batch entry `b`: a batched tensor's slice, anything else as it is.
IValue slice_for_entry(const IValue& v, int64_t level, int64_t b) {
  return map_tensors(v, [&](const Tensor& t) {
    auto [value, bdim] = unwrap_at_level(t, level);
    return bdim ? value.select(*bdim, b) : t;
  });
}

void batched_fallback(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  // A composite op needs no rule of its own: its decomposition reaches the rules of its parts.
  if (op.hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd)) {
    op.redispatchBoxed(DispatchKeySet(), stack);  // the Undefined slot holds the math kernel
    return;
  }
  const FunctionSchema& schema = op.schema();
  const VmapInterpreter& vmap = current_vmap_interpreter();
  const int64_t level = vmap.level();
  const size_t n_args = schema.arguments.size();
  IValue* args = stack->data() + stack->size() - n_args;
  if (!any_batched_at_level(args, n_args, level)) return call_unbatched(op, stack);

  for (const Argument& a : schema.arguments)
    MT_CHECK_NOT_IMPLEMENTED(!a.is_out() && !(a.alias && a.alias->is_write && &a != &schema.arguments[0]),
                             "Batching rule not implemented for ", schema.op.str(),
                             "; the fallback path doesn't work on out= or view ops.");
  const bool inplace = is_inplace(schema);
  if (inplace) {
    check_inplace_self_batched(schema, args, n_args, level);
  } else {
    for (const Argument& r : schema.returns)
      MT_CHECK_NOT_IMPLEMENTED(r.type.kind == TypeKind::Tensor && !r.type.is_list && !r.alias,
                               "Batching rule not implemented for ", schema.op.str(),
                               "; the fallback path doesn't work on out= or view ops, or ops that do not return "
                               "Tensors.");
  }
  const int64_t batch_size = vmap.batch_size();
  MT_CHECK(batch_size > 0, "vmap: the fallback path (used for ", schema.op.str(),
           ") does not support vmap over dims of size 0.");
  warn_fallback_once(op);

  const size_t n_returns = schema.returns.size();
  std::vector<std::vector<Tensor>> shards(inplace ? 0 : n_returns);
  {
    ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
    for (int64_t b = 0; b < batch_size; ++b) {
      Stack entry;
      for (size_t i = 0; i < n_args; ++i) entry.push_back(slice_for_entry(args[i], level, b));
      op.callBoxed(entry);
      for (size_t r = 0; r < shards.size(); ++r) shards[r].push_back(entry[r].isNone() ? Tensor() : entry[r].toTensor());
    }
  }
  IValue self = args[0];
  stack->erase(stack->end() - n_args, stack->end());
  if (inplace) {
    stack->push_back(std::move(self));
    return;
  }
  for (auto& shard : shards) {
    const bool undefined = !shard.front().defined();
    for (const Tensor& t : shard)
      MT_CHECK(t.defined() != undefined, "vmap: ", schema.op.str(),
               " returned an undefined Tensor for some batch entries but not for others.");
    stack->push_back(undefined ? IValue() : IValue(make_batched(mt::stack(shard, 0), 0, level)));
  }
}

}  // namespace

VmapWarningHandler set_vmap_fallback_warning_handler(VmapWarningHandler handler) {
  std::lock_guard<std::mutex> lock(warning_mutex);
  return std::exchange(warning_handler, std::move(handler));
}

MT_LIBRARY_IMPL(_, FuncTorchBatched, m) { m.fallback(CppFunction::makeFromBoxedFunction<&batched_fallback>()); }

}  // namespace mt::functorch
