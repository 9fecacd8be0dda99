// Registration through mt::Library: def / impl / fallback, their order, overriding and deregistration,
// and the errors registration and lookup raise (texts as in PyTorch, see the dispatcher notes §9).
// Each test uses its own namespace t_reg_<name>, so tests never see each other's operators.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "dispatch_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/api/sum.h"

using mt::DispatchKey;
using mt::Library;
using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::op_handle;

namespace {
using IntOfTensor = int64_t(const Tensor&);

int64_t numel_kernel(const Tensor& x) { return x.numel(); }
int64_t one(const Tensor&) { return 1; }
int64_t two(const Tensor&) { return 2; }

int64_t call_int(std::string_view name, const Tensor& t) {
  return op_handle(name).typed<IntOfTensor>().call(t);
}
}  // namespace

TEST(Registration, DefThenImplThenCallReachesTheKernel) {
  Library def(Library::DEF, "t_reg_basic");
  def.def("op(Tensor x) -> int");
  Library cpu(Library::IMPL, "t_reg_basic", DispatchKey::CPU);
  cpu.impl("op", &numel_kernel);
  const auto op = mt::Dispatcher::singleton().findSchema({"t_reg_basic", "op", ""});
  ASSERT_TRUE(op.has_value());
  EXPECT_EQ(op->schema().str(), "t_reg_basic::op(Tensor x) -> int");
  EXPECT_EQ(call_int("t_reg_basic::op", mt::ones({2, 3})), 6);
}

TEST(Registration, FindSchemaTakesC10sSpellingOfTheName) {
  auto& d = mt::Dispatcher::singleton();
  const auto add = d.findSchema({"mt::add", "Tensor"});
  ASSERT_TRUE(add.has_value());
  EXPECT_EQ(add->schema().op.str(), "mt::add.Tensor");
  EXPECT_TRUE(d.findSchema({"mt::relu", ""}).has_value());
  EXPECT_FALSE(d.findSchema({"mt::add", "NoSuchOverload"}).has_value());
  EXPECT_THROW(d.findSchema({"mt", "add"}), mt::ValueError);
}

TEST(Registration, ImplBeforeDefWorksOnceTheDefArrives) {
  Library cpu(Library::IMPL, "t_reg_implfirst", DispatchKey::CPU);
  cpu.impl("op", &numel_kernel);
  EXPECT_FALSE(mt::Dispatcher::singleton().findSchema({"t_reg_implfirst", "op", ""}).has_value());
  EXPECT_TRUE(mt::Dispatcher::singleton().findOp({"t_reg_implfirst", "op", ""}).has_value());
  Library def(Library::DEF, "t_reg_implfirst");
  def.def("op(Tensor x) -> int");
  EXPECT_EQ(call_int("t_reg_implfirst::op", mt::ones({4})), 4);
}

TEST(Registration, OrderOfDefAndImplDoesNotChangeTheComputedTable) {
  // op_a: def first; op_b: kernels first. Same kernels, so the same table.
  Library def_a(Library::FRAGMENT, "t_reg_order");
  def_a.def("op_a(Tensor x) -> int");
  Library impls(Library::IMPL, "t_reg_order");
  for (const char* name : {"op_a", "op_b"}) {
    impls.impl(name, mt::dispatch(DispatchKey::CPU, &one));
    impls.impl(name, mt::dispatch(DispatchKey::AutogradCPU, &two));
  }
  Library def_b(Library::FRAGMENT, "t_reg_order");
  def_b.def("op_b(Tensor x) -> int");
  const std::string expected =
      "CPU: [kernel]\n"
      "AutogradCPU: [kernel]\n"
      "AutogradCUDA: [backend fallback]\n"
      "AutogradPrivateUse1: [backend fallback]\n"
      "AutogradMeta: [backend fallback]\n";
  EXPECT_EQ(mt_test::backend_rows(op_handle("t_reg_order::op_a")), expected);
  EXPECT_EQ(op_handle("t_reg_order::op_a").dumpComputedTable(), op_handle("t_reg_order::op_b").dumpComputedTable());
  EXPECT_EQ(call_int("t_reg_order::op_a", mt::ones({1})), 2);
  EXPECT_EQ(call_int("t_reg_order::op_b", mt::ones({1})), 2);
}

