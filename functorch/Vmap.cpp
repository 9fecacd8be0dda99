// mt::vmap: check the inputs, push a VmapInterpreter, wrap the batched inputs at its level, run the
// function, pop, and move each output's batch dim to out_dims.
#include "functorch/Vmap.h"

#include <memory>
#include <sstream>

#include "functorch/BatchedTensorImpl.h"
#include "functorch/VmapInterpreter.h"
#include "ops/api/any.h"
#include "ops/api/cat.h"
#include "ops/api/movedim.h"
#include "tensor/Generator.h"

namespace mt {

namespace {

// Per-tensor dims as PyTorch prints them: a tuple such as (0, None).
std::string tuple_str(const std::vector<std::optional<int64_t>>& dims) {
  std::ostringstream ss;
  ss << "(";
  for (size_t i = 0; i < dims.size(); ++i) ss << (i ? ", " : "") << (dims[i] ? std::to_string(*dims[i]) : "None");
  ss << (dims.size() == 1 ? ",)" : ")");
  return ss.str();
}

std::string in_dims_str(const InDims& in_dims) {
  return in_dims.is_per_tensor() ? tuple_str(in_dims.per_tensor()) : std::to_string(in_dims.all());
}

// Each input's batch dim (wrapped), checked against the input.
std::vector<std::optional<int64_t>> batch_dims(const InDims& in_dims, const std::vector<Tensor>& inputs) {
  const std::string where = "vmap(f, in_dims=" + in_dims_str(in_dims) + ", ...)(<inputs>): ";
  MT_CHECK_VALUE(!in_dims.is_per_tensor() || in_dims.per_tensor().size() == inputs.size(), where,
                 "in_dims is not compatible with the structure of `inputs`. in_dims has ",
                 in_dims.is_per_tensor() ? in_dims.per_tensor().size() : 0, " entries but inputs has ", inputs.size(),
                 " tensors.");
  std::vector<std::optional<int64_t>> dims;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::optional<int64_t> d = in_dims.is_per_tensor() ? in_dims.per_tensor()[i] : in_dims.all();
    if (!d) {
      dims.push_back(std::nullopt);
      continue;
    }
    MT_CHECK_VALUE(inputs[i].defined(), where, "Got in_dim=", *d, " for input ", i,
                   ", but that input is an undefined Tensor; use in_dim=None for it.");
    const int64_t rank = inputs[i].dim();
    MT_CHECK_VALUE(-rank <= *d && *d < rank, where, "Got in_dim=", *d, " for input ", i,
                   ", but that input is a Tensor of dimensionality ", rank, " so expected in_dim to satisfy -", rank,
                   " <= in_dim < ", rank, ".");
    dims.push_back(*d < 0 ? *d + rank : *d);
  }
  bool any = false;
  for (const auto& d : dims) any = any || d.has_value();
  MT_CHECK_VALUE(any, where, "Got in_dim=None for every input; at least one input must be batched (have an in_dim "
                 "that is not None).");
  return dims;
}

int64_t common_batch_size(const std::vector<Tensor>& inputs, const std::vector<std::optional<int64_t>>& dims) {
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (dims[i]) sizes.push_back(inputs[i].size(*dims[i]));
  for (int64_t s : sizes) {
    if (s == sizes.front()) continue;
    std::ostringstream ss;
    for (size_t i = 0; i < sizes.size(); ++i) ss << (i ? ", " : "") << sizes[i];
    MT_CHECK_VALUE(false, "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [",
                   ss.str(), "] for the mapped dimension");
  }
  return sizes.front();
}

// Each output's out_dim, checked against the number of outputs.
std::vector<std::optional<int64_t>> output_dims(const OutDims& out_dims, size_t n_outputs) {
  if (!out_dims.is_per_tensor()) return std::vector<std::optional<int64_t>>(n_outputs, out_dims.all());
  MT_CHECK_VALUE(out_dims.per_tensor().size() == n_outputs, "vmap(f, ..., out_dims=", tuple_str(out_dims.per_tensor()),
                 ")(<inputs>): out_dims is not compatible with the structure of `outputs`. out_dims has ",
                 out_dims.per_tensor().size(), " entries but outputs has ", n_outputs, " tensors.");
  return out_dims.per_tensor();
}

// An output of the level-`level` function as a plain tensor with the batch at `out_dim`. An output
// that never met a batched input is the same for every entry: expanded along a new dim, or returned as
// it is for out_dim None.
Tensor remove_batch_dim(const Tensor& out, int64_t level, int64_t batch_size, std::optional<int64_t> out_dims) {
  auto [value, bdim] = functorch::unwrap_at_level(out, level);
  if (!out_dims) {
    MT_CHECK_VALUE(!bdim, "vmap(f, ...): `f` can not return a BatchedTensor when out_dim is None");
    return value;
  }
  const int64_t rank = value.dim() + (bdim ? 0 : 1);
  MT_CHECK_INDEX(-rank <= *out_dims && *out_dims < rank, "vmap: out_dims=", *out_dims,
                 " is out of range for an output of logical rank ", rank - 1, " (expected -", rank, " <= out_dims < ",
                 rank, ").");
  const int64_t out_dim = *out_dims < 0 ? *out_dims + rank : *out_dims;
  if (bdim) return *bdim == out_dim ? value : mt::movedim(value, *bdim, out_dim);
  std::vector<int64_t> sizes = value.sizes().vec();
  sizes.insert(sizes.begin() + out_dim, batch_size);
  return value.unsqueeze(out_dim).expand(sizes);
}

std::vector<Tensor> vmap_once(const VmapFunction& f, const std::vector<Tensor>& inputs,
                              const std::vector<std::optional<int64_t>>& dims, int64_t batch_size,
                              const VmapOptions& options) {
  const int64_t level = functorch::interpreter_stack_depth() + 1;
  std::vector<Tensor> outs;
  {
    functorch::InterpreterGuard guard(std::make_unique<functorch::VmapInterpreter>(level, batch_size, options.randomness));
    std::vector<Tensor> batched;
    for (size_t i = 0; i < inputs.size(); ++i) batched.push_back(functorch::make_batched(inputs[i], dims[i], level));
    outs = f(batched);
  }
  for (const Tensor& out : outs)
    MT_CHECK_TYPE(out.defined(), "vmap(f, ...): `f` must only return Tensors, got an undefined Tensor. Return a "
                  "defined Tensor for every output.");
  const std::vector<std::optional<int64_t>> out_dims = output_dims(options.out_dims, outs.size());
  for (size_t i = 0; i < outs.size(); ++i) outs[i] = remove_batch_dim(outs[i], level, batch_size, out_dims[i]);
  return outs;
}

}  // namespace

