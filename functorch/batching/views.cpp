// Batching rules of the view and shape ops. Ops that name dims shift them past the batch dim
// (DimRule); ops that take a whole shape get the batch size prepended to it. Results are views of
// the value, batched at dim 0, so they alias the batched input as the unbatched op would.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"
#include "ops/Functions.h"

namespace mt::functorch {

namespace {

// The common shape of the rules below: `self` batched at this level becomes `f(front, sample_rank,
// batch_size, args)` batched at dim 0, where `front` is its value with the batch dim at the front.
template <typename F>
void front_rule(const OperatorHandle& op, Stack* stack, F f) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  const Tensor& self = args[0].toTensorRef();
  if (!is_batched_at_level(self, vmap.level())) return call_unbatched(op, stack);
  auto [value, bdim] = unwrap_at_level(self, vmap.level());
  Tensor result;
  {
    ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
    result = f(move_bdim_to_front(value, bdim), self.dim(), vmap.batch_size(), args);
  }
  return_one(op, stack, make_batched(std::move(result), 0, vmap.level()));
}

std::vector<int64_t> with_batch(int64_t batch_size, IntArrayRef sizes) {
  std::vector<int64_t> out{batch_size};
  out.insert(out.end(), sizes.begin(), sizes.end());
  return out;
}

void view_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  front_rule(op, stack, [](const Tensor& front, int64_t, int64_t b, IValue* a) {
    return front.view(with_batch(b, a[1].toIntList()));
  });
}
void reshape_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  front_rule(op, stack, [](const Tensor& front, int64_t, int64_t b, IValue* a) {
    return front.reshape(with_batch(b, a[1].toIntList()));
  });
}
// expand may add leading dims: pad the sample to the target rank first, then expand behind the batch.
void expand_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  front_rule(op, stack, [](const Tensor& front, int64_t, int64_t b, IValue* a) {
    const std::vector<int64_t>& sizes = a[1].toIntList();
    MT_CHECK(static_cast<int64_t>(sizes.size()) >= front.dim() - 1, "expand: the number of sizes provided (",
             sizes.size(), ") must be greater or equal to the number of dimensions in the tensor (", front.dim() - 1,
             ")");
    return pad_to_logical_rank(front, static_cast<int64_t>(sizes.size())).expand(with_batch(b, sizes));
  });
}
void permute_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  front_rule(op, stack, [](const Tensor& front, int64_t rank, int64_t, IValue* a) {
    std::vector<int64_t> dims{0};
    for (int64_t d : a[1].toIntList()) dims.push_back(physical_dim(d, rank));
    return front.permute(dims);
  });
}
void t_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  front_rule(op, stack, [](const Tensor& front, int64_t rank, int64_t, IValue*) {
    MT_CHECK(rank <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", rank, "D");
    return rank == 2 ? front.transpose(1, 2) : front;
  });
}
// Squeezes the sample's size-1 dims, never the batch dim (even when the batch size is 1).
void squeeze_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  front_rule(op, stack, [](const Tensor& front, int64_t, int64_t, IValue*) {
    Tensor out = front;
    for (int64_t d = front.dim() - 1; d >= 1; --d)
      if (front.size(d) == 1) out = out.squeeze(d);
    return out;
  });
}
// contiguous() of the sample: contiguous with the batch dim at the front.
void contiguous_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  front_rule(op, stack, [](const Tensor& front, int64_t, int64_t, IValue*) { return front.contiguous(); });
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("view", CppFunction::makeFromBoxedFunction<&view_rule>());
  m.impl("reshape", CppFunction::makeFromBoxedFunction<&reshape_rule>());
  m.impl("expand", CppFunction::makeFromBoxedFunction<&expand_rule>());
  m.impl("permute", CppFunction::makeFromBoxedFunction<&permute_rule>());
  m.impl("t", CppFunction::makeFromBoxedFunction<&t_rule>());
  m.impl("squeeze", CppFunction::makeFromBoxedFunction<&squeeze_rule>());
  m.impl("contiguous", CppFunction::makeFromBoxedFunction<&contiguous_rule>());

  register_dim_rule(m, "unsqueeze", DimRule{{"dim"}, /*extra_rank=*/1});
  register_dim_rule(m, "transpose.int", DimRule{{"dim0", "dim1"}});
  register_dim_rule(m, "movedim.int", DimRule{{"source", "destination"}});
  register_dim_rule(m, "movedim.intlist", DimRule{{"source", "destination"}});
  register_dim_rule(m, "flatten.using_ints", DimRule{{"start_dim", "end_dim"}});
  register_dim_rule(m, "diagonal", DimRule{{"dim1", "dim2"}});
  for (const char* name : {"squeeze.dim", "unflatten.int", "select.int", "slice.Tensor", "narrow", "unbind.int",
                           "split.Tensor", "split.sizes", "split_with_sizes", "chunk"})
    register_dim_rule(m, name, DimRule{{"dim"}});
}

}  // namespace mt::functorch
