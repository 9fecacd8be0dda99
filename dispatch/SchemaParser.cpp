// Recursive-descent parser for the schema language, over a lexer that tokenizes the whole text up front.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <type_traits>

#include "dispatch/FunctionSchema.h"
#include "tensor/Error.h"

namespace mt {
namespace {

enum class Tok : uint8_t { Ident, Number, String, Symbol, End };

struct Token {
  Tok kind;
  std::string_view text;
  size_t pos;
  bool is(std::string_view symbol) const { return kind == Tok::Symbol && text == symbol; }
};

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_integer(std::string_view number) { return number.find_first_of(".eE") == std::string_view::npos; }

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::optional<TypeKind> lookup_type(std::string_view name) {
  if (name == "SymInt") return TypeKind::Int;
  for (auto k = static_cast<uint8_t>(TypeKind::Tensor); k <= static_cast<uint8_t>(TypeKind::Any); ++k) {
    if (type_kind_name(static_cast<TypeKind>(k)) == name) return static_cast<TypeKind>(k);
  }
  return std::nullopt;
}

// The kinds whose defaults may be a bare enum constant: `int reduction=Mean`, `ScalarType dtype=long`,
// `MemoryFormat memory_format=contiguous_format`.
bool takes_enum_constant(TypeKind kind) {
  return kind == TypeKind::Int || kind == TypeKind::ScalarType || kind == TypeKind::Layout ||
         kind == TypeKind::MemoryFormat || kind == TypeKind::Device;
}

// A quoted string token without its quotes, with backslash escapes resolved.
std::string unquote(std::string_view token) {
  std::string out;
  for (size_t i = 1; i + 1 < token.size(); ++i) {
    if (token[i] == '\\') ++i;
    out += token[i];
  }
  return out;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) { tokenize(); }

  FunctionSchema schema() {
    FunctionSchema schema;
    schema.op = operator_name();
    schema.arguments = arguments();
    expect("->");
    schema.returns = returns();
    expect_end();
    return schema;
  }

  OperatorName operator_name() {
    OperatorName op;
    op.ns = identifier("a namespace");
    expect("::");
    op.name = identifier("an operator name");
    if (accept(".")) op.overload = identifier("an overload name");
    return op;
  }

  void expect_end() { MT_CHECK(peek().kind == Tok::End, error_at(peek(), "end of schema")); }

 private:
  std::string error(size_t pos, std::string_view expected, std::string_view found) const {
    // Whitespace other than ' ' (tabs, newlines) would throw the caret off its column.
    std::string shown(text_);
    std::replace_if(shown.begin(), shown.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }, ' ');
    return detail::str_cat("Expected ", expected, " but found ", found, " at position ", pos, " in schema:\n", shown,
                           "\n", std::string(pos, ' '), "^");
  }
  std::string error_at(const Token& tok, std::string_view expected) const {
    return error(tok.pos, expected, tok.kind == Tok::End ? "end of schema" : quoted(tok.text));
  }

  void tokenize() {
    const size_t n = text_.size();
    size_t i = 0;
    while (true) {
      while (i < n && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      if (i == n) break;
      const size_t start = i;
      const char c = text_[i];
      Tok kind = Tok::Symbol;
      if (is_ident_start(c)) {
        kind = Tok::Ident;
        while (i < n && is_ident_char(text_[i])) ++i;
      } else if (is_digit(c) || (c == '-' && i + 1 < n && is_digit(text_[i + 1]))) {
        kind = Tok::Number;
        i = scan_number(i);
      } else if (c == '"' || c == '\'') {
        kind = Tok::String;
        i = i + 1;
        while (i < n && text_[i] != c) i += text_[i] == '\\' ? 2 : 1;
        MT_CHECK(i < n, error(start, detail::str_cat("a closing ", c), "an unterminated string"));
        ++i;
      } else if (text_.substr(i, 2) == "::" || text_.substr(i, 2) == "->") {
        i += 2;
      } else {
        MT_CHECK(std::string_view("()[],*?!=.:").find(c) != std::string_view::npos,
                 error(start, "a name, number, string or punctuation", quoted(text_.substr(i, 1))));
        ++i;
      }
      tokens_.push_back({kind, text_.substr(start, i - start), start});
    }
    tokens_.push_back({Tok::End, {}, n});
  }

  // -?digits(.digits)?(e[+-]?digits)?; an 'e' not followed by an exponent is left for the next token.
  size_t scan_number(size_t i) const {
    auto skip_digits = [&] {
      while (i < text_.size() && is_digit(text_[i])) ++i;
    };
    if (text_[i] == '-') ++i;
    skip_digits();
    if (i < text_.size() && text_[i] == '.') {
      ++i;
      skip_digits();
    }
    if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
      size_t exp = i + 1;
      if (exp < text_.size() && (text_[exp] == '+' || text_[exp] == '-')) ++exp;
      if (exp < text_.size() && is_digit(text_[exp])) {
        i = exp;
        skip_digits();
      }
    }
    return i;
  }

