#pragma once
// Moving between the two calling conventions: taking a kernel's typed arguments off a Stack (so an
// unboxed kernel can be called boxed) and putting typed arguments onto one (so a boxed-only kernel can be
// called unboxed). Both are generated per signature at compile time.
#include <tuple>
#include <type_traits>
#include <utility>

#include "dispatch/IValue.h"

namespace mt::detail {

// How a stack slot becomes a kernel parameter of type T. Tensors, lists and strings are passed by
// reference into the IValue, which outlives the call.
template <typename T>
decltype(auto) ivalue_to_arg(IValue& v) {
  using D = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<D, Tensor>) {
    if constexpr (std::is_lvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>) {
      return static_cast<Tensor&>(v.toTensorRef());
    } else {
      return static_cast<const Tensor&>(v.toTensorRef());
    }
  } else if constexpr (std::is_same_v<D, IntArrayRef>) {
    return IntArrayRef(v.toIntList());
  } else if constexpr (std::is_same_v<D, ArrayRef<double>>) {
    return ArrayRef<double>(v.toDoubleList());
  } else if constexpr (std::is_same_v<D, ArrayRef<Tensor>>) {
    return ArrayRef<Tensor>(v.toTensorList());
  } else if constexpr (std::is_same_v<D, std::string_view>) {
    return std::string_view(v.toStringRef());
  } else {
    return v.to<D>();
  }
}

// Pushes a kernel's result: a tuple pushes each element, void pushes nothing.
template <typename R>
void push_outputs(R&& result, Stack* stack) {
  using D = std::remove_cvref_t<R>;
  if constexpr (requires { std::tuple_size<D>::value; }) {
    std::apply([&](auto&&... elems) { (stack->emplace_back(std::forward<decltype(elems)>(elems)), ...); },
               std::forward<R>(result));
  } else {
    stack->emplace_back(std::forward<R>(result));
  }
}

// Calls `f(args...)` with the last sizeof...(Params) stack slots, drops them and pushes the result.
template <typename Return, typename... Params, typename F>
void call_unboxed_with_stack(F&& f, Stack* stack) {
  constexpr size_t n = sizeof...(Params);
  IValue* base = stack->data() + stack->size() - n;
  auto invoke = [&]<size_t... I>(std::index_sequence<I...>) -> decltype(auto) {
    return f(ivalue_to_arg<Params>(base[I])...);
  };
  if constexpr (std::is_void_v<Return>) {
    invoke(std::make_index_sequence<n>());
    stack->erase(stack->end() - n, stack->end());
  } else {
    // Copy reference results before the arguments they may refer to are dropped.
    std::remove_cvref_t<Return> out = invoke(std::make_index_sequence<n>());
    stack->erase(stack->end() - n, stack->end());
    push_outputs(std::move(out), stack);
  }
}

inline Tensor* tensor_address(Tensor& t) { return &t; }
template <typename T>
Tensor* tensor_address(T&) {
  return nullptr;
}

// The result of a boxed call as the unboxed caller expects it. An in-place or out= op returns `Tensor&`:
// the first `Tensor&` argument, as in PyTorch (self for `add_`, out for `add.out`).
template <typename Return, typename... Args>
Return pop_result(Stack& stack, std::remove_reference_t<Args>&... args) {
  if constexpr (std::is_void_v<Return>) {
    return;
  } else if constexpr (std::is_same_v<Return, Tensor&>) {
    Tensor* found = nullptr;
    ((std::is_same_v<Args, Tensor&> && !found ? void(found = tensor_address(args)) : void()), ...);
    return *found;
  } else if constexpr (requires { std::tuple_size<Return>::value; }) {
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return Return(std::move(stack[I]).template to<std::tuple_element_t<I, Return>>()...);
    }(std::make_index_sequence<std::tuple_size_v<Return>>());
  } else {
    return std::move(stack[0]).template to<Return>();
  }
}

}  // namespace mt::detail
