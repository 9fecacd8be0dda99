// Batching rules of the reductions and of the ops that work along a dim (softmax, sort, the scans). Reductions over
// given dims shift the dims past the batch dim (DimRule); full reductions flatten each sample to one
// dim and reduce that.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"
#include "ops/api/all.h"
#include "ops/api/amax.h"
#include "ops/api/amin.h"
#include "ops/api/any.h"
#include "ops/api/mean.h"
#include "ops/api/median.h"
#include "ops/api/nanmedian.h"
#include "ops/api/norm.h"
#include "ops/api/prod.h"
#include "ops/api/sum.h"

namespace mt::functorch {

namespace {

// Each sample of `self` (batched at `level`) as one row: [B, numel of a sample].
Tensor rows_of(const Tensor& self, int64_t level, int64_t batch_size) {
  auto [value, bdim] = unwrap_at_level(self, level);
  return move_bdim_to_front(value, bdim).reshape({batch_size, self.numel()});
}

// A full reduction `reduce_rows(rows)` of each sample, taken over dim 1 of the rows.
template <typename ReduceRows>
void full_reduction(const OperatorHandle& op, Stack* stack, ReduceRows reduce_rows) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  if (!is_batched_at_level(args[0].toTensorRef(), vmap.level())) return call_unbatched(op, stack);
  Tensor result;
  {
    ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
    result = reduce_rows(rows_of(args[0].toTensorRef(), vmap.level(), vmap.batch_size()), args);
  }
  return_one(op, stack, make_batched(std::move(result), 0, vmap.level()));
}

std::optional<ScalarType> dtype_arg(const IValue& v) { return v.to<std::optional<ScalarType>>(); }

void sum_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue* a) { return mt::sum(rows, {1}, false, dtype_arg(a[1])); });
}
void mean_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue* a) { return mt::mean(rows, {1}, false, dtype_arg(a[1])); });
}
void prod_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue* a) { return mt::prod(rows, 1, false, dtype_arg(a[1])); });
}
void max_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue*) { return mt::amax(rows, {1}); });
}
void min_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue*) { return mt::amin(rows, {1}); });
}
void median_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue*) { return std::get<0>(mt::median(rows, 1)); });
}
void nanmedian_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue*) { return std::get<0>(mt::nanmedian(rows, 1)); });
}
void all_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue*) { return mt::all(rows, int64_t{1}); });
}
void any_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue*) { return mt::any(rows, int64_t{1}); });
}
void norm_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  full_reduction(op, stack, [](const Tensor& rows, IValue* a) {
    return mt::norm(rows, std::optional<Scalar>(a[1].toScalar()), {1});
  });
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("sum", CppFunction::makeFromBoxedFunction<&sum_rule>());
  m.impl("mean", CppFunction::makeFromBoxedFunction<&mean_rule>());
  m.impl("prod", CppFunction::makeFromBoxedFunction<&prod_rule>());
  m.impl("max", CppFunction::makeFromBoxedFunction<&max_rule>());
  m.impl("min", CppFunction::makeFromBoxedFunction<&min_rule>());
  m.impl("median", CppFunction::makeFromBoxedFunction<&median_rule>());
  m.impl("nanmedian", CppFunction::makeFromBoxedFunction<&nanmedian_rule>());
  m.impl("all", CppFunction::makeFromBoxedFunction<&all_rule>());
  m.impl("any", CppFunction::makeFromBoxedFunction<&any_rule>());
  m.impl("norm.Scalar", CppFunction::makeFromBoxedFunction<&norm_rule>());

  const DimRule over_dim{{"dim"}, ZeroDimSample::KeepsRank, 0, /*reduction=*/true};
  for (const char* name : {"sum.dim_IntList", "mean.dim", "prod.dim_int", "max.dim", "min.dim", "amax", "amin",
                           "argmax", "argmin", "var.correction", "std.correction", "norm.ScalarOpt_dim",
                           "norm.ScalarOpt_dim_dtype", "logsumexp", "all.dim", "any.dim"})
    register_dim_rule(m, name, over_dim);
  for (const char* name : {"all.dims", "any.dims"})
    register_dim_rule(m, name,
                      DimRule{{"dim"}, ZeroDimSample::KeepsRank, 0, /*reduction=*/true, /*empty_list_reduces_nothing=*/true});
  for (const char* name : {"_softmax", "_log_softmax", "softmax.int", "log_softmax.int", "sort.stable", "cumsum",
                           "cumprod", "logcumsumexp", "cummax", "cummin"})
    register_dim_rule(m, name, DimRule{{"dim"}, ZeroDimSample::KeepsRank});
}

}  // namespace mt::functorch
