// Alias keys, slot precedence and registration-order independence of the computed dispatch table.
//
// The expected table is derived by hand from DESIGN.md's precedence rule, written down once as
// expected_rows() below: direct kernel > CompositeExplicitAutograd > CompositeImplicitAutograd (for an
// Autograd slot only when the backend has no direct or CompositeExplicitAutograd kernel) > Autograd alias
// > backend fallback > missing. Every reachable registration state, reached in every order, must match it.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "dispatch_test_helpers.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"

using mt::DispatchKey;
using mt::DispatchKeySet;
using mt::Library;
using mt::Tensor;
using mt_test::backend_rows;
using mt_test::op_handle;

namespace {

// Kernel results tell which registration ran.
int64_t k_cpu(const Tensor&) { return 1; }
int64_t k_cuda(const Tensor&) { return 2; }
int64_t k_pu1(const Tensor&) { return 3; }
int64_t k_autograd(const Tensor&) { return 10; }
int64_t k_autograd_cpu(const Tensor&) { return 20; }
int64_t k_cii(const Tensor&) { return 30; }
int64_t k_cea(const Tensor&) { return 40; }
void k_fallback(const mt::OperatorHandle&, mt::Stack* s) {
  s->clear();
  s->emplace_back(int64_t(50));
}

// The nine registrations of the order tests. Fallbacks are global: only one FallbackPU1 exists at a time.
enum Item : unsigned {
  Def, CpuKernel, CudaKernel, AutogradAlias, AutogradCpuKernel, Implicit, Explicit, FallbackPU1,
  FallthroughAutogradCuda, kNumItems
};
constexpr const char* kNs = "t_alias_order";
constexpr const char* kOp = "t_alias_order::op";

void register_item(std::optional<Library>& lib, Item item) {
  auto impl_at = [&](DispatchKey k, mt::CppFunction f) {
    lib.emplace(Library::IMPL, kNs, k);
    lib->impl("op", std::move(f));
  };
  switch (item) {
    case Def:
      lib.emplace(Library::FRAGMENT, kNs);
      lib->def("op(Tensor x) -> int");
      return;
    case CpuKernel: return impl_at(DispatchKey::CPU, &k_cpu);
    case CudaKernel: return impl_at(DispatchKey::CUDA, &k_cuda);
    case AutogradAlias: return impl_at(DispatchKey::Autograd, &k_autograd);
    case AutogradCpuKernel: return impl_at(DispatchKey::AutogradCPU, &k_autograd_cpu);
    case Implicit: return impl_at(DispatchKey::CompositeImplicitAutograd, &k_cii);
    case Explicit: return impl_at(DispatchKey::CompositeExplicitAutograd, &k_cea);
    case FallthroughAutogradCuda: return impl_at(DispatchKey::AutogradCUDA, mt::CppFunction::makeFallthrough());
    case FallbackPU1:
      lib.emplace(Library::IMPL, "_", DispatchKey::PrivateUse1);
      lib->fallback(mt::CppFunction::makeFromBoxedFunction<&k_fallback>());
      return;
    case kNumItems: break;
  }
  FAIL() << "unknown item";
}

bool in(unsigned mask, Item i) { return (mask >> i) & 1u; }

// The hand-derived table rows (Undefined, the four backends, the four Autograd keys) for a set of items.
std::string expected_rows(unsigned m) {
  std::string out;
  auto row = [&](const char* key, const char* source) { out += std::string(key) + ": " + source + "\n"; };
  const bool cea = in(m, Explicit), cii = in(m, Implicit);
  if (cea) row("Undefined", "[default backend kernel]");
  else if (cii) row("Undefined", "[math kernel]");
  struct Backend {
    const char* dense;
    const char* autograd;
    bool direct;           // a kernel registered at the backend key itself
    bool fallback;         // the backend fallback covers this backend
    bool direct_autograd;  // a kernel at Autograd<Backend>
    bool fallthrough;      // ... which is the per-op fallthrough
  };
  const Backend backends[] = {
      {"CPU", "AutogradCPU", in(m, CpuKernel), false, in(m, AutogradCpuKernel), false},
      {"CUDA", "AutogradCUDA", in(m, CudaKernel), false, in(m, FallthroughAutogradCuda), true},
      {"PrivateUse1", "AutogradPrivateUse1", false, in(m, FallbackPU1), false, false},
      {"Meta", "AutogradMeta", false, false, false, false},
  };
  for (const Backend& b : backends) {
    if (b.direct) row(b.dense, "[kernel]");
    else if (cea) row(b.dense, "[default backend kernel]");
    else if (cii) row(b.dense, "[math kernel]");
    else if (b.fallback) row(b.dense, "[backend fallback]");
  }
  for (const Backend& b : backends) {
    if (b.direct_autograd) row(b.autograd, b.fallthrough ? "fallthrough [kernel]" : "[kernel]");
    else if (cii && !cea && !b.direct) row(b.autograd, "[math kernel]");
    else if (in(m, AutogradAlias)) row(b.autograd, "[autograd kernel]");
    else row(b.autograd, "[backend fallback]");  // the global Autograd not-implemented fallback
  }
  return out;
}

// The operator's current rows; an operator the dispatcher has never heard of has the rows of a fresh one.
std::string current_rows() {
  const auto op = mt::Dispatcher::singleton().findOp(mt::parse_operator_name(kOp));
  return op ? backend_rows(*op) : expected_rows(0);
}
std::string current_full_dump() {
  const auto op = mt::Dispatcher::singleton().findOp(mt::parse_operator_name(kOp));
  return op ? op->dumpComputedTable() : "";
}

std::string names_of(const std::vector<Item>& order) {
  static const char* names[] = {"Def", "CPU", "CUDA", "Autograd", "AutogradCPU", "Implicit", "Explicit", "FallbackPU1",
                                "FallthroughAutogradCUDA"};
  std::string s;
  for (Item i : order) s += std::string(s.empty() ? "" : ", ") + names[i];
  return s;
}

class RegistrationOrder : public ::testing::Test {
 protected:
  void TearDown() override {
    for (auto& lib : libs_) lib.reset();
  }
  // Visits every permutation of `items` as a tree: one registration per edge, checked at every node, and
  // undone on the way back (which also exercises LIFO deregistration). Stops at the first mismatch.
  void register_in_every_order(const std::vector<Item>& items, unsigned mask, std::vector<Item>& path) {
    if (HasFailure()) return;
    const std::string rows = current_rows();
    ASSERT_EQ(rows, expected_rows(mask)) << "after registering: " << names_of(path);
    ++visited_;
    if (path.size() == items.size()) {
      if (reference_full_dump_.empty()) reference_full_dump_ = current_full_dump();
      ASSERT_EQ(current_full_dump(), reference_full_dump_) << "after registering: " << names_of(path);
      return;
    }
    for (Item i : items) {
      if (in(mask, i)) continue;
      register_item(libs_[i], i);
      path.push_back(i);
      register_in_every_order(items, mask | (1u << i), path);
      path.pop_back();
      libs_[i].reset();
      if (HasFailure()) return;
    }
  }
  // Visits every order of destroying the libraries of `mask`, re-registering on the way back.
  void deregister_in_every_order(unsigned mask, std::vector<Item>& path) {
    if (HasFailure()) return;
    ASSERT_EQ(current_rows(), expected_rows(mask)) << "after destroying: " << names_of(path);
    ++visited_;
    for (unsigned i = 0; i < kNumItems; ++i) {
      if (!in(mask, Item(i))) continue;
      libs_[i].reset();
      path.push_back(Item(i));
      deregister_in_every_order(mask & ~(1u << i), path);
      path.pop_back();
      register_item(libs_[i], Item(i));
      if (HasFailure()) return;
    }
  }

