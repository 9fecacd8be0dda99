// AutocastGuard: the TLS state it lifts and restores, nesting, enabled=false, bad devices and dtypes,
// and the weight-cast cache's lifetime.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "functorch/autocast/AutocastMode.h"
#include "ops/api/mm.h"
#include "ops/api/ones.h"
#include "ops/api/outer.h"
#include "ops/api/std.h"

namespace {

using mt::AutocastGuard;
namespace ac = mt::autocast;

TEST(AutocastGuard, OffByDefaultWithPyTorchDefaultDtypes) {
  EXPECT_FALSE(ac::is_enabled(mt::kCPU));
  EXPECT_FALSE(ac::is_enabled(mt::kCUDA));
  EXPECT_EQ(ac::get_autocast_dtype(mt::kCPU), mt::kBFloat16);
  EXPECT_EQ(ac::get_autocast_dtype(mt::kCUDA), mt::kFloat16);
  EXPECT_TRUE(mt::tls_is_dispatch_key_excluded(mt::DispatchKey::AutocastCPU));
}

TEST(AutocastGuard, LiftsTheExclusionOfItsDeviceKeyOnly) {
  {
    AutocastGuard guard(mt::kCPU, mt::kBFloat16);
    EXPECT_TRUE(ac::is_enabled(mt::kCPU));
    EXPECT_FALSE(ac::is_enabled(mt::kCUDA));
    EXPECT_FALSE(mt::tls_is_dispatch_key_excluded(mt::DispatchKey::AutocastCPU));
  }
  EXPECT_FALSE(ac::is_enabled(mt::kCPU));
  {
    AutocastGuard guard(mt::kCUDA, mt::kBFloat16);
    EXPECT_TRUE(ac::is_enabled(mt::kCUDA));
    EXPECT_FALSE(ac::is_enabled(mt::kCPU));
    EXPECT_EQ(ac::get_autocast_dtype(mt::kCUDA), mt::kBFloat16);
  }
  EXPECT_FALSE(ac::is_enabled(mt::kCUDA));
  EXPECT_EQ(ac::get_autocast_dtype(mt::kCUDA), mt::kFloat16);
}

TEST(AutocastGuard, NestedGuardsRestoreEnabledAndDtypeExactly) {
  AutocastGuard outer(mt::kCUDA, mt::kBFloat16);
  {
    AutocastGuard inner(mt::kCUDA, mt::kFloat16);
    EXPECT_EQ(ac::get_autocast_dtype(mt::kCUDA), mt::kFloat16);
    {
      AutocastGuard off(mt::kCUDA, mt::kFloat16, /*enabled=*/false);
      EXPECT_FALSE(ac::is_enabled(mt::kCUDA));
      {
        AutocastGuard on_again(mt::kCUDA, mt::kBFloat16);
        EXPECT_TRUE(ac::is_enabled(mt::kCUDA));
      }
      EXPECT_FALSE(ac::is_enabled(mt::kCUDA));
      EXPECT_EQ(ac::get_autocast_dtype(mt::kCUDA), mt::kFloat16);
    }
    EXPECT_TRUE(ac::is_enabled(mt::kCUDA));
  }
  EXPECT_TRUE(ac::is_enabled(mt::kCUDA));
  EXPECT_EQ(ac::get_autocast_dtype(mt::kCUDA), mt::kBFloat16);
}

TEST(AutocastGuard, DisabledGuardRunsOpsInTheirOwnDtype) {
  const mt::Tensor a = mt::ones({2, 2});
  AutocastGuard on(mt::kCPU, mt::kBFloat16);
  EXPECT_EQ(mt::mm(a, a).dtype(), mt::kBFloat16);
  AutocastGuard off(mt::kCPU, mt::kBFloat16, false);
  EXPECT_EQ(mt::mm(a, a).dtype(), mt::kFloat32);
}

TEST(AutocastGuard, UnsupportedDtypeOrDeviceRaisesAndChangesNothing) {
  EXPECT_THROW(AutocastGuard(mt::kCPU, mt::kFloat16), mt::ValueError);
  EXPECT_THROW(AutocastGuard(mt::kCPU, mt::kFloat32), mt::ValueError);
  EXPECT_THROW(AutocastGuard(mt::kCUDA, mt::kFloat32), mt::ValueError);
  EXPECT_THROW(AutocastGuard(mt::kCUDA, mt::kFloat64), mt::ValueError);
  EXPECT_THROW(AutocastGuard(mt::kMeta, mt::kBFloat16), mt::ValueError);
  EXPECT_THROW(ac::is_enabled(mt::kPrivateUse1), mt::ValueError);
  try {
    AutocastGuard guard(mt::kCPU, mt::kFloat16);
  } catch (const mt::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("CPU Autocast only supports dtype of mt.bfloat16"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(ac::is_enabled(mt::kCPU));
  EXPECT_FALSE(ac::is_enabled(mt::kCUDA));
  EXPECT_EQ(ac::get_autocast_dtype(mt::kCUDA), mt::kFloat16);
}

TEST(AutocastCache, ReusesTheCastOfALeafWeightUntilTheOutermostGuardExits) {
  const mt::Tensor w = mt::ones({3, 3}).requires_grad_();
  {
    AutocastGuard outer(mt::kCPU, mt::kBFloat16);
    const mt::Tensor first = ac::cached_cast(mt::kBFloat16, w, mt::kCPU);
    EXPECT_EQ(first.dtype(), mt::kBFloat16);
    EXPECT_TRUE(ac::cached_cast(mt::kBFloat16, w, mt::kCPU).is_same(first));
    {
      AutocastGuard inner(mt::kCPU, mt::kBFloat16);
      EXPECT_TRUE(ac::cached_cast(mt::kBFloat16, w, mt::kCPU).is_same(first));
      (void)mt::mm(w, w);  // the op's cast goes through the same entry
    }
    EXPECT_EQ(ac::cache_size(), 1u);  // an inner guard's exit keeps the cache
  }
  EXPECT_EQ(ac::cache_size(), 0u);
}

TEST(AutocastCache, CachesOnlyFloat32LeavesThatRequireGrad) {
  AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  const mt::Tensor plain = mt::ones({2});
  const mt::Tensor leaf = mt::ones({2}).requires_grad_();
  const mt::Tensor non_leaf = leaf * 2.0;
  EXPECT_FALSE(
      ac::cached_cast(mt::kBFloat16, plain, mt::kCPU).is_same(ac::cached_cast(mt::kBFloat16, plain, mt::kCPU)));
  EXPECT_FALSE(
      ac::cached_cast(mt::kBFloat16, non_leaf, mt::kCPU).is_same(ac::cached_cast(mt::kBFloat16, non_leaf, mt::kCPU)));
  EXPECT_EQ(ac::cache_size(), 0u);
  (void)ac::cached_cast(mt::kBFloat16, leaf, mt::kCPU);
  EXPECT_EQ(ac::cache_size(), 1u);
  // Ineligible tensors come back as they are.
  const mt::Tensor d = mt::ones({2}, mt::kFloat64), i = mt::ones({2}, mt::kInt64);
  EXPECT_TRUE(ac::cached_cast(mt::kBFloat16, d, mt::kCPU).is_same(d));
  EXPECT_TRUE(ac::cached_cast(mt::kBFloat16, i, mt::kCPU).is_same(i));
  EXPECT_TRUE(ac::cached_cast(mt::kBFloat16, leaf, mt::kCUDA).is_same(leaf));
}

TEST(AutocastCache, AnInPlaceUpdateOfTheWeightInvalidatesItsCast) {
  AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  const mt::Tensor w = mt::ones({2}).requires_grad_();
  const mt::Tensor before = ac::cached_cast(mt::kBFloat16, w, mt::kCPU);
  {
    mt::NoGradGuard no_grad;
    w.mul_(3.0);  // what an optimizer step does
  }
  const mt::Tensor after = ac::cached_cast(mt::kBFloat16, w, mt::kCPU);
  EXPECT_FALSE(after.is_same(before));
  EXPECT_EQ(after[0].item<double>(), 3.0);
}

TEST(AutocastCache, ACastMadeUnderNoGradIsRemadeWhenGradModeIsOn) {
  AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  const mt::Tensor w = mt::ones({2}).requires_grad_();
  mt::Tensor without_history;
  {
    mt::NoGradGuard no_grad;
    without_history = ac::cached_cast(mt::kBFloat16, w, mt::kCPU);
  }
  EXPECT_FALSE(without_history.requires_grad());
  EXPECT_TRUE(ac::cached_cast(mt::kBFloat16, w, mt::kCPU).requires_grad());
}

}  // namespace
