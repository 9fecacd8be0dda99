// Batching rules of the indexing ops and tril/triu. gather and scatter need all their tensors to have
// the same rank and sizes, so every tensor gets the batch at the front (an unbatched one is expanded to
// the batch, which costs no memory) and `dim` moves past it. index_select's index is a vector per
// sample: a batched index becomes a gather. one_hot adds a trailing dim. take and put address each
// sample flattened to a row of [B, N]: they become gather and scatter along dim 1.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"
#include "ops/api/gather.h"
#include "ops/api/index_select.h"
#include "ops/api/scatter.h"
#include "ops/api/scatter_add.h"
#include "ops/api/view.h"
#include "ops/api/where.h"
#include "ops/Indexing.h"

namespace mt::functorch {

namespace {

// Every tensor argument batched at the front, the `dim` argument (if any) shifted past the batch. These
// ops take a 0-dim tensor as one of one element along `dim`: such a sample's value gets that dim, and
// the result loses it again when the argument it takes its shape from (`ShapeFrom`) was 0-dim.
template <size_t ShapeFrom>
void all_batched_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, n, vmap.level())) return call_unbatched(op, stack);
  const bool inplace = is_inplace(schema);
  if (inplace) check_inplace_self_batched(schema, args, n, vmap.level());
  const IValue self = args[0];
  const int64_t rank = std::max<int64_t>(args[0].toTensorRef().dim(), 1);
  bool has_dim = false;
  for (const Argument& a : schema.arguments) has_dim = has_dim || a.name == "dim";
  const bool scalar_result = has_dim && args[ShapeFrom].toTensorRef().dim() == 0;
  // tril and triu take matrices: the batch dim must not make a sample's vector one.
  if (!has_dim && args[0].toTensorRef().dim() < 2) raise_logical_error(op, stack);
  ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);  // only values are touched below
  for (size_t i = 0; i < n; ++i) {
    if (args[i].isTensor()) {
      const bool zero_dim = args[i].toTensorRef().dim() == 0;
      args[i] = batch_at_front(args[i].toTensorRef(), vmap.level(), vmap.batch_size());
      if (has_dim && zero_dim) args[i] = args[i].toTensorRef().unsqueeze(1);
    } else if (schema.arguments[i].name == "dim") {
      args[i] = physical_dim(args[i].toInt(), rank);
    }
  }
  op.callBoxed(stack);
  if (inplace) {
    stack->back() = self;
    return;
  }
  if (scalar_result) stack->back() = stack->back().toTensorRef().squeeze(1);
  wrap_results(op, stack, 0, vmap.level());
}

// index_select(self, dim, index): a shared index selects from each sample; a batched one is a gather
// with the index spread over the sample's other dims.
void index_select_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, 3, vmap.level())) return call_unbatched(op, stack);
  const Tensor& self = args[0].toTensorRef();
  const Tensor& index = args[2].toTensorRef();
  MT_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  const int64_t rank = std::max<int64_t>(self.dim(), 1);
  const int64_t dim = physical_dim(args[1].toInt(), rank);
  Tensor result;
  {
    ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
    Tensor self_ = batch_at_front(self, vmap.level(), vmap.batch_size());
    if (self.dim() == 0) self_ = self_.unsqueeze(1);
    if (!is_batched_at_level(index, vmap.level())) {
      result = mt::index_select(self_, dim, index);
    } else {
      // gather reads int64 indices; index_select takes int32 too.
      const Tensor idx =
          batch_at_front(index, vmap.level(), vmap.batch_size()).to(kInt64).reshape({vmap.batch_size(), -1});
      std::vector<int64_t> view(static_cast<size_t>(rank) + 1, 1), sizes = self_.sizes().vec();
      view[0] = vmap.batch_size();
      view[dim] = sizes[dim] = idx.size(1);
      result = mt::gather(self_, dim, idx.view(view).expand(sizes));
    }
    if (self.dim() == 0) result = result.squeeze(1);
  }
  return_one(op, stack, make_batched(std::move(result), 0, vmap.level()));
}

