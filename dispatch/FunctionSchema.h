#pragma once
// Operator schemas in PyTorch's native_functions.yaml language, e.g.
//   "mt::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
// parsed into plain data that prints back the same way.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mt {

enum class TypeKind : uint8_t {
  Tensor, Int, Float, Bool, Scalar, Str, ScalarType, Device, Layout, MemoryFormat, Generator, Dimname, Any
};

// The name a schema spells `kind` with: "Tensor", "int", "float", "bool", "str", ...
// (`SymInt` parses as Int and prints as "int").
std::string_view type_kind_name(TypeKind kind);

// Every member has a default initializer so that partial aggregate initialization, e.g.
// SchemaType{TypeKind::Int}, is warning-free under -Wextra.
struct SchemaType {
  TypeKind kind = TypeKind::Tensor;
  bool is_list = false;              // Type[] or Type[N]
  std::optional<int64_t> list_size{};  // N in int[2]
  bool is_optional = false;          // Type?, or the whole list in `int[]?`
  bool elem_optional = false;        // the elements in `Tensor?[]`
  bool operator==(const SchemaType&) const = default;
  // As written: "Tensor", "int[2]", "Tensor?[]", "int[]?", "float".
  std::string str() const;
};

// Tensor(a) -> {"a", false}; Tensor(a!) -> {"a", true}.
struct AliasInfo {
  std::string set{};
  bool is_write = false;
  // Tensor(a -> *): the result's elements may alias anything the input aliases (split, unbind, chunk).
  bool to_wildcard = false;
  bool operator==(const AliasInfo&) const = default;
};

// std::monostate is `None`. A bare identifier default (`Mean`, `contiguous_format`, `long`) is a std::string,
// as is a quoted one (without its quotes); default_text tells them apart.
using DefaultValue =
    std::variant<std::monostate, bool, int64_t, double, std::string, std::vector<int64_t>, std::vector<double>>;

struct Argument {
  std::string name{};  // may be empty for returns
  SchemaType type{};
  std::optional<AliasInfo> alias{};
  std::optional<DefaultValue> default_value{};  // present iff a default was written
  // The literal as written ("None", "[0, 1]", "\"mean\"", "1e-05"); it is what str() prints.
  std::string default_text{};
  bool kwarg_only = false;  // after `*`
  bool is_out() const { return kwarg_only && alias && alias->is_write; }
  bool operator==(const Argument&) const = default;
};

// Either part by part, {"mt", "add", "Tensor"}, or as c10 spells it, {"mt::add", "Tensor"}: a qualified
// name and an overload. The two spellings cannot be confused: a two-part name without "::" ({"mt", "add"})
// is a ValueError, not an operator that no lookup finds.
struct OperatorName {
  std::string ns{};
  std::string name{};
  std::string overload{};  // empty when there is none

  OperatorName() = default;
  OperatorName(std::string ns_, std::string name_, std::string overload_)
      : ns(std::move(ns_)), name(std::move(name_)), overload(std::move(overload_)) {}
  OperatorName(std::string_view qualified_name, std::string_view overload_);
  std::string str() const;  // "mt::add.Tensor", or "mt::add"
  bool operator==(const OperatorName&) const = default;
};

struct FunctionSchema {
  OperatorName op{};
  std::vector<Argument> arguments{};
  std::vector<Argument> returns{};
  // Prints like PyTorch, and parse_schema(s.str()) == s.
  std::string str() const;
  bool is_mutable() const;  // some argument is written to: Tensor(a!)
  size_t num_tensor_like_args() const;  // Tensor, Tensor?, Tensor[], Tensor?[] arguments
  // The argument a return aliases (the same alias set: Tensor(a) or Tensor(a!)), if any.
  std::optional<size_t> aliased_argument(const Argument& ret) const;
  bool operator==(const FunctionSchema&) const = default;
};

// Both throw mt::RuntimeError on malformed text, naming the position, what was expected and what was found.
FunctionSchema parse_schema(std::string_view text);
OperatorName parse_operator_name(std::string_view text);  // "ns::name" or "ns::name.overload"

std::ostream& operator<<(std::ostream& os, const FunctionSchema& schema);

}  // namespace mt
