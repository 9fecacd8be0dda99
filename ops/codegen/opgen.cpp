// Generates the typed C++ API of every operator from ops/native_functions/*.txt, the one place each
// operator's schema is written (PyTorch's torchgen, in miniature). Run by the build:
//   opgen <output dir> <declaration files...>
// and writes per op ops/api/<name>_ops.h (a struct per overload: its typed handle, call, redispatch) and
// ops/api/<name>.h (the free functions mt::add(...)); ops/Functions.h (all of them); ops/TensorMethods.h
// (declarations spliced into class Tensor) and TensorMethods.cpp (their definitions); ops/Tags.h (the ops
// of each tag), ops/UnaryOpsList.h (the unary ops' table) and ops/families/<f>.h (each stub family's ops);
// RegisterSchemas.cpp (the MT_LIBRARY(mt) block) and RegisterInplaceOrView.cpp.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dispatch/FunctionSchema.h"

namespace {

using mt::Argument;
using mt::FunctionSchema;
using mt::SchemaType;
using mt::TypeKind;

struct OpDecl {
  FunctionSchema schema;
  std::string text;  // the schema as written, namespace added
  bool function = false;
  bool method = false;
  // Tags (ops/native_functions/README.md).
  bool pointwise = false;
  std::string autocast_cpu, autocast_cuda;  // a CastPolicy's name, or empty
  // unary / unary_float: the op is one of UnaryOps.cpp's (a stub, three forms); unary_float computes integer
  // and bool inputs in the default float. unary_check: the function there that rejects input dtypes.
  bool unary = false, unary_float = false;
  std::string unary_check;
  // family=<f>: the op is one of a stub family's (one enum value and one shared kernel for the functional,
  // in-place and out= forms); the generated ops/families/<f>.h lists the family's ops.
  std::string family;
};

[[noreturn]] void fail(const std::string& msg) {
  std::cerr << "opgen: " << msg << "\n";
  std::exit(1);
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The values of an autocast_cpu= or autocast_cuda= tag: CastPolicy's enumerators
// (functorch/autocast/AutocastMode.h), which the generated ops/Tags.h names.
constexpr std::string_view kCastPolicies[] = {"lower_precision_fp", "fp32", "fp32_set_opt_dtype", "promote", "banned"};

// The values of a unary_check= tag: the dtype checks in ops/UnaryOps.cpp (any_dtype without the tag).
constexpr std::string_view kUnaryChecks[] = {"not_bool", "floating_only", "check_neg"};

// The values of a family= tag: the stub families whose ops the generator lists (ops/native_functions/README.md).
constexpr std::string_view kFamilies[] = {"binary_math"};

template <size_t N>
bool one_of(const std::string_view (&values)[N], const std::string& v) {
  return std::find(std::begin(values), std::end(values), v) != std::end(values);
}
template <size_t N>
std::string names_of(const std::string_view (&values)[N]) {
  std::string names;
  for (const auto v : values) names += (names.empty() ? "" : ", ") + std::string(v);
  return names;
}

std::vector<OpDecl> read_decls(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path);
  std::vector<OpDecl> decls;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const auto bar = line.find('|');
    OpDecl d;
    d.text = "mt::" + trim(line.substr(0, bar));
    try {
      d.schema = mt::parse_schema(d.text);
    } catch (const std::exception& e) {
      fail(path + ":" + std::to_string(lineno) + ": " + e.what());
    }
    const std::string where = path + ":" + std::to_string(lineno);
    const auto tag_bar = bar == std::string::npos ? bar : line.find('|', bar + 1);
    std::istringstream variants(bar == std::string::npos ? "function" : line.substr(bar + 1, tag_bar - bar - 1));
    for (std::string v; variants >> v;) {
      if (v == "function") d.function = true;
      else if (v == "method") d.method = true;
      else fail(where + ": unknown variant '" + v + "'");
    }
    std::istringstream tags(tag_bar == std::string::npos ? "" : line.substr(tag_bar + 1));
    for (std::string t; tags >> t;) {
      const auto eq = t.find('=');
      const std::string key = t.substr(0, eq), value = eq == std::string::npos ? "" : t.substr(eq + 1);
      const bool policy = one_of(kCastPolicies, value);
      if (t == "pointwise") d.pointwise = true;
      else if (t == "unary") d.unary = true;
      else if (t == "unary_float") d.unary_float = true;
      else if (key == "unary_check" && one_of(kUnaryChecks, value)) d.unary_check = value;
      else if (key == "family" && one_of(kFamilies, value)) d.family = value;
      else if (key == "autocast_cpu" && policy) d.autocast_cpu = value;
      else if (key == "autocast_cuda" && policy) d.autocast_cuda = value;
      else fail(where + ": unknown tag '" + t + "' (expected pointwise, unary, unary_float, unary_check=<check>, " +
                "family=<family>, autocast_cpu=<policy> or autocast_cuda=<policy>; a check being one of " +
                names_of(kUnaryChecks) + ", a family one of " + names_of(kFamilies) + ", a policy one of " +
                names_of(kCastPolicies) + ")");
    }
    if (d.unary && d.unary_float) fail(where + ": an op is tagged unary or unary_float, not both");
    if (!d.unary_check.empty() && !d.unary && !d.unary_float) fail(where + ": unary_check= needs unary or unary_float");
    decls.push_back(std::move(d));
  }
  return decls;
}

