#pragma once
// The autograd-based transforms: mt::grad, mt::grad_and_value, mt::vjp, mt::jvp, mt::jacrev,
// mt::jacfwd, mt::hessian. Each runs the function at a new grad level (GradInterpreter.h) on inputs
// wrapped for that level, so they nest with each other and with mt::vmap in any order:
//
//   auto per_sample_grads = mt::vmap(mt::grad(loss), {std::nullopt, 0, 0});   // loss(w, x, y) -> scalar
//   mt::Tensor g = per_sample_grads({w, xs, ys});                            // one gradient per sample
//   mt::Tensor h = mt::hessian(f)({x});                                      // jacfwd(jacrev(f))
//
// Functions take their inputs as a vector. `argnums` picks the inputs to differentiate: one index gives
// one Tensor back, a std::vector of indices a vector. With has_aux=true, `f` returns mt::WithAux
// {output, aux} and the aux tensors come back beside the gradients.
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensor/Tensor.h"

namespace mt {

// What a function with auxiliary outputs returns: the output to differentiate, and the rest.
using WithAux = std::pair<Tensor, std::vector<Tensor>>;
// A function of tensors returning tensors: what vjp's and the Jacobians' inner functions are.
using TensorsFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
// vjp's second result: cotangents (one per output of f) to gradients (one per primal).
using VjpFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

namespace detail {

using OutputAndAux = std::function<WithAux(const std::vector<Tensor>&)>;

struct GradAndValue {
  std::vector<Tensor> grads;  // one per argnum
  Tensor value;
  std::vector<Tensor> aux;
};
GradAndValue grad_and_value_call(const OutputAndAux& f, std::vector<int64_t> argnums, const std::vector<Tensor>& inputs);
std::pair<std::vector<Tensor>, VjpFunction> vjp_call(const TensorsFunction& f, const std::vector<Tensor>& primals);
std::pair<std::vector<Tensor>, std::vector<Tensor>> jvp_call(const TensorsFunction& f, const std::vector<Tensor>& primals,
                                                             const std::vector<Tensor>& tangents);
// One Jacobian per argnum, each of shape output.shape + input.shape.
std::vector<Tensor> jacobian_call(const TensorsFunction& f, std::vector<int64_t> argnums, bool forward,
                                  const std::vector<Tensor>& inputs);

// `f` as a function returning {output, aux}; a plain Tensor result has no aux (and has_aux must be
// false), a WithAux result needs has_aux=true. The mismatch is reported as PyTorch reports it.
template <typename F>
OutputAndAux output_and_aux(F f, bool has_aux) {
  using R = std::invoke_result_t<F&, const std::vector<Tensor>&>;
  static_assert(std::is_same_v<R, Tensor> || std::is_same_v<R, WithAux>,
                "mt::grad: the function must return a Tensor, or mt::WithAux {output, aux} with has_aux=true");
  return [f = std::move(f), has_aux](const std::vector<Tensor>& inputs) -> WithAux {
    if constexpr (std::is_same_v<R, Tensor>) {
      MT_CHECK(!has_aux, "grad_and_value(f)(*args): output of function f should be a tuple: (output, aux) if has_aux "
                         "is True");
      return {f(inputs), {}};
    } else {
      MT_CHECK(has_aux, "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got (output, aux); pass "
                        "has_aux=true to return auxiliary outputs");
      return f(inputs);
    }
  };
}

template <typename F>
TensorsFunction as_tensors_function(F f) {
  using R = std::invoke_result_t<F&, const std::vector<Tensor>&>;
  static_assert(std::is_same_v<R, Tensor> || std::is_same_v<R, std::vector<Tensor>>,
                "the function must return a Tensor or a std::vector<Tensor>");
  return [f = std::move(f)](const std::vector<Tensor>& inputs) -> std::vector<Tensor> {
    if constexpr (std::is_same_v<R, Tensor>) {
      return {f(inputs)};
    } else {
      return f(inputs);
    }
  };
}

// The typed result of grad / grad_and_value: G is Tensor (one argnum) or std::vector<Tensor>.
template <bool kOneArgnum, bool kWithValue, typename F>
auto make_grad(F f, std::vector<int64_t> argnums, bool has_aux) {
  using R = std::invoke_result_t<F&, const std::vector<Tensor>&>;
  OutputAndAux body = output_and_aux(std::move(f), has_aux);
  return [body = std::move(body), argnums = std::move(argnums)](const std::vector<Tensor>& inputs) {
    GradAndValue r = grad_and_value_call(body, argnums, inputs);
    auto grads = [&] {
      if constexpr (kOneArgnum) {
        return std::move(r.grads.front());
      } else {
        return std::move(r.grads);
      }
    }();
    if constexpr (kWithValue && std::is_same_v<R, WithAux>) {
      return std::make_pair(std::move(grads), WithAux{std::move(r.value), std::move(r.aux)});
    } else if constexpr (kWithValue) {
      return std::make_pair(std::move(grads), std::move(r.value));
    } else if constexpr (std::is_same_v<R, WithAux>) {
      return std::make_pair(std::move(grads), std::move(r.aux));
    } else {
      return grads;
    }
  };
}

template <bool kOneArgnum, typename F>
auto make_jacobian(F f, std::vector<int64_t> argnums, bool forward) {
  using R = std::invoke_result_t<F&, const std::vector<Tensor>&>;
  static_assert(std::is_same_v<R, Tensor>, "mt::jacrev / mt::jacfwd: the function must return one Tensor");
  TensorsFunction body = as_tensors_function(std::move(f));
  return [body = std::move(body), argnums = std::move(argnums), forward](const std::vector<Tensor>& inputs) {
    std::vector<Tensor> jacobians = jacobian_call(body, argnums, forward, inputs);
    if constexpr (kOneArgnum) {
      return std::move(jacobians.front());
    } else {
      return jacobians;
    }
  };
}

}  // namespace detail

// The gradient of a function returning a scalar (0-dim) tensor, with respect to input `argnums`.
template <typename F>
auto grad(F f, int64_t argnums = 0, bool has_aux = false) {
  return detail::make_grad<true, false>(std::move(f), {argnums}, has_aux);
}
template <typename F>
auto grad(F f, std::vector<int64_t> argnums, bool has_aux = false) {
  return detail::make_grad<false, false>(std::move(f), std::move(argnums), has_aux);
}

// grad, and the function's value: a pair (gradients, value), or (gradients, {value, aux}).
template <typename F>
auto grad_and_value(F f, int64_t argnums = 0, bool has_aux = false) {
  return detail::make_grad<true, true>(std::move(f), {argnums}, has_aux);
}
template <typename F>
auto grad_and_value(F f, std::vector<int64_t> argnums, bool has_aux = false) {
  return detail::make_grad<false, true>(std::move(f), std::move(argnums), has_aux);
}

// f(primals) and the function that maps cotangents (one per output) to vector-Jacobian products (one
// per primal). The function stays usable after vjp returns, also under vmap (that is jacrev).
template <typename F>
auto vjp(F f, const std::vector<Tensor>& primals) {
  using R = std::invoke_result_t<F&, const std::vector<Tensor>&>;
  auto [outputs, vjp_fn] = detail::vjp_call(detail::as_tensors_function(std::move(f)), primals);
  if constexpr (std::is_same_v<R, Tensor>) {
    return std::make_pair(std::move(outputs.front()), std::move(vjp_fn));
  } else {
    return std::make_pair(std::move(outputs), std::move(vjp_fn));
  }
}

// f(primals) and its Jacobian-vector product with `tangents` (one per primal, same shapes): a pair
// of Tensors, or of vectors when f returns a vector.
template <typename F>
auto jvp(F f, const std::vector<Tensor>& primals, const std::vector<Tensor>& tangents) {
  using R = std::invoke_result_t<F&, const std::vector<Tensor>&>;
  auto [outputs, jvps] = detail::jvp_call(detail::as_tensors_function(std::move(f)), primals, tangents);
  if constexpr (std::is_same_v<R, Tensor>) {
    return std::make_pair(std::move(outputs.front()), std::move(jvps.front()));
  } else {
    return std::make_pair(std::move(outputs), std::move(jvps));
  }
}

// The Jacobian of a function returning one tensor, of shape output.shape + input.shape: jacrev
// row by row with vmap over vjp (best for few outputs), jacfwd column by column with vmap over jvp.
template <typename F>
auto jacrev(F f, int64_t argnums = 0) {
  return detail::make_jacobian<true>(std::move(f), {argnums}, /*forward=*/false);
}
template <typename F>
auto jacrev(F f, std::vector<int64_t> argnums) {
  return detail::make_jacobian<false>(std::move(f), std::move(argnums), /*forward=*/false);
}
template <typename F>
auto jacfwd(F f, int64_t argnums = 0) {
  return detail::make_jacobian<true>(std::move(f), {argnums}, /*forward=*/true);
}
template <typename F>
auto jacfwd(F f, std::vector<int64_t> argnums) {
  return detail::make_jacobian<false>(std::move(f), std::move(argnums), /*forward=*/true);
}

// The Hessian of a scalar function: jacfwd(jacrev(f)), of shape input.shape + input.shape.
template <typename F>
auto hessian(F f, int64_t argnums = 0) {
  return jacfwd(jacrev(std::move(f), argnums), argnums);
}

}  // namespace mt