// one_hot appends the class dim, so the batch dim stays where it is; num_classes=-1 would infer the
// count from the whole batch instead of each sample, so it must be given.
void one_hot_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const int64_t level = current_vmap_interpreter().level();
  IValue* args = arguments_of(op, stack);
  if (!is_batched_at_level(args[0].toTensorRef(), level)) return call_unbatched(op, stack);
  MT_CHECK(args[1].toInt() != -1, "vmap: We cannot infer num_classes with vmap; please specify num_classes "
           "explicitly (one_hot(self, num_classes)).");
  auto [value, bdim] = unwrap_at_level(args[0].toTensorRef(), level);
  args[0] = std::move(value);
  call_unbatched(op, stack);
  wrap_results(op, stack, *bdim, level);
}

std::vector<int64_t> with_batch(int64_t batch, IntArrayRef sizes) {
  std::vector<int64_t> out{batch};
  out.insert(out.end(), sizes.begin(), sizes.end());
  return out;
}

// take's and put's index as [B, K] positions into rows of n elements: its own batch, or the shared
// index expanded. Checked as take and put check it, then wrapped into [0, n), as gather and scatter
// take no negative index.
Tensor flat_positions(const Tensor& index, int64_t n, int64_t level, int64_t batch) {
  const Tensor front = batch_at_front(index, level, batch);
  check_flat_bounds(front, n);
  const Tensor rows = front.reshape({batch, index.numel()});
  return mt::where(rows.lt(0), rows.add(n), rows);
}

// take(self, index) has index's shape. A shared self is read by the batched index as it is; a batched
// one is read as rows of [B, N] by gather.
void take_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  const int64_t level = vmap.level(), batch = vmap.batch_size();
  IValue* args = arguments_of(op, stack);
  const Tensor self = args[0].toTensor(), index = args[1].toTensor();
  if (!is_batched_at_level(self, level)) {
    if (!is_batched_at_level(index, level)) return call_unbatched(op, stack);
    auto [value, bdim] = unwrap_at_level(index, level);
    args[1] = std::move(value);
    call_unbatched(op, stack);
    return wrap_results(op, stack, *bdim, level);
  }
  check_take(self, index);
  Tensor result;
  {
    ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
    const Tensor rows = batch_at_front(self, level, batch).reshape({batch, self.numel()});
    const Tensor positions = flat_positions(index, self.numel(), level, batch);
    result = mt::gather(rows, 1, positions).view(with_batch(batch, index.sizes()));
  }
  return_one(op, stack, make_batched(std::move(result), 0, level));
}

// put(self, index, source) has self's shape: rows of [B, N] (a shared self expanded to the batch)
// written by scatter, or scatter_add when accumulating, with index and source as [B, K].
void put_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  const int64_t level = vmap.level(), batch = vmap.batch_size();
  IValue* args = arguments_of(op, stack);
  if (!any_batched_at_level(args, 3, level)) return call_unbatched(op, stack);
  const Tensor self = args[0].toTensor(), index = args[1].toTensor(), source = args[2].toTensor();
  const bool accumulate = args[3].toBool();
  check_put(self, index, source);
  Tensor result;
  {
    ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
    const Tensor rows = batch_at_front(self, level, batch).reshape({batch, self.numel()});
    const Tensor positions = flat_positions(index, self.numel(), level, batch);
    const Tensor values = batch_at_front(source, level, batch).reshape({batch, source.numel()});
    const Tensor written =
        accumulate ? mt::scatter_add(rows, 1, positions, values) : mt::scatter(rows, 1, positions, values);
    result = written.view(with_batch(batch, self.sizes()));
  }
  return_one(op, stack, make_batched(std::move(result), 0, level));
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("one_hot", CppFunction::makeFromBoxedFunction<&one_hot_rule>());
  m.impl("gather", CppFunction::makeFromBoxedFunction<&all_batched_rule<2>>());  // index-shaped
  for (const char* name : {"scatter.src", "scatter.value", "scatter_.src", "scatter_.value", "scatter_add",
                           "scatter_add_", "tril", "tril_", "triu", "triu_"})
    m.impl(name, CppFunction::makeFromBoxedFunction<&all_batched_rule<0>>());  // self-shaped
  m.impl("index_select", CppFunction::makeFromBoxedFunction<&index_select_rule>());
  m.impl("take", CppFunction::makeFromBoxedFunction<&take_rule>());
  m.impl("put", CppFunction::makeFromBoxedFunction<&put_rule>());
}

}  // namespace mt::functorch
