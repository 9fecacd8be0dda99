#pragma once
// Infers schema types from a kernel's C++ signature, so registration can check a kernel against the
// operator's declared schema (PyTorch's infer_schema).
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dispatch/FunctionSchema.h"
#include "dispatch/IValue.h"

namespace mt {

namespace detail {

template <typename T>
struct SchemaTypeOf {
  static_assert(sizeof(T) == 0, "This C++ type has no schema type: use Tensor, int64_t, double, bool, Scalar, "
                                "std::string_view, IntArrayRef, ArrayRef<double>, ArrayRef<Tensor>, Device, "
                                "ScalarType, std::optional of one of them, or Generator* (Generator?)");
};
template <TypeKind K, bool List = false>
struct SchemaTypeIs {
  static SchemaType get() { return SchemaType{K, List}; }
};
template <> struct SchemaTypeOf<Tensor> : SchemaTypeIs<TypeKind::Tensor> {};
template <> struct SchemaTypeOf<int64_t> : SchemaTypeIs<TypeKind::Int> {};
template <> struct SchemaTypeOf<double> : SchemaTypeIs<TypeKind::Float> {};
template <> struct SchemaTypeOf<bool> : SchemaTypeIs<TypeKind::Bool> {};
template <> struct SchemaTypeOf<Scalar> : SchemaTypeIs<TypeKind::Scalar> {};
template <> struct SchemaTypeOf<std::string_view> : SchemaTypeIs<TypeKind::Str> {};
template <> struct SchemaTypeOf<std::string> : SchemaTypeIs<TypeKind::Str> {};
template <> struct SchemaTypeOf<Device> : SchemaTypeIs<TypeKind::Device> {};
template <> struct SchemaTypeOf<ScalarType> : SchemaTypeIs<TypeKind::ScalarType> {};
// A generator is always optional in schemas; nullptr stands for None.
template <>
struct SchemaTypeOf<Generator*> {
  static SchemaType get() {
    SchemaType t{TypeKind::Generator, false};
    t.is_optional = true;
    return t;
  }
};
template <> struct SchemaTypeOf<IntArrayRef> : SchemaTypeIs<TypeKind::Int, true> {};
template <> struct SchemaTypeOf<std::vector<int64_t>> : SchemaTypeIs<TypeKind::Int, true> {};
template <> struct SchemaTypeOf<ArrayRef<double>> : SchemaTypeIs<TypeKind::Float, true> {};
template <> struct SchemaTypeOf<std::vector<double>> : SchemaTypeIs<TypeKind::Float, true> {};
template <> struct SchemaTypeOf<ArrayRef<Tensor>> : SchemaTypeIs<TypeKind::Tensor, true> {};
template <> struct SchemaTypeOf<std::vector<Tensor>> : SchemaTypeIs<TypeKind::Tensor, true> {};
template <typename T>
struct SchemaTypeOf<std::optional<T>> {
  static SchemaType get() {
    SchemaType t = SchemaTypeOf<T>::get();
    t.is_optional = true;
    return t;
  }
};

template <typename T>
SchemaType schema_type_of() {
  return SchemaTypeOf<std::remove_cvref_t<T>>::get();
}

template <typename R>
std::vector<SchemaType> return_types() {
  using D = std::remove_cvref_t<R>;
  if constexpr (std::is_void_v<D>) {
    return {};
  } else if constexpr (requires { std::tuple_size<D>::value; }) {
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return std::vector<SchemaType>{schema_type_of<std::tuple_element_t<I, D>>()...};
    }(std::make_index_sequence<std::tuple_size_v<D>>());
  } else {
    return {schema_type_of<D>()};
  }
}

// A kernel may take the DispatchKeySet first; it is not part of the schema.
template <typename... Args>
struct drop_keyset {
  static std::vector<SchemaType> get() { return {schema_type_of<Args>()...}; }
};
template <typename... Args>
struct drop_keyset<DispatchKeySet, Args...> {
  static std::vector<SchemaType> get() { return {schema_type_of<Args>()...}; }
};

}  // namespace detail

// The argument and return types a C++ kernel signature stands for.
struct InferredSchema {
  std::vector<SchemaType> arguments;
  std::vector<SchemaType> returns;
  std::string str() const;  // "(Tensor, int) -> Tensor"
};

template <typename FuncType>
struct InferSchema;
template <typename R, typename... Args>
struct InferSchema<R(Args...)> {
  static InferredSchema get() { return {detail::drop_keyset<Args...>::get(), detail::return_types<R>()}; }
};

// Why `inferred` does not match `expected`, or nullopt when it does. List sizes and aliases are ignored.
std::optional<std::string> findSchemaDifferences(const FunctionSchema& expected, const InferredSchema& inferred);

}  // namespace mt