  std::array<std::optional<Library>, kNumItems> libs_;
  std::string reference_full_dump_;
  size_t visited_ = 0;
};

}  // namespace

TEST_F(RegistrationOrder, EveryOrderOfSevenRegistrationsGivesTheSameTableAtEveryStep) {
  const std::vector<Item> items{Def, CpuKernel, AutogradAlias, AutogradCpuKernel, Implicit, Explicit,
                                FallthroughAutogradCuda};
  std::vector<Item> path;
  register_in_every_order(items, 0, path);
  EXPECT_EQ(visited_, 13700u);  // sum over k of 7!/(7-k)!
  EXPECT_EQ(current_rows(), expected_rows(0));
}

TEST_F(RegistrationOrder, EveryOrderWithCudaKernelAndBackendFallbackGivesTheSameTable) {
  const std::vector<Item> items{Def, CpuKernel, CudaKernel, Implicit, Explicit, FallbackPU1, AutogradAlias};
  std::vector<Item> path;
  register_in_every_order(items, 0, path);
  EXPECT_EQ(visited_, 13700u);
  EXPECT_EQ(current_rows(), expected_rows(0));
}

TEST_F(RegistrationOrder, AddingOrRemovingAnyOneOfNineRegistrationsFromAnyStateMatchesTheRule) {
  // All 2^9 states, each reached in reference order, then each missing item added and removed again.
  for (unsigned mask = 0; mask < (1u << kNumItems) && !HasFailure(); ++mask) {
    for (unsigned i = 0; i < kNumItems; ++i)
      if (in(mask, Item(i))) register_item(libs_[i], Item(i));
    ASSERT_EQ(current_rows(), expected_rows(mask)) << "state " << mask;
    for (unsigned i = 0; i < kNumItems; ++i) {
      if (in(mask, Item(i))) continue;
      register_item(libs_[i], Item(i));
      ASSERT_EQ(current_rows(), expected_rows(mask | (1u << i))) << "state " << mask << " + item " << i;
      libs_[i].reset();
      ASSERT_EQ(current_rows(), expected_rows(mask)) << "state " << mask << " + item " << i << " - item " << i;
    }
    for (auto& lib : libs_) lib.reset();  // destroyed in item order, not reverse registration order
    ASSERT_EQ(current_rows(), expected_rows(0)) << "state " << mask << " destroyed";
  }
}

