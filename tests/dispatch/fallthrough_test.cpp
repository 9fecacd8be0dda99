// Fallthrough kernels: per-operator and global (fallback) fallthroughs are masked out of the key set per
// backend, so a call goes straight to the next key down; redispatching into one is an error.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "dispatch/LocalDispatchKeySet.h"
#include "dispatch_test_helpers.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"

using mt::DispatchKey;
using mt::DispatchKeySet;
using mt::Library;
using mt::Tensor;
using mt_test::message_of;
using mt_test::op_handle;

namespace {
using IntOfTensor = int64_t(const Tensor&);

int64_t keys_of_call(DispatchKeySet ks, const Tensor&) { return static_cast<int64_t>(ks.raw_repr()); }
int64_t raw(DispatchKeySet ks) { return static_cast<int64_t>(ks.raw_repr()); }

// An Autograd-layer kernel: 1000 + what the layers below return.
template <const char* kName>
int64_t autograd_layer(DispatchKeySet ks, const Tensor& x) {
  return 1000 + op_handle(kName).typed<IntOfTensor>().redispatch(ks & mt::after_autograd_keyset, x);
}
constexpr char kPerBackendOp[] = "t_ft_backend::op";
constexpr char kPerOpA[] = "t_ft_perop::a";
constexpr char kPerOpB[] = "t_ft_perop::b";
}  // namespace

TEST(Fallthrough, PerOpFallthroughAtAutogradCPUSkipsToTheCPUKernelWhileAutogradMetaStillRuns) {
  Library def(Library::DEF, "t_ft_backend");
  def.def("op(Tensor x) -> int");
  Library impl(Library::IMPL, "t_ft_backend");
  impl.impl("op", mt::dispatch(DispatchKey::CPU, &keys_of_call));
  impl.impl("op", mt::dispatch(DispatchKey::Meta, &keys_of_call));
  impl.impl("op", mt::dispatch(DispatchKey::Autograd, &autograd_layer<kPerBackendOp>));
  std::optional<Library> fallthrough;
  fallthrough.emplace(Library::IMPL, "t_ft_backend", DispatchKey::AutogradCPU);
  fallthrough->impl("op", mt::CppFunction::makeFallthrough());

  const mt::OperatorHandle handle = op_handle(kPerBackendOp);
  const auto op = handle.typed<IntOfTensor>();
  const Tensor cpu = mt::ones({1}), meta = mt::empty({1}, mt::Device("meta"));
  EXPECT_EQ(op.call(cpu), raw(DispatchKeySet(DispatchKey::CPU)));  // AutogradCPU skipped
  EXPECT_EQ(op.call(meta), 1000 + raw(DispatchKeySet(DispatchKey::Meta)));  // AutogradMeta ran
  // The masks are per backend: only the CPU backend lost the Autograd functionality.
  const mt::DispatchKeyExtractor& extractor = handle.entry().dispatchKeyExtractor();
  EXPECT_FALSE(extractor.nonFallthroughKeys(0).has(DispatchKey::AutogradFunctionality));  // CPU
  EXPECT_TRUE(extractor.nonFallthroughKeys(1).has(DispatchKey::AutogradFunctionality));   // CUDA
  EXPECT_TRUE(extractor.nonFallthroughKeys(3).has(DispatchKey::AutogradFunctionality));   // Meta
  EXPECT_EQ(mt_test::dump_rows(handle.dumpComputedTable(), {DispatchKey::AutogradCPU, DispatchKey::AutogradMeta}),
            "AutogradCPU: fallthrough [kernel]\nAutogradMeta: [autograd kernel]\n");

  // Deregistering the fallthrough brings the Autograd kernel back for CPU.
  fallthrough.reset();
  EXPECT_TRUE(extractor.nonFallthroughKeys(0).has(DispatchKey::AutogradFunctionality));
  EXPECT_EQ(op.call(cpu), 1000 + raw(DispatchKeySet(DispatchKey::CPU)));
}

