// Thread-local included/excluded key sets and their RAII guards.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "dispatch/LocalDispatchKeySet.h"
#include "dispatch_test_helpers.h"
#include "ops/api/ones.h"
#include "ops/api/outer.h"

using mt::DispatchKey;
using mt::DispatchKeySet;

namespace {
const DispatchKeySet kDefaultIncluded({DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView});
const DispatchKeySet kDefaultExcluded({DispatchKey::AutocastCPU, DispatchKey::AutocastCUDA});

void expect_default_state() {
  const mt::LocalDispatchKeySet tls = mt::tls_local_dispatch_key_set();
  EXPECT_EQ(tls.included_, kDefaultIncluded) << tls.included_;
  EXPECT_EQ(tls.excluded_, kDefaultExcluded) << tls.excluded_;
}

// An operator with a kernel at CPU (1), FuncTorchBatched (2) and AutocastCPU (3), to observe which key a
// call dispatches to under the current TLS.
class TlsDispatch : public ::testing::Test {
 protected:
  void SetUp() override {
    def_.def("which(Tensor x) -> int");
    impl_.impl("which", mt::dispatch(DispatchKey::CPU, [](const mt::Tensor&) -> int64_t { return 1; }));
    impl_.impl("which", mt::dispatch(DispatchKey::FuncTorchBatched, [](const mt::Tensor&) -> int64_t { return 2; }));
    impl_.impl("which", mt::dispatch(DispatchKey::AutocastCPU, [](const mt::Tensor&) -> int64_t { return 3; }));
  }
  int64_t which(const mt::Tensor& t) {
    return mt_test::op_handle("t_tls::which").typed<int64_t(const mt::Tensor&)>().call(t);
  }
  mt::Library def_{mt::Library::DEF, "t_tls"};
  mt::Library impl_{mt::Library::IMPL, "t_tls"};
};
}  // namespace

TEST(TlsGuards, DefaultStateIncludesBackendSelectAndADInplaceOrViewAndExcludesAutocast) {
  expect_default_state();
  // The default is stored as all-zero words (XOR with the defaults).
  EXPECT_EQ(mt::detail::raw_local_dispatch_key_set.included_xor_default, 0u);
  EXPECT_EQ(mt::detail::raw_local_dispatch_key_set.excluded_xor_default, 0u);
  EXPECT_TRUE(mt::tls_is_dispatch_key_included(DispatchKey::BackendSelect));
  EXPECT_TRUE(mt::tls_is_dispatch_key_included(DispatchKey::ADInplaceOrView));
  EXPECT_FALSE(mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchBatched));
  EXPECT_TRUE(mt::tls_is_dispatch_key_excluded(DispatchKey::AutocastCPU));
  EXPECT_TRUE(mt::tls_is_dispatch_key_excluded(DispatchKey::AutocastCUDA));
  EXPECT_FALSE(mt::tls_is_dispatch_key_excluded(DispatchKey::AutogradFunctionality));
}

TEST(TlsGuards, IncludeGuardsNestAndRestoreInReverseOrder) {
  {
    mt::IncludeDispatchKeyGuard outer(DispatchKey::FuncTorchBatched);
    EXPECT_EQ(mt::tls_local_dispatch_key_set().included_, kDefaultIncluded.add(DispatchKey::FuncTorchBatched));
    {
      mt::IncludeDispatchKeyGuard inner(DispatchKeySet({DispatchKey::PreDispatch, DispatchKey::FuncTorchBatched}));
      EXPECT_EQ(mt::tls_local_dispatch_key_set().included_,
                kDefaultIncluded.add(DispatchKey::FuncTorchBatched).add(DispatchKey::PreDispatch));
    }
    // The inner guard restores what it saw, so FuncTorchBatched (also named by inner) is still included.
    EXPECT_EQ(mt::tls_local_dispatch_key_set().included_, kDefaultIncluded.add(DispatchKey::FuncTorchBatched));
    EXPECT_EQ(mt::tls_local_dispatch_key_set().excluded_, kDefaultExcluded);
  }
  expect_default_state();
}

TEST(TlsGuards, ExcludeGuardsNestWithIncludeGuardsAndRestore) {
  {
    mt::ExcludeDispatchKeyGuard no_autograd(mt::autograd_dispatch_keyset_with_ADInplaceOrView);
    EXPECT_EQ(mt::tls_local_dispatch_key_set().excluded_,
              kDefaultExcluded | DispatchKeySet({DispatchKey::AutogradFunctionality, DispatchKey::ADInplaceOrView}));
    {
      mt::IncludeDispatchKeyGuard batched(DispatchKey::FuncTorchBatched);
      mt::ExcludeDispatchKeyGuard no_batched(DispatchKey::FuncTorchBatched);
      EXPECT_TRUE(mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchBatched));
      EXPECT_TRUE(mt::tls_is_dispatch_key_excluded(DispatchKey::FuncTorchBatched));
    }
    EXPECT_FALSE(mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchBatched));
    EXPECT_FALSE(mt::tls_is_dispatch_key_excluded(DispatchKey::FuncTorchBatched));
    EXPECT_TRUE(mt::tls_is_dispatch_key_excluded(DispatchKey::ADInplaceOrView));
  }
  expect_default_state();
}