TEST(RegistrationErrors, DefiningTheSameSchemaTwiceNamesBothRegistrations) {
  std::optional<Library> first;
  first.emplace(Library::FRAGMENT, "t_reg_dup", std::nullopt, "first.cpp", 11);
  first->def("op(Tensor x) -> int");
  Library second(Library::FRAGMENT, "t_reg_dup", std::nullopt, "second.cpp", 22);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { second.def("op(Tensor x) -> int"); }),
            "Tried to register an operator (t_reg_dup::op(Tensor x) -> int) with the same name and overload name "
            "multiple times. Each overload's schema should only be registered with a single call to def(). "
            "Duplicate registration: registered at second.cpp:22. Original registration: registered at first.cpp:11");
  // A different signature under the same name is the same mistake.
  EXPECT_THROW(second.def("op(Tensor x, Tensor y) -> int"), mt::RuntimeError);
  // The failed defs changed nothing; once the first def is gone, the name is free again.
  EXPECT_EQ(op_handle("t_reg_dup::op").schema().str(), "t_reg_dup::op(Tensor x) -> int");
  first.reset();
  second.def("op(Tensor x, Tensor y) -> int");
  EXPECT_EQ(op_handle("t_reg_dup::op").schema().str(), "t_reg_dup::op(Tensor x, Tensor y) -> int");
}

TEST(RegistrationErrors, SecondDefLibraryForANamespaceNamesBothPlaces) {
  std::optional<Library> first;
  first.emplace(Library::DEF, "t_reg_twice", std::nullopt, "one.cpp", 1);
  EXPECT_EQ(message_of<mt::RuntimeError>([] { Library again(Library::DEF, "t_reg_twice", std::nullopt, "two.cpp", 2); }),
            "Only a single MT_LIBRARY can be used to register the namespace t_reg_twice; please put all of your "
            "definitions in a single MT_LIBRARY block.  If you were trying to specify implementations, consider using "
            "MT_LIBRARY_IMPL (which can be duplicated).  If you really intended to define operators for a single "
            "namespace in a distributed way, you can use MT_LIBRARY_FRAGMENT to explicitly indicate this.  Previous "
            "registration of MT_LIBRARY was registered at one.cpp:1; latest registration was registered at two.cpp:2");
  // FRAGMENT and IMPL libraries may coexist with the DEF library.
  EXPECT_NO_THROW(Library(Library::FRAGMENT, "t_reg_twice"));
  EXPECT_NO_THROW(Library(Library::IMPL, "t_reg_twice", DispatchKey::CPU));
  first.reset();
  EXPECT_NO_THROW(Library(Library::DEF, "t_reg_twice"));
}

TEST(Registration, NewestKernelForAKeyWinsAndDeregistrationRestoresTheOlderOne) {
  Library def(Library::DEF, "t_reg_override");
  def.def("op(Tensor x) -> int");
  std::optional<Library> older, newer;
  older.emplace(Library::IMPL, "t_reg_override", DispatchKey::CPU);
  older->impl("op", &one);
  newer.emplace(Library::IMPL, "t_reg_override", DispatchKey::CPU);
  newer->impl("op", &two);
  const Tensor t = mt::ones({1});
  EXPECT_EQ(call_int("t_reg_override::op", t), 2);
  newer.reset();
  EXPECT_EQ(call_int("t_reg_override::op", t), 1);
  newer.emplace(Library::IMPL, "t_reg_override", DispatchKey::CPU);
  newer->impl("op", &two);
  older.reset();  // removing the shadowed kernel leaves the newest in place
  EXPECT_EQ(call_int("t_reg_override::op", t), 2);
  newer.reset();
  EXPECT_FALSE(op_handle("t_reg_override::op").hasKernelForDispatchKey(DispatchKey::CPU));
  EXPECT_THROW(call_int("t_reg_override::op", t), mt::NotImplementedError);
}

