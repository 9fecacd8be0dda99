#include "dispatch/FunctionSchema.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "dispatch_test_helpers.h"
#include "tensor/Error.h"
#include "ops/api/std.h"

namespace {

using mt::Argument;
using mt::DefaultValue;
using mt::FunctionSchema;
using mt::TypeKind;
using mt::parse_schema;
using mt_test::contains;
using mt_test::message_of;

// The message parse_schema throws as mt::RuntimeError for `schema`; a failure if it parses.
std::string parse_error(std::string_view schema) {
  try {
    parse_schema(schema);
  } catch (const mt::RuntimeError& e) {
    return e.what();
  }
  ADD_FAILURE() << "parsed without error: " << schema;
  return "";
}

// The error names what was expected and what was found at `pos`, and draws a caret under that column.
void expect_error(std::string_view schema, size_t pos, const std::string& expected, const std::string& found) {
  SCOPED_TRACE(std::string(schema));
  const std::string msg = parse_error(schema);
  EXPECT_NE(msg.find("Expected " + expected), std::string::npos) << msg;
  EXPECT_NE(msg.find("but found " + found), std::string::npos) << msg;
  EXPECT_NE(msg.find("at position " + std::to_string(pos)), std::string::npos) << msg;
  const std::string caret_line = "\n" + std::string(pos, ' ') + "^";
  EXPECT_TRUE(msg.size() >= caret_line.size() && msg.ends_with(caret_line)) << msg;
}

const Argument& arg(const FunctionSchema& schema, std::string_view name) {
  for (const Argument& a : schema.arguments) {
    if (a.name == name) return a;
  }
  throw std::runtime_error("no argument " + std::string(name));
}

template <typename T>
T default_of(const FunctionSchema& schema, std::string_view name) {
  const Argument& a = arg(schema, name);
  EXPECT_TRUE(a.default_value.has_value()) << name;
  EXPECT_TRUE(std::holds_alternative<T>(*a.default_value)) << name;
  return std::get<T>(*a.default_value);
}

struct RoundTrip {
  std::string_view text;
  std::string_view printed = {};  // when it differs from text: SymInt prints as int
};

const std::vector<RoundTrip> kPyTorchSchemas = {
    {"aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"},
    {"aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"},
    {"aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"},
    {"aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"},
    {"aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"},
    {"aten::sum.dim_DimnameList(Tensor self, Dimname[1] dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"},
    {"aten::cat(Tensor[] tensors, int dim=0) -> Tensor"},
    {"aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor"},
    {"aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"},
    {"aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
     "aten::empty.memory_format(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"},
    {"aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, "
     "SymInt ignore_index=-100, float label_smoothing=0.0) -> Tensor",
     "aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, "
     "int ignore_index=-100, float label_smoothing=0.0) -> Tensor"},
    {"aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
     "aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]"},
    {"aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]"},
    {"aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor"},
    {"aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
     "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
     "aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
     "float eps=1e-05, bool cudnn_enable=True) -> Tensor"},
    {"aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, "
     "SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
     "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, "
     "int[2] dilation=1, int groups=1) -> Tensor"},
    {"aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
     "Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)"},
    {"aten::native_layer_norm_backward(Tensor grad_out, Tensor input, int[] normalized_shape, Tensor mean, "
     "Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"},
    {"aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
     "MemoryFormat? memory_format=None) -> Tensor(a)"},
    {"aten::randint(SymInt high, SymInt[] size, *, ScalarType? dtype=long, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None) -> Tensor",
     "aten::randint(int high, int[] size, *, ScalarType? dtype=long, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None) -> Tensor"},
    {"aten::randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None) -> Tensor"},
    {"aten::_foreach_add.List_out(Tensor[] self, Tensor[] other, *, Scalar alpha=1, Tensor(a!)[] out) -> ()"},
    {"aten::_amp_foreach_non_finite_check_and_unscale_(Tensor(a!)[] self, Tensor(b!) found_inf, "
     "Tensor inv_scale) -> ()"},
    {"aten::__and__.Scalar(Tensor self, Scalar other) -> Tensor"},
    {"aten::is_nonzero(Tensor self) -> bool"},
    {"aten::size.int(Tensor self, int dim) -> int"},
    {"aten::item(Tensor self) -> Scalar"},
    {"aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor"},
    {"aten::pdist(Tensor input, float p=2) -> Tensor"},
    {"aten::gelu(Tensor self, *, str approximate='none') -> Tensor"},
    {"aten::std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor"},
    {"aten::upsample_nearest2d.vec(Tensor input, int[]? output_size, float[]? scale_factors) -> Tensor"},
    {"aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> "
     "(Tensor values, Tensor indices)"},
    {"aten::nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index) -> "
     "(Tensor output, Tensor total_weight)"},
    {"aten::huber_loss(Tensor self, Tensor target, int reduction=Mean, float delta=1.0) -> Tensor"},
    {"aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor"},
    {"aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)"},
    {"aten::zero_(Tensor(a!) self) -> Tensor(a!)"},
    {"aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, "
     "bool sparse=False) -> Tensor"},
    {"aten::mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor"},
    {"aten::_nested_tensor_from_tensor_list(Tensor[] list, ScalarType? dtype=None, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None) -> Tensor"},
};

// The table's schema for `op`, e.g. pytorch("aten::add.Tensor").
FunctionSchema pytorch(std::string_view op) {
  for (const RoundTrip& rt : kPyTorchSchemas) {
    if (rt.text.starts_with(op) && rt.text.substr(op.size()).starts_with("(")) return parse_schema(rt.text);
  }
  throw std::runtime_error("no PyTorch schema for " + std::string(op));
}

TEST(FunctionSchemaParser, RealPyTorchSchemasPrintBackAsWrittenAndReparseEqual) {
  for (const RoundTrip& rt : kPyTorchSchemas) {
    SCOPED_TRACE(std::string(rt.text));
    const FunctionSchema schema = parse_schema(rt.text);
    const std::string printed = schema.str();
    EXPECT_EQ(printed, rt.printed.empty() ? rt.text : rt.printed);
    EXPECT_EQ(parse_schema(printed), schema);
  }
}

TEST(FunctionSchemaParser, StreamOperatorPrintsTheSameAsStr) {
  const FunctionSchema schema = pytorch("aten::add.Tensor");
  std::ostringstream ss;
  ss << schema;
  EXPECT_EQ(ss.str(), schema.str());
}

TEST(FunctionSchemaParser, OperatorNameSplitsNamespaceNameAndOverload) {
  const FunctionSchema schema = parse_schema("aten::add.Tensor(Tensor self) -> Tensor");
  EXPECT_EQ(schema.op, (mt::OperatorName{"aten", "add", "Tensor"}));
  EXPECT_EQ(parse_schema("mt::__and__(Tensor self) -> Tensor").op, (mt::OperatorName{"mt", "__and__", ""}));
  EXPECT_EQ(schema.op.str(), "aten::add.Tensor");
}

// c10's spelling {"ns::op", "overload"} means what it does in PyTorch; the same two strings without "::"
// (which as parts would be ns and name) are an error, never a name that silently matches nothing.
TEST(FunctionSchemaParser, OperatorNameTakesAQualifiedNameAndAnOverload) {
  EXPECT_EQ((mt::OperatorName{"aten::add", "Tensor"}), (mt::OperatorName{"aten", "add", "Tensor"}));
  EXPECT_EQ((mt::OperatorName{"mt::relu", ""}).str(), "mt::relu");
  EXPECT_EQ(message_of<mt::ValueError>([] { mt::OperatorName("mt", "add"); }),
            "OperatorName(name, overload) expects a qualified operator name 'ns::name' and the overload apart, as in "
            "{\"mt::add\", \"Tensor\"}, but got name 'mt'; spell a name part by part as {ns, name, overload}");
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { mt::OperatorName("mt::add.Tensor", ""); }),
                       "but got name 'mt::add.Tensor'"));
  EXPECT_THROW(mt::OperatorName("mt::", ""), mt::RuntimeError);
}

