#pragma once
// KernelFunction: what sits in a dispatch table slot. Every valid kernel has a boxed entry
// (Stack in, Stack out); kernels written as C++ functions or lambdas also keep an unboxed entry with
// the uniform convention `Return(OperatorKernel*, DispatchKeySet, Args...)`, so a typed call is one
// indirect call. Boxing wrappers are generated at registration time.
#include <optional>
#include <string>
#include <type_traits>
#include <typeindex>
#include <utility>

#include "dispatch/Boxing.h"
#include "dispatch/DispatchKeySet.h"
#include "dispatch/InferSchema.h"
#include "dispatch/IValue.h"

namespace mt {

class OperatorHandle;

// Base of kernels that carry state (lambdas with captures); stateless kernels have none.
struct OperatorKernel : intrusive_ptr_target {};

using BoxedKernelFunction = void(const OperatorHandle&, Stack*);
using BoxedKernelFunction_withDispatchKeys = void(const OperatorHandle&, DispatchKeySet, Stack*);

// A function pointer known at compile time, so its unboxed entry can inline the call: MT_FN(my_kernel).
template <typename FuncType, FuncType* func>
struct CompileTimeFunctionPointer {
  using type = FuncType;
  static constexpr FuncType* value = func;
};
#define MT_FN(f) ::mt::CompileTimeFunctionPointer<std::remove_pointer_t<std::decay_t<decltype(f)>>, f>()

// The C++ signature a kernel was written with (a leading DispatchKeySet removed); unboxed callers must
// use exactly this one.
class CppSignature {
 public:
  template <typename FuncType>
  static CppSignature make() {
    return CppSignature(typeid(FuncType));
  }
  std::string name() const;
  bool operator==(const CppSignature& o) const { return type_ == o.type_; }

 private:
  explicit CppSignature(const std::type_info& t) : type_(t) {}
  std::type_index type_;
};

namespace detail {
template <typename F>
struct kernel_signature;
template <typename R, typename... A>
struct kernel_signature<R(A...)> {
  using type = R(A...);
  static constexpr bool takes_keyset = false;
};
template <typename R, typename... A>
struct kernel_signature<R(DispatchKeySet, A...)> {
  using type = R(A...);
  static constexpr bool takes_keyset = true;
};
template <typename M>
struct member_call_signature;
template <typename C, typename R, typename... A>
struct member_call_signature<R (C::*)(A...) const> {
  using type = R(A...);
};
template <typename C, typename R, typename... A>
struct member_call_signature<R (C::*)(A...)> {
  using type = R(A...);
};
template <typename L>
using lambda_signature = typename member_call_signature<decltype(&std::decay_t<L>::operator())>::type;

template <typename F>
struct FunctorKernel final : OperatorKernel {
  explicit FunctorKernel(F f) : fn(std::move(f)) {}
  F fn;
};

// Calls a compile-time function, passing the key set only to kernels that take it.
template <auto func, bool takes_keyset>
struct StaticCallable {
  template <typename... A>
  static decltype(auto) invoke(OperatorKernel*, DispatchKeySet ks, A&&... args) {
    if constexpr (takes_keyset) return func(ks, std::forward<A>(args)...);
    else return func(std::forward<A>(args)...);
  }
};
// Calls the functor stored in the kernel.
template <typename F, bool takes_keyset>
struct FunctorCallable {
  template <typename... A>
  static decltype(auto) invoke(OperatorKernel* k, DispatchKeySet ks, A&&... args) {
    auto& fn = static_cast<FunctorKernel<F>*>(k)->fn;
    if constexpr (takes_keyset) return fn(ks, std::forward<A>(args)...);
    else return fn(std::forward<A>(args)...);
  }
};

template <typename Callable, typename Sig>
struct KernelEntries;
template <typename Callable, typename R, typename... P>
struct KernelEntries<Callable, R(P...)> {
  static R unboxed(OperatorKernel* k, DispatchKeySet ks, P... args) {
    return Callable::invoke(k, ks, std::forward<P>(args)...);
  }
  static void boxed(OperatorKernel* k, const OperatorHandle&, DispatchKeySet ks, Stack* stack) {
    call_unboxed_with_stack<R, P...>(
        [&](auto&&... args) -> decltype(auto) { return Callable::invoke(k, ks, std::forward<decltype(args)>(args)...); },
        stack);
  }
};

[[noreturn]] void fallthrough_kernel(OperatorKernel*, const OperatorHandle&, DispatchKeySet, Stack*);
}  // namespace detail

class KernelFunction {
 public:
  using InternalBoxedKernelFunction = void(OperatorKernel*, const OperatorHandle&, DispatchKeySet, Stack*);

  KernelFunction() = default;