TEST(Registration, DestroyingALibraryDeregistersEverythingItRegistered) {
  std::optional<Library> lib;
  lib.emplace(Library::DEF, "t_reg_destroy");
  lib->def("op(Tensor x) -> int");
  lib->def("catchall(Tensor x) -> int", &numel_kernel);  // schema + CompositeImplicitAutograd kernel
  lib->impl("op", mt::dispatch(DispatchKey::CPU, &one));
  lib->impl("op", mt::dispatch(DispatchKey::Autograd, &two));
  EXPECT_EQ(call_int("t_reg_destroy::op", mt::ones({1})), 2);
  EXPECT_TRUE(op_handle("t_reg_destroy::catchall").hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd));
  lib.reset();
  auto& d = mt::Dispatcher::singleton();
  for (const char* name : {"op", "catchall"}) {
    EXPECT_FALSE(d.findSchema({"t_reg_destroy", name, ""}).has_value()) << name;
    // The dispatcher may keep knowing the name; if it does, nothing may be left registered under it.
    const auto entry = d.findOp({"t_reg_destroy", name, ""});
    if (!entry) continue;
    EXPECT_FALSE(entry->hasSchema());
    EXPECT_FALSE(entry->hasKernelForDispatchKey(DispatchKey::CPU));
    EXPECT_FALSE(entry->hasKernelForDispatchKey(DispatchKey::Autograd));
    EXPECT_FALSE(entry->hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd));
    // Only the global Autograd fallthrough fallbacks remain in the backend/autograd slots.
    EXPECT_EQ(mt_test::backend_rows(*entry), mt_test::kAutogradFallbackRows) << name;
    EXPECT_EQ(entry->dumpState(), std::string("name: t_reg_destroy::") + name + "\n");
  }
  // The namespace is free again for a new DEF library.
  EXPECT_NO_THROW(Library(Library::DEF, "t_reg_destroy"));
}

TEST(RegistrationErrors, KernelNotMatchingTheSchemaFailsTheSameWayWhicheverComesFirst) {
  auto expected = [](const std::string& op) {
    return "Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n"
           "  operator: t_reg_mismatch::" + op + "\n"
           "  expected schema: t_reg_mismatch::" + op + "(Tensor x, Tensor y) -> Tensor\n"
           "    registered at def.cpp:1\n"
           "  inferred schema: (Tensor) -> Tensor\n"
           "    registered at impl.cpp:2\n"
           "  reason: The number of arguments is different. 2 vs 1.";
  };
  auto unary = [](const Tensor& x) { return x; };
  Library def(Library::FRAGMENT, "t_reg_mismatch", std::nullopt, "def.cpp", 1);
  Library impl(Library::IMPL, "t_reg_mismatch", DispatchKey::CPU, "impl.cpp", 2);

  // def, then impl: the impl is refused and nothing is registered.
  def.def("impl_after_def(Tensor x, Tensor y) -> Tensor");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { impl.impl("impl_after_def", unary); }), expected("impl_after_def"));
  EXPECT_FALSE(op_handle("t_reg_mismatch::impl_after_def").hasKernelForDispatchKey(DispatchKey::CPU));

  // impl, then def: the def is refused and leaves no schema behind.
  impl.impl("def_after_impl", unary);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { def.def("def_after_impl(Tensor x, Tensor y) -> Tensor"); }),
            expected("def_after_impl"));
  auto& d = mt::Dispatcher::singleton();
  EXPECT_FALSE(d.findSchema({"t_reg_mismatch", "def_after_impl", ""}).has_value());
  EXPECT_TRUE(d.findOp({"t_reg_mismatch", "def_after_impl", ""})->hasKernelForDispatchKey(DispatchKey::CPU));
  // A def that does match the kernel is then accepted.
  def.def("def_after_impl(Tensor x) -> Tensor");
  EXPECT_TRUE(d.findSchema({"t_reg_mismatch", "def_after_impl", ""}).has_value());
}

