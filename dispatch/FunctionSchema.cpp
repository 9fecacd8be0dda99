#include "dispatch/FunctionSchema.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "tensor/Error.h"

namespace mt {

std::string_view type_kind_name(TypeKind kind) {
  static constexpr std::array<std::string_view, 13> names = {
      "Tensor", "int", "float", "bool", "Scalar", "str", "ScalarType",
      "Device", "Layout", "MemoryFormat", "Generator", "Dimname", "Any"};
  return names[static_cast<size_t>(kind)];
}

namespace {

// Everything after the base name, which is also where an alias annotation ends: Tensor(a)?[].
std::string type_suffix(const SchemaType& type) {
  std::string out;
  if (type.is_list) {
    if (type.elem_optional) out += '?';
    out += '[';
    if (type.list_size) out += std::to_string(*type.list_size);
    out += ']';
  }
  if (type.is_optional) out += '?';
  return out;
}

void print_argument(std::ostream& os, const Argument& arg) {
  os << type_kind_name(arg.type.kind);
  if (arg.alias) {
    os << '(' << arg.alias->set << (arg.alias->is_write ? "!" : "") << (arg.alias->to_wildcard ? " -> *" : "")
       << ')';
  }
  os << type_suffix(arg.type);
  if (!arg.name.empty()) os << ' ' << arg.name;
  if (arg.default_value) os << '=' << arg.default_text;
}

}  // namespace

std::string SchemaType::str() const { return std::string(type_kind_name(kind)) + type_suffix(*this); }

OperatorName::OperatorName(std::string_view qualified_name, std::string_view overload_) {
  constexpr auto npos = std::string_view::npos;
  MT_CHECK_VALUE(qualified_name.find("::") != npos && qualified_name.find('.') == npos,
                 "OperatorName(name, overload) expects a qualified operator name 'ns::name' and the overload apart, "
                 "as in {\"mt::add\", \"Tensor\"}, but got name '", qualified_name, "'; spell a name part by part as "
                 "{ns, name, overload}");
  OperatorName parsed = parse_operator_name(qualified_name);
  ns = std::move(parsed.ns);
  name = std::move(parsed.name);
  overload = std::string(overload_);
}

std::string OperatorName::str() const {
  return ns + "::" + name + (overload.empty() ? "" : "." + overload);
}

std::string FunctionSchema::str() const {
  std::ostringstream ss;
  ss << *this;
  return ss.str();
}

bool FunctionSchema::is_mutable() const {
  return std::any_of(arguments.begin(), arguments.end(),
                     [](const Argument& arg) { return arg.alias && arg.alias->is_write; });
}

std::optional<size_t> FunctionSchema::aliased_argument(const Argument& ret) const {
  if (!ret.alias) return std::nullopt;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const auto& a = arguments[i].alias;
    if (a && a->set == ret.alias->set) return i;
  }
  return std::nullopt;
}

size_t FunctionSchema::num_tensor_like_args() const {
  return std::count_if(arguments.begin(), arguments.end(),
                       [](const Argument& arg) { return arg.type.kind == TypeKind::Tensor; });
}

std::ostream& operator<<(std::ostream& os, const FunctionSchema& schema) {
  os << schema.op.str() << '(';
  bool star_printed = false;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& arg = schema.arguments[i];
    if (i > 0) os << ", ";
    if (arg.kwarg_only && !star_printed) {
      os << "*, ";
      star_printed = true;
    }
    print_argument(os, arg);
  }
  os << ") -> ";
  // A lone unnamed return is written bare, as PyTorch does; anything else needs the tuple parentheses.
  const bool bare = schema.returns.size() == 1 && schema.returns[0].name.empty();
  if (!bare) os << '(';
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    if (i > 0) os << ", ";
    print_argument(os, schema.returns[i]);
  }
  if (!bare) os << ')';
  return os;
}

}  // namespace mt