bool is_mutable_tensor(const Argument& a) { return a.type.kind == TypeKind::Tensor && a.alias && a.alias->is_write; }

// A view op returns one tensor aliasing self (`Tensor(a) self -> Tensor(a)`). detach is the exception:
// its result is a view that autograd must not connect to self.
bool is_view_op(const FunctionSchema& s) {
  if (s.op.name == "detach" || s.returns.size() != 1 || s.arguments.empty()) return false;
  const Argument& ret = s.returns[0];
  const Argument& self = s.arguments[0];
  return ret.type.kind == TypeKind::Tensor && ret.alias && !ret.alias->is_write && self.alias &&
         self.alias->set == ret.alias->set;
}

std::string base_cpp_type(const SchemaType& t) {
  switch (t.kind) {
    case TypeKind::Tensor:
      return "Tensor";
    case TypeKind::Int:
      return "int64_t";
    case TypeKind::Float:
      return "double";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Scalar:
      return "Scalar";
    case TypeKind::Str:
      return "std::string_view";
    case TypeKind::ScalarType:
      return "ScalarType";
    case TypeKind::Device:
      return "Device";
    case TypeKind::Generator:
      return "Generator*";
    default:
      fail("type " + t.str() + " has no C++ type in microtorch yet");
  }
}

// The C++ parameter type for a schema argument (PyTorch's conventions). `api`: the type the generated
// functions and methods take, where `int[]?` is OptionalIntArrayRef (safe with `{1}` and `1`); kernels and
// the dispatcher see std::optional<IntArrayRef>, which it converts to.
std::string arg_cpp_type(const Argument& a, bool api = false) {
  const SchemaType& t = a.type;
  if (api && t.is_list && t.is_optional && t.kind == TypeKind::Int) return "OptionalIntArrayRef";
  if (t.is_list) {
    if (t.elem_optional) fail("Tensor?[] is not supported yet");
    const std::string list = t.kind == TypeKind::Int     ? "IntArrayRef"
                             : t.kind == TypeKind::Float ? "ArrayRef<double>"
                             : t.kind == TypeKind::Tensor ? "ArrayRef<Tensor>"
                                                          : (fail("unsupported list " + t.str()), "");
    return t.is_optional ? "std::optional<" + list + ">" : list;
  }
  if (is_mutable_tensor(a)) return "Tensor&";
  if (t.kind == TypeKind::Generator) {
    if (!t.is_optional) fail("a Generator argument must be optional (Generator?): nullptr is the default generator");
    return "Generator*";
  }
  const std::string base = base_cpp_type(t);
  const bool by_ref = t.kind == TypeKind::Tensor || t.kind == TypeKind::Scalar;
  if (t.is_optional) return by_ref ? "const std::optional<" + base + ">&" : "std::optional<" + base + ">";
  return by_ref ? "const " + base + "&" : base;
}

std::string return_cpp_type(const FunctionSchema& s) {
  if (s.returns.empty()) return "void";
  auto one = [](const Argument& r) {
    if (r.type.is_list) return std::string("std::vector<") + base_cpp_type(r.type) + ">";
    if (is_mutable_tensor(r)) return std::string("Tensor&");
    return base_cpp_type(r.type);
  };
  if (s.returns.size() == 1) return one(s.returns[0]);
  std::string out = "std::tuple<";
  for (size_t i = 0; i < s.returns.size(); ++i) out += (i ? ", " : "") + one(s.returns[i]);
  return out + ">";
}