TEST(RegistrationErrors, SchemaMismatchReasonsNameTypeAndReturnDifferences) {
  Library def(Library::FRAGMENT, "t_reg_reasons");
  def.def("arg_type(Tensor x, int n) -> Tensor");
  def.def("ret_count(Tensor x) -> (Tensor, Tensor)");
  def.def("ret_type(Tensor x) -> int");
  Library impl(Library::IMPL, "t_reg_reasons", DispatchKey::CPU);
  const std::string a = message_of<mt::RuntimeError>([&] { impl.impl("arg_type", [](const Tensor& x, double) { return x; }); });
  EXPECT_TRUE(contains(a, "  inferred schema: (Tensor, float) -> Tensor\n")) << a;
  EXPECT_TRUE(contains(a, "  reason: Type mismatch in argument 2: int vs float.")) << a;
  const std::string b = message_of<mt::RuntimeError>([&] { impl.impl("ret_count", [](const Tensor& x) { return x; }); });
  EXPECT_TRUE(contains(b, "  reason: The number of returns is different. 2 vs 1.")) << b;
  const std::string c = message_of<mt::RuntimeError>([&] { impl.impl("ret_type", [](const Tensor&) { return 1.0; }); });
  EXPECT_TRUE(contains(c, "  reason: Type mismatch in return 1: int vs float.")) << c;
}

TEST(RegistrationErrors, TypedWithAWrongSignatureIsRefused) {
  Library def(Library::DEF, "t_reg_sig", std::nullopt, "sig.cpp", 5);
  def.def("op(Tensor x) -> int");
  def.def("schema_only(Tensor x) -> int");
  Library impl(Library::IMPL, "t_reg_sig", DispatchKey::CPU);
  impl.impl("op", &one);
  const mt::OperatorHandle op = op_handle("t_reg_sig::op");
  // Against the kernels' C++ signature.
  const std::string m = message_of<mt::RuntimeError>([&] { op.typed<int64_t(const Tensor&, int64_t)>(); });
  EXPECT_TRUE(mt_test::starts_with(m, "\nTried to access or call an operator with a wrong signature.\n"
                                      "  operator: t_reg_sig::op(Tensor x) -> int\n    registered at sig.cpp:5\n"))
      << m;
  EXPECT_TRUE(contains(m, "  accessed/called as: long (mt::Tensor const&, long)")) << m;
  EXPECT_TRUE(contains(m, "  correct signature:  long (mt::Tensor const&)")) << m;
  EXPECT_TRUE(contains(m, "This likely happened in a call to OperatorHandle::typed<Return (Args...)>()")) << m;
  // Same schema types, different C++ types (by value instead of const&): still the wrong signature.
  EXPECT_THROW(op.typed<int64_t(Tensor)>(), mt::RuntimeError);
  EXPECT_NO_THROW(op.typed<IntOfTensor>());
  // With no kernel yet, the schema decides.
  const std::string s = message_of<mt::RuntimeError>(
      [&] { op_handle("t_reg_sig::schema_only").typed<int64_t(const Tensor&, const Tensor&)>(); });
  EXPECT_TRUE(contains(s, "\n  reason: The number of arguments is different. 1 vs 2.")) << s;
}

TEST(RegistrationErrors, FindSchemaOrThrowSaysWhatIsMissing) {
  EXPECT_EQ(message_of<mt::ValueError>([] { op_handle("t_reg_nosuch::op", "ovl"); }),
            "Could not find schema for t_reg_nosuch::op.ovl");
  Library impl(Library::IMPL, "t_reg_nosuch", DispatchKey::CPU);
  impl.impl("implonly.ovl", &one);
  EXPECT_EQ(message_of<mt::ValueError>([] { op_handle("t_reg_nosuch::implonly", "ovl"); }),
            "Could not find schema for t_reg_nosuch::implonly.ovl but we found an implementation; did you forget to "
            "def() the operator?");
}