TEST(Fallthrough, MasksBelongToOneOperator) {
  Library def(Library::DEF, "t_ft_perop");
  def.def("a(Tensor x) -> int");
  def.def("b(Tensor x) -> int");
  Library impl(Library::IMPL, "t_ft_perop");
  for (const char* name : {"a", "b"}) impl.impl(name, mt::dispatch(DispatchKey::CPU, &keys_of_call));
  impl.impl("a", mt::dispatch(DispatchKey::Autograd, &autograd_layer<kPerOpA>));
  impl.impl("b", mt::dispatch(DispatchKey::Autograd, &autograd_layer<kPerOpB>));
  impl.impl("a", mt::dispatch(DispatchKey::AutogradCPU, mt::CppFunction::makeFallthrough()));
  const Tensor t = mt::ones({1});
  EXPECT_EQ(op_handle(kPerOpA).typed<IntOfTensor>().call(t), raw(DispatchKeySet(DispatchKey::CPU)));
  EXPECT_EQ(op_handle(kPerOpB).typed<IntOfTensor>().call(t), 1000 + raw(DispatchKeySet(DispatchKey::CPU)));
}

TEST(Fallthrough, BuiltInFallbacksSkipBackendSelectADInplaceOrViewAndAutogradUntilAnOpRegistersThere) {
  Library def(Library::DEF, "t_ft_builtin");
  def.def("plain(Tensor x) -> int");
  def.def("view_tracking(Tensor x) -> int");
  Library impl(Library::IMPL, "t_ft_builtin");
  impl.impl("plain", mt::dispatch(DispatchKey::CPU, &keys_of_call));
  impl.impl("view_tracking", mt::dispatch(DispatchKey::CPU, &keys_of_call));
  impl.impl("view_tracking", mt::dispatch(DispatchKey::ADInplaceOrView, [](DispatchKeySet ks, const Tensor& x) {
              EXPECT_EQ(ks, DispatchKeySet({DispatchKey::CPU, DispatchKey::ADInplaceOrView}));
              return 500 + op_handle("t_ft_builtin::view_tracking")
                               .typed<IntOfTensor>()
                               .redispatch(ks & mt::after_ADInplaceOrView_keyset, x);
            }));
  const Tensor t = mt::ones({1});
  // The tensor has ADInplaceOrView and AutogradCPU and the TLS adds BackendSelect: the first two fall
  // through, and the not-implemented Autograd fallback (nothing requires grad) redispatches below itself.
  EXPECT_EQ(op_handle("t_ft_builtin::plain").typed<IntOfTensor>().call(t), raw(DispatchKeySet(DispatchKey::CPU)));
  EXPECT_EQ(mt_test::dump_rows(op_handle("t_ft_builtin::plain").dumpComputedTable(),
                               {DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU}),
            "BackendSelect: fallthrough [backend fallback]\n"
            "ADInplaceOrView: fallthrough [backend fallback]\n"
            "AutogradCPU: [backend fallback]\n");
  // An operator's own ADInplaceOrView kernel beats the global fallthrough.
  EXPECT_EQ(op_handle("t_ft_builtin::view_tracking").typed<IntOfTensor>().call(t),
            500 + raw(DispatchKeySet(DispatchKey::CPU)));
}

TEST(Fallthrough, GlobalFallthroughFallbackSkipsTheKeyForEveryOperatorWithoutItsOwnKernel) {
  // A functionality key nobody has registered a global fallback for yet (other layers may own some).
  std::optional<DispatchKey> free_key;
  for (DispatchKey k : {DispatchKey::FuncTorchGradWrapper, DispatchKey::FuncTorchBatched, DispatchKey::PreDispatch,
                        DispatchKey::DispatchMode, DispatchKey::Functionalize, DispatchKey::FuncTorchDynamicLayerBackMode,
                        DispatchKey::FuncTorchDynamicLayerFrontMode, DispatchKey::AutocastCUDA}) {
    if (!mt::Dispatcher::singleton().backendFallback(mt::getDispatchTableIndexForDispatchKey(k))) {
      free_key = k;
      break;
    }
  }
  if (!free_key) GTEST_SKIP() << "every candidate key already has a global fallback";
  const DispatchKey k = *free_key;
  Library def(Library::DEF, "t_ft_global");
  def.def("plain(Tensor x) -> int");
  def.def("own(Tensor x) -> int");
  Library impl(Library::IMPL, "t_ft_global");
  impl.impl("plain", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  impl.impl("own", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  impl.impl("own", mt::dispatch(k, [](const Tensor&) -> int64_t { return 7; }));
  const auto plain = op_handle("t_ft_global::plain").typed<IntOfTensor>();
  const auto own = op_handle("t_ft_global::own").typed<IntOfTensor>();
  const Tensor t = mt::ones({1});
  mt::IncludeDispatchKeyGuard include(k);
  const std::string m = message_of<mt::NotImplementedError>([&] { plain.call(t); });
  EXPECT_TRUE(mt_test::starts_with(
      m, "Could not run 't_ft_global::plain' with arguments from the '" + std::string(mt::toString(k)) + "' backend."))
      << m;
  EXPECT_EQ(own.call(t), 7);
  {
    Library fallback(Library::IMPL, "_", k);
    fallback.fallback(mt::CppFunction::makeFallthrough());
    EXPECT_EQ(plain.call(t), 1);
    EXPECT_EQ(own.call(t), 7);  // an operator's kernel beats the fallback
    // Operators defined while the fallback exists get it too.
    Library later(Library::FRAGMENT, "t_ft_global");
    later.def("later(Tensor x) -> int");
    impl.impl("later", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 2; }));
    EXPECT_EQ(op_handle("t_ft_global::later").typed<IntOfTensor>().call(t), 2);
  }
  EXPECT_THROW(plain.call(t), mt::NotImplementedError);
}

