// Parameter groups (torch.optim's param_groups): each group is updated with its own options, groups without
// options take the optimizer's defaults, add_param_group adds one later, schedulers scale each group from its
// own initial rate, and state dicts carry the groups. Expected values are hand-worked: the loss
// sum(c * p) has the constant gradient c.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <functional>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt::optim::ParamGroup;
using mt_test::message_of;
using mt_test::values;

Tensor param(double value) { return mt::full({2}, value).requires_grad_(); }

// One step on the loss sum_i c_i * sum(p_i): every parameter's gradient is c_i in each element.
void step(mt::optim::Optimizer& opt, const std::vector<double>& c) {
  opt.zero_grad();
  Tensor loss = mt::zeros({});
  for (size_t i = 0; i < c.size(); ++i) loss = loss + opt.parameters()[i].sum() * c[i];
  loss.backward();
  opt.step();
}

TEST(OptimParamGroups, EachGroupIsUpdatedWithItsOwnOptionsAndTheOthersWithTheDefaults) {
  const Tensor body = param(1), head = param(1);
  mt::optim::SGD sgd({{.params = {body}}, {.params = {head}, .options = mt::optim::SGDOptions{.lr = 0.5}}},
                     {.lr = 0.1, .momentum = 0.9});
  ASSERT_EQ(sgd.num_param_groups(), 2u);
  EXPECT_EQ(sgd.group_parameters(1).size(), 1u);
  EXPECT_TRUE(sgd.group_parameters(1)[0].is_same(head));
  EXPECT_EQ(sgd.options(0).momentum, 0.9);
  EXPECT_EQ(sgd.options(1).momentum, 0);  // a group's options replace the defaults whole, as libtorch's
  step(sgd, {1, 2});
  step(sgd, {1, 2});
  // body: momentum buffer 1, then 0.9 + 1 = 1.9: 1 - 0.1 * (1 + 1.9). head: no momentum: 1 - 0.5 * 2 * 2.
  EXPECT_NEAR(values(body)[0], 1 - 0.1 * 2.9, 1e-6);
  EXPECT_EQ(values(head), (std::vector<double>{-1, -1}));
  EXPECT_EQ(sgd.lr(0), 0.1);
  EXPECT_EQ(sgd.lr(1), 0.5);
}

TEST(OptimParamGroups, AddParamGroupUpdatesTheNewParametersFromTheNextStep) {
  const Tensor a = param(0), b = param(0);
  mt::optim::Adagrad adagrad({a}, {.lr = 1});
  step(adagrad, {3});  // s = 9: a = 0 - 1 * 3 / 3
  adagrad.add_param_group({.params = {b}, .options = mt::optim::AdagradOptions{.lr = 2, .initial_accumulator_value = 7}});
  ASSERT_EQ(adagrad.parameters().size(), 2u);
  step(adagrad, {0, 3});  // a: s = 9, g = 0: unchanged. b: s = 7 + 9 = 16: 0 - 2 * 3 / 4
  EXPECT_NEAR(values(a)[0], -1, 1e-6);
  EXPECT_NEAR(values(b)[0], -1.5, 1e-6);
}

TEST(OptimParamGroups, ABadGroupIsRefusedAndChangesNothing) {
  const Tensor a = param(0), b = param(0);
  mt::optim::Adam adam({a}, {.lr = 0.1});
  EXPECT_EQ(message_of<mt::ValueError>([&] { adam.add_param_group({.params = {b, a}}); }),
            "some parameters appear in more than one parameter group");
  EXPECT_EQ(message_of<mt::ValueError>(
                [&] { adam.add_param_group({.params = {b}, .options = mt::optim::AdamOptions{.lr = -1}}); }),
            "Invalid learning rate: -1");
  EXPECT_EQ(message_of<mt::ValueError>([&] { adam.add_param_group({.params = {b.mul(2)}}); }),
            "can't optimize a non-leaf Tensor");
  EXPECT_EQ(adam.num_param_groups(), 1u);
  EXPECT_EQ(adam.parameters().size(), 1u);
  EXPECT_EQ(message_of<mt::ValueError>([&] {
              mt::optim::SGD({{.params = {a}}, {.params = {a}}}, {.lr = 0.1});
            }),
            "some parameters appear in more than one parameter group");
  EXPECT_EQ(message_of<mt::ValueError>([&] {
              mt::optim::SGD(std::vector<ParamGroup<mt::optim::SGDOptions>>{{.params = {}}}, {.lr = 0.1});
            }),
            "optimizer got an empty parameter list");
  // Every accessor of a group refuses one the optimizer does not have.
  for (const auto& f : std::vector<std::function<void()>>{[&] { adam.group_parameters(1); }, [&] { adam.options(1); },
                                                          [&] { adam.lr(1); }, [&] { adam.set_lr(1, 0.5); },
                                                          [&] { adam.initial_lr(1); }, [&] { adam.momentum(1); }})
    EXPECT_EQ(message_of<mt::IndexError>(f), "parameter group 1 out of range: the optimizer has 1");
}