TEST(RegistrationErrors, FindSchemaOrThrowDoesNotClaimAnImplementationAfterEverythingWasDeregistered) {
  {
    Library impl(Library::IMPL, "t_reg_gone", DispatchKey::CPU);
    impl.impl("op", &one);
  }
  EXPECT_EQ(message_of<mt::ValueError>([] { op_handle("t_reg_gone::op"); }), "Could not find schema for t_reg_gone::op.");
}

TEST(RegistrationErrors, MissingKernelNamesTheBackendAndTheAvailableKeys) {
  Library def(Library::DEF, "t_reg_missing");
  def.def("op(Tensor x) -> int");
  Library meta(Library::IMPL, "t_reg_missing", DispatchKey::Meta);
  meta.impl("op", &one);
  EXPECT_EQ(call_int("t_reg_missing::op", mt::empty({1}, mt::Device("meta"))), 1);
  const std::string m = message_of<mt::NotImplementedError>([] { call_int("t_reg_missing::op", mt::ones({1})); });
  EXPECT_TRUE(mt_test::starts_with(
      m, "Could not run 't_reg_missing::op' with arguments from the 'CPU' backend. This could be because the operator "
         "doesn't exist for this backend. 't_reg_missing::op' is only available for these backends: [Meta, "))
      << m;
  // Fallthrough fallbacks fill slots too, so they are listed; the computed table follows the list.
  EXPECT_TRUE(contains(m, "AutogradCPU, AutogradCUDA, AutogradPrivateUse1, AutogradMeta")) << m;
  EXPECT_TRUE(contains(m, "].\n\nMeta: [kernel]\n")) << m;
  EXPECT_FALSE(contains(m, "CPU: [kernel]")) << m;
}

TEST(RegistrationErrors, NoTensorArgumentsAndNoUndefinedKernel) {
  Library def(Library::DEF, "t_reg_notensor");
  def.def("make(int n) -> int");
  def.def("sum(Tensor[] xs) -> int");
  Library cpu(Library::IMPL, "t_reg_notensor", DispatchKey::CPU);
  cpu.impl("make", [](int64_t n) { return n; });
  cpu.impl("sum", [](mt::ArrayRef<Tensor> xs) { return static_cast<int64_t>(xs.size()); });
  const std::string m = message_of<mt::NotImplementedError>(
      [] { op_handle("t_reg_notensor::make").typed<int64_t(int64_t)>().call(3); });
  EXPECT_TRUE(mt_test::starts_with(
      m, "There were no tensor arguments to this function (e.g., you passed an empty list of Tensors), but no fallback "
         "function is registered for schema t_reg_notensor::make.  This usually means that this function requires a "
         "non-empty list of Tensors, or that you (the operator writer) forgot to register a fallback function.  "
         "Available functions are [CPU, "))
      << m;
  // An empty tensor list has no tensor either; a non-empty one dispatches to CPU.
  const auto sum = op_handle("t_reg_notensor::sum").typed<int64_t(mt::ArrayRef<Tensor>)>();
  EXPECT_THROW(sum.call({}), mt::NotImplementedError);
  const std::vector<Tensor> two_tensors{mt::ones({1}), mt::ones({1})};
  EXPECT_EQ(sum.call(two_tensors), 2);
}

TEST(Registration, CompositeKernelsServeCallsWithoutTensorArguments) {
  Library def(Library::DEF, "t_reg_undef");
  def.def("explicit_op(int n) -> int");
  def.def("implicit_op(int n) -> int", [](int64_t n) { return 3 * n; });  // catch-all = CompositeImplicitAutograd
  Library cea(Library::IMPL, "t_reg_undef", DispatchKey::CompositeExplicitAutograd);
  cea.impl("explicit_op", [](int64_t n) { return 2 * n; });
  EXPECT_EQ(op_handle("t_reg_undef::explicit_op").typed<int64_t(int64_t)>().call(5), 10);
  EXPECT_EQ(op_handle("t_reg_undef::implicit_op").typed<int64_t(int64_t)>().call(5), 15);
  EXPECT_EQ(mt_test::dump_rows(op_handle("t_reg_undef::explicit_op").dumpComputedTable(), {DispatchKey::Undefined}),
            "Undefined: [default backend kernel]\n");
  EXPECT_EQ(mt_test::dump_rows(op_handle("t_reg_undef::implicit_op").dumpComputedTable(), {DispatchKey::Undefined}),
            "Undefined: [math kernel]\n");
}

