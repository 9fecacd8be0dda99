#pragma once
// Transforms and modes rewrite the tensors of a boxed call (wrapping, unwrapping, slicing) and leave its
// other values alone. A value holds tensors as a Tensor or as a Tensor[]; undefined tensors (an absent
// optional tensor, a hole in a list) stay as they are.
#include <type_traits>
#include <utility>
#include <vector>

#include "dispatch/IValue.h"

namespace mt {

// `v` with each defined tensor it holds replaced by f(tensor).
template <typename F>
IValue map_tensors(const IValue& v, F&& f) {
  if (v.isTensor()) {
    const Tensor& t = v.toTensorRef();
    return t.defined() ? IValue(f(t)) : v;
  }
  if (v.isTensorList()) {
    std::vector<Tensor> mapped;
    mapped.reserve(v.toTensorList().size());
    for (const Tensor& t : v.toTensorList()) mapped.push_back(t.defined() ? f(t) : t);
    return IValue(std::move(mapped));
  }
  return v;
}

// map_tensors in place on the last `n` values of `stack` (an operator's arguments or results).
template <typename F>
void map_tensors(Stack* stack, size_t n, F&& f) {
  for (IValue* v = stack->data() + stack->size() - n; v != stack->data() + stack->size(); ++v) {
    if (v->isTensor() || v->isTensorList()) *v = map_tensors(*v, f);
  }
}

// Calls f(tensor) -- or f(tensor, i), when f takes an index -- for each tensor that values[i] holds, i < n,
// undefined ones included.
template <typename F>
void for_each_tensor(const IValue* values, size_t n, F&& f) {
  const auto call = [&](const Tensor& t, size_t i) {
    if constexpr (std::is_invocable_v<F&, const Tensor&, size_t>) f(t, i);
    else f(t);
  };
  for (size_t i = 0; i < n; ++i) {
    if (values[i].isTensor()) {
      call(values[i].toTensorRef(), i);
    } else if (values[i].isTensorList()) {
      for (const Tensor& t : values[i].toTensorList()) call(t, i);
    }
  }
}

}  // namespace mt
