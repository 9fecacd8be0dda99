// mt::vmap: check the inputs, push a VmapInterpreter, wrap the batched inputs at its level, run the
// function, pop, and move each output's batch dim to out_dims.
#include "functorch/Vmap.h"

#include <memory>
#include <sstream>

#include "functorch/BatchedTensorImpl.h"
#include "functorch/VmapInterpreter.h"
#include "ops/Functions.h"
#include "tensor/Generator.h"

namespace mt {

namespace {

std::string in_dims_str(const InDims& in_dims) {
  if (!in_dims.is_per_input()) return std::to_string(in_dims.all());
  std::ostringstream ss;
  ss << "(";
  for (size_t i = 0; i < in_dims.per_input().size(); ++i) {
    const auto& d = in_dims.per_input()[i];
    ss << (i ? ", " : "") << (d ? std::to_string(*d) : "None");
  }
  ss << (in_dims.per_input().size() == 1 ? ",)" : ")");
  return ss.str();
}

// Each input's batch dim (wrapped), checked against the input.
std::vector<std::optional<int64_t>> batch_dims(const InDims& in_dims, const std::vector<Tensor>& inputs) {
  const std::string where = "vmap(f, in_dims=" + in_dims_str(in_dims) + ", ...)(<inputs>): ";
  MT_CHECK_VALUE(!in_dims.is_per_input() || in_dims.per_input().size() == inputs.size(), where,
                 "in_dims is not compatible with the structure of `inputs`. in_dims has ",
                 in_dims.is_per_input() ? in_dims.per_input().size() : 0, " entries but inputs has ", inputs.size(),
                 " tensors.");
  std::vector<std::optional<int64_t>> dims;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::optional<int64_t> d = in_dims.is_per_input() ? in_dims.per_input()[i] : in_dims.all();
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

// An output of the level-`level` function as a plain tensor with the batch at `out_dim`. An output
// that never met a batched input is the same for every entry: expanded along a new dim.
Tensor remove_batch_dim(const Tensor& out, int64_t level, int64_t batch_size, int64_t out_dims) {
  auto [value, bdim] = functorch::unwrap_at_level(out, level);
  const int64_t rank = value.dim() + (bdim ? 0 : 1);
  MT_CHECK_INDEX(-rank <= out_dims && out_dims < rank, "vmap: out_dims=", out_dims,
                 " is out of range for an output of logical rank ", rank - 1, " (expected -", rank,
                 " <= out_dims < ", rank, ").");
  const int64_t out_dim = out_dims < 0 ? out_dims + rank : out_dims;
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
  for (Tensor& out : outs) {
    MT_CHECK_TYPE(out.defined(), "vmap(f, ...): `f` must only return Tensors, got an undefined Tensor. Return a "
                  "defined Tensor for every output.");
    out = remove_batch_dim(out, level, batch_size, options.out_dims);
  }
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
  std::vector<Tensor> outs;
  for (size_t o = 0; o < per_chunk.front().size(); ++o) {
    std::vector<Tensor> pieces;
    for (const auto& c : per_chunk) pieces.push_back(c[o]);
    const int64_t rank = pieces.front().dim();
    outs.push_back(mt::cat(pieces, options.out_dims < 0 ? options.out_dims + rank : options.out_dims));
  }
  return outs;
}

}  // namespace detail

}  // namespace mt
