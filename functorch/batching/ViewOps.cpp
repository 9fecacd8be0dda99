// Batching rules of the view and shape ops. Ops that name dims shift them past the batch dim
// (DimRule); ops that take a whole shape get the batch size prepended to it. Results are views of
// the value, batched at dim 0, so they alias the batched input as the unbatched op would.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"

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
  // One dim per logical dim, or permute's own error: the physical call would count the batch dim too.
  IValue* args = arguments_of(op, stack);
  if (static_cast<int64_t>(args[1].toIntList().size()) != args[0].toTensorRef().dim()) raise_logical_error(op, stack);
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

// as_strided: each sample gets the view at its own place, the batch stride apart (a storage_offset is
// the first sample's). That is only a per-sample view when it stays inside its sample's memory.
void as_strided_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  front_rule(op, stack, [](const Tensor& front, int64_t, int64_t b, IValue* a) {
    const std::vector<int64_t>& sizes = a[1].toIntList();
    const std::vector<int64_t>& strides = a[2].toIntList();
    const int64_t offset = a[3].isNone() ? front.storage_offset() : a[3].toInt();
    const int64_t batch_stride = front.stride(0);
    MT_CHECK_VALUE(sizes.size() == strides.size(), "mismatch in length of strides and shape");
    int64_t last = offset;
    for (size_t d = 0; d < sizes.size(); ++d)
      if (sizes[d] > 0) last += (sizes[d] - 1) * strides[d];
    const int64_t first = front.storage_offset();
    MT_CHECK(b <= 1 || batch_stride == 0 || (offset >= first && last < first + batch_stride),
             "vmap: as_strided(size=", IntArrayRef(sizes), ", stride=", IntArrayRef(strides), ", storage_offset=", offset,
             ") reaches outside the memory of its own sample (elements ", first, " to ", first + batch_stride - 1,
             " for the first one). Calling as_strided under vmap is only supported for views within each sample.");
    std::vector<int64_t> batched_strides{batch_stride};
    batched_strides.insert(batched_strides.end(), strides.begin(), strides.end());
    return front.as_strided(with_batch(b, sizes), batched_strides, offset);
  });
}

// detach_ cuts the sample's autograd history, which is the value's.
void detach_inplace_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const VmapInterpreter& vmap = current_vmap_interpreter();
  IValue* args = arguments_of(op, stack);
  const IValue self = args[0];
  if (!is_batched_at_level(self.toTensorRef(), vmap.level())) return call_unbatched(op, stack);
  args[0] = unwrap_at_level(self.toTensorRef(), vmap.level()).first;
  call_unbatched(op, stack);
  stack->back() = self;
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("as_strided", CppFunction::makeFromBoxedFunction<&as_strided_rule>());
  m.impl("detach_", CppFunction::makeFromBoxedFunction<&detach_inplace_rule>());
  m.impl("view", CppFunction::makeFromBoxedFunction<&view_rule>());
  m.impl("reshape", CppFunction::makeFromBoxedFunction<&reshape_rule>());
  m.impl("expand", CppFunction::makeFromBoxedFunction<&expand_rule>());
  m.impl("permute", CppFunction::makeFromBoxedFunction<&permute_rule>());
  m.impl("t", CppFunction::makeFromBoxedFunction<&t_rule>());
  m.impl("squeeze", CppFunction::makeFromBoxedFunction<&squeeze_rule>());
  m.impl("contiguous", CppFunction::makeFromBoxedFunction<&contiguous_rule>());

  using Z = ZeroDimSample;
  register_dim_rule(m, "unsqueeze", DimRule{{"dim"}, Z::AsIs, /*extra_rank=*/1});
  register_dim_rule(m, "transpose.int", DimRule{{"dim0", "dim1"}, Z::KeepsRank});
  register_dim_rule(m, "movedim.int", DimRule{{"source", "destination"}, Z::KeepsRank});
  register_dim_rule(m, "movedim.intlist", DimRule{{"source", "destination"}, Z::KeepsRank});
  register_dim_rule(m, "flatten.using_ints", DimRule{{"start_dim", "end_dim"}, Z::AsVector});
  register_dim_rule(m, "squeeze.dim", DimRule{{"dim"}, Z::AsVector});
  register_dim_rule(m, "diagonal", DimRule{{"dim1", "dim2"}, Z::Refused});
  for (const char* name : {"unflatten.int", "select.int", "slice.Tensor", "narrow", "unbind.int", "split.Tensor",
                           "split.sizes", "split_with_sizes", "chunk"})
    register_dim_rule(m, name, DimRule{{"dim"}, Z::Refused});
}

}  // namespace mt::functorch
