// Optimizer and scheduler state dicts: written to a file with nn::save, read back into fresh optimizers over
// a fresh copy of the model, training continues bit for bit (SGD with momentum and Nesterov, Adam with
// amsgrad, AdamW, RMSprop centered with momentum, Adagrad, and a StepLR schedule); the keys PyTorch's
// structure flattens to; the loaded options replace the optimizer's; a dict that does not fit is refused
// and changes nothing. A generator's state as a tensor (get_rng_state/set_rng_state), and the whole
// checkpoint: two epochs of training equal one, a save of model, optimizer, scheduler and generator, a load
// into fresh objects and one more, bit for bit.
#include <gtest/gtest.h>
#include <microtorch/framework.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/linear.h"
#include "ops/api/rand.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"
#include "ops/infra/Parallel.h"

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
  EXPECT_EQ(adam.state_dict().size(), 7u);  // the group's parameters and options; no state before the first step
  train(params, adam, 2);
  const auto dict = adam.state_dict();
  std::vector<std::string> keys;
  for (const auto& [key, t] : dict) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"param_groups.0.params", "param_groups.0.lr", "param_groups.0.betas.0", "param_groups.0.betas.1",
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
  EXPECT_EQ(*sgd2.initial_lr(), 1);
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
    EXPECT_EQ(target.state_dict().size(), 7u);
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

TEST(RngState, SettingAStateReplaysTheDrawsOnAnyGenerator) {
  mt::Generator g(3);
  g.normal();  // a normal held back by Box-Muller is part of the state
  const Tensor state = mt::get_rng_state(&g);
  EXPECT_EQ(state.dtype(), mt::kUInt8);
  EXPECT_EQ(state.dim(), 1);
  const std::vector<double> first = values(mt::randn({5}, &g));
  mt::Generator other(99);
  mt::set_rng_state(state, &other);
  EXPECT_EQ(values(mt::randn({5}, &other)), first);
  mt::set_rng_state(state, &g);
  EXPECT_EQ(values(mt::randn({5}, &g)), first);
  // The default generator's, as torch.get_rng_state().
  mt::manual_seed(4);
  const Tensor default_state = mt::get_rng_state();
  const std::vector<double> drawn = values(mt::rand({4}));
  mt::set_rng_state(default_state);
  EXPECT_EQ(values(mt::rand({4})), drawn);
}

TEST(RngState, AnythingElseIsRefusedAndChangesNothing) {
  mt::Generator g(5);
  const Tensor before = mt::get_rng_state(&g);
  EXPECT_EQ(message_of<mt::TypeError>([&] { mt::set_rng_state(mt::zeros({4}), &g); }),
            "RNG state must be a torch.ByteTensor");
  Tensor damaged = before.clone();
  damaged.narrow(0, 0, 2).fill_(65);
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::set_rng_state(damaged, &g); }),
                       "set_rng_state: the tensor does not hold a generator state that get_rng_state made"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { mt::set_rng_state(before.narrow(0, 0, 100), &g); }),
                       "set_rng_state"));
  EXPECT_EQ(values(mt::get_rng_state(&g)), values(before));
}

// A classifier trained from shuffled batches with a learning-rate schedule: two epochs in one run equal one
// epoch, a checkpoint (model, optimizer, scheduler, the shuffle's generator) written to files, everything
// made afresh from other seeds and loaded, and the second epoch. One thread, so every sum adds in one order.
TEST_F(OptimStateDict, ACheckpointResumesTrainingBitForBit) {
  const int threads = mt::get_num_threads();
  mt::set_num_threads(1);
  mt::Generator data_gen(11);
  const auto dataset = std::make_shared<mt::data::TensorDataset>(mt::randn({96, 6}, &data_gen),
                                                                 mt::randint(0, 3, {96}, &data_gen));
  struct Run {
    explicit Run(uint64_t seed, const std::shared_ptr<mt::data::TensorDataset>& data)
        : init(seed),
          shuffle(seed + 1),
          model(std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Linear>(6, 8, true, &init),
                                                     std::make_shared<mt::nn::ReLU>(),
                                                     std::make_shared<mt::nn::Linear>(8, 3, true, &init))),
          adam(model->parameters(), {.lr = 0.02}),
          schedule(adam, 1, 0.5),
          loader(data, {.batch_size = 16, .shuffle = true, .generator = &shuffle}) {}
    void epoch() {
      for (const mt::data::Example& batch : loader) {
        adam.zero_grad();
        mt::cross_entropy_loss(model->forward(batch.data), batch.target).backward();
        adam.step();
      }
      schedule.step();
    }
    mt::Generator init, shuffle;
    std::shared_ptr<mt::nn::Sequential> model;
    mt::optim::Adam adam;
    mt::optim::StepLR schedule;
    mt::data::DataLoader loader;
  };
  Run straight(1, dataset);
  straight.epoch();
  straight.epoch();

  Run first(1, dataset);
  first.epoch();
  mt::nn::save(first.model, path_ + ".model");
  mt::nn::save(first.adam.state_dict(), path_ + ".adam");
  mt::nn::save(first.schedule.state_dict(), path_ + ".schedule");
  mt::nn::OrderedDict<Tensor> rng;
  rng.insert("shuffle", mt::get_rng_state(&first.shuffle));
  mt::nn::save(rng, path_ + ".rng");

  Run resumed(42, dataset);
  mt::nn::load(resumed.model, path_ + ".model");
  resumed.adam.load_state_dict(mt::nn::load(path_ + ".adam"));
  resumed.schedule.load_state_dict(mt::nn::load(path_ + ".schedule"));
  mt::set_rng_state(mt::nn::load(path_ + ".rng")["shuffle"], &resumed.shuffle);
  resumed.epoch();
  for (const char* file : {".model", ".adam", ".schedule", ".rng"}) std::filesystem::remove(path_ + file);

  const auto want = straight.model->named_parameters(), got = resumed.model->named_parameters();
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [name, p] : want) EXPECT_EQ(values(got[name]), values(p)) << name;
  EXPECT_EQ(resumed.adam.lr(), straight.adam.lr());
  mt::set_num_threads(threads);
}

}  // namespace