std::string cpp_default(const Argument& a) {
  const std::string& d = a.default_text;
  if (d == "None") return a.type.kind == TypeKind::Generator ? "nullptr" : "std::nullopt";
  if (d == "True") return "true";
  if (d == "False") return "false";
  if (d == "Mean" || d == "Sum") return "Reduction::" + d;
  if (a.type.is_list) {
    if (d.front() == '[') return "{" + d.substr(1, d.size() - 2) + "}";
    return "{" + d + "}";
  }
  if (d.front() == '\'') return "\"" + d.substr(1, d.size() - 2) + "\"";
  return d;
}

// Unique C++ identifier of an overload: add.Tensor -> add_Tensor, relu -> relu.
std::string op_id(const FunctionSchema& s) {
  return s.op.overload.empty() ? s.op.name : s.op.name + "_" + s.op.overload;
}

// The C++ function name: out= overloads get an _out suffix, as in PyTorch's at::add_out.
bool is_out_overload(const FunctionSchema& s) {
  for (const auto& a : s.arguments)
    if (a.is_out()) return true;
  return false;
}
std::string function_name(const FunctionSchema& s) { return is_out_overload(s) ? s.op.name + "_out" : s.op.name; }

// Parameters in C++ order: out arguments first for out= overloads (as at::add_out(out, self, other)).
std::vector<const Argument*> cpp_order(const FunctionSchema& s) {
  std::vector<const Argument*> order;
  for (const auto& a : s.arguments)
    if (a.is_out()) order.push_back(&a);
  for (const auto& a : s.arguments)
    if (!a.is_out()) order.push_back(&a);
  return order;
}

std::string params(const std::vector<const Argument*>& args, bool with_defaults, size_t skip_index = SIZE_MAX) {
  std::string out;
  // A default is only legal when every later parameter has one too.
  size_t first_default = args.size();
  while (first_default > 0 && args[first_default - 1]->default_value) --first_default;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i == skip_index) continue;
    if (!out.empty()) out += ", ";
    out += arg_cpp_type(*args[i], /*api=*/true) + " " + args[i]->name;
    if (with_defaults && i >= first_default) out += " = " + cpp_default(*args[i]);
  }
  return out;
}

std::string names(const FunctionSchema& s) {
  std::string out;
  for (const auto& a : s.arguments) out += (out.empty() ? "" : ", ") + a.name;
  return out;
}

std::string schema_order_params(const FunctionSchema& s) {
  std::vector<const Argument*> args;
  for (const auto& a : s.arguments) args.push_back(&a);
  return params(args, false);
}

std::string signature_type(const FunctionSchema& s) {
  std::string out = return_cpp_type(s) + "(";
  for (size_t i = 0; i < s.arguments.size(); ++i) out += (i ? ", " : "") + arg_cpp_type(s.arguments[i]);
  return out + ")";
}

void write_file(const std::filesystem::path& path, const std::string& content) {
  // Rewrite only on change, so an unchanged declaration file rebuilds nothing.
  std::ifstream old(path);
  std::stringstream existing;
  existing << old.rdbuf();
  if (old && existing.str() == content) return;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << content;
}

const char* kHeader = "// Generated by ops/codegen/opgen.cpp from ops/native_functions/*.txt. Do not edit.\n";

// The header of an op's API: its name without an in-place underscore (add, add_ and add.out share
// ops/api/add.h, as PyTorch's ATen/ops/add.h).
std::string api_name(const FunctionSchema& s) {
  const std::string& n = s.op.name;
  return n.size() > 1 && n.back() == '_' ? n.substr(0, n.size() - 1) : n;
}

bool uses_reduction(const FunctionSchema& s) {
  for (const auto& a : s.arguments)
    if (a.default_text == "Mean" || a.default_text == "Sum") return true;
  return false;
}

