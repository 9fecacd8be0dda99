#include "functorch/batching/BatchingHelpers.h"

#include "dispatch/LocalDispatchKeySet.h"
#include "dispatch/MapTensors.h"
#include "functorch/VmapInterpreter.h"
#include "ops/Factories.h"
#include "ops/api/empty.h"

namespace mt::functorch {

bool any_batched_at_level(const IValue* args, size_t n, int64_t level) {
  for (size_t i = 0; i < n; ++i) {
    if (args[i].isTensor() && is_batched_at_level(args[i].toTensorRef(), level)) return true;
    if (args[i].isTensorList()) {
      for (const Tensor& t : args[i].toTensorList())
        if (is_batched_at_level(t, level)) return true;
    }
  }
  return false;
}

void call_unbatched(const OperatorHandle& op, Stack* stack) {
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
  op.callBoxed(stack);
}

void check_inplace_self_batched(const FunctionSchema& schema, const IValue* args, size_t n, int64_t level) {
  if (is_batched_at_level(args[0].toTensorRef(), level)) return;
  for (size_t i = 1; i < n; ++i) {
    if (any_batched_at_level(args + i, 1, level)) {
      MT_CHECK(false, "vmap: ", schema.op.name, "(self, *extra_args) is not possible because there exists a Tensor `",
               schema.arguments[i].name, "` in extra_args that has more elements than `self`. This happened due to `",
               schema.arguments[i].name, "` being vmapped over but `self` not being vmapped over in a vmap. Please "
               "try to use out-of-place operators instead of ", schema.op.name, ". If said operator is being called "
               "inside the PyTorch framework, please file a bug report instead.");
    }
  }
}

void raise_logical_error(const OperatorHandle& op, Stack* stack) {
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
  map_tensors(stack, op.schema().arguments.size(),
              [](const Tensor& t) { return mt::empty(t.sizes(), t.options().device(Device(kMeta))); });
  op.callBoxed(stack);
  MT_INTERNAL_ASSERT(false, op.schema().op.str(), " accepted the arguments its batching rule refuses");
}

void wrap_results(const OperatorHandle& op, Stack* stack, int64_t bdim, int64_t level) {
  const size_t n = op.schema().returns.size();
  map_tensors(stack, n, [&](const Tensor& t) { return make_batched(t, bdim, level); });
}

}  // namespace mt::functorch

namespace mt::functorch {

Tensor batch_at_front(const Tensor& t, int64_t level, int64_t batch_size) {
  auto [value, bdim] = unwrap_at_level(t, level);
  if (bdim) return move_bdim_to_front(value, bdim);
  std::vector<int64_t> sizes{batch_size};
  sizes.insert(sizes.end(), value.sizes().begin(), value.sizes().end());
  return value.unsqueeze(0).expand(sizes);
}

namespace {

// The logical dims of a rank-`logical_rank` tensor as dims of its value with the batch at the front.
std::vector<int64_t> all_physical_dims(int64_t logical_rank) {
  std::vector<int64_t> dims;
  for (int64_t d = 1; d <= logical_rank; ++d) dims.push_back(d);
  return dims;
}

size_t argument_index(const FunctionSchema& schema, std::string_view name) {
  for (size_t i = 0; i < schema.arguments.size(); ++i)
    if (schema.arguments[i].name == name) return i;
  MT_INTERNAL_ASSERT(false, schema.op.str(), " has no argument ", name);
}

void dim_rule(const DimRule& rule, const OperatorHandle& op, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  const int64_t level = vmap.level();
  const FunctionSchema& schema = op.schema();
  IValue* args = arguments_of(op, stack);
  const Tensor self = args[0].toTensor();
  if (!is_batched_at_level(self, level)) return call_unbatched(op, stack);
  // Below here only values are touched: ops on them skip this level's rules.
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
  auto [value, bdim] = unwrap_at_level(self, level);
  if (rule.empty_list_reduces_nothing) {
    const IValue& dims = args[argument_index(schema, rule.dim_args.front())];
    if (dims.isIntList() && dims.toIntList().empty()) {
      args[0] = std::move(value);
      op.callBoxed(stack);
      return wrap_results(op, stack, *bdim, level);
    }
  }
  Tensor front = move_bdim_to_front(value, bdim);
  int64_t rank = self.dim();
  if (rank == 0 && rule.zero_dim == ZeroDimSample::Refused) raise_logical_error(op, stack);
  if (rank == 0 && rule.zero_dim != ZeroDimSample::AsIs) {
    front = front.unsqueeze(1);
    rank = 1;
  }
  bool flattened = false;  // argmax(dim=None): the reduction runs over the flattened sample
  for (std::string_view name : rule.dim_args) {
    const size_t i = argument_index(schema, name);
    IValue& a = args[i];
    if (a.isInt()) {
      a = physical_dim(a.toInt(), rank + rule.extra_rank);
    } else if (a.isIntList() && !(rule.reduction && a.toIntList().empty())) {
      std::vector<int64_t> dims;
      for (int64_t d : a.toIntList()) dims.push_back(physical_dim(d, rank + rule.extra_rank));
      a = std::move(dims);
    } else if (rule.reduction && schema.arguments[i].type.is_list) {
      a = all_physical_dims(rank);
    } else if (rule.reduction && a.isNone()) {
      front = front.reshape({vmap.batch_size(), self.numel()});
      a = int64_t{1};
      flattened = true;
    }
  }
  args[0] = std::move(front);
  op.callBoxed(stack);
  if (flattened && stack->back().isTensor() && stack->back().toTensorRef().dim() == 2) {
    // keepdim=True over the flattened sample keeps every logical dim, as a 1.
    std::vector<int64_t> sizes(static_cast<size_t>(self.dim()) + 1, 1);
    sizes[0] = vmap.batch_size();
    stack->back() = stack->back().toTensorRef().reshape(sizes);
  }
  if (self.dim() == 0 && rule.zero_dim == ZeroDimSample::KeepsRank) {
    map_tensors(stack, schema.returns.size(), [](const Tensor& t) { return t.dim() == 2 ? t.squeeze(1) : t; });
  }
  wrap_results(op, stack, 0, level);
}

}  // namespace

void register_dim_rule(Library& m, const char* op_name, DimRule rule) {
  m.impl(op_name, CppFunction::makeFromBoxedLambda([rule = std::move(rule)](const OperatorHandle& op, DispatchKeySet,
                                                                             Stack* stack) { dim_rule(rule, op, stack); }));
}

void fold_into_batch(const OperatorHandle& op, Stack* stack, int64_t item_rank) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, op.schema().arguments.size(), vmap.level())) return call_unbatched(op, stack);
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
  Tensor x = batch_at_front(args[0].toTensorRef(), vmap.level(), vmap.batch_size());
  if (x.dim() != item_rank + 1 && x.dim() != item_rank + 2) raise_logical_error(op, stack);
  const bool items = x.dim() == item_rank + 2;
  const int64_t batch = x.size(0), n = items ? x.size(1) : 1;
  if (items) x = x.flatten(0, 1);
  args[0] = x;
  op.callBoxed(stack);
  if (items) {
    for (auto it = stack->end() - static_cast<int64_t>(op.schema().returns.size()); it != stack->end(); ++it) {
      const Tensor r = it->toTensorRef();
      std::vector<int64_t> sizes = {batch, n};
      for (int64_t d = 1; d < r.dim(); ++d) sizes.push_back(r.size(d));
      *it = r.view(sizes);
    }
  }
  wrap_results(op, stack, 0, vmap.level());
}

}  // namespace mt::functorch
