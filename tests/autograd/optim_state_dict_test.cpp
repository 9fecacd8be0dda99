// Optimizer and scheduler state dicts: written to a file with nn::save, read back into fresh optimizers over
// a fresh copy of the model, training continues bit for bit (SGD with momentum and Nesterov, Adam with
// amsgrad, AdamW, RMSprop centered with momentum, Adagrad, and a StepLR schedule); the keys PyTorch's
// structure flattens to; the loaded options replace the optimizer's; a dict that does not fit is refused
// and changes nothing.
#include <gtest/gtest.h>
#include <microtorch/framework.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/linear.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;
using MakeOptimizer = std::function<std::unique_ptr<mt::optim::Optimizer>(std::vector<Tensor>)>;

// A 4 -> 3 linear model's weight and bias, the same values on every call.
std::vector<Tensor> fresh_params() {
  mt::Generator g(7);
  return {mt::randn({3, 4}, &g).requires_grad_(), mt::randn({3}, &g).requires_grad_()};
}

// `steps` steps of least squares on a fixed batch.
void train(const std::vector<Tensor>& params, mt::optim::Optimizer& opt, int steps) {
  mt::Generator g(8);
  const Tensor x = mt::randn({16, 4}, &g), y = mt::randn({16, 3}, &g);
  for (int i = 0; i < steps; ++i) {
    opt.zero_grad();
    (mt::linear(x, params[0], params[1]) - y).square().mean().backward();
    opt.step();
  }
}

class OptimStateDict : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = (std::filesystem::temp_directory_path() /
             (std::string("mt_optim_") + info->name() + "_" + std::to_string(::getpid()) + ".mt"))
                .string();
  }
  void TearDown() override { std::filesystem::remove(path_); }

  // Six steps in one go against three, a save and load of the parameters and the optimizer through a file
  // into fresh objects, and three more: the parameters must be the same bits.
  void expect_resume_is_exact(const MakeOptimizer& make) {
    const std::vector<Tensor> reference = fresh_params();
    train(reference, *make(reference), 6);

    const std::vector<Tensor> first = fresh_params();
    const auto first_opt = make(first);
    train(first, *first_opt, 3);
    mt::nn::save(first_opt->state_dict(), path_);

    const std::vector<Tensor> second = fresh_params();
    {
      mt::NoGradGuard no_grad;
      for (size_t i = 0; i < second.size(); ++i) second[i].detach().copy_(first[i].detach());
    }
    const auto second_opt = make(second);
    second_opt->load_state_dict(mt::nn::load(path_));
    train(second, *second_opt, 3);
    for (size_t i = 0; i < second.size(); ++i) EXPECT_EQ(values(second[i]), values(reference[i])) << "parameter " << i;
  }

  std::string path_;
};

TEST_F(OptimStateDict, EveryOptimizerResumesBitForBit) {
  using namespace mt::optim;
  expect_resume_is_exact([](std::vector<Tensor> p) {
    return std::make_unique<SGD>(p, SGDOptions{.lr = 0.05, .momentum = 0.9, .weight_decay = 0.01, .nesterov = true});
  });
  expect_resume_is_exact([](std::vector<Tensor> p) {
    return std::make_unique<Adam>(p, AdamOptions{.lr = 0.01, .weight_decay = 0.1, .amsgrad = true});
  });
  expect_resume_is_exact([](std::vector<Tensor> p) { return std::make_unique<AdamW>(p, AdamWOptions{.lr = 0.01}); });
  expect_resume_is_exact([](std::vector<Tensor> p) {
    return std::make_unique<RMSprop>(p, RMSpropOptions{.lr = 0.01, .momentum = 0.5, .centered = true});
  });
  expect_resume_is_exact([](std::vector<Tensor> p) {
    return std::make_unique<Adagrad>(p, AdagradOptions{.lr = 0.1, .lr_decay = 0.01, .initial_accumulator_value = 0.1});
  });
}

