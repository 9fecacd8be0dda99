// The static registration macros MT_LIBRARY / MT_LIBRARY_FRAGMENT / MT_LIBRARY_IMPL. They run at
// start-up and stay registered until exit, so this is the only test file that uses them (namespace t_macro).
#include <gtest/gtest.h>

#include <string>

#include "dispatch_test_helpers.h"
#include "ops/api/ones.h"

using mt::DispatchKey;
using mt::DispatchKeySet;
using mt::Tensor;
using mt_test::op_handle;

namespace {
using IntOfTensor = int64_t(const Tensor&);
int64_t numel_plus_100(const Tensor& x) { return 100 + x.numel(); }
}  // namespace

constexpr int kLibraryLine = __LINE__ + 1;
MT_LIBRARY(t_macro, m) {
  m.def("op(Tensor x) -> int");
  m.def("catchall(Tensor x) -> int", &numel_plus_100);
}

MT_LIBRARY_FRAGMENT(t_macro, m) { m.def("extra(Tensor x) -> int"); }
// A second fragment in the same file gets its own unique static names.
MT_LIBRARY_FRAGMENT(t_macro, m) { m.def("extra2(Tensor x) -> int"); }

MT_LIBRARY_IMPL(t_macro, CPU, m) {
  m.impl("op", [](const Tensor& x) -> int64_t { return x.numel(); });
  m.impl("extra", [](const Tensor&) -> int64_t { return -1; });
}
MT_LIBRARY_IMPL(t_macro, CPU, m) { m.impl("extra2", [](const Tensor&) -> int64_t { return -2; }); }

MT_LIBRARY_IMPL(t_macro, AutogradCPU, m) {
  m.impl("op", [](DispatchKeySet ks, const Tensor& x) -> int64_t {
    return 1000 + op_handle("t_macro::op").typed<IntOfTensor>().redispatch(ks & mt::after_autograd_keyset, x);
  });
}

TEST(LibraryMacros, StaticBlocksRegisterSchemasAndKernelsAtStartUp) {
  const Tensor t = mt::ones({2, 3});
  EXPECT_EQ(op_handle("t_macro::op").schema().str(), "t_macro::op(Tensor x) -> int");
  EXPECT_EQ(op_handle("t_macro::op").typed<IntOfTensor>().call(t), 1006);  // AutogradCPU, then CPU
  EXPECT_EQ(op_handle("t_macro::catchall").typed<IntOfTensor>().call(t), 106);
  EXPECT_TRUE(op_handle("t_macro::catchall").hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd));
  EXPECT_EQ(op_handle("t_macro::extra").typed<IntOfTensor>().call(t), -1);
  EXPECT_EQ(op_handle("t_macro::extra2").typed<IntOfTensor>().call(t), -2);
}

TEST(LibraryMacros, RegistrationsRecordTheFileAndLineOfTheirBlock) {
  const std::string state = op_handle("t_macro::op").dumpState();
  const std::string def_site = std::string("registered at ") + __FILE__ + ":" + std::to_string(kLibraryLine);
  EXPECT_TRUE(mt_test::contains(state, "schema: t_macro::op(Tensor x) -> int\n  debug: " + def_site + "\n")) << state;
  EXPECT_TRUE(mt_test::contains(state, std::string("CPU: registered at ") + __FILE__ + ":")) << state;
  EXPECT_TRUE(mt_test::contains(state, std::string("AutogradCPU: registered at ") + __FILE__ + ":")) << state;
}

TEST(LibraryMacros, ASecondDefLibraryForTheNamespaceNamesTheMacroBlock) {
  const std::string m = mt_test::message_of<mt::RuntimeError>(
      [] { mt::Library again(mt::Library::DEF, "t_macro", std::nullopt, "runtime.cpp", 7); });
  EXPECT_TRUE(mt_test::contains(m, std::string("Previous registration of MT_LIBRARY was registered at ") + __FILE__ +
                                       ":" + std::to_string(kLibraryLine) +
                                       "; latest registration was registered at runtime.cpp:7"))
      << m;
  // Fragments may be added at run time too.
  mt::Library fragment(mt::Library::FRAGMENT, "t_macro");
  fragment.def("runtime_extra(Tensor x) -> int", [](const Tensor&) -> int64_t { return 5; });
  EXPECT_EQ(op_handle("t_macro::runtime_extra").typed<IntOfTensor>().call(mt::ones({1})), 5);
}
