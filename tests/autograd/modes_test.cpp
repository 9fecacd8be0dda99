// no_grad and inference_mode: what each records, which keys tensors carry, version counters, and the
// errors that pin down their differences.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <string>

#include "autograd/Autograd.h"
#include "autograd_test_helpers.h"
#include "ops/api/ones.h"
#include "ops/api/t.h"
#include "ops/api/zeros.h"

namespace {

using mt::DispatchKey;
using mt::Tensor;

using mt_test::message_of;

TEST(GradModes, NoGradRecordsNothingAndGuardsNestAndRestore) {
  const Tensor x = mt::ones({2}).requires_grad_();
  EXPECT_TRUE(mt::GradMode::is_enabled());
  {
    mt::NoGradGuard no_grad;
    EXPECT_FALSE(mt::GradMode::is_enabled());
    const Tensor y = x * 2.0;
    EXPECT_FALSE(y.requires_grad());
    {
      mt::AutoGradMode enable(true);
      EXPECT_TRUE((x * 2.0).requires_grad());
    }
    EXPECT_FALSE(mt::GradMode::is_enabled());
  }
  EXPECT_TRUE(mt::GradMode::is_enabled());
}

TEST(GradModes, NoGradStillBumpsVersionsAndMakesNormalTensors) {
  mt::NoGradGuard no_grad;
  const Tensor t = mt::zeros({3});
  EXPECT_FALSE(t.unsafeGetTensorImpl()->is_inference());
  EXPECT_TRUE(t.key_set().has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(t.key_set().has(DispatchKey::AutogradCPU));
  t.add_(1);
  EXPECT_EQ(t._version(), 1u);
}

TEST(GradModes, InferenceTensorsLackTheAutogradKeysAndVersionCounters) {
  Tensor t;
  {
    mt::InferenceMode guard;
    EXPECT_TRUE(mt::InferenceMode::is_enabled());
    EXPECT_FALSE(mt::GradMode::is_enabled());
    t = mt::zeros({3});
    EXPECT_TRUE(t.unsafeGetTensorImpl()->is_inference());
    EXPECT_FALSE(t.key_set().has(DispatchKey::ADInplaceOrView));
    EXPECT_FALSE(t.key_set().has(DispatchKey::AutogradCPU));
    t.add_(1);  // allowed inside: nothing to bump
    const Tensor x = mt::ones({1}).requires_grad_();
    EXPECT_FALSE((x * 2.0).requires_grad());
  }
  EXPECT_FALSE(mt::InferenceMode::is_enabled());
  EXPECT_TRUE(mt::GradMode::is_enabled());
  EXPECT_TRUE(mt::zeros({1}).key_set().has(DispatchKey::ADInplaceOrView));
  EXPECT_EQ(t.to(mt::kFloat32).data_ptr<float>()[0], 1.0f);
}

TEST(GradModes, InInferenceModeNormalTensorsStillBumpTheirVersions) {
  const Tensor normal = mt::zeros({2});
  mt::InferenceMode guard;
  normal.add_(1);
  EXPECT_EQ(normal._version(), 1u);
}

TEST(GradModes, InferenceTensorErrorsOutsideInferenceMode) {
  Tensor t;
  {
    mt::InferenceMode guard;
    t = mt::ones({2});
  }
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { t.add_(1); }),
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
            "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.");
  EXPECT_EQ(t.to(mt::kFloat32).data_ptr<float>()[0], 1.0f) << "the refused update must leave the tensor unchanged";
  const Tensor w = mt::ones({2}).requires_grad_();
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { w * t; }),
            "Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal "
            "tensor and use it in autograd.");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { t.requires_grad_(); }),
            "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
  EXPECT_TRUE((t + t).unsafeGetTensorImpl()->is_inference() == false) << "ops outside make normal tensors";
}

TEST(GradModes, InferenceModeFalseRestoresTheNormalState) {
  mt::InferenceMode outer;
  {
    mt::InferenceMode inner(false);
    EXPECT_FALSE(mt::InferenceMode::is_enabled());
    EXPECT_TRUE(mt::GradMode::is_enabled());
    const Tensor x = mt::ones({1}).requires_grad_();
    EXPECT_TRUE((x * 2.0).requires_grad());
  }
  EXPECT_TRUE(mt::InferenceMode::is_enabled());
}

TEST(GradModes, AViewTakenInInferenceModeIsNormalWhenItsBaseIs) {
  const Tensor x = mt::ones({4});
  Tensor v;
  {
    mt::InferenceMode guard;
    v = x.view({2, 2});
    EXPECT_FALSE(v.is_inference()) << "a view shares its base's version counter";
    v.add_(1);
  }
  EXPECT_EQ(x._version(), 1u);
  Tensor inference_base, inference_view;
  {
    mt::InferenceMode guard;
    inference_base = mt::ones({4});
  }
  inference_view = inference_base.view({2, 2});
  EXPECT_TRUE(inference_view.is_inference()) << "a view of an inference tensor is one, in any mode";
}

}  // namespace