TEST(RegistrationErrors, IllegalKeysAndNamespacesAreRefused) {
  Library impl(Library::IMPL, "t_reg_illegal");
  EXPECT_THROW(impl.impl("op", mt::dispatch(DispatchKey::Dense, &one)), mt::ValueError);  // a functionality, not a key
  EXPECT_THROW(impl.impl("other_ns::op", &one), mt::ValueError);
  Library cpu(Library::IMPL, "t_reg_illegal", DispatchKey::CPU);
  EXPECT_THROW(cpu.impl("op", mt::dispatch(DispatchKey::Meta, &one)), mt::ValueError);  // conflicts with the library's key
  EXPECT_THROW(cpu.fallback(mt::CppFunction::makeFallthrough()), mt::RuntimeError);  // fallbacks need namespace _
  EXPECT_THROW(impl.def("op(Tensor x) -> int"), mt::RuntimeError);  // IMPL libraries cannot def
  Library def(Library::FRAGMENT, "t_reg_illegal");
  EXPECT_THROW(def.def("other_ns::op(Tensor x) -> int"), mt::ValueError);
  // None of the refused registrations left an operator behind.
  EXPECT_FALSE(mt::Dispatcher::singleton().findOp({"t_reg_illegal", "op", ""}).has_value());
  EXPECT_FALSE(mt::Dispatcher::singleton().findOp({"other_ns", "op", ""}).has_value());
}

TEST(Registration, BackendFallbackServesOperatorsRegisteredBeforeAndAfterIt) {
  Library def(Library::DEF, "t_reg_fallback");
  def.def("before(Tensor x) -> int");
  auto boxed = [](const mt::OperatorHandle& op, mt::DispatchKeySet, mt::Stack* s) {
    const int64_t n = static_cast<int64_t>(op.schema().arguments.size());
    s->clear();
    s->emplace_back(100 + n);
  };
  std::optional<Library> fb;
  fb.emplace(Library::IMPL, "_", DispatchKey::PrivateUse1, "fb1.cpp", 1);
  fb->fallback(mt::CppFunction::makeFromBoxedLambda(boxed));
  def.def("after(Tensor x, int y) -> int");
  const Tensor pu1 = mt_test::tensor_keyed_as(mt::kPrivateUse1);
  EXPECT_EQ(call_int("t_reg_fallback::before", pu1), 101);
  EXPECT_EQ(op_handle("t_reg_fallback::after").typed<int64_t(const Tensor&, int64_t)>().call(pu1, 7), 102);
  EXPECT_EQ(mt_test::dump_rows(op_handle("t_reg_fallback::after").dumpComputedTable(), {DispatchKey::PrivateUse1}),
            "PrivateUse1: [backend fallback]\n");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] {
              Library second(Library::IMPL, "_", DispatchKey::PrivateUse1, "fb2.cpp", 2);
              second.fallback(mt::CppFunction::makeFallthrough());
            }),
            "Tried to register multiple backend fallbacks for the same dispatch key PrivateUse1; previous registration "
            "registered at fb1.cpp:1, new registration registered at fb2.cpp:2");
  fb.reset();
  EXPECT_THROW(call_int("t_reg_fallback::before", pu1), mt::NotImplementedError);
  EXPECT_EQ(mt_test::dump_rows(op_handle("t_reg_fallback::after").dumpComputedTable(), {DispatchKey::PrivateUse1}), "");
}