TEST(TlsGuards, ForceGuardReplacesBothSetsAndRestores) {
  mt::IncludeDispatchKeyGuard batched(DispatchKey::FuncTorchBatched);
  {
    mt::ForceDispatchKeyGuard force{DispatchKeySet(DispatchKey::PreDispatch), DispatchKeySet()};
    EXPECT_EQ(mt::tls_local_dispatch_key_set().included_, DispatchKeySet(DispatchKey::PreDispatch));
    EXPECT_TRUE(mt::tls_local_dispatch_key_set().excluded_.empty());
    {
      mt::ForceDispatchKeyGuard force_default(mt::LocalDispatchKeySet{kDefaultIncluded, kDefaultExcluded});
      expect_default_state();
    }
    EXPECT_EQ(mt::tls_local_dispatch_key_set().included_, DispatchKeySet(DispatchKey::PreDispatch));
  }
  EXPECT_EQ(mt::tls_local_dispatch_key_set().included_, kDefaultIncluded.add(DispatchKey::FuncTorchBatched));
  EXPECT_EQ(mt::tls_local_dispatch_key_set().excluded_, kDefaultExcluded);
}

TEST_F(TlsDispatch, IncludedKeyIsDispatchedToEvenIfNoTensorHasIt) {
  const mt::Tensor t = mt::ones({1});
  EXPECT_EQ(which(t), 1);
  {
    mt::IncludeDispatchKeyGuard batched(DispatchKey::FuncTorchBatched);
    EXPECT_EQ(which(t), 2);
  }
  EXPECT_EQ(which(t), 1);
}

TEST_F(TlsDispatch, ExclusionWinsOverInclusionWhateverTheGuardOrder) {
  const mt::Tensor t = mt::ones({1});
  {
    mt::IncludeDispatchKeyGuard include(DispatchKey::FuncTorchBatched);
    mt::ExcludeDispatchKeyGuard exclude(DispatchKey::FuncTorchBatched);
    EXPECT_EQ(which(t), 1);
  }
  {
    mt::ExcludeDispatchKeyGuard exclude(DispatchKey::FuncTorchBatched);
    mt::IncludeDispatchKeyGuard include(DispatchKey::FuncTorchBatched);
    EXPECT_EQ(which(t), 1);
  }
}

TEST_F(TlsDispatch, AutocastKeyOnTensorsIsIgnoredUntilItsExclusionIsLifted) {
  const mt::Tensor f = mt::ones({1});
  ASSERT_TRUE(f.key_set().has(DispatchKey::AutocastCPU));
  EXPECT_EQ(which(f), 1);
  {
    mt::IncludeDispatchKeyGuard include(DispatchKey::AutocastCPU);  // excluded by default: still ignored
    EXPECT_EQ(which(f), 1);
  }
  {
    const mt::LocalDispatchKeySet tls = mt::tls_local_dispatch_key_set();
    mt::ForceDispatchKeyGuard lift(tls.included_, tls.excluded_ - DispatchKeySet(DispatchKey::AutocastCPU));
    EXPECT_EQ(which(f), 3);
    // Integer tensors carry no autocast key.
    const mt::Tensor i = mt::ones({1}, mt::kInt64);
    EXPECT_FALSE(i.key_set().has(DispatchKey::AutocastCPU));
    EXPECT_EQ(which(i), 1);
  }
  EXPECT_EQ(which(f), 1);
}

TEST(TlsGuards, FreshThreadStartsInTheDefaultStateWhateverItsParentHas) {
  mt::IncludeDispatchKeyGuard include(DispatchKey::FuncTorchBatched);
  mt::ExcludeDispatchKeyGuard exclude(mt::autograd_dispatch_keyset);
  mt::LocalDispatchKeySet seen{};
  std::thread([&] { seen = mt::tls_local_dispatch_key_set(); }).join();
  EXPECT_EQ(seen.included_, kDefaultIncluded);
  EXPECT_EQ(seen.excluded_, kDefaultExcluded);
  // ... and the parent's state is untouched by the child.
  EXPECT_TRUE(mt::tls_is_dispatch_key_included(DispatchKey::FuncTorchBatched));
  EXPECT_TRUE(mt::tls_is_dispatch_key_excluded(DispatchKey::AutogradFunctionality));
}

TEST(TlsGuards, GuardsHeldByAnotherThreadDoNotLeakIntoThisOne) {
  std::atomic<bool> guards_set{false}, checked{false};
  std::thread other([&] {
    mt::IncludeDispatchKeyGuard include(DispatchKey::PreDispatch);
    mt::ForceDispatchKeyGuard force{DispatchKeySet(DispatchKey::FuncTorchBatched), DispatchKeySet()};
    guards_set.store(true);
    while (!checked.load()) std::this_thread::yield();
  });
  while (!guards_set.load()) std::this_thread::yield();
  expect_default_state();  // while the other thread still holds its guards
  checked.store(true);
  other.join();
  expect_default_state();
}