// ops/api/<name>_ops.h: a struct per overload (its typed handle, call and redispatch), for the layers that
// redispatch and register kernels; ops/api/<name>.h adds the free functions. A file includes the headers
// of the ops it names, so that a new op rebuilds only what uses it.
std::string gen_api_ops_header(const std::vector<const OpDecl*>& decls) {
  std::ostringstream o;
  bool reduction = false;
  for (const auto* d : decls) reduction |= uses_reduction(d->schema);
  o << kHeader << "#pragma once\n#include <optional>\n#include <string_view>\n#include <tuple>\n#include <vector>\n\n"
    << "#include \"dispatch/Dispatcher.h\"\n" << (reduction ? "#include \"ops/Reduction.h\"\n" : "")
    << "\nnamespace mt::ops {\n";
  for (const auto* d : decls) {
    const auto& s = d->schema;
    const std::string ret = return_cpp_type(s);
    o << "\n// " << d->text << "\nstruct " << op_id(s) << " {\n"
      << "  using schema = " << signature_type(s) << ";\n"
      << "  static constexpr const char* name = \"mt::" << s.op.name << "\";\n"
      << "  static constexpr const char* overload_name = \"" << s.op.overload << "\";\n"
      << "  static const TypedOperatorHandle<schema>& handle() {\n"
      << "    static const auto h = Dispatcher::singleton().findSchemaOrThrow(name, overload_name).typed<schema>();\n"
      << "    return h;\n  }\n"
      << "  static " << ret << " call(" << schema_order_params(s) << ") {\n"
      << "    return handle().call(" << names(s) << ");\n  }\n"
      << "  static " << ret << " redispatch(DispatchKeySet ks" << (s.arguments.empty() ? "" : ", ")
      << schema_order_params(s) << ") {\n"
      << "    return handle().redispatch(ks" << (s.arguments.empty() ? "" : ", ") << names(s) << ");\n  }\n};\n";
  }
  o << "\n}  // namespace mt::ops\n";
  return o.str();
}

std::string gen_api_header(const std::string& name, const std::vector<const OpDecl*>& decls) {
  std::ostringstream o;
  o << kHeader << "#pragma once\n#include \"ops/api/" << name << "_ops.h\"\n\nnamespace mt {\n";
  for (const auto* d : decls) {
    if (!d->function) continue;
    const auto& s = d->schema;
    o << "\ninline " << return_cpp_type(s) << " " << function_name(s) << "(" << params(cpp_order(s), true)
      << ") {\n  return ops::" << op_id(s) << "::call(" << names(s) << ");\n}\n";
  }
  o << "\n}  // namespace mt\n";
  return o.str();
}

// ops/Functions.h: every op's API, for users (<microtorch/microtorch.h>). The library and its tests
// include ops/api/<name>.h instead.
std::string gen_functions(const std::vector<std::string>& api_names) {
  std::ostringstream o;
  o << kHeader << "#pragma once\n";
  for (const auto& n : api_names) o << "#include \"ops/api/" << n << ".h\"\n";
  return o.str();
}

// The index of `self` among the C++ parameters, or SIZE_MAX.
size_t self_index(const std::vector<const Argument*>& args) {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i]->name == "self") return i;
  return SIZE_MAX;
}

std::string gen_method_decls(const std::vector<OpDecl>& decls) {
  std::ostringstream o;
  o << kHeader << "// Included inside class mt::Tensor.\n";
  for (const auto& d : decls) {
    if (!d.method) continue;
    const auto args = cpp_order(d.schema);
    if (self_index(args) == SIZE_MAX) fail(d.text + ": a method needs a `self` argument");
    o << return_cpp_type(d.schema) << " " << function_name(d.schema) << "("
      << params(args, true, self_index(args)) << ") const;\n";
  }
  return o.str();
}

// The methods' definitions, compiled once into the library: a file that calls t.add(u) needs no op header.
std::string gen_method_defs(const std::vector<OpDecl>& decls) {
  std::ostringstream o;
  o << kHeader << "#include \"tensor/Tensor.h\"\n";
  std::set<std::string> included;
  for (const auto& d : decls)
    if (d.method && included.insert(api_name(d.schema)).second)
      o << "#include \"ops/api/" << api_name(d.schema) << "_ops.h\"\n";
  o << "\nnamespace mt {\n";
  for (const auto& d : decls) {
    if (!d.method) continue;
    const auto& s = d.schema;
    const auto args = cpp_order(s);
    std::string call_args;
    for (const auto& a : s.arguments) {
      const bool is_self = a.name == "self";
      const std::string self_expr = is_mutable_tensor(a) ? "const_cast<Tensor&>(*this)" : "*this";
      call_args += (call_args.empty() ? "" : ", ") + (is_self ? self_expr : a.name);
    }
    o << "\n" << return_cpp_type(s) << " Tensor::" << function_name(s) << "("
      << params(args, false, self_index(args)) << ") const {\n  return ops::" << op_id(s) << "::call(" << call_args
      << ");\n}\n";
  }
  o << "\n}  // namespace mt\n";
  return o.str();
}