TEST(FunctionSchemaParser, ParseOperatorNameAcceptsNameWithAndWithoutOverload) {
  EXPECT_EQ(mt::parse_operator_name("aten::add.Tensor"), (mt::OperatorName{"aten", "add", "Tensor"}));
  EXPECT_EQ(mt::parse_operator_name(" mt::_softmax "), (mt::OperatorName{"mt", "_softmax", ""}));
  EXPECT_EQ(mt::parse_operator_name("mt::_softmax").str(), "mt::_softmax");
  EXPECT_THROW(mt::parse_operator_name("add"), mt::RuntimeError);
  EXPECT_THROW(mt::parse_operator_name("aten::add."), mt::RuntimeError);
  EXPECT_THROW(mt::parse_operator_name("aten::add(Tensor self)"), mt::RuntimeError);
}

TEST(FunctionSchemaParser, ArgumentsAfterStarAreKeywordOnly) {
  const FunctionSchema schema = pytorch("aten::add.Tensor");
  ASSERT_EQ(schema.arguments.size(), 3u);
  EXPECT_FALSE(arg(schema, "self").kwarg_only);
  EXPECT_FALSE(arg(schema, "other").kwarg_only);
  EXPECT_TRUE(arg(schema, "alpha").kwarg_only);
  EXPECT_EQ(arg(schema, "alpha").type.kind, TypeKind::Scalar);
  EXPECT_EQ(default_of<int64_t>(schema, "alpha"), 1);
  EXPECT_EQ(arg(schema, "alpha").default_text, "1");
  EXPECT_FALSE(arg(schema, "self").default_value.has_value());
}

