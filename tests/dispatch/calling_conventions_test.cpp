// Kernels and calls in both conventions: unboxed kernels (functions, MT_FN, lambdas with state, kernels
// taking the DispatchKeySet) called typed or boxed; boxed kernels called typed; redispatch.
// Each test uses its own namespace t_cc_<name>.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "dispatch_test_helpers.h"
#include "ops/api/empty.h"
#include "ops/api/fill.h"
#include "ops/api/ones.h"
#include "ops/api/t.h"
#include "ops/api/zeros.h"

using mt::DispatchKey;
using mt::DispatchKeySet;
using mt::IValue;
using mt::Library;
using mt::Stack;
using mt::Tensor;
using mt_test::op_handle;

namespace {
using IntOfTensor = int64_t(const Tensor&);

int64_t keys_of_call(DispatchKeySet ks, const Tensor&) { return static_cast<int64_t>(ks.raw_repr()); }
int64_t plus_one(const Tensor& x) { return x.numel() + 1; }

void boxed_numel_plus(const mt::OperatorHandle&, Stack* s) {
  const int64_t n = (*s)[0].toTensor().numel() + (*s)[1].toInt();
  s->clear();
  s->emplace_back(n);
}
void boxed_keys(const mt::OperatorHandle&, DispatchKeySet ks, Stack* s) {
  s->clear();
  s->emplace_back(static_cast<int64_t>(ks.raw_repr()));
}
}  // namespace

TEST(UnboxedKernels, FunctionPointerAndCompileTimeFunctionGiveTheSameResult) {
  Library def(Library::DEF, "t_cc_fn");
  def.def("runtime_fn(Tensor x) -> int");
  def.def("static_fn(Tensor x) -> int");
  Library cpu(Library::IMPL, "t_cc_fn", DispatchKey::CPU);
  cpu.impl("runtime_fn", &plus_one);
  cpu.impl("static_fn", MT_FN(plus_one));
  const Tensor t = mt::ones({2, 2});
  EXPECT_EQ(op_handle("t_cc_fn::runtime_fn").typed<IntOfTensor>().call(t), 5);
  EXPECT_EQ(op_handle("t_cc_fn::static_fn").typed<IntOfTensor>().call(t), 5);
}

TEST(UnboxedKernels, KernelTakingADispatchKeySetReceivesTheComputedSet) {
  Library def(Library::DEF, "t_cc_keys");
  def.def("plain(Tensor x) -> int");
  def.def("with_autograd(Tensor x) -> int");
  Library impl(Library::IMPL, "t_cc_keys");
  impl.impl("plain", mt::dispatch(DispatchKey::CPU, &keys_of_call));
  impl.impl("plain", mt::dispatch(DispatchKey::Meta, MT_FN(keys_of_call)));
  impl.impl("with_autograd", mt::dispatch(DispatchKey::AutogradCPU, &keys_of_call));
  const auto plain = op_handle("t_cc_keys::plain").typed<IntOfTensor>();
  // Tensor {CPU, ADInplaceOrView, AutogradCPU, AutocastCPU} | TLS {BackendSelect, ADInplaceOrView}, minus the
  // excluded AutocastCPU, minus the fallthrough keys BackendSelect, ADInplaceOrView and AutogradCPU = {CPU}.
  EXPECT_EQ(plain.call(mt::ones({1})), static_cast<int64_t>(DispatchKeySet(DispatchKey::CPU).raw_repr()));
  EXPECT_EQ(plain.call(mt::empty({1}, mt::Device("meta"))),
            static_cast<int64_t>(DispatchKeySet(DispatchKey::Meta).raw_repr()));
  // With a real AutogradCPU kernel, Autograd is no longer masked out.
  EXPECT_EQ(op_handle("t_cc_keys::with_autograd").typed<IntOfTensor>().call(mt::ones({1})),
            static_cast<int64_t>(DispatchKeySet({DispatchKey::CPU, DispatchKey::AutogradCPU}).raw_repr()));
}

