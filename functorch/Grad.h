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
// {output, aux} (or mt::OutputsWithAux {outputs, aux}) and the aux tensors come back beside the results.
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensor/Tensor.h"

namespace mt {

// What a function with auxiliary outputs returns: the output to differentiate, and the rest.
using WithAux = std::pair<Tensor, std::vector<Tensor>>;
// The same for a function with several outputs to differentiate.
using OutputsWithAux = std::pair<std::vector<Tensor>, std::vector<Tensor>>;
// vjp's second result: cotangents (one per output of f) to gradients (one per primal).
using VjpFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

namespace detail {

// Every transformed function, seen from inside: inputs to (outputs, aux).
using OutputsAndAuxFunction = std::function<OutputsWithAux(const std::vector<Tensor>&)>;

struct GradAndValue {
  std::vector<Tensor> grads;  // one per argnum
  Tensor value;
  std::vector<Tensor> aux;
};
struct VjpResult {
  std::vector<Tensor> outputs;
  VjpFunction vjp_fn;
  std::vector<Tensor> aux;
};
struct JvpResult {
  std::vector<Tensor> outputs, jvps, aux;
};
struct JacobianResult {
  std::vector<std::vector<Tensor>> jacobians;  // [output][argnum], each of shape output.shape + input.shape
  std::vector<Tensor> aux;
};
GradAndValue grad_and_value_call(const OutputsAndAuxFunction& f, std::vector<int64_t> argnums,
                                 const std::vector<Tensor>& inputs);
VjpResult vjp_call(const OutputsAndAuxFunction& f, const std::vector<Tensor>& primals);
JvpResult jvp_call(const OutputsAndAuxFunction& f, const std::vector<Tensor>& primals,
                   const std::vector<Tensor>& tangents);
JacobianResult jacobian_call(const OutputsAndAuxFunction& f, std::vector<int64_t> argnums, bool forward,
                             const std::vector<Tensor>& inputs);
// PyTorch's error for has_aux=true with a function that returns no aux; `api` names the transform.
[[noreturn]] void throw_missing_aux(const char* api);
// The reverse, which only C++ can tell: a function returning aux without has_aux=true.
[[noreturn]] void throw_unexpected_aux(const char* api);

// What `f` returns, as types: one output or several, with aux or without.
template <typename R>
constexpr bool kReturnsAux = std::is_same_v<R, WithAux> || std::is_same_v<R, OutputsWithAux>;
template <typename R>
constexpr bool kOneOutput = std::is_same_v<R, Tensor> || std::is_same_v<R, WithAux>;
template <typename F>
using ResultOf = std::invoke_result_t<F&, const std::vector<Tensor>&>;

// `f` as a function returning (outputs, aux). has_aux must say whether it returns aux, as in PyTorch.
template <typename F>
OutputsAndAuxFunction outputs_and_aux(F f, bool has_aux, const char* api) {
  using R = ResultOf<F>;
  static_assert(std::is_same_v<R, Tensor> || std::is_same_v<R, std::vector<Tensor>> || kReturnsAux<R>,
                "the function must return a Tensor, a std::vector<Tensor>, or with has_aux=true mt::WithAux "
                "{output, aux} or mt::OutputsWithAux {outputs, aux}");
  return [f = std::move(f), has_aux, api](const std::vector<Tensor>& inputs) -> OutputsWithAux {
    if (has_aux != kReturnsAux<R>) {
      if (has_aux) throw_missing_aux(api);
      throw_unexpected_aux(api);
    }
    R r = f(inputs);
    if constexpr (std::is_same_v<R, Tensor>) {
      return {{std::move(r)}, {}};
    } else if constexpr (std::is_same_v<R, std::vector<Tensor>>) {
      return {std::move(r), {}};
    } else if constexpr (std::is_same_v<R, WithAux>) {
      return {{std::move(r.first)}, std::move(r.second)};
    } else {
      return r;
    }
  };
}

// One result per output (a vector of them) or the only one, as `f` returns one or several.
template <typename R, typename T>
auto per_output(std::vector<T> results) {
  if constexpr (kOneOutput<R>) {
    return std::move(results.front());
  } else {
    return results;
  }
}

// The typed result of grad / grad_and_value: G is Tensor (one argnum) or std::vector<Tensor>.
template <bool kOneArgnum, bool kWithValue, typename F>
auto make_grad(F f, std::vector<int64_t> argnums, bool has_aux) {
  using R = ResultOf<F>;
  static_assert(kOneOutput<R>,
                "mt::grad: the function must return a Tensor, or mt::WithAux {output, aux} with "
                "has_aux=true");
  OutputsAndAuxFunction body = outputs_and_aux(std::move(f), has_aux, "grad_and_value(f)(*args)");
  return [body = std::move(body), argnums = std::move(argnums)](const std::vector<Tensor>& inputs) {
    GradAndValue r = grad_and_value_call(body, argnums, inputs);
    auto grads = [&] {
      if constexpr (kOneArgnum) {
        return std::move(r.grads.front());
      } else {
        return std::move(r.grads);
      }
    }();
    if constexpr (kWithValue && kReturnsAux<R>) {
      return std::make_pair(std::move(grads), WithAux{std::move(r.value), std::move(r.aux)});
    } else if constexpr (kWithValue) {
      return std::make_pair(std::move(grads), std::move(r.value));
    } else if constexpr (kReturnsAux<R>) {
      return std::make_pair(std::move(grads), std::move(r.aux));
    } else {
      return grads;
    }
  };
}

// The typed result of jacrev / jacfwd: per output (when f returns several) of per argnum (when argnums
// is a vector), paired with the aux when f returns aux.
template <bool kOneArgnum, typename F>
auto make_jacobian(F f, std::vector<int64_t> argnums, bool forward, bool has_aux) {
  using R = ResultOf<F>;
  OutputsAndAuxFunction body =
      outputs_and_aux(std::move(f), has_aux, forward ? "jacfwd(f, ...)(*args)" : "jacrev(f, ...)(*args)");
  return [body = std::move(body), argnums = std::move(argnums), forward](const std::vector<Tensor>& inputs) {
    JacobianResult r = jacobian_call(body, argnums, forward, inputs);
    std::vector<std::conditional_t<kOneArgnum, Tensor, std::vector<Tensor>>> per_argnum;
    for (std::vector<Tensor>& row : r.jacobians) {
      if constexpr (kOneArgnum) {
        per_argnum.push_back(std::move(row.front()));
      } else {
        per_argnum.push_back(std::move(row));
      }
    }
    auto jacobians = per_output<R>(std::move(per_argnum));
    if constexpr (kReturnsAux<R>) {
      return std::make_pair(std::move(jacobians), std::move(r.aux));
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
// per primal). The function stays usable after vjp returns, also under vmap (that is jacrev). With
// has_aux=true, f returns mt::WithAux (or mt::OutputsWithAux) and the result is (output, vjp_fn, aux).
template <typename F>
auto vjp(F f, const std::vector<Tensor>& primals, bool has_aux = false) {
  using R = detail::ResultOf<F>;
  detail::VjpResult r = detail::vjp_call(detail::outputs_and_aux(std::move(f), has_aux, "vjp(f, *primals)"), primals);
  auto outputs = detail::per_output<R>(std::move(r.outputs));
  if constexpr (detail::kReturnsAux<R>) {
    return std::make_tuple(std::move(outputs), std::move(r.vjp_fn), std::move(r.aux));
  } else {
    return std::make_pair(std::move(outputs), std::move(r.vjp_fn));
  }
}

// f(primals) and its Jacobian-vector product with `tangents` (one per primal, same shapes): a pair
// of Tensors, or of vectors when f returns a vector. With has_aux=true: (output, jvp_out, aux).
template <typename F>
auto jvp(F f, const std::vector<Tensor>& primals, const std::vector<Tensor>& tangents, bool has_aux = false) {
  using R = detail::ResultOf<F>;
  detail::JvpResult r =
      detail::jvp_call(detail::outputs_and_aux(std::move(f), has_aux, "jvp(f, primals, tangents)"), primals, tangents);
  auto outputs = detail::per_output<R>(std::move(r.outputs));
  auto jvps = detail::per_output<R>(std::move(r.jvps));
  if constexpr (detail::kReturnsAux<R>) {
    return std::make_tuple(std::move(outputs), std::move(jvps), std::move(r.aux));
  } else {
    return std::make_pair(std::move(outputs), std::move(jvps));
  }
}

// The Jacobian of f, of shape output.shape + input.shape: jacrev row by row with vmap over vjp (best
// for few outputs), jacfwd column by column with vmap over jvp. A function with several outputs gets
// one Jacobian per output (of one per argnum when argnums is a vector); with has_aux=true the result
// is (jacobians, aux).
template <typename F>
auto jacrev(F f, int64_t argnums = 0, bool has_aux = false) {
  return detail::make_jacobian<true>(std::move(f), {argnums}, /*forward=*/false, has_aux);
}
template <typename F>
auto jacrev(F f, std::vector<int64_t> argnums, bool has_aux = false) {
  return detail::make_jacobian<false>(std::move(f), std::move(argnums), /*forward=*/false, has_aux);
}
template <typename F>
auto jacfwd(F f, int64_t argnums = 0, bool has_aux = false) {
  return detail::make_jacobian<true>(std::move(f), {argnums}, /*forward=*/true, has_aux);
}
template <typename F>
auto jacfwd(F f, std::vector<int64_t> argnums, bool has_aux = false) {
  return detail::make_jacobian<false>(std::move(f), std::move(argnums), /*forward=*/true, has_aux);
}

// The Hessian of a scalar function: jacfwd(jacrev(f)), of shape input.shape + input.shape.
template <typename F>
auto hessian(F f, int64_t argnums = 0) {
  static_assert(std::is_same_v<detail::ResultOf<F>, Tensor>, "mt::hessian: the function must return one Tensor");
  return jacfwd(jacrev(std::move(f), argnums), argnums);
}

}  // namespace mt