TEST(FunctionSchemaParser, OutArgumentIsKeywordOnlyAndWritten) {
  const FunctionSchema schema = pytorch("aten::add.out");
  const Argument& out = arg(schema, "out");
  EXPECT_TRUE(out.is_out());
  EXPECT_EQ(out.alias, (mt::AliasInfo{"a", true}));
  EXPECT_FALSE(arg(schema, "self").is_out());
  EXPECT_TRUE(schema.is_mutable());
  ASSERT_EQ(schema.returns.size(), 1u);
  EXPECT_EQ(schema.returns[0].alias, (mt::AliasInfo{"a", true}));
  EXPECT_TRUE(schema.returns[0].name.empty());
}

TEST(FunctionSchemaParser, InPlaceSelfIsMutableButNotOut) {
  const FunctionSchema schema = parse_schema("aten::zero_(Tensor(a!) self) -> Tensor(a!)");
  EXPECT_TRUE(schema.is_mutable());
  EXPECT_FALSE(arg(schema, "self").is_out());
  EXPECT_FALSE(pytorch("aten::add.Tensor").is_mutable());
}

TEST(FunctionSchemaParser, ViewAliasIsReadOnly) {
  const FunctionSchema schema = parse_schema("aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");
  EXPECT_EQ(arg(schema, "self").alias, (mt::AliasInfo{"a", false}));
  EXPECT_FALSE(arg(schema, "dim0").alias.has_value());
  EXPECT_FALSE(schema.is_mutable());
}