TEST(OptimParamGroups, SchedulersScaleEachGroupFromItsOwnInitialRate) {
  const Tensor a = param(0), b = param(0);
  mt::optim::SGD sgd({{.params = {a}}, {.params = {b}, .options = mt::optim::SGDOptions{.lr = 0.25}}}, {.lr = 1});
  mt::optim::StepLR schedule(sgd, 1, 0.5);
  schedule.step();
  schedule.step();
  EXPECT_EQ(schedule.base_lrs(), (std::vector<double>{1, 0.25}));
  EXPECT_EQ(schedule.get_last_lr(), (std::vector<double>{0.25, 0.0625}));
  EXPECT_EQ(sgd.lr(0), 0.25);
  EXPECT_EQ(sgd.lr(1), 0.0625);
  EXPECT_EQ(*sgd.initial_lr(1), 0.25);
  // OneCycleLR runs every group on its one max_lr, from max_lr / div_factor, and cycles each one's momentum.
  mt::optim::SGD cycled({{.params = {a}}, {.params = {b}, .options = mt::optim::SGDOptions{.lr = 3, .momentum = 0.5}}},
                        {.lr = 1, .momentum = 0.5});
  mt::optim::OneCycleLR cycle(cycled, 1, {.total_steps = 10, .div_factor = 4});
  EXPECT_EQ(cycle.get_last_lr(), (std::vector<double>{0.25, 0.25}));
  EXPECT_EQ(*cycled.momentum(1), 0.95);
}

TEST(OptimParamGroups, StateDictsCarryTheGroupsAndRefuseOtherGroups) {
  const Tensor a = param(1), b = param(2), c = param(3);
  mt::optim::Adam adam({{.params = {a, b}}, {.params = {c}, .options = mt::optim::AdamOptions{.lr = 0.5}}}, {.lr = 0.1});
  step(adam, {1, 1, 1});
  const auto dict = adam.state_dict();
  EXPECT_EQ(values(dict["param_groups.0.params"]), (std::vector<double>{0, 1}));
  EXPECT_EQ(values(dict["param_groups.1.params"]), (std::vector<double>{2}));
  EXPECT_EQ(dict["param_groups.1.lr"].item<double>(), 0.5);
  EXPECT_EQ(dict["state.2.step"].item<int64_t>(), 1);

  mt::optim::Adam same({{.params = {param(1), param(2)}}, {.params = {param(3)}}}, {.lr = 0.7});
  same.load_state_dict(dict);
  EXPECT_EQ(same.lr(0), 0.1);
  EXPECT_EQ(same.lr(1), 0.5);
  mt::optim::Adam one_group({param(1), param(2), param(3)}, {.lr = 0.7});
  EXPECT_EQ(message_of<mt::ValueError>([&] { one_group.load_state_dict(dict); }),
            "Optimizer.load_state_dict: loaded state dict has a different number of parameter groups (2, the "
            "optimizer has 1)");
  mt::optim::Adam other_split({{.params = {param(1)}}, {.params = {param(2), param(3)}}}, {.lr = 0.7});
  EXPECT_EQ(message_of<mt::ValueError>([&] { other_split.load_state_dict(dict); }),
            "Optimizer.load_state_dict: loaded state dict contains a parameter group that doesn't match the size "
            "of optimizer's group (group 0 holds parameters 0 to 1)");
  EXPECT_EQ(other_split.lr(0), 0.7);
  EXPECT_EQ(other_split.state_dict().size(), 14u);  // two groups of params and 6 options each, nothing else

  // A scheduler's dict holds a rate per group, and refuses another number of groups.
  mt::optim::StepLR schedule(adam, 1);
  mt::optim::StepLR single(one_group, 1);
  EXPECT_EQ(message_of<mt::ValueError>([&] { single.load_state_dict(schedule.state_dict()); }),
            "LRScheduler.load_state_dict: expected a value per parameter group (1) at key 'base_lrs'");
}

}  // namespace
