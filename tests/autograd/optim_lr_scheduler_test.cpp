// Learning-rate schedulers against hand-worked sequences of torch.optim.lr_scheduler's closed forms:
// StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, LinearLR, and SequentialLR as a warmup;
// the optimizer's learning rate follows (and its steps use it), every scheduler scales the optimizer's
// initial learning rate, and the constructors' errors.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/ones.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;

std::vector<Tensor> one_param() { return {mt::ones({2}).requires_grad_()}; }

// The learning rate at epochs 0 .. n-1: the scheduler's and the optimizer's, which must agree.
std::vector<double> schedule(mt::optim::LRScheduler& s, const mt::optim::Optimizer& opt, int n) {
  std::vector<double> lrs;
  for (int e = 0; e < n; ++e) {
    if (e > 0) s.step();
    EXPECT_EQ(s.last_epoch(), e);
    EXPECT_EQ(s.get_last_lr(), opt.lr());
    lrs.push_back(opt.lr());
  }
  return lrs;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "epoch " << i;
}

TEST(OptimLRScheduler, StepMultiStepAndExponential) {
  mt::optim::SGD sgd(one_param(), {.lr = 1});
  mt::optim::StepLR step(sgd, 2, 0.1);
  expect_near(schedule(step, sgd, 6), {1, 1, 0.1, 0.1, 0.01, 0.01});
  mt::optim::SGD sgd2(one_param(), {.lr = 0.8});
  mt::optim::MultiStepLR multi(sgd2, {2, 5}, 0.5);
  expect_near(schedule(multi, sgd2, 7), {0.8, 0.8, 0.4, 0.4, 0.4, 0.2, 0.2});
  mt::optim::Adam adam(one_param(), {.lr = 1});
  mt::optim::ExponentialLR exp(adam, 0.5);
  expect_near(schedule(exp, adam, 4), {1, 0.5, 0.25, 0.125});
  EXPECT_EQ(adam.options().lr, 0.125);
}

TEST(OptimLRScheduler, CosineLambdaAndLinear) {
  mt::optim::SGD sgd(one_param(), {.lr = 1.1});
  mt::optim::CosineAnnealingLR cosine(sgd, 4, 0.1);
  const double c = std::cos(std::numbers::pi / 4);  // (1 + c) / 2 = 0.8536
  expect_near(schedule(cosine, sgd, 6), {1.1, 0.1 + (1 + c) / 2, 0.6, 0.1 + (1 - c) / 2, 0.1, 0.1 + (1 - c) / 2});
  mt::optim::SGD sgd2(one_param(), {.lr = 2});
  mt::optim::LambdaLR lambda(sgd2, [](int64_t e) { return 1.0 / static_cast<double>(e + 1); });
  expect_near(schedule(lambda, sgd2, 4), {2, 1, 2.0 / 3, 0.5});
  mt::optim::SGD sgd3(one_param(), {.lr = 0.4});
  mt::optim::LinearLR linear(sgd3, 0.25, 1, 3);
  expect_near(schedule(linear, sgd3, 6), {0.1, 0.2, 0.3, 0.4, 0.4, 0.4});
}

TEST(OptimLRScheduler, SequentialLRWarmsUpThenHandsOver) {
  mt::optim::SGD sgd(one_param(), {.lr = 1});
  std::vector<std::unique_ptr<mt::optim::LRScheduler>> parts;
  parts.push_back(std::make_unique<mt::optim::LinearLR>(sgd, 0.5, 1, 2));
  parts.push_back(std::make_unique<mt::optim::StepLR>(sgd, 2, 0.1));
  mt::optim::SequentialLR warmup(sgd, std::move(parts), {2});
  // LinearLR for epochs 0-1, then StepLR from its own epoch 0 at epoch 2; all scale the initial 1.
  expect_near(schedule(warmup, sgd, 7), {0.5, 0.75, 1, 1, 0.1, 0.1, 0.01});
  EXPECT_EQ(*sgd.initial_lr, 1);
}

TEST(OptimLRScheduler, TheOptimizerStepsWithTheScheduledRate) {
  const std::vector<Tensor> params = one_param();
  mt::optim::SGD sgd(params, {.lr = 1});
  mt::optim::StepLR step(sgd, 1, 0.5);
  for (double lr : {1.0, 0.5, 0.25}) {
    const Tensor before = params[0].detach().clone();
    params[0].mutable_grad() = mt::ones({2});
    sgd.step();
    EXPECT_EQ(values(before - params[0].detach()), (std::vector<double>{lr, lr}));
    step.step();
  }
  // A second scheduler scales the same initial rate, not the one the first left.
  mt::optim::ExponentialLR exp(sgd, 0.9);
  EXPECT_EQ(exp.base_lr(), 1);
  EXPECT_EQ(sgd.lr(), 1);
}

TEST(OptimLRScheduler, Errors) {
  mt::optim::SGD sgd(one_param(), {.lr = 1}), other(one_param(), {.lr = 1});
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::optim::LinearLR(sgd, 0); }),
                       "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::optim::LinearLR(sgd, 0.5, 1.5); }),
                       "Ending multiplicative factor expected to be between 0 and 1."));
  EXPECT_THROW(mt::optim::StepLR(sgd, 0), mt::ValueError);
  EXPECT_THROW(mt::optim::CosineAnnealingLR(sgd, 0), mt::ValueError);
  EXPECT_THROW(mt::optim::MultiStepLR(sgd, {5, 2}), mt::ValueError);
  std::vector<std::unique_ptr<mt::optim::LRScheduler>> two;
  two.push_back(std::make_unique<mt::optim::StepLR>(sgd, 2));
  two.push_back(std::make_unique<mt::optim::StepLR>(sgd, 2));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::optim::SequentialLR(sgd, std::move(two), {}); }),
                       "Sequential Schedulers expects number of schedulers provided to be one more than the number of "
                       "milestone points, but got number of schedulers 2 and the number of milestones to be equal to 0"));
  std::vector<std::unique_ptr<mt::optim::LRScheduler>> mixed;
  mixed.push_back(std::make_unique<mt::optim::StepLR>(sgd, 2));
  mixed.push_back(std::make_unique<mt::optim::StepLR>(other, 2));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::optim::SequentialLR(sgd, std::move(mixed), {3}); }),
                       "Sequential Schedulers expects all schedulers to belong to the same optimizer, but got schedulers "
                       "at index 1 to be different than the optimizer passed in."));
}

}  // namespace