TEST_F(RegistrationOrder, EveryDestructionOrderOfSevenLibrariesReturnsToTheEmptyTable) {
  const std::vector<Item> items{Def, CpuKernel, AutogradAlias, Implicit, Explicit, FallbackPU1,
                                FallthroughAutogradCuda};
  unsigned mask = 0;
  for (Item i : items) {
    register_item(libs_[i], i);
    mask |= 1u << i;
  }
  std::vector<Item> path;
  deregister_in_every_order(mask, path);
  EXPECT_EQ(visited_, 13700u);
  for (auto& lib : libs_) lib.reset();
  EXPECT_EQ(current_rows(), expected_rows(0));
}

TEST(AliasKeys, DumpComputedTableNamesTheSourceOfEverySlot) {
  Library def(Library::DEF, "t_alias_dump");
  def.def("all(Tensor x) -> int");
  def.def("math(Tensor x) -> int");
  Library impl(Library::IMPL, "t_alias_dump");
  impl.impl("all", mt::dispatch(DispatchKey::CPU, &k_cpu));
  impl.impl("all", mt::dispatch(DispatchKey::CUDA, &k_cuda));
  impl.impl("all", mt::dispatch(DispatchKey::Autograd, &k_autograd));
  impl.impl("all", mt::dispatch(DispatchKey::AutogradCPU, &k_autograd_cpu));
  impl.impl("all", mt::dispatch(DispatchKey::CompositeImplicitAutograd, &k_cii));
  impl.impl("all", mt::dispatch(DispatchKey::CompositeExplicitAutograd, &k_cea));
  impl.impl("all", mt::dispatch(DispatchKey::AutogradCUDA, mt::CppFunction::makeFallthrough()));
  impl.impl("math", mt::dispatch(DispatchKey::CPU, &k_cpu));
  impl.impl("math", mt::dispatch(DispatchKey::CompositeImplicitAutograd, &k_cii));
  Library fallback(Library::IMPL, "_", DispatchKey::PrivateUse1);
  fallback.fallback(mt::CppFunction::makeFromBoxedFunction<&k_fallback>());
  EXPECT_EQ(backend_rows(op_handle("t_alias_dump::all")),
            "Undefined: [default backend kernel]\n"
            "CPU: [kernel]\n"
            "CUDA: [kernel]\n"
            "PrivateUse1: [default backend kernel]\n"
            "Meta: [default backend kernel]\n"
            "AutogradCPU: [kernel]\n"
            "AutogradCUDA: fallthrough [kernel]\n"
            "AutogradPrivateUse1: [autograd kernel]\n"
            "AutogradMeta: [autograd kernel]\n");
  EXPECT_EQ(backend_rows(op_handle("t_alias_dump::math")),
            "Undefined: [math kernel]\n"
            "CPU: [kernel]\n"
            "CUDA: [math kernel]\n"
            "PrivateUse1: [math kernel]\n"
            "Meta: [math kernel]\n"
            "AutogradCPU: [backend fallback]\n"
            "AutogradCUDA: [math kernel]\n"
            "AutogradPrivateUse1: [math kernel]\n"
            "AutogradMeta: [math kernel]\n");
}

