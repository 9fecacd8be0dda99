// Learning-rate schedulers against hand-worked sequences of torch.optim.lr_scheduler's closed forms:
// StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, LinearLR, SequentialLR as a warmup, and
// OneCycleLR (two and three phases, cosine and linear, with the momentum it cycles);
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
    EXPECT_EQ(s.get_last_lr(), std::vector<double>{opt.lr()});
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
  EXPECT_EQ(*sgd.initial_lr(), 1);
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
  EXPECT_EQ(exp.base_lrs(), std::vector<double>{1});
  EXPECT_EQ(sgd.lr(), 1);
}

// max_lr 1 over 10 steps, pct_start 0.3: up from 1/25 to 1 by step 2 (0.3 * 10 - 1), down to 1/25/1e4 by
// step 9; the momentum the other way between 0.95 and 0.85.
TEST(OptimLRScheduler, OneCycleRisesThenAnnealsAndCyclesTheMomentum) {
  const double initial = 0.04, min = 0.04 / 1e4, c7 = std::cos(std::numbers::pi / 7);
  mt::optim::SGD sgd(one_param(), {.lr = 123});
  mt::optim::OneCycleLR cycle(sgd, 1, {.total_steps = 10});
  EXPECT_EQ(*sgd.initial_lr(), initial);
  EXPECT_EQ(cycle.base_lrs(), std::vector<double>{initial});
  std::vector<double> momenta;
  const std::vector<double> lrs = [&] {
    std::vector<double> v;
    for (int e = 0; e < 11; ++e) {
      if (e > 0) cycle.step();
      v.push_back(sgd.lr());
      momenta.push_back(*sgd.momentum());
    }
    return v;
  }();
  expect_near({lrs[0], lrs[1], lrs[2], lrs[3], lrs[9]}, {initial, 0.52, 1, min + (1 - min) / 2 * (c7 + 1), min});
  EXPECT_NEAR(lrs[10], min + (1 - min) / 2 * (std::cos(8 * std::numbers::pi / 7) + 1), 1e-12);  // as PyTorch
  expect_near({momenta[0], momenta[1], momenta[2], momenta[9]}, {0.95, 0.9, 0.85, 0.95});
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { cycle.step(); }),
                       "Tried to step 11 times. The specified number of total steps is 10"));

  // Linear annealing, three phases (back to the initial rate by step 4 = 2 * 0.3 * 10 - 2), Adam's beta1.
  mt::optim::Adam adam(one_param(), {.lr = 1});
  mt::optim::OneCycleLR three(adam, 1, {.epochs = 2, .steps_per_epoch = 5, .anneal_strategy = "linear",
                                        .three_phase = true});
  std::vector<double> got, betas;
  for (int e = 0; e < 10; ++e) {
    if (e > 0) three.step();
    got.push_back(adam.lr());
    betas.push_back(adam.options().betas.first);
  }
  expect_near({got[0], got[1], got[2], got[3], got[4], got[5], got[9]},
              {initial, 0.52, 1, 0.52, initial, initial + (min - initial) / 5, min});
  expect_near({betas[0], betas[2], betas[3], betas[4], betas[7]}, {0.95, 0.85, 0.9, 0.95, 0.95});
}

TEST(OptimLRScheduler, OneCycleErrors) {
  mt::optim::SGD sgd(one_param(), {.lr = 1});
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::optim::OneCycleLR(sgd, 1); }),
                       "You must define either total_steps OR (epochs AND steps_per_epoch)"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::optim::OneCycleLR(sgd, 1, {.total_steps = -3}); }),
                       "Expected positive integer total_steps, but got -3"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::optim::OneCycleLR(sgd, 1, {.epochs = 2}); }),
                       "Expected positive integer steps_per_epoch, but got 0"));
  EXPECT_TRUE(contains(
      message_of<mt::ValueError>([&] { mt::optim::OneCycleLR(sgd, 1, {.total_steps = 10, .pct_start = 1.5}); }),
      "Expected float between 0 and 1 pct_start, but got 1.5"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>(
                           [&] { mt::optim::OneCycleLR(sgd, 1, {.total_steps = 10, .anneal_strategy = "exp"}); }),
                       "anneal_strategy must be one of 'cos' or 'linear', instead got exp"));
  EXPECT_TRUE(contains(
      message_of<mt::ValueError>([&] { mt::optim::OneCycleLR(sgd, 1, {.total_steps = 10, .pct_start = 0.1}); }),
      "OneCycleLR: a phase of the schedule ends at step 0 where it starts"));
  mt::optim::Adagrad adagrad(one_param(), {.lr = 1});
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::optim::OneCycleLR(adagrad, 1, {.total_steps = 10}); }),
                       "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"));
  mt::optim::OneCycleLR no_momentum(adagrad, 1, {.total_steps = 10, .cycle_momentum = false});
  EXPECT_NEAR(adagrad.lr(), 0.04, 1e-12);
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