// "name.overload", as the dispatcher and m.impl name an overload.
std::string qualified_name(const FunctionSchema& s) {
  return s.op.overload.empty() ? s.op.name : s.op.name + "." + s.op.overload;
}

// ops/Tags.h: the ops that carry each tag, as X-macros, for the layers that register a kernel per tagged op
// (the pointwise batching rule, the autocast policies).
std::string gen_tags(const std::vector<OpDecl>& decls) {
  std::ostringstream o;
  o << kHeader << "#pragma once\n\n// X(\"name.overload\") for each op tagged `pointwise`.\n#define MT_POINTWISE_OPS(X)";
  for (const auto& d : decls)
    if (d.pointwise) o << " \\\n  X(\"" << qualified_name(d.schema) << "\")";
  struct Device {
    const char *tag, *macro;
    std::string OpDecl::*policy;
  };
  for (const Device device :
       {Device{"cpu", "CPU", &OpDecl::autocast_cpu}, Device{"cuda", "CUDA", &OpDecl::autocast_cuda}}) {
    o << "\n\n// X(\"name.overload\", policy) for each op tagged `autocast_" << device.tag
      << "=policy`.\n#define MT_AUTOCAST_" << device.macro << "_OPS(X)";
    for (const auto& d : decls) {
      const std::string& policy = d.*device.policy;
      if (!policy.empty()) o << " \\\n  X(\"" << qualified_name(d.schema) << "\", " << policy << ")";
    }
  }
  o << "\n";
  return o.str();
}

// ops/UnaryOpsList.h: X(name, floating, check) for each op tagged unary or unary_float, for ops/UnaryOps.h and
// .cpp to declare, define and register its stub and three forms. Apart from Tags.h, so that a new op of
// another kind rebuilds no unary kernel.
std::string gen_unary_ops(const std::vector<OpDecl>& decls) {
  std::ostringstream o;
  o << kHeader << "#pragma once\n\n#define MT_UNARY_OPS(X)";
  for (const auto& d : decls) {
    if (!d.unary && !d.unary_float) continue;
    o << " \\\n  X(" << d.schema.op.name << ", " << (d.unary_float ? "true" : "false") << ", "
      << (d.unary_check.empty() ? "any_dtype" : d.unary_check) << ")";
  }
  o << "\n";
  return o.str();
}

// The arguments an out= overload shares with its functional form: all but the out arguments.
std::vector<Argument> inputs_of(const FunctionSchema& s) {
  std::vector<Argument> inputs;
  for (const auto& a : s.arguments)
    if (!a.is_out()) inputs.push_back(a);
  return inputs;
}

bool same_types(const std::vector<Argument>& a, const std::vector<Argument>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Argument& x, const Argument& y) { return x.type == y.type; });
}