  bool isValid() const { return boxed_ != nullptr; }
  bool isValidUnboxed() const { return unboxed_ != nullptr; }
  bool isFallthrough() const { return boxed_ == &detail::fallthrough_kernel; }
  const std::optional<CppSignature>& cppSignature() const { return cpp_signature_; }
  // The schema types the C++ signature stands for (nullopt for boxed kernels, which accept any).
  std::optional<InferredSchema> inferredSchema() const {
    return infer_schema_ ? std::optional<InferredSchema>(infer_schema_()) : std::nullopt;
  }

  void callBoxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const {
    boxed_(functor_.get(), op, ks, stack);
  }

  template <typename Return, typename... Args>
  Return call(const OperatorHandle& op, DispatchKeySet ks, Args... args) const {
    if (__builtin_expect(unboxed_ != nullptr, 1)) {
      using Fn = Return(OperatorKernel*, DispatchKeySet, Args...);
      return reinterpret_cast<Fn*>(unboxed_)(functor_.get(), ks, std::forward<Args>(args)...);
    }
    return callBoxedFromUnboxed<Return, Args...>(op, ks, args...);
  }

  // Boxed kernels: `void f(const OperatorHandle&, Stack*)`, optionally taking the DispatchKeySet.
  template <BoxedKernelFunction* func>
  static KernelFunction makeFromBoxedFunction() {
    return KernelFunction(nullptr, [](OperatorKernel*, const OperatorHandle& op, DispatchKeySet, Stack* s) {
      func(op, s);
    });
  }
  template <BoxedKernelFunction_withDispatchKeys* func>
  static KernelFunction makeFromBoxedFunction() {
    return KernelFunction(nullptr, [](OperatorKernel*, const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
      func(op, ks, s);
    });
  }
  // A boxed kernel with state: `f(const OperatorHandle&, DispatchKeySet, Stack*)`.
  template <typename F>
  static KernelFunction makeFromBoxedLambda(F&& f) {
    using Functor = detail::FunctorKernel<std::decay_t<F>>;
    return KernelFunction(make_intrusive<Functor>(std::forward<F>(f)),
                          [](OperatorKernel* k, const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
                            static_cast<Functor*>(k)->fn(op, ks, s);
                          });
  }
  // Skips this key: the dispatcher masks fallthrough slots out and goes to the next key down.
  static KernelFunction makeFallthrough() { return KernelFunction(nullptr, &detail::fallthrough_kernel); }

  template <typename FuncType, FuncType* func>
  static KernelFunction makeFromUnboxedFunction(CompileTimeFunctionPointer<FuncType, func>) {
    using Traits = detail::kernel_signature<FuncType>;
    return makeUnboxed<detail::StaticCallable<func, Traits::takes_keyset>, typename Traits::type>(nullptr);
  }
  template <typename FuncType>
  static KernelFunction makeFromUnboxedRuntimeFunction(FuncType* func) {
    return makeFromUnboxedFunctor<FuncType*, FuncType>(func);
  }
  template <typename Lambda>
  static KernelFunction makeFromUnboxedLambda(Lambda&& lambda) {
    return makeFromUnboxedFunctor<std::decay_t<Lambda>, detail::lambda_signature<Lambda>>(
        std::forward<Lambda>(lambda));
  }

 private:
  KernelFunction(intrusive_ptr<OperatorKernel> functor, InternalBoxedKernelFunction* boxed, void* unboxed = nullptr)
      : functor_(std::move(functor)), boxed_(boxed), unboxed_(unboxed) {}

  template <typename F, typename FullSig, typename Arg>
  static KernelFunction makeFromUnboxedFunctor(Arg&& f) {
    using Traits = detail::kernel_signature<FullSig>;
    return makeUnboxed<detail::FunctorCallable<F, Traits::takes_keyset>, typename Traits::type>(
        make_intrusive<detail::FunctorKernel<F>>(std::forward<Arg>(f)));
  }

  template <typename Callable, typename Sig>
  static KernelFunction makeUnboxed(intrusive_ptr<OperatorKernel> functor) {
    using Entries = detail::KernelEntries<Callable, Sig>;
    KernelFunction k(std::move(functor), &Entries::boxed, reinterpret_cast<void*>(&Entries::unboxed));
    k.cpp_signature_ = CppSignature::make<Sig>();
    k.infer_schema_ = &InferSchema<Sig>::get;
    return k;
  }

  template <typename Return, typename... Args>
  Return callBoxedFromUnboxed(const OperatorHandle& op, DispatchKeySet ks, std::remove_reference_t<Args>&... args) const {
    Stack stack;
    stack.reserve(sizeof...(Args));
    (stack.emplace_back(args), ...);
    callBoxed(op, ks, &stack);
    return detail::pop_result<Return, Args...>(stack, args...);
  }

  intrusive_ptr<OperatorKernel> functor_;
  InternalBoxedKernelFunction* boxed_ = nullptr;
  void* unboxed_ = nullptr;
  std::optional<CppSignature> cpp_signature_;
  InferredSchema (*infer_schema_)() = nullptr;
};

}  // namespace mt
