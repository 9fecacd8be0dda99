#pragma once
// Registration API: mt::Library objects (created by the MT_LIBRARY* macros at start-up, or at run time)
// define schemas and register kernels and fallbacks; destroying a Library undoes all of it.
//
//   MT_LIBRARY(myops, m) { m.def("myops::scale(Tensor x, float s) -> Tensor"); }
//   MT_LIBRARY_IMPL(myops, CPU, m) { m.impl("scale", &scale_cpu); }
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dispatch/Dispatcher.h"
#include "tensor/Macros.h"

namespace mt {

// A kernel plus, optionally, the key it is for (see mt::dispatch).
class CppFunction {
 public:
  // Functions and function pointers.
  template <typename Func, std::enable_if_t<std::is_function_v<std::remove_pointer_t<std::decay_t<Func>>>, int> = 0>
  CppFunction(Func* f) : kernel_(KernelFunction::makeFromUnboxedRuntimeFunction(f)) {}
  // MT_FN(f): the function is known at compile time and inlined into its entry.
  template <typename FuncType, FuncType* f>
  CppFunction(CompileTimeFunctionPointer<FuncType, f> fn) : kernel_(KernelFunction::makeFromUnboxedFunction(fn)) {}
  // Lambdas and other functors.
  template <typename Lambda, std::enable_if_t<std::is_class_v<std::decay_t<Lambda>> &&
                                                  !std::is_same_v<std::decay_t<Lambda>, CppFunction>,
                                              int> = 0>
  CppFunction(Lambda&& l) : kernel_(KernelFunction::makeFromUnboxedLambda(std::forward<Lambda>(l))) {}

  static CppFunction makeFallthrough() { return CppFunction(KernelFunction::makeFallthrough()); }
  template <BoxedKernelFunction* f>
  static CppFunction makeFromBoxedFunction() {
    return CppFunction(KernelFunction::makeFromBoxedFunction<f>());
  }
  template <BoxedKernelFunction_withDispatchKeys* f>
  static CppFunction makeFromBoxedFunction() {
    return CppFunction(KernelFunction::makeFromBoxedFunction<f>());
  }
  // A boxed functor: `f(const OperatorHandle&, DispatchKeySet, Stack*)`.
  template <typename F>
  static CppFunction makeFromBoxedLambda(F&& f) {
    return CppFunction(KernelFunction::makeFromBoxedLambda(std::forward<F>(f)));
  }

  const std::optional<DispatchKey>& dispatchKey() const { return key_; }
  KernelFunction&& release() && { return std::move(kernel_); }

 private:
  template <typename F>
  friend CppFunction dispatch(DispatchKey k, F&& f);
  explicit CppFunction(KernelFunction k) : kernel_(std::move(k)) {}

  KernelFunction kernel_;
  std::optional<DispatchKey> key_;
};

// Names the key of one kernel: m.impl("foo", mt::dispatch(mt::DispatchKey::AutogradCPU, fn)).
template <typename F>
CppFunction dispatch(DispatchKey k, F&& f) {
  CppFunction fn(std::forward<F>(f));
  fn.key_ = k;
  return fn;
}

class Library {
 public:
  enum Kind { DEF, FRAGMENT, IMPL };

  // `ns` is "_" for an IMPL library that registers only fallbacks.
  Library(Kind kind, std::string ns, std::optional<DispatchKey> key = std::nullopt, const char* file = "<run time>",
          uint32_t line = 0);
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  Library(Library&&) = default;
  Library& operator=(Library&&) = default;
  ~Library() { reset(); }

  // A full schema ("ns::name.overload(...) -> ..."); the namespace may be left out.
  Library& def(std::string_view schema);
  // A schema and its catch-all (CompositeImplicitAutograd) kernel.
  Library& def(std::string_view schema, CppFunction f);
  // "name" or "name.overload" (optionally "ns::..."); the key is the function's, else the library's,
  // else CompositeImplicitAutograd.
  Library& impl(std::string_view name, CppFunction f);
  Library& fallback(CppFunction f);

  // Undoes every registration this library made, newest first.
  void reset();

  const std::string& ns() const { return ns_; }

 private:
  std::string debug() const;
  OperatorName qualify(std::string_view name) const;

  Kind kind_;
  std::string ns_;
  std::optional<DispatchKey> key_;
  const char* file_;
  uint32_t line_;
  std::vector<RegistrationHandleRAII> registrations_;
};

namespace detail {
// Runs a static MT_LIBRARY* block at start-up and keeps its Library alive until exit.
class LibraryInit {
 public:
  LibraryInit(Library::Kind kind, void (*init)(Library&), const char* ns, std::optional<DispatchKey> key,
              const char* file, uint32_t line)
      : lib_(kind, ns, key, file, line) {
    init(lib_);
  }

 private:
  Library lib_;
};
}  // namespace detail

}  // namespace mt

// The one block that defines namespace `ns`'s operators (a second one is an error naming both).
#define MT_LIBRARY(ns, m)                                                                                     \
  static void MT_LIBRARY_init_##ns(::mt::Library&);                                                          \
  static const ::mt::detail::LibraryInit MT_LIBRARY_static_init_##ns(::mt::Library::DEF, &MT_LIBRARY_init_##ns, \
                                                                     #ns, std::nullopt, __FILE__, __LINE__);  \
  void MT_LIBRARY_init_##ns(::mt::Library& m)

// More definitions for namespace `ns`, in any number of places.
#define MT_LIBRARY_FRAGMENT(ns, m) MT_LIBRARY_FRAGMENT_UID(ns, m, MT_CONCAT(MT_LIBRARY_FRAGMENT_, __COUNTER__))
#define MT_LIBRARY_FRAGMENT_UID(ns, m, uid)                                                                 \
  static void MT_CONCAT(uid, _init)(::mt::Library&);                                                        \
  static const ::mt::detail::LibraryInit MT_CONCAT(uid, _static)(::mt::Library::FRAGMENT,                  \
                                                                 &MT_CONCAT(uid, _init), #ns, std::nullopt, \
                                                                 __FILE__, __LINE__);                       \
  void MT_CONCAT(uid, _init)(::mt::Library & m)

// Kernels of namespace `ns` (or fallbacks, with ns `_`) for dispatch key `k`.
#define MT_LIBRARY_IMPL(ns, k, m) MT_LIBRARY_IMPL_UID(ns, k, m, MT_CONCAT(MT_LIBRARY_IMPL_, __COUNTER__))
#define MT_LIBRARY_IMPL_UID(ns, k, m, uid)                                                                \
  static void MT_CONCAT(uid, _init)(::mt::Library&);                                                      \
  static const ::mt::detail::LibraryInit MT_CONCAT(uid, _static)(::mt::Library::IMPL,                    \
                                                                 &MT_CONCAT(uid, _init), #ns,             \
                                                                 ::mt::DispatchKey::k, __FILE__, __LINE__); \
  void MT_CONCAT(uid, _init)(::mt::Library & m)