TEST(AliasKeys, BackendSlotPrecedenceIsDirectThenExplicitThenImplicitThenFallbackThenMissing) {
  Library def(Library::DEF, "t_alias_prec");
  def.def("op(Tensor x) -> int");
  std::optional<Library> direct, cea, cii, fallback;
  direct.emplace(Library::IMPL, "t_alias_prec", DispatchKey::PrivateUse1);
  direct->impl("op", &k_pu1);
  cea.emplace(Library::IMPL, "t_alias_prec", DispatchKey::CompositeExplicitAutograd);
  cea->impl("op", &k_cea);
  cii.emplace(Library::IMPL, "t_alias_prec", DispatchKey::CompositeImplicitAutograd);
  cii->impl("op", &k_cii);
  fallback.emplace(Library::IMPL, "_", DispatchKey::PrivateUse1);
  fallback->fallback(mt::CppFunction::makeFromBoxedFunction<&k_fallback>());
  const auto op = op_handle("t_alias_prec::op").typed<int64_t(const Tensor&)>();
  const Tensor pu1 = mt_test::tensor_keyed_as(mt::kPrivateUse1);
  EXPECT_EQ(op.call(pu1), 3);
  direct.reset();
  EXPECT_EQ(op.call(pu1), 40);
  cea.reset();
  // Only the math kernel is left; for PrivateUse1 it now also fills AutogradPrivateUse1.
  EXPECT_EQ(op.call(pu1), 30);
  cii.reset();
  EXPECT_EQ(op.call(pu1), 50);
  fallback.reset();
  EXPECT_THROW(op.call(pu1), mt::NotImplementedError);
}

TEST(AliasKeys, AutogradSlotPrecedenceIsDirectThenImplicitThenAutogradAliasThenFallthrough) {
  Library def(Library::DEF, "t_alias_ag");
  def.def("op(Tensor x) -> int");
  std::optional<Library> autograd_cpu, cii, autograd, cpu;
  autograd_cpu.emplace(Library::IMPL, "t_alias_ag", DispatchKey::AutogradCPU);
  autograd_cpu->impl("op", &k_autograd_cpu);
  cii.emplace(Library::IMPL, "t_alias_ag", DispatchKey::CompositeImplicitAutograd);
  cii->impl("op", &k_cii);
  autograd.emplace(Library::IMPL, "t_alias_ag", DispatchKey::Autograd);
  autograd->impl("op", &k_autograd);
  const auto op = op_handle("t_alias_ag::op").typed<int64_t(const Tensor&)>();
  const Tensor t = mt::ones({1});
  EXPECT_EQ(op.call(t), 20);
  autograd_cpu.reset();
  EXPECT_EQ(op.call(t), 30);  // the math kernel at AutogradCPU: the CPU backend has no kernel
  cpu.emplace(Library::IMPL, "t_alias_ag", DispatchKey::CPU);
  cpu->impl("op", &k_cpu);
  EXPECT_EQ(op.call(t), 10);  // a CPU kernel blocks the math kernel; the Autograd alias comes next
  autograd.reset();
  EXPECT_EQ(op.call(t), 1);  // the global Autograd fallthrough: straight to the CPU kernel
  cpu.reset();
  EXPECT_EQ(op.call(t), 30);  // the math kernel is back at AutogradCPU
}

