// FakeTensorMode: shapes, dtypes and devices without data, through a whole MLP forward and backward,
// and the errors for reading data, writing real tensors and using fakes outside the mode.
#include <gtest/gtest.h>

#include <microtorch/framework.h>

#include <sstream>

#include "dispatch/dispatch_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/argmax.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/empty.h"
#include "ops/api/matmul.h"
#include "ops/api/mm.h"
#include "ops/api/ones.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/relu.h"
#include "ops/api/sum.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;

bool has_no_data(const Tensor& t) { return mt::is_fake(t) && t.unsafeGetTensorImpl()->data() == nullptr; }

TEST(FakeTensorMode, FactoriesAndOpsGiveFakeTensorsThatReportTheRealDevice) {
  mt::DispatchModeGuard guard(std::make_shared<mt::FakeTensorMode>());
  const Tensor x = mt::randn({64, 784});
  EXPECT_TRUE(has_no_data(x));
  EXPECT_TRUE(x.is_cpu());
  const Tensor y = mt::add(mt::matmul(x, mt::ones({784, 10})), mt::ones({10}, mt::kFloat64));
  EXPECT_TRUE(has_no_data(y));
  EXPECT_EQ(y.sizes().vec(), (std::vector<int64_t>{64, 10}));
  EXPECT_EQ(y.dtype(), mt::kFloat64);  // promoted as a real sum would be
  EXPECT_TRUE(y.is_cpu());
  const Tensor v = y.t();  // views keep their geometry
  EXPECT_EQ(v.strides().vec(), (std::vector<int64_t>{1, 10}));
  EXPECT_EQ(mt::argmax(y, 1).dtype(), mt::kInt64);
  // No GPU is needed to shape-check CUDA code.
  const Tensor c = mt::zeros({2, 3}, mt::TensorOptions().device(mt::Device(mt::kCUDA, 1)));
  const Tensor d = mt::relu(mt::add(c, c));
  EXPECT_TRUE(has_no_data(d));
  EXPECT_EQ(d.device(), mt::Device(mt::kCUDA, 1));
}

TEST(FakeTensorMode, AWholeMlpForwardAndBackwardIsShapeChecked) {
  mt::DispatchModeGuard guard(std::make_shared<mt::FakeTensorMode>());
  auto model = std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Linear>(784, 128),
                                                    std::make_shared<mt::nn::ReLU>(),
                                                    std::make_shared<mt::nn::Linear>(128, 10));
  const Tensor x = mt::randn({32, 784}), y = mt::randint(0, 10, {32});
  const Tensor loss = mt::cross_entropy_loss(model->forward(x), y);
  EXPECT_EQ(loss.dim(), 0);
  EXPECT_TRUE(loss.requires_grad());
  loss.backward();
  for (const Tensor& p : model->parameters()) {
    ASSERT_TRUE(p.grad().defined());
    EXPECT_TRUE(has_no_data(p.grad()));
    EXPECT_EQ(p.grad().sizes().vec(), p.sizes().vec());
  }
}

TEST(FakeTensorMode, RealTensorsCanBeReadButNotWritten) {
  Tensor w = mt::ones({3, 2});
  mt::DispatchModeGuard guard(std::make_shared<mt::FakeTensorMode>());
  const Tensor x = mt::FakeTensorMode::from_tensor(mt::empty({4, 3}));
  EXPECT_TRUE(has_no_data(x));
  EXPECT_EQ(mt::mm(x, w).sizes().vec(), (std::vector<int64_t>{4, 2}));
  const std::string msg = mt_test::message_of<mt::RuntimeError>([&] { w.add_(1.0); });
  EXPECT_TRUE(mt_test::contains(msg, "FakeTensorMode: mt::add_.Tensor would write into the real tensor passed as 'self'"))
      << msg;
}

TEST(FakeTensorMode, FakeTensorsHaveNoDataToReadOrUseAfterTheMode) {
  Tensor fake;
  {
    mt::DispatchModeGuard guard(std::make_shared<mt::FakeTensorMode>());
    fake = mt::zeros({2, 3});
    EXPECT_EQ(mt_test::message_of<mt::RuntimeError>([&] { mt::sum(fake).item<float>(); }),
              "Tensor.item() cannot be called on fake tensors (made under FakeTensorMode): they have no data");
  }
  std::ostringstream printed;
  printed << fake;
  EXPECT_EQ(printed.str(), "tensor(..., size=(2, 3), fake=True)");
  EXPECT_EQ(mt_test::message_of<mt::RuntimeError>([&] { mt::add(fake, 1.0); }),
            "A fake tensor (made under FakeTensorMode) reached mt::add.Tensor outside the mode: it has no data to "
            "compute with.");
}

}  // namespace