namespace detail {

std::vector<Tensor> vmap_call(const VmapFunction& f, const InDims& in_dims, const VmapOptions& options,
                              const std::vector<Tensor>& inputs) {
  const std::vector<std::optional<int64_t>> dims = batch_dims(in_dims, inputs);
  const int64_t batch_size = common_batch_size(inputs, dims);
  if (options.chunk_size) {
    MT_CHECK_VALUE(*options.chunk_size > 0, "vmap: chunk_size should be a positive integer or None, got ",
                   *options.chunk_size, ".");
  }
  const int64_t chunk = options.chunk_size.value_or(batch_size);
  if (chunk >= batch_size) return vmap_once(f, inputs, dims, batch_size, options);  // an empty batch too

  // One vmap per chunk of the batch, concatenated along the output batch dim. With randomness=Same every
  // chunk draws what the first drew (from the default generator), as one vmap of the whole batch would.
  const bool same_draws = options.randomness == Randomness::Same;
  const std::optional<Generator::State> first_state =
      same_draws ? std::optional(default_generator().get_state()) : std::nullopt;
  std::vector<std::vector<Tensor>> per_chunk;
  for (int64_t start = 0; start < batch_size; start += chunk) {
    const int64_t length = std::min(chunk, batch_size - start);
    if (first_state && start > 0) default_generator().set_state(*first_state);
    std::vector<Tensor> part;
    for (size_t i = 0; i < inputs.size(); ++i) part.push_back(dims[i] ? inputs[i].narrow(*dims[i], start, length) : inputs[i]);
    per_chunk.push_back(vmap_once(f, part, dims, length, options));
  }
  // An unbatched output (out_dim None) is the first chunk's.
  const std::vector<std::optional<int64_t>> out_dims = output_dims(options.out_dims, per_chunk.front().size());
  std::vector<Tensor> outs;
  for (size_t o = 0; o < out_dims.size(); ++o) {
    if (!out_dims[o]) {
      outs.push_back(per_chunk.front()[o]);
      continue;
    }
    std::vector<Tensor> pieces;
    for (const auto& c : per_chunk) pieces.push_back(c[o]);
    const int64_t rank = pieces.front().dim();
    outs.push_back(mt::cat(pieces, *out_dims[o] < 0 ? *out_dims[o] + rank : *out_dims[o]));
  }
  return outs;
}

}  // namespace detail

}  // namespace mt