TEST(AliasKeys, CompositeImplicitFillsAutogradSlotOnlyWithoutBackendOrExplicitKernel) {
  Library def(Library::DEF, "t_alias_cii");
  def.def("op(Tensor x) -> int");
  auto keys_kernel = [](DispatchKeySet ks, const Tensor&) { return static_cast<int64_t>(ks.raw_repr()); };
  Library cii(Library::IMPL, "t_alias_cii", DispatchKey::CompositeImplicitAutograd);
  cii.impl("op", keys_kernel);
  const auto op = op_handle("t_alias_cii::op").typed<int64_t(const Tensor&)>();
  const Tensor cpu = mt::ones({1}), meta = mt::empty({1}, mt::Device("meta"));
  auto raw = [](std::initializer_list<DispatchKey> ks) { return static_cast<int64_t>(DispatchKeySet(ks).raw_repr()); };
  // Alone, the math kernel runs at the Autograd key (above autograd, so its decomposition is differentiated).
  EXPECT_EQ(op.call(cpu), raw({DispatchKey::CPU, DispatchKey::AutogradCPU}));
  EXPECT_EQ(op.call(meta), raw({DispatchKey::Meta, DispatchKey::AutogradMeta}));
  {
    Library cea(Library::IMPL, "t_alias_cii", DispatchKey::CompositeExplicitAutograd);
    cea.impl("op", [](DispatchKeySet, const Tensor&) -> int64_t { return 40; });
    // Registered after the math kernel: the Autograd slots must still be recomputed.
    EXPECT_EQ(backend_rows(op_handle("t_alias_cii::op")),
              "Undefined: [default backend kernel]\n"
              "CPU: [default backend kernel]\nCUDA: [default backend kernel]\n"
              "PrivateUse1: [default backend kernel]\nMeta: [default backend kernel]\n" +
                  mt_test::kAutogradFallbackRows);
    EXPECT_EQ(op.call(cpu), 40);
    EXPECT_EQ(op.call(meta), 40);
  }
  EXPECT_EQ(op.call(cpu), raw({DispatchKey::CPU, DispatchKey::AutogradCPU}));
  {
    Library cpu_kernel(Library::IMPL, "t_alias_cii", DispatchKey::CPU);
    cpu_kernel.impl("op", [](DispatchKeySet, const Tensor&) -> int64_t { return 1; });
    EXPECT_EQ(op.call(cpu), 1);                                                      // CPU: fallthrough to the kernel
    EXPECT_EQ(op.call(meta), raw({DispatchKey::Meta, DispatchKey::AutogradMeta}));  // Meta: unchanged
  }
  EXPECT_EQ(op.call(cpu), raw({DispatchKey::CPU, DispatchKey::AutogradCPU}));
}

TEST(AliasKeys, HasKernelForDispatchKeyMeansADirectRegistration) {
  Library def(Library::DEF, "t_alias_has");
  def.def("op(Tensor x) -> int");
  Library impl(Library::IMPL, "t_alias_has");
  impl.impl("op", mt::dispatch(DispatchKey::CompositeImplicitAutograd, &k_cii));
  impl.impl("op", mt::dispatch(DispatchKey::Autograd, &k_autograd));
  impl.impl("op", mt::dispatch(DispatchKey::AutogradCUDA, mt::CppFunction::makeFallthrough()));
  const mt::OperatorHandle op = op_handle("t_alias_has::op");
  EXPECT_TRUE(op.hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd));
  EXPECT_TRUE(op.hasKernelForDispatchKey(DispatchKey::Autograd));
  EXPECT_TRUE(op.hasKernelForDispatchKey(DispatchKey::AutogradCUDA));  // a fallthrough is a registration
  EXPECT_FALSE(op.hasKernelForDispatchKey(DispatchKey::CPU));
  EXPECT_FALSE(op.hasKernelForDispatchKey(DispatchKey::AutogradCPU));
  EXPECT_FALSE(op.hasKernelForDispatchKey(DispatchKey::CompositeExplicitAutograd));
  // The computed slots are filled from the alias registrations.
  EXPECT_TRUE(op.hasComputedKernelForDispatchKey(DispatchKey::CPU));
  EXPECT_TRUE(op.hasComputedKernelForDispatchKey(DispatchKey::AutogradCPU));
  EXPECT_TRUE(op.hasComputedKernelForDispatchKey(DispatchKey::Undefined));
  // A slot with neither a kernel nor a global fallback stays empty.
  const int grad_wrapper = mt::getDispatchTableIndexForDispatchKey(DispatchKey::FuncTorchGradWrapper);
  if (mt::Dispatcher::singleton().backendFallback(grad_wrapper) == nullptr) {
    EXPECT_FALSE(op.hasComputedKernelForDispatchKey(DispatchKey::FuncTorchGradWrapper));
  }
  EXPECT_THROW(op.hasComputedKernelForDispatchKey(DispatchKey::Autograd), mt::ValueError);
}