  const Token& peek() const { return tokens_[next_]; }
  // Stays on End, so running off the text reports "end of schema" rather than reading past it.
  const Token& next() {
    const Token& tok = tokens_[next_];
    if (tok.kind != Tok::End) ++next_;
    return tok;
  }
  bool accept(std::string_view symbol) {
    if (!peek().is(symbol)) return false;
    next();
    return true;
  }
  void expect(std::string_view symbol) { MT_CHECK(accept(symbol), error_at(peek(), quoted(symbol))); }
  std::string identifier(std::string_view what) {
    MT_CHECK(peek().kind == Tok::Ident, error_at(peek(), what));
    return std::string(next().text);
  }

  template <typename T>
  T number(const Token& tok) const {
    T value{};
    const char* end = tok.text.data() + tok.text.size();
    auto [ptr, ec] = std::from_chars(tok.text.data(), end, value);
    MT_CHECK(ec == std::errc() && ptr == end,
             error_at(tok, std::is_integral_v<T> ? "an integer that fits in 64 bits" : "a finite number"));
    return value;
  }

  std::vector<Argument> arguments() {
    expect("(");
    std::vector<Argument> args;
    if (accept(")")) return args;
    bool kwarg_only = false;
    do {
      if (peek().is("*")) {
        MT_CHECK(!kwarg_only, error_at(peek(), "an argument ('*' may appear only once)"));
        next();
        kwarg_only = true;
        MT_CHECK(peek().is(","), error_at(peek(), "',' and keyword-only arguments after '*'"));
        continue;
      }
      Argument arg;
      arg.kwarg_only = kwarg_only;
      type(arg);
      const Token& name = peek();
      arg.name = identifier("an argument name");
      MT_CHECK(std::none_of(args.begin(), args.end(), [&](const Argument& a) { return a.name == arg.name; }),
               error(name.pos, "a unique argument name", "duplicate " + quoted(name.text)));
      if (accept("=")) default_value(arg);
      args.push_back(std::move(arg));
    } while (accept(","));
    expect(")");
    return args;
  }

  std::vector<Argument> returns() {
    std::vector<Argument> rets;
    if (!accept("(")) {
      rets.push_back(return_value());
      return rets;
    }
    if (accept(")")) return rets;
    do rets.push_back(return_value());
    while (accept(","));
    expect(")");
    return rets;
  }

  Argument return_value() {
    Argument ret;
    type(ret);
    if (peek().kind == Tok::Ident) ret.name = next().text;
    return ret;
  }

  // Base type, then its alias annotation, then `?` / `[N]` suffixes: Tensor(a!)?[]?
  void type(Argument& arg) {
    const Token& tok = peek();
    MT_CHECK(tok.kind == Tok::Ident, error_at(tok, "a type"));
    std::optional<TypeKind> kind = lookup_type(tok.text);
    MT_CHECK(kind, error(tok.pos, "a type name", "unknown type " + quoted(tok.text)));
    next();
    arg.type.kind = *kind;
    if (accept("(")) arg.alias = alias_info();
    const bool question = accept("?");
    if (accept("[")) {
      arg.type.is_list = true;
      arg.type.elem_optional = question;
      if (peek().kind == Tok::Number) {
        const Token& size = next();
        MT_CHECK(is_integer(size.text) && size.text[0] != '-', error_at(size, "a list size"));
        arg.type.list_size = number<int64_t>(size);
      }
      expect("]");
      arg.type.is_optional = accept("?");
    } else {
      arg.type.is_optional = question;
    }
  }

