#pragma once
// mt::vmap: vectorizing map. `mt::vmap(f, in_dims, out_dims)` returns a function that runs `f` once
// on inputs whose dim `in_dims[i]` is the batch, as if `f` were called per batch entry and the results
// stacked along `out_dims` — but with each op batched (functorch/batching/), not looped.
//
//   auto per_row_dot = mt::vmap([](const std::vector<mt::Tensor>& a) { return mt::dot(a[0], a[1]); });
//   mt::Tensor d = per_row_dot({x, y});                  // x, y: [B, n] -> d: [B]
//   mt::vmap(f, {std::nullopt, 0, 0})({w, xs, ys});      // w shared, xs and ys batched along dim 0
#include <functional>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <vector>

#include "tensor/Tensor.h"

namespace mt {

// Which dim of each tensor is the batch: one dim for all, or one per tensor (nullopt: not batched).
// Negative dims count from the end. As in_dims, nullopt marks an input shared by every entry; as
// out_dims, an output returned as it is, without a batch dim.
class BatchDims {
 public:
  BatchDims(int64_t all = 0) : all_(all) {}
  BatchDims(std::initializer_list<std::optional<int64_t>> per_tensor) : per_tensor_(per_tensor) {}
  BatchDims(std::vector<std::optional<int64_t>> per_tensor) : per_tensor_(std::move(per_tensor)) {}

  bool is_per_tensor() const { return per_tensor_.has_value(); }
  const std::vector<std::optional<int64_t>>& per_tensor() const { return *per_tensor_; }
  int64_t all() const { return all_; }

 private:
  int64_t all_ = 0;
  std::optional<std::vector<std::optional<int64_t>>> per_tensor_;
};
using InDims = BatchDims;
using OutDims = BatchDims;

// What random ops on batched tensors draw (rand_like, randn_like, bernoulli_, dropout, ...):
// Error refuses them, Different draws independently for every batch entry, Same draws once and shares
// the draw across the batch. Random factories without a tensor argument (mt::randn({3})) follow it too.
enum class Randomness { Error, Same, Different };

struct VmapOptions {
  // Not an aggregate, so that a braced list in vmap(f, in_dims, {0, 1}) can only be out_dims.
  VmapOptions() = default;

  OutDims out_dims = 0;
  // Run the batch in chunks of this many entries (less memory, more calls); nullopt: all at once.
  std::optional<int64_t> chunk_size = std::nullopt;
  Randomness randomness = Randomness::Error;
};

using VmapFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

namespace detail {
std::vector<Tensor> vmap_call(const VmapFunction& f, const InDims& in_dims, const VmapOptions& options,
                              const std::vector<Tensor>& inputs);
}  // namespace detail

// `f` takes the inputs as a vector and returns a Tensor (the result then returns a Tensor) or a vector
// of Tensors (the result returns a vector).
template <typename F>
auto vmap(F f, InDims in_dims = 0, VmapOptions options = {}) {
  using R = std::invoke_result_t<F&, const std::vector<Tensor>&>;
  static_assert(std::is_same_v<R, Tensor> || std::is_same_v<R, std::vector<Tensor>>,
                "mt::vmap: the function must return a Tensor or a std::vector<Tensor>");
  VmapFunction body = [f = std::move(f)](const std::vector<Tensor>& inputs) -> std::vector<Tensor> {
    if constexpr (std::is_same_v<R, Tensor>) {
      return {f(inputs)};
    } else {
      return f(inputs);
    }
  };
  return [body = std::move(body), in_dims = std::move(in_dims), options](const std::vector<Tensor>& inputs) -> R {
    std::vector<Tensor> outs = detail::vmap_call(body, in_dims, options, inputs);
    if constexpr (std::is_same_v<R, Tensor>) {
      return std::move(outs.front());
    } else {
      return outs;
    }
  };
}

// mt::vmap(f, in_dims, out_dims): the common case without chunking.
template <typename F>
auto vmap(F f, InDims in_dims, OutDims out_dims) {
  VmapOptions options;
  options.out_dims = std::move(out_dims);
  return vmap(std::move(f), std::move(in_dims), std::move(options));
}

}  // namespace mt