TEST(UnboxedKernels, LambdasKeepTheirCapturedState) {
  Library def(Library::DEF, "t_cc_lambda");
  def.def("by_ref(Tensor x) -> int");
  def.def("by_value(Tensor x) -> int");
  def.def("mutable_counter(Tensor x) -> int");
  int calls = 0;
  const std::string word = "four";
  Library cpu(Library::IMPL, "t_cc_lambda", DispatchKey::CPU);
  cpu.impl("by_ref", [&calls](const Tensor&) -> int64_t { return ++calls; });
  cpu.impl("by_value", [word](const Tensor&) -> int64_t { return static_cast<int64_t>(word.size()); });
  cpu.impl("mutable_counter", [n = int64_t(10)](const Tensor&) mutable { return ++n; });
  const Tensor t = mt::ones({1});
  const auto by_ref = op_handle("t_cc_lambda::by_ref").typed<IntOfTensor>();
  EXPECT_EQ(by_ref.call(t), 1);
  EXPECT_EQ(by_ref.call(t), 2);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(op_handle("t_cc_lambda::by_value").typed<IntOfTensor>().call(t), 4);
  const auto counter = op_handle("t_cc_lambda::mutable_counter").typed<IntOfTensor>();
  EXPECT_EQ(counter.call(t), 11);
  EXPECT_EQ(counter.call(t), 12);
}

TEST(BoxedKernels, BoxedFunctionsAndLambdasAreCallableUnboxed) {
  Library def(Library::DEF, "t_cc_boxed");
  def.def("numel_plus(Tensor x, int a) -> int");
  def.def("keys(Tensor x) -> int");
  def.def("offset(Tensor x) -> int");
  Library cpu(Library::IMPL, "t_cc_boxed", DispatchKey::CPU);
  cpu.impl("numel_plus", mt::CppFunction::makeFromBoxedFunction<&boxed_numel_plus>());
  cpu.impl("keys", mt::CppFunction::makeFromBoxedFunction<&boxed_keys>());
  int64_t offset = 1000;  // not const, so the lambda really carries state
  cpu.impl("offset", mt::CppFunction::makeFromBoxedLambda([offset](const mt::OperatorHandle& op, DispatchKeySet, Stack* s) {
    const int64_t n = (*s)[0].toTensor().numel();
    s->clear();
    s->emplace_back(offset + n + static_cast<int64_t>(op.schema().arguments.size()));
  }));
  const Tensor t = mt::ones({2, 2});
  EXPECT_EQ(op_handle("t_cc_boxed::numel_plus").typed<int64_t(const Tensor&, int64_t)>().call(t, 10), 14);
  EXPECT_EQ(op_handle("t_cc_boxed::keys").typed<IntOfTensor>().call(t),
            static_cast<int64_t>(DispatchKeySet(DispatchKey::CPU).raw_repr()));
  EXPECT_EQ(op_handle("t_cc_boxed::offset").typed<IntOfTensor>().call(t), 1005);
  // Boxed kernels have no C++ signature; they can still be called boxed.
  Stack s{IValue(t), IValue(int64_t(1))};
  op_handle("t_cc_boxed::numel_plus").callBoxed(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].toInt(), 5);
}

TEST(BoxedKernels, InPlaceAndOutOpsReturnTheCallersTensorReference) {
  Library def(Library::DEF, "t_cc_inplace");
  def.def("fill_(Tensor(a!) self, float value) -> Tensor(a!)");
  def.def("fill_out(float value, *, Tensor(a!) out) -> Tensor(a!)");
  auto fill = [](const Tensor& t, double v) {
    float* p = t.data_ptr<float>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>(v);
  };
  Library cpu(Library::IMPL, "t_cc_inplace", DispatchKey::CPU);
  cpu.impl("fill_", mt::CppFunction::makeFromBoxedLambda([fill](const mt::OperatorHandle&, DispatchKeySet, Stack* s) {
    Tensor self = (*s)[0].toTensor();
    fill(self, (*s)[1].toDouble());
    s->clear();
    s->emplace_back(self);
  }));
  cpu.impl("fill_out", mt::CppFunction::makeFromBoxedLambda([fill](const mt::OperatorHandle&, DispatchKeySet, Stack* s) {
    Tensor out = (*s)[1].toTensor();
    fill(out, (*s)[0].toDouble());
    s->clear();
    s->emplace_back(out);
  }));
  Tensor t = mt::zeros({3});
  Tensor& r = op_handle("t_cc_inplace::fill_").typed<Tensor&(Tensor&, double)>().call(t, 2.0);
  EXPECT_EQ(&r, &t);
  EXPECT_EQ(t.data_ptr<float>()[2], 2.0f);
  Tensor out = mt::zeros({2});
  Tensor& r2 = op_handle("t_cc_inplace::fill_out").typed<Tensor&(double, Tensor&)>().call(5.0, out);
  EXPECT_EQ(&r2, &out);
  EXPECT_EQ(out.data_ptr<float>()[0], 5.0f);
  EXPECT_EQ(out.use_count(), 1u);  // the boxed call's copies are gone
}