  AliasInfo alias_info() {
    AliasInfo alias;
    alias.set = identifier("an alias set name");
    alias.is_write = accept("!");
    if (accept("->")) {
      expect("*");
      alias.to_wildcard = true;
    }
    expect(")");
    return alias;
  }

  void default_value(Argument& arg) {
    const Token& first = peek();
    std::optional<DefaultValue> value = literal(arg.type);
    const Token& last = tokens_[next_ - 1];
    const std::string_view text = text_.substr(first.pos, last.pos + last.text.size() - first.pos);
    MT_CHECK(value, error(first.pos, "a default value of type " + arg.type.str(), quoted(text)));
    arg.default_value = std::move(value);
    arg.default_text = text;
  }

  // Consumes one literal; nullopt when it is well-formed but does not fit `type`.
  std::optional<DefaultValue> literal(const SchemaType& type) {
    const Token& tok = next();
    const TypeKind kind = type.kind;
    const bool single = !type.is_list;
    if (tok.kind == Tok::Number && is_integer(tok.text)) {
      const auto value = number<int64_t>(tok);
      // PyTorch lets one int stand for a whole int list: `int[2] stride=1` is [1, 1].
      if (type.is_list && kind == TypeKind::Int) return std::vector<int64_t>(type.list_size.value_or(1), value);
      if (single && (kind == TypeKind::Int || kind == TypeKind::Scalar)) return value;
      if (single && kind == TypeKind::Float) return static_cast<double>(value);
    } else if (tok.kind == Tok::Number) {
      if (single && (kind == TypeKind::Float || kind == TypeKind::Scalar)) return number<double>(tok);
    } else if (tok.kind == Tok::String) {
      if (single && kind == TypeKind::Str) return unquote(tok.text);
    } else if (tok.kind == Tok::Ident && tok.text == "None") {
      if (type.is_optional) return std::monostate{};
    } else if (tok.kind == Tok::Ident && (tok.text == "True" || tok.text == "False")) {
      if (single && kind == TypeKind::Bool) return tok.text == "True";
    } else if (tok.kind == Tok::Ident) {
      if (single && takes_enum_constant(kind)) return std::string(tok.text);
    } else {
      MT_CHECK(tok.is("["), error_at(tok, "a default value"));
      return list_literal(type);
    }
    return std::nullopt;
  }

  std::optional<DefaultValue> list_literal(const SchemaType& type) {
    std::vector<int64_t> ints;
    std::vector<double> floats;
    bool all_ints = true;
    if (!accept("]")) {
      do {
        const Token& tok = next();
        MT_CHECK(tok.kind == Tok::Number, error_at(tok, "a number"));
        floats.push_back(number<double>(tok));
        if (is_integer(tok.text)) ints.push_back(number<int64_t>(tok));
        all_ints = all_ints && is_integer(tok.text);
      } while (accept(","));
      expect("]");
    }
    // A sized list takes its size of values, or none: PyTorch's `int[2] stride=[]`, which the op reads as
    // "omitted" (max_pool2d's stride then is its kernel_size).
    if (!type.is_list ||
        (type.list_size && !floats.empty() && static_cast<size_t>(*type.list_size) != floats.size())) {
      return std::nullopt;
    }
    if (type.kind == TypeKind::Int && all_ints) return ints;
    if (type.kind == TypeKind::Float) return floats;
    return std::nullopt;
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t next_ = 0;
};

}  // namespace

FunctionSchema parse_schema(std::string_view text) { return Parser(text).schema(); }

OperatorName parse_operator_name(std::string_view text) {
  Parser parser(text);
  OperatorName op = parser.operator_name();
  parser.expect_end();
  return op;
}

}  // namespace mt
