#include "dispatch/InferSchema.h"

#include <sstream>

namespace mt {

namespace {
bool same_type(const SchemaType& a, const SchemaType& b) {
  return a.kind == b.kind && a.is_list == b.is_list && a.is_optional == b.is_optional &&
         a.elem_optional == b.elem_optional;
}
}  // namespace

std::string InferredSchema::str() const {
  std::ostringstream ss;
  ss << "(";
  for (size_t i = 0; i < arguments.size(); ++i) ss << (i ? ", " : "") << arguments[i].str();
  ss << ") -> ";
  if (returns.size() == 1) return ss.str() + returns[0].str();
  ss << "(";
  for (size_t i = 0; i < returns.size(); ++i) ss << (i ? ", " : "") << returns[i].str();
  ss << ")";
  return ss.str();
}

std::optional<std::string> findSchemaDifferences(const FunctionSchema& expected, const InferredSchema& inferred) {
  std::ostringstream ss;
  if (expected.arguments.size() != inferred.arguments.size()) {
    ss << "The number of arguments is different. " << expected.arguments.size() << " vs " << inferred.arguments.size()
       << ".";
    return ss.str();
  }
  if (expected.returns.size() != inferred.returns.size()) {
    ss << "The number of returns is different. " << expected.returns.size() << " vs " << inferred.returns.size()
       << ".";
    return ss.str();
  }
  for (size_t i = 0; i < inferred.arguments.size(); ++i) {
    if (!same_type(expected.arguments[i].type, inferred.arguments[i])) {
      ss << "Type mismatch in argument " << i + 1 << ": " << expected.arguments[i].type.str() << " vs "
         << inferred.arguments[i].str() << ".";
      return ss.str();
    }
  }
  for (size_t i = 0; i < inferred.returns.size(); ++i) {
    if (!same_type(expected.returns[i].type, inferred.returns[i])) {
      ss << "Type mismatch in return " << i + 1 << ": " << expected.returns[i].type.str() << " vs "
         << inferred.returns[i].str() << ".";
      return ss.str();
    }
  }
  return std::nullopt;
}

}  // namespace mt