TEST_F(OptimStateDict, KeysFollowPyTorchsStructureAndLoadedOptionsReplaceTheOptimizers) {
  const std::vector<Tensor> params = fresh_params();
  mt::optim::Adam adam(params, {.lr = 0.01, .betas = {0.8, 0.9}});
  EXPECT_EQ(adam.state_dict().size(), 6u);  // the options; no state before the first step
  train(params, adam, 2);
  const auto dict = adam.state_dict();
  std::vector<std::string> keys;
  for (const auto& [key, t] : dict) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"param_groups.0.lr", "param_groups.0.betas.0", "param_groups.0.betas.1",
                                            "param_groups.0.eps", "param_groups.0.weight_decay",
                                            "param_groups.0.amsgrad", "state.0.step", "state.0.exp_avg",
                                            "state.0.exp_avg_sq", "state.1.step", "state.1.exp_avg",
                                            "state.1.exp_avg_sq"}));
  EXPECT_EQ(dict["state.1.step"].item<int64_t>(), 2);
  EXPECT_EQ(dict["state.0.exp_avg"].sizes(), params[0].sizes());
  mt::optim::Adam other(fresh_params(), {.lr = 0.5});
  other.load_state_dict(dict);
  EXPECT_EQ(other.options().lr, 0.01);
  EXPECT_EQ(other.options().betas.first, 0.8);
  // A scheduler's initial_lr travels with the optimizer; the scheduler's own dict holds its epoch.
  mt::optim::SGD sgd(params, {.lr = 1});
  mt::optim::StepLR schedule(sgd, 2, 0.5);
  for (int e = 0; e < 3; ++e) schedule.step();
  mt::optim::SGD sgd2(fresh_params(), {.lr = 9});
  sgd2.load_state_dict(sgd.state_dict());
  EXPECT_EQ(*sgd2.initial_lr, 1);
  EXPECT_EQ(sgd2.lr(), 0.5);
  mt::optim::StepLR resumed(sgd2, 2, 0.5);  // attaching resets the rate to epoch 0's...
  resumed.load_state_dict(schedule.state_dict());
  EXPECT_EQ(resumed.last_epoch(), 3);
  resumed.step();  // ... and the loaded epoch continues the schedule
  schedule.step();
  EXPECT_EQ(sgd2.lr(), sgd.lr());
  EXPECT_EQ(sgd2.lr(), 0.25);
}

TEST_F(OptimStateDict, ADictThatDoesNotFitIsRefusedAndChangesNothing) {
  const std::vector<Tensor> params = fresh_params();
  mt::optim::Adam adam(params, {.lr = 0.01});
  train(params, adam, 1);
  mt::optim::Adam target(fresh_params(), {.lr = 0.5});
  const auto refused = [&](const mt::nn::OrderedDict<Tensor>& dict, const std::string& fragment) {
    EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { target.load_state_dict(dict); }), fragment)) << fragment;
    EXPECT_EQ(target.options().lr, 0.5);
    EXPECT_EQ(target.state_dict().size(), 6u);
  };
  const auto with = [&](const std::string& changed, const Tensor* value) {
    mt::nn::OrderedDict<Tensor> d;
    for (const auto& [key, t] : adam.state_dict())
      if (key != changed) d.insert(key, t);
      else if (value) d.insert(key, *value);
    return d;
  };
  refused(with("param_groups.0.eps", nullptr), "Optimizer.load_state_dict: missing key 'param_groups.0.eps'");
  const Tensor wrong = mt::zeros({4, 3});
  refused(with("state.0.exp_avg", &wrong),
          "Optimizer.load_state_dict: 'state.0.exp_avg' has shape [4, 3] but parameter 0 has shape [3, 4]");
  auto extra = with("", nullptr);
  extra.insert("state.2.exp_avg", mt::zeros({3}));
  refused(extra, "Optimizer.load_state_dict: unexpected keys 'state.2.exp_avg' (the optimizer has 2 parameters)");
  mt::optim::SGD sgd(fresh_params(), {.lr = 0.1});
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { sgd.load_state_dict(adam.state_dict()); }),
                       "Optimizer.load_state_dict: missing key 'param_groups.0.momentum'"));
  mt::optim::StepLR schedule(sgd, 2);
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { schedule.load_state_dict(sgd.state_dict()); }),
                       "LRScheduler.load_state_dict: expected one value at key 'last_epoch'"));
}

}  // namespace
