#pragma once
// mt::functionalize: runs a function with its mutations (and, on request, its views) removed.
// Inside, every in-place or out= op becomes its out-of-place variant plus a swap of the tensor's value,
// and a mutation through a view reaches the base and every other view of it; inputs that the function
// mutated are written back (one copy_ each) when it returns. The result is the same program, free of
// mutation, which is what a tracer, a compiler or vmap of an in-place op wants to see.
//
//   auto f = [](const std::vector<mt::Tensor>& in) {
//     mt::Tensor y = in[0].clone();
//     y.select(0, 1).mul_(2);                       // through a view
//     return y;
//   };
//   mt::Tensor out = mt::functionalize(f)({x});   // runs clone, select, mul, put: no in-place op
//
// remove = MutationsAndViews also replaces every view by a copy (take), so the program has no aliasing
// at all. Composes with mt::vmap and mt::grad in either order.
#include <functional>
#include <type_traits>
#include <vector>

#include "tensor/Tensor.h"

namespace mt {

enum class FunctionalizeRemove { Mutations, MutationsAndViews };

namespace detail {
std::vector<Tensor> functionalize_call(const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& f,
                                       FunctionalizeRemove remove, const std::vector<Tensor>& inputs);
}  // namespace detail

// `f` takes the inputs as a vector and returns a Tensor or a vector of Tensors; so does the result.
template <typename F>
auto functionalize(F f, FunctionalizeRemove remove = FunctionalizeRemove::Mutations) {
  using R = std::invoke_result_t<F&, const std::vector<Tensor>&>;
  static_assert(std::is_same_v<R, Tensor> || std::is_same_v<R, std::vector<Tensor>>,
                "mt::functionalize: the function must return a Tensor or a std::vector<Tensor>");
  return [f = std::move(f), remove](const std::vector<Tensor>& inputs) -> R {
    std::vector<Tensor> outs = detail::functionalize_call(
        [&f](const std::vector<Tensor>& in) -> std::vector<Tensor> {
          if constexpr (std::is_same_v<R, Tensor>) {
            return {f(in)};
          } else {
            return f(in);
          }
        },
        remove, inputs);
    if constexpr (std::is_same_v<R, Tensor>) {
      return std::move(outs.front());
    } else {
      return outs;
    }
  };
}

}  // namespace mt