TEST(FunctionSchemaParser, WildcardAliasIsAReadOnlySetWithTheWildcardFlag) {
  const FunctionSchema schema =
      parse_schema("aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
  EXPECT_EQ(arg(schema, "self").alias, (mt::AliasInfo{"a", false, true}));
  ASSERT_EQ(schema.returns.size(), 1u);
  EXPECT_EQ(schema.returns[0].alias, (mt::AliasInfo{"a", false}));
  EXPECT_TRUE(schema.returns[0].type.is_list);
  EXPECT_EQ(schema.returns[0].type.kind, TypeKind::Tensor);
}

TEST(FunctionSchemaParser, TupleReturnsKeepTheirNames) {
  const FunctionSchema schema =
      parse_schema("aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  ASSERT_EQ(schema.returns.size(), 2u);
  EXPECT_EQ(schema.returns[0].name, "values");
  EXPECT_EQ(schema.returns[1].name, "indices");
  EXPECT_FALSE(default_of<bool>(schema, "keepdim"));
}

TEST(FunctionSchemaParser, ReturnsCanBeEmptyOrNonTensor) {
  EXPECT_TRUE(parse_schema("mt::f(Tensor(a!)[] self) -> ()").returns.empty());
  for (auto [text, kind] : {std::pair{"bool", TypeKind::Bool}, {"int", TypeKind::Int}, {"float", TypeKind::Float},
                            {"Scalar", TypeKind::Scalar}}) {
    const FunctionSchema schema = parse_schema(std::string("mt::f(Tensor self) -> ") + text);
    ASSERT_EQ(schema.returns.size(), 1u);
    EXPECT_EQ(schema.returns[0].type, (mt::SchemaType{kind}));
  }
  const FunctionSchema list = parse_schema("mt::f(Tensor self) -> Tensor[]");
  EXPECT_TRUE(list.returns[0].type.is_list);
  EXPECT_EQ(list.str(), "mt::f(Tensor self) -> Tensor[]");
}

TEST(FunctionSchemaParser, ListSuffixesDistinguishOptionalListFromListOfOptionals) {
  const FunctionSchema sum = pytorch("aten::sum.dim_IntList");
  const mt::SchemaType& dim = arg(sum, "dim").type;
  EXPECT_EQ(dim.kind, TypeKind::Int);
  EXPECT_TRUE(dim.is_list);
  EXPECT_EQ(dim.list_size, 1);
  EXPECT_TRUE(dim.is_optional);
  EXPECT_FALSE(dim.elem_optional);
  EXPECT_EQ(dim.str(), "int[1]?");

  const FunctionSchema index = parse_schema("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor");
  const mt::SchemaType& indices = arg(index, "indices").type;
  EXPECT_TRUE(indices.is_list);
  EXPECT_FALSE(indices.list_size.has_value());
  EXPECT_TRUE(indices.elem_optional);
  EXPECT_FALSE(indices.is_optional);
  EXPECT_EQ(indices.str(), "Tensor?[]");

  const FunctionSchema misc =
      parse_schema("mt::f(int[]? a, bool[3] b, float[] c, ScalarType? d, Device? e, Generator? g, Tensor? t) -> ()");
  EXPECT_EQ(arg(misc, "a").type.str(), "int[]?");
  EXPECT_EQ(arg(misc, "b").type.list_size, 3);
  EXPECT_EQ(arg(misc, "b").type.str(), "bool[3]");
  EXPECT_EQ(arg(misc, "c").type.str(), "float[]");
  EXPECT_EQ(arg(misc, "d").type, (mt::SchemaType{TypeKind::ScalarType, false, std::nullopt, true}));
  EXPECT_EQ(arg(misc, "e").type.str(), "Device?");
  EXPECT_EQ(arg(misc, "g").type.str(), "Generator?");
  EXPECT_EQ(arg(misc, "t").type.str(), "Tensor?");
}

TEST(FunctionSchemaParser, SymIntParsesAsInt) {
  const FunctionSchema schema = parse_schema("mt::f(SymInt a, SymInt[] b, SymInt[2] c) -> ()");
  EXPECT_EQ(arg(schema, "a").type, (mt::SchemaType{TypeKind::Int}));
  EXPECT_EQ(arg(schema, "b").type.str(), "int[]");
  EXPECT_EQ(arg(schema, "c").type.str(), "int[2]");
}

TEST(FunctionSchemaParser, NumericDefaultsParseToTheirValues) {
  const FunctionSchema ce = pytorch("aten::cross_entropy_loss");
  EXPECT_EQ(default_of<int64_t>(ce, "ignore_index"), -100);
  EXPECT_EQ(arg(ce, "ignore_index").default_text, "-100");
  EXPECT_EQ(default_of<double>(ce, "label_smoothing"), 0.0);
  EXPECT_EQ(arg(ce, "label_smoothing").default_text, "0.0");

  const FunctionSchema ln = pytorch("aten::layer_norm");
  EXPECT_DOUBLE_EQ(default_of<double>(ln, "eps"), 1e-05);
  EXPECT_EQ(arg(ln, "eps").default_text, "1e-05");
  EXPECT_TRUE(default_of<bool>(ln, "cudnn_enable"));

  const FunctionSchema misc = parse_schema("mt::f(float p=2, Scalar s=0.5, float n=-1.0, float e=2.5E+3) -> ()");
  EXPECT_EQ(default_of<double>(misc, "p"), 2.0);
  EXPECT_EQ(arg(misc, "p").default_text, "2");
  EXPECT_EQ(default_of<double>(misc, "s"), 0.5);
  EXPECT_EQ(default_of<double>(misc, "n"), -1.0);
  EXPECT_EQ(default_of<double>(misc, "e"), 2500.0);
}

TEST(FunctionSchemaParser, NoneDefaultIsMonostate) {
  const FunctionSchema schema = pytorch("aten::sum.dim_IntList");
  EXPECT_EQ(arg(schema, "dtype").default_value, DefaultValue{std::monostate{}});
  EXPECT_EQ(arg(schema, "dtype").default_text, "None");
  EXPECT_FALSE(arg(schema, "dim").default_value.has_value());
}

TEST(FunctionSchemaParser, StringAndEnumDefaultsAreStringsWithTheirLiteralKept) {
  const FunctionSchema ce = pytorch("aten::cross_entropy_loss");
  EXPECT_EQ(default_of<std::string>(ce, "reduction"), "Mean");
  EXPECT_EQ(arg(ce, "reduction").default_text, "Mean");

  const FunctionSchema schema = parse_schema(
      "mt::f(str a=\"mean\", str b='none', str c='it\\'s', MemoryFormat m=contiguous_format) -> ()");
  EXPECT_EQ(default_of<std::string>(schema, "a"), "mean");
  EXPECT_EQ(arg(schema, "a").default_text, "\"mean\"");
  EXPECT_EQ(default_of<std::string>(schema, "b"), "none");
  EXPECT_EQ(arg(schema, "b").default_text, "'none'");
  EXPECT_EQ(default_of<std::string>(schema, "c"), "it's");
  EXPECT_EQ(default_of<std::string>(schema, "m"), "contiguous_format");
  EXPECT_EQ(parse_schema(schema.str()), schema);
}

TEST(FunctionSchemaParser, ListDefaultsParseToVectors) {
  const FunctionSchema schema =
      parse_schema("mt::f(int[] dims=[0, 1], int[2] pair=[3,-4], int[] none=[], float[] scales=[0.5, 1], "
                   "int[2] omitted=[]) -> ()");
  EXPECT_EQ(default_of<std::vector<int64_t>>(schema, "dims"), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(arg(schema, "dims").default_text, "[0, 1]");
  EXPECT_EQ(default_of<std::vector<int64_t>>(schema, "pair"), (std::vector<int64_t>{3, -4}));
  EXPECT_EQ(arg(schema, "pair").default_text, "[3,-4]");
  EXPECT_TRUE(default_of<std::vector<int64_t>>(schema, "none").empty());
  EXPECT_EQ(default_of<std::vector<double>>(schema, "scales"), (std::vector<double>{0.5, 1.0}));
  EXPECT_TRUE(default_of<std::vector<int64_t>>(schema, "omitted").empty());  // max_pool2d's stride=[]
}

TEST(FunctionSchemaParser, SingleIntDefaultForIntListRepeatsToTheListSize) {
  const FunctionSchema conv = pytorch("aten::conv2d");
  EXPECT_EQ(default_of<std::vector<int64_t>>(conv, "stride"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(arg(conv, "stride").default_text, "1");
  EXPECT_EQ(default_of<std::vector<int64_t>>(conv, "padding"), (std::vector<int64_t>{0, 0}));
  const FunctionSchema sum = parse_schema("mt::f(int[1] dim=1, int[] any=2) -> ()");
  EXPECT_EQ(default_of<std::vector<int64_t>>(sum, "dim"), (std::vector<int64_t>{1}));
  EXPECT_EQ(default_of<std::vector<int64_t>>(sum, "any"), (std::vector<int64_t>{2}));
}

TEST(FunctionSchemaParser, CountsTensorLikeArguments) {
  EXPECT_EQ(pytorch("aten::add.Tensor").num_tensor_like_args(), 2u);
  EXPECT_EQ(parse_schema("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor").num_tensor_like_args(), 2u);
  EXPECT_EQ(parse_schema("aten::cat(Tensor[] tensors, int dim=0) -> Tensor").num_tensor_like_args(), 1u);
  EXPECT_EQ(pytorch("aten::empty.memory_format").num_tensor_like_args(), 0u);
  EXPECT_EQ(parse_schema("mt::f(Tensor? w=None, Scalar s) -> Tensor").num_tensor_like_args(), 1u);
}

TEST(FunctionSchemaParser, WhitespaceBetweenTokensIsIgnored) {
  const FunctionSchema spaced = parse_schema(
      "  aten :: add . Tensor ( Tensor  self ,Tensor other , * , Scalar alpha = 1 )->Tensor\t\n");
  EXPECT_EQ(spaced, pytorch("aten::add.Tensor"));
  EXPECT_EQ(parse_schema("mt::f(Tensor ( a ! ) ? [ ] x) -> ( )").str(), "mt::f(Tensor(a!)?[] x) -> ()");
}

TEST(FunctionSchemaParser, EmptyArgumentListParses) {
  const FunctionSchema schema = parse_schema("mt::f() -> Tensor");
  EXPECT_TRUE(schema.arguments.empty());
  EXPECT_EQ(schema.str(), "mt::f() -> Tensor");
}

TEST(FunctionSchemaParser, MissingNamespaceIsAnError) {
  expect_error("add(Tensor self) -> Tensor", 3, "'::'", "'('");
  expect_error("aten:add(Tensor self) -> Tensor", 4, "'::'", "':'");
}

TEST(FunctionSchemaParser, MissingClosingParenIsAnError) {
  expect_error("aten::foo(Tensor a, Tensor b -> Tensor", 29, "')'", "'->'");
  expect_error("aten::foo(Tensor a", 18, "')'", "end of schema");
  expect_error("mt::f(Tensor(a! self) -> Tensor", 16, "')'", "'self'");
}

TEST(FunctionSchemaParser, MissingArrowIsAnError) {
  expect_error("aten::foo(Tensor a)", 19, "'->'", "end of schema");
}

TEST(FunctionSchemaParser, UnknownTypeIsAnErrorNamingTheType) {
  expect_error("aten::foo(Tensr a) -> Tensor", 10, "a type name", "unknown type 'Tensr'");
  expect_error("aten::foo(Tensor a) -> Foo", 23, "a type name", "unknown type 'Foo'");
  expect_error("mt::foo(Tensor a, x", 18, "a type name", "unknown type 'x'");
}

TEST(FunctionSchemaParser, DefaultThatDoesNotFitTheTypeIsAnError) {
  expect_error("aten::foo(bool x=3) -> Tensor", 17, "a default value of type bool", "'3'");
  expect_error("aten::foo(int x=\"a\") -> Tensor", 16, "a default value of type int", "'\"a\"'");
  expect_error("aten::foo(Tensor x=None) -> Tensor", 19, "a default value of type Tensor", "'None'");
  expect_error("aten::foo(int x=1.5) -> Tensor", 16, "a default value of type int", "'1.5'");
  expect_error("aten::foo(int[2] x=[1, 2, 3]) -> Tensor", 19, "a default value of type int[2]", "'[1, 2, 3]'");
  expect_error("aten::foo(int[] x=[1, 2.5]) -> Tensor", 18, "a default value of type int[]", "'[1, 2.5]'");
  expect_error("aten::foo(str x=mean) -> Tensor", 16, "a default value of type str", "'mean'");
  expect_error("aten::foo(int x=) -> Tensor", 16, "a default value", "')'");
  expect_error("aten::foo(int[] x=[1, True]) -> Tensor", 22, "a number", "'True'");
}

TEST(FunctionSchemaParser, OutOfRangeIntegerIsAnError) {
  expect_error("mt::f(int x=99999999999999999999) -> ()", 12, "an integer that fits in 64 bits",
               "'99999999999999999999'");
}

TEST(FunctionSchemaParser, DuplicateArgumentNameIsAnError) {
  expect_error("aten::foo(Tensor a, Tensor a) -> Tensor", 27, "a unique argument name", "duplicate 'a'");
}

TEST(FunctionSchemaParser, TrailingTextIsAnError) {
  expect_error("aten::foo(Tensor a) -> Tensor )", 30, "end of schema", "')'");
  expect_error("aten::foo(Tensor a) -> Tensor out extra", 34, "end of schema", "'extra'");
}

TEST(FunctionSchemaParser, UnterminatedStringIsAnError) {
  expect_error("aten::foo(str a=\"mean) -> Tensor", 16, "a closing \"", "an unterminated string");
  expect_error("aten::foo(str a='mean\\') -> Tensor", 16, "a closing '", "an unterminated string");
}

TEST(FunctionSchemaParser, StarTwiceIsAnError) {
  expect_error("aten::foo(Tensor a, *, int b, *, int c) -> Tensor", 30, "an argument ('*' may appear only once)",
               "'*'");
}

TEST(FunctionSchemaParser, StarWithoutKeywordArgumentsIsAnError) {
  expect_error("aten::foo(Tensor a, *) -> Tensor", 21, "',' and keyword-only arguments after '*'", "')'");
}

TEST(FunctionSchemaParser, StrayCharacterIsAnError) {
  expect_error("aten::foo(Tensor $a) -> Tensor", 17, "a name, number, string or punctuation", "'$'");
}

TEST(FunctionSchemaParser, NegativeOrFractionalListSizeIsAnError) {
  expect_error("aten::foo(int[-1] a) -> Tensor", 14, "a list size", "'-1'");
  expect_error("aten::foo(int[1.5] a) -> Tensor", 14, "a list size", "'1.5'");
}

TEST(FunctionSchemaParser, CaretLinesUpUnderTabsAndNewlines) {
  const std::string msg = parse_error("mt::f(Tensor\ta,\n$) -> ()");
  EXPECT_NE(msg.find("mt::f(Tensor a, $) -> ()\n                ^"), std::string::npos) << msg;
}

}  // namespace
