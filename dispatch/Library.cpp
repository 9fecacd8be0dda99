#include "dispatch/Library.h"

#include <algorithm>

namespace mt {

Library::Library(Kind kind, std::string ns, std::optional<DispatchKey> key, const char* file, uint32_t line)
    : kind_(kind), ns_(std::move(ns)), key_(key), file_(file), line_(line) {
  MT_CHECK_VALUE(kind == IMPL || ns_ != "_", "The namespace _ is only for MT_LIBRARY_IMPL fallback blocks");
  MT_CHECK_VALUE(kind == IMPL || !key, "Only an IMPL library has a dispatch key");
  if (kind_ == DEF) registrations_.push_back(Dispatcher::singleton().registerLibrary(ns_, debug()));
}

std::string Library::debug() const { return std::string("registered at ") + file_ + ":" + std::to_string(line_); }

OperatorName Library::qualify(std::string_view name) const {
  const bool has_ns = name.find("::") != std::string_view::npos;
  OperatorName op = parse_operator_name(has_ns ? std::string(name) : ns_ + "::" + std::string(name));
  MT_CHECK_VALUE(op.ns == ns_ || ns_ == "_", "Explicitly provided namespace (", op.ns,
                 ") in operator name does not match namespace of enclosing library (", ns_, ")");
  return op;
}

Library& Library::def(std::string_view schema) {
  MT_CHECK(kind_ != IMPL, "def(\"", schema, "\"): an IMPL library cannot define operators; use MT_LIBRARY or "
                          "MT_LIBRARY_FRAGMENT");
  const auto paren = schema.find('(');
  const bool has_ns = schema.substr(0, paren).find("::") != std::string_view::npos;
  FunctionSchema parsed = parse_schema(has_ns ? std::string(schema) : ns_ + "::" + std::string(schema));
  MT_CHECK_VALUE(parsed.op.ns == ns_, "Explicitly provided namespace (", parsed.op.ns,
                 ") in schema string does not match namespace of enclosing library (", ns_, ")");
  registrations_.push_back(Dispatcher::singleton().registerDef(std::move(parsed), debug()));
  return *this;
}

Library& Library::def(std::string_view schema, CppFunction f) {
  def(schema);
  const auto paren = schema.find('(');
  return impl(schema.substr(0, paren), std::move(f));
}

Library& Library::impl(std::string_view name, CppFunction f) {
  MT_CHECK(ns_ != "_", "impl(\"", name, "\"): a fallback library (namespace _) can only register fallbacks");
  std::optional<DispatchKey> key = f.dispatchKey() ? f.dispatchKey() : key_;
  MT_CHECK_VALUE(!(key_ && f.dispatchKey() && *key_ != *f.dispatchKey()), "impl(\"", name,
                 "\"): the kernel's dispatch key ", *f.dispatchKey(), " conflicts with the library's key ", *key_);
  registrations_.push_back(
      Dispatcher::singleton().registerImpl(qualify(name), key, std::move(f).release(), debug()));
  return *this;
}

Library& Library::fallback(CppFunction f) {
  MT_CHECK(kind_ == IMPL && key_, "fallback(): only an IMPL library with a dispatch key can register a fallback");
  MT_CHECK(ns_ == "_", "fallback(): use the namespace _ for fallbacks, as they apply to every operator (got ", ns_,
           ")");
  registrations_.push_back(Dispatcher::singleton().registerFallback(*key_, std::move(f).release(), debug()));
  return *this;
}

void Library::reset() {
  while (!registrations_.empty()) {
    registrations_.back().reset();
    registrations_.pop_back();
  }
}

}  // namespace mt