// ops/families/<f>.h for each family= tag: X(name, "functional", "in-place", "out=") per tagged op, the
// overloads as m.impl names them ("" where the op has no in-place form, as logaddexp). The generator finds
// an op's siblings by PyTorch's naming: the in-place form is name_ with the same overload name and the same
// argument types, the out= form the overload of name whose arguments besides out are the functional's. One
// header per family, so that a new op of one family rebuilds no other family's kernels.
void write_families(const std::filesystem::path& dir, const std::vector<OpDecl>& decls) {
  std::map<std::string, std::ostringstream> headers;
  for (const auto& f : kFamilies) headers[std::string(f)];
  for (const auto& d : decls) {
    if (d.family.empty()) continue;
    const FunctionSchema& s = d.schema;
    if (is_out_overload(s) || s.op.name.back() == '_')
      fail(qualified_name(s) + ": tag family= on the functional overload, not its in-place or out= form");
    std::string inplace, out;
    for (const auto& o : decls) {
      const FunctionSchema& t = o.schema;
      if (t.op.name == s.op.name + "_" && t.op.overload == s.op.overload && same_types(t.arguments, s.arguments))
        inplace = qualified_name(t);
      if (t.op.name == s.op.name && is_out_overload(t) && same_types(inputs_of(t), s.arguments)) out = qualified_name(t);
    }
    if (out.empty())
      fail(qualified_name(s) + " (tagged family=" + d.family + ") has no out= overload: declare " + s.op.name +
           ".out with its arguments and `*, Tensor(a!) out`");
    headers[d.family] << " \\\n  X(" << s.op.name << ", \"" << qualified_name(s) << "\", \"" << inplace << "\", \""
                      << out << "\")";
  }
  for (auto& [family, ops] : headers) {
    std::string macro = "MT_";
    for (const char c : family) macro += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    write_file(dir / (family + ".h"), std::string(kHeader) + "#pragma once\n\n// X(name, \"functional\", " +
                                          "\"in-place\" or \"\", \"out=\") for each op tagged family=" + family +
                                          ".\n#define " + macro + "_OPS(X)" + ops.str() + "\n");
  }
}

std::string gen_registration(const std::vector<OpDecl>& decls) {
  std::ostringstream o;
  o << kHeader << "#include \"dispatch/Library.h\"\n\nMT_LIBRARY(mt, m) {\n";
  for (const auto& d : decls) o << "  m.def(\"" << d.text << "\");\n";
  o << "}\n";
  return o.str();
}

// Every operator that writes to a tensor argument gets the autograd layer's ADInplaceOrView kernel,
// which bumps the version counters of what it wrote, and every view op the one that records its
// result's base (PyTorch generates one such kernel per op).
std::string gen_inplace_or_view_registration(const std::vector<OpDecl>& decls) {
  std::ostringstream o;
  o << kHeader << "#include \"autograd/InplaceOrView.h\"\n#include \"dispatch/Library.h\"\n\n"
    << "MT_LIBRARY_IMPL(mt, ADInplaceOrView, m) {\n";
  for (const auto& d : decls) {
    bool mutates = false;
    for (const auto& a : d.schema.arguments) mutates |= is_mutable_tensor(a);
    const char* kernel = mutates ? "bump_versions_of_written_tensors" : is_view_op(d.schema) ? "track_view_bases" : nullptr;
    if (!kernel) continue;
    o << "  m.impl(\"" << qualified_name(d.schema) << "\", mt::autograd::" << kernel << "());\n";
  }
  o << "}\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) fail("usage: opgen <output dir> <declaration files...>");
  const std::filesystem::path out = argv[1];
  std::vector<OpDecl> decls;
  for (int i = 2; i < argc; ++i) {
    auto file_decls = read_decls(argv[i]);
    decls.insert(decls.end(), file_decls.begin(), file_decls.end());
  }
  // One header per op name, in the order of the declarations; headers of ops no longer declared go.
  std::vector<std::string> api_names;
  std::map<std::string, std::vector<const OpDecl*>> by_name;
  for (const auto& d : decls) {
    auto& group = by_name[api_name(d.schema)];
    if (group.empty()) api_names.push_back(api_name(d.schema));
    group.push_back(&d);
  }
  const std::filesystem::path api = out / "ops/api";
  std::set<std::string> written;
  for (const auto& n : api_names) {
    write_file(api / (n + "_ops.h"), gen_api_ops_header(by_name[n]));
    write_file(api / (n + ".h"), gen_api_header(n, by_name[n]));
    written.insert({n + "_ops.h", n + ".h"});
  }
  for (const auto& f : std::filesystem::directory_iterator(api))
    if (!written.count(f.path().filename().string())) std::filesystem::remove(f.path());
  write_file(out / "ops/Functions.h", gen_functions(api_names));
  write_file(out / "ops/TensorMethods.h", gen_method_decls(decls));
  write_file(out / "TensorMethods.cpp", gen_method_defs(decls));
  write_file(out / "ops/Tags.h", gen_tags(decls));
  write_file(out / "ops/UnaryOpsList.h", gen_unary_ops(decls));
  write_families(out / "ops/families", decls);
  write_file(out / "RegisterSchemas.cpp", gen_registration(decls));
  write_file(out / "RegisterInplaceOrView.cpp", gen_inplace_or_view_registration(decls));
  return 0;
}