TEST(BoxedKernels, TupleResultsOfABoxedKernelUnboxIntoATuple) {
  Library def(Library::DEF, "t_cc_tuple");
  def.def("pair(Tensor x) -> (Tensor, Tensor)");
  Library cpu(Library::IMPL, "t_cc_tuple", DispatchKey::CPU);
  cpu.impl("pair", mt::CppFunction::makeFromBoxedLambda([](const mt::OperatorHandle&, DispatchKeySet, Stack* s) {
    Tensor x = (*s)[0].toTensor();
    s->clear();
    s->emplace_back(mt::zeros({5}));
    s->emplace_back(x);
  }));
  const Tensor t = mt::ones({1});
  auto [a, b] = op_handle("t_cc_tuple::pair").typed<std::tuple<Tensor, Tensor>(const Tensor&)>().call(t);
  EXPECT_EQ(a.numel(), 5);
  EXPECT_TRUE(b.is_same(t));
}

TEST(UnboxedKernels, CalledBoxedTheyTakeEveryArgumentKindAndPushTupleResults) {
  struct Seen {
    std::vector<int64_t> sizes;
    double scalar = 0;
    bool scalar_is_float = false;
    std::string name;
    bool had_optional = false;
  } seen;
  Library def(Library::DEF, "t_cc_multi");
  def.def("multi(Tensor x, int[] sizes, Tensor? maybe, Scalar s, str name) -> (Tensor, Tensor)");
  Library cpu(Library::IMPL, "t_cc_multi", DispatchKey::CPU);
  cpu.impl("multi", [&seen](const Tensor& x, mt::IntArrayRef sizes, const std::optional<Tensor>& maybe,
                            const mt::Scalar& s, std::string_view name) {
    seen.sizes = sizes.vec();
    seen.scalar = s.toDouble();
    seen.scalar_is_float = s.isFloatingPoint();
    seen.name = std::string(name);
    seen.had_optional = maybe.has_value();
    return std::make_tuple(x, maybe ? *maybe : x);
  });
  const mt::OperatorHandle op = op_handle("t_cc_multi::multi");
  const Tensor x = mt::ones({1}), y = mt::zeros({1});

  Stack s{IValue(x), IValue(std::vector<int64_t>{2, 3}), IValue(), IValue(mt::Scalar(2.5)), IValue("hello")};
  op.callBoxed(s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(s[0].toTensor().is_same(x));
  EXPECT_TRUE(s[1].toTensor().is_same(x));
  EXPECT_EQ(seen.sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(seen.scalar, 2.5);
  EXPECT_TRUE(seen.scalar_is_float);
  EXPECT_EQ(seen.name, "hello");
  EXPECT_FALSE(seen.had_optional);

  s = {IValue(x), IValue(std::vector<int64_t>{}), IValue(y), IValue(mt::Scalar(int64_t(7))), IValue("")};
  op.callBoxed(&s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(s[1].toTensor().is_same(y));
  EXPECT_TRUE(seen.had_optional);
  EXPECT_FALSE(seen.scalar_is_float);
  EXPECT_EQ(seen.scalar, 7.0);
  EXPECT_TRUE(seen.sizes.empty());

  // The same kernel called unboxed.
  const auto typed = op.typed<std::tuple<Tensor, Tensor>(const Tensor&, mt::IntArrayRef, const std::optional<Tensor>&,
                                                         const mt::Scalar&, std::string_view)>();
  auto [a, b] = typed.call(x, {4}, y, mt::Scalar(true), "unboxed");
  EXPECT_TRUE(a.is_same(x));
  EXPECT_TRUE(b.is_same(y));
  EXPECT_EQ(seen.sizes, (std::vector<int64_t>{4}));
  EXPECT_EQ(seen.name, "unboxed");
}

TEST(UnboxedKernels, OptionalGeneratorArgumentsPassAsPointersBoxedAndUnboxed) {
  Library def(Library::DEF, "t_cc_gen");
  def.def("draw(Tensor x, *, Generator? generator=None) -> int");
  Library cpu(Library::IMPL, "t_cc_gen", DispatchKey::CPU);
  cpu.impl("draw", [](const Tensor&, mt::Generator* g) {
    return static_cast<int64_t>((g ? *g : mt::default_generator()).random_from_to(0, 1000));
  });
  const mt::OperatorHandle op = op_handle("t_cc_gen::draw");
  mt::Generator a(3), b(3);
  const int64_t expected = b.random_from_to(0, 1000);
  Stack s{IValue(mt::ones({1})), IValue(&a)};
  op.callBoxed(s);
  EXPECT_EQ(s[0].toInt(), expected);
  const auto typed = op.typed<int64_t(const Tensor&, mt::Generator*)>();
  EXPECT_EQ(typed.call(mt::ones({1}), &a), b.random_from_to(0, 1000));
  mt::manual_seed(11);
  mt::Generator c(11);
  EXPECT_EQ(typed.call(mt::ones({1}), nullptr), c.random_from_to(0, 1000));
}

TEST(Registration, AGeneratorKernelMustMatchAnOptionalGeneratorArgument) {
  Library def(Library::DEF, "t_cc_gen_bad");
  def.def("draw(Tensor x, *, Generator? generator=None) -> int");
  Library cpu(Library::IMPL, "t_cc_gen_bad", DispatchKey::CPU);
  const std::string message =
      mt_test::message_of<mt::RuntimeError>([&] { cpu.impl("draw", [](const Tensor&, int64_t) { return int64_t(0); }); });
  EXPECT_NE(message.find("inferred schema: (Tensor, int) -> int"), std::string::npos) << message;
  EXPECT_NE(message.find("expected schema: t_cc_gen_bad::draw(Tensor x, *, Generator? generator=None) -> int"),
            std::string::npos) << message;
}

TEST(UnboxedKernels, CalledBoxedArgumentsBelowTheOperatorsOwnStayOnTheStack) {
  Library def(Library::DEF, "t_cc_stack");
  def.def("plus(Tensor x, int a) -> int");
  def.def("nothing(Tensor x) -> ()");
  int nothing_calls = 0;
  Library cpu(Library::IMPL, "t_cc_stack", DispatchKey::CPU);
  cpu.impl("plus", [](const Tensor& x, int64_t a) { return x.numel() + a; });
  cpu.impl("nothing", [&nothing_calls](const Tensor&) { ++nothing_calls; });
  Stack s{IValue("caller's"), IValue(mt::ones({3})), IValue(int64_t(4))};
  op_handle("t_cc_stack::plus").callBoxed(s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].toStringRef(), "caller's");
  EXPECT_EQ(s[1].toInt(), 7);
  Stack v{IValue(mt::ones({1}))};
  op_handle("t_cc_stack::nothing").callBoxed(v);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(nothing_calls, 1);
}

TEST(UnboxedKernels, EveryTensorArgumentCountsForDispatchIncludingOptionalsAndLists) {
  Library def(Library::DEF, "t_cc_extract");
  def.def("pick(Tensor a, Tensor? b, Tensor[] c) -> int");
  auto kernel = [](int64_t r) {
    return [r](const Tensor&, const std::optional<Tensor>&, mt::ArrayRef<Tensor>) { return r; };
  };
  Library impl(Library::IMPL, "t_cc_extract");
  impl.impl("pick", mt::dispatch(DispatchKey::CPU, kernel(1)));
  impl.impl("pick", mt::dispatch(DispatchKey::Meta, kernel(4)));  // Meta is the highest backend
  const mt::OperatorHandle op = op_handle("t_cc_extract::pick");
  const Tensor cpu = mt::ones({1}), meta = mt::empty({1}, mt::Device("meta"));
  auto boxed = [&](Stack s) {
    op.callBoxed(s);
    return s.at(0).toInt();
  };
  EXPECT_EQ(boxed({IValue(cpu), IValue(), IValue(std::vector<Tensor>{cpu})}), 1);
  EXPECT_EQ(boxed({IValue(cpu), IValue(meta), IValue(std::vector<Tensor>{})}), 4);
  EXPECT_EQ(boxed({IValue(cpu), IValue(), IValue(std::vector<Tensor>{cpu, meta})}), 4);
  EXPECT_EQ(boxed({IValue(meta), IValue(), IValue(std::vector<Tensor>{})}), 4);
  const auto typed = op.typed<int64_t(const Tensor&, const std::optional<Tensor>&, mt::ArrayRef<Tensor>)>();
  const std::vector<Tensor> with_meta{cpu, meta};
  EXPECT_EQ(typed.call(cpu, std::nullopt, {}), 1);
  EXPECT_EQ(typed.call(cpu, meta, {}), 4);
  EXPECT_EQ(typed.call(cpu, std::nullopt, with_meta), 4);
}

TEST(Redispatch, ExplicitKeySetIsUsedAsGivenWhateverTheTensors) {
  Library def(Library::DEF, "t_cc_redispatch");
  def.def("op(Tensor x) -> int");
  Library impl(Library::IMPL, "t_cc_redispatch");
  impl.impl("op", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  impl.impl("op", mt::dispatch(DispatchKey::Meta, [](const Tensor&) -> int64_t { return 4; }));
  const auto op = op_handle("t_cc_redispatch::op").typed<IntOfTensor>();
  const Tensor cpu = mt::ones({1}), meta = mt::empty({1}, mt::Device("meta"));
  EXPECT_EQ(op.redispatch(DispatchKeySet(DispatchKey::Meta), cpu), 4);
  EXPECT_EQ(op.redispatch(DispatchKeySet(DispatchKey::CPU), meta), 1);
  Stack s{IValue(cpu)};
  op.redispatchBoxed(DispatchKeySet(DispatchKey::Meta), s);
  EXPECT_EQ(s.at(0).toInt(), 4);
  // No kernel for the given key: the usual error, naming that key.
  EXPECT_THROW(op.redispatch(DispatchKeySet(DispatchKey::CUDA), cpu), mt::NotImplementedError);
}

TEST(Redispatch, AutogradLayerKernelRedispatchesBelowItselfToTheBackendKernel) {
  Library def(Library::DEF, "t_cc_layer");
  def.def("op(Tensor x) -> int");
  Library impl(Library::IMPL, "t_cc_layer");
  impl.impl("op", mt::dispatch(DispatchKey::CPU, &keys_of_call));
  impl.impl("op", mt::dispatch(DispatchKey::AutogradCPU, [](DispatchKeySet ks, const Tensor& x) -> int64_t {
              const auto self = op_handle("t_cc_layer::op").typed<IntOfTensor>();
              return 1000 + self.redispatch(ks & mt::after_autograd_keyset, x);
            }));
  // The call enters at AutogradCPU with {CPU, AutogradCPU}; the CPU kernel then sees {CPU} = 0x11.
  EXPECT_EQ(op_handle("t_cc_layer::op").typed<IntOfTensor>().call(mt::ones({1})), 1000 + 0x11);
  // Boxed, the same path.
  Stack s{IValue(mt::ones({1}))};
  op_handle("t_cc_layer::op").callBoxed(s);
  EXPECT_EQ(s.at(0).toInt(), 1000 + 0x11);
}