TEST(Fallthrough, PerOpFallthroughAtANonPerBackendKeyIsSkippedOnEveryBackend) {
  Library def(Library::DEF, "t_ft_batched");
  def.def("op(Tensor x) -> int");
  Library impl(Library::IMPL, "t_ft_batched");
  impl.impl("op", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  impl.impl("op", mt::dispatch(DispatchKey::Meta, [](const Tensor&) -> int64_t { return 4; }));
  impl.impl("op", mt::dispatch(DispatchKey::FuncTorchBatched, mt::CppFunction::makeFallthrough()));
  const mt::OperatorHandle handle = op_handle("t_ft_batched::op");
  for (int b = 0; b < mt::num_backends; ++b)
    EXPECT_FALSE(handle.entry().dispatchKeyExtractor().nonFallthroughKeys(b).has(DispatchKey::FuncTorchBatched)) << b;
  // Made before the key is included: nothing else has a FuncTorchBatched kernel here.
  const Tensor cpu = mt::ones({1}), meta = mt::empty({1}, mt::Device("meta"));
  mt::IncludeDispatchKeyGuard include(DispatchKey::FuncTorchBatched);
  EXPECT_EQ(handle.typed<IntOfTensor>().call(cpu), 1);
  EXPECT_EQ(handle.typed<IntOfTensor>().call(meta), 4);
}

TEST(Fallthrough, RedispatchIntoAFallthroughSlotRaisesTheFallthroughError) {
  Library def(Library::DEF, "t_ft_redispatch");
  def.def("op(Tensor x) -> int");
  Library impl(Library::IMPL, "t_ft_redispatch");
  impl.impl("op", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  impl.impl("op", mt::dispatch(DispatchKey::AutogradCPU, mt::CppFunction::makeFallthrough()));
  const auto op = op_handle("t_ft_redispatch::op").typed<IntOfTensor>();
  const Tensor t = mt::ones({1});
  EXPECT_EQ(op.call(t), 1);  // a call masks the fallthrough out
  // redispatch takes the key set as given, unmasked: a per-op fallthrough slot ...
  const std::string m = message_of<mt::RuntimeError>(
      [&] { op.redispatch(DispatchKeySet({DispatchKey::CPU, DispatchKey::AutogradCPU}), t); });
  EXPECT_TRUE(mt_test::starts_with(m, "fallthrough_kernel was executed for key set DispatchKeySet(CPU, AutogradCPU) "
                                      "but it should have been skipped by the dispatcher."))
      << m;
  // ... or a global fallthrough fallback slot, boxed or not.
  const std::string g = message_of<mt::RuntimeError>(
      [&] { op.redispatch(DispatchKeySet({DispatchKey::CPU, DispatchKey::ADInplaceOrView}), t); });
  EXPECT_TRUE(mt_test::contains(g, "for key set DispatchKeySet(CPU, ADInplaceOrView)")) << g;
  mt::Stack s{mt::IValue(t)};
  EXPECT_THROW(op.redispatchBoxed(DispatchKeySet({DispatchKey::CPU, DispatchKey::BackendSelect}), s), mt::RuntimeError);
  // Masking the key before redispatching, as layers do, works.
  EXPECT_EQ(op.redispatch(DispatchKeySet({DispatchKey::CPU, DispatchKey::AutogradCPU}) & mt::after_autograd_keyset, t), 1);
}
