// The parameterless layers beside Linear (Identity, Flatten), the activation modules Tanh, Sigmoid,
// LeakyReLU and Softmax against their formulas, and the containers ModuleList and ModuleDict: children
// named and owned (parameters, state dict, train/eval), indexing, printing, and their errors.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/arange.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

std::string printed(const mt::nn::Module& m) {
  std::ostringstream s;
  s << m;
  return s.str();
}

TEST(NNLayers, IdentityAndFlatten) {
  const Tensor x = mt::arange(24, mt::TensorOptions(mt::kFloat32)).view({2, 3, 2, 2});
  EXPECT_TRUE(mt::nn::Identity().forward(x).is_same(x));
  EXPECT_EQ(mt::nn::Flatten().forward(x).sizes().vec(), (std::vector<int64_t>{2, 12}));
  EXPECT_EQ(mt::nn::Flatten(0).forward(x).sizes().vec(), (std::vector<int64_t>{24}));
  EXPECT_EQ(mt::nn::Flatten(1, 2).forward(x).sizes().vec(), (std::vector<int64_t>{2, 6, 2}));
  EXPECT_EQ(values(mt::nn::Flatten().forward(x)), values(x));
  EXPECT_EQ(printed(mt::nn::Flatten()), "Flatten(start_dim=1, end_dim=-1)");
  EXPECT_THROW(mt::nn::Flatten(5).forward(x), mt::IndexError);
}

TEST(NNActivation, TanhSigmoidLeakyReLUAndSoftmaxMatchTheirFormulas) {
  const std::vector<double> in = {-2, -0.5, 0, 0.5, 3, 1};
  const Tensor x = mt::tensor(in, mt::TensorOptions(mt::kFloat64)).view({2, 3});
  std::vector<double> tanh, sigmoid, leaky, leaky2;
  for (double v : in) {
    tanh.push_back(std::tanh(v));
    sigmoid.push_back(1 / (1 + std::exp(-v)));
    leaky.push_back(v > 0 ? v : 0.01 * v);
    leaky2.push_back(v > 0 ? v : 0.2 * v);
  }
  expect_near(values(mt::nn::Tanh().forward(x)), tanh, 1e-15);
  expect_near(values(mt::nn::Sigmoid().forward(x)), sigmoid, 1e-15);
  expect_near(values(mt::nn::LeakyReLU().forward(x)), leaky, 1e-15);
  expect_near(values(mt::nn::LeakyReLU(0.2).forward(x)), leaky2, 1e-15);
  // Softmax along dim 1: each row's exp over its sum.
  std::vector<double> softmax;
  for (int r = 0; r < 2; ++r) {
    double sum = 0;
    for (int c = 0; c < 3; ++c) sum += std::exp(in[3 * r + c]);
    for (int c = 0; c < 3; ++c) softmax.push_back(std::exp(in[3 * r + c]) / sum);
  }
  expect_near(values(mt::nn::Softmax(1).forward(x)), softmax, 1e-15);
  expect_near(values(mt::nn::Softmax(-1).forward(x)), softmax, 1e-15);
  EXPECT_EQ(printed(mt::nn::LeakyReLU(0.2)), "LeakyReLU(negative_slope=0.2)");
  EXPECT_EQ(printed(mt::nn::Softmax(1)), "Softmax(dim=1)");
  EXPECT_EQ(printed(mt::nn::Tanh()), "Tanh()");
  // They sit in a Sequential.
  mt::nn::Sequential seq(std::make_shared<mt::nn::Flatten>(), std::make_shared<mt::nn::Tanh>(),
                         std::make_shared<mt::nn::Identity>(), std::make_shared<mt::nn::Softmax>(1));
  EXPECT_EQ(seq.forward(x.view({2, 3, 1})).sizes().vec(), (std::vector<int64_t>{2, 3}));
}

TEST(NNModuleList, OwnsItsChildrenUnderTheirIndices) {
  mt::nn::ModuleList list({std::make_shared<mt::nn::Linear>(2, 3), std::make_shared<mt::nn::ReLU>()});
  list.push_back(std::make_shared<mt::nn::Linear>(3, 1, false));
  EXPECT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0]->name(), "Linear");
  EXPECT_EQ(list[-1].get(), list[2].get());
  EXPECT_EQ(list.at<mt::nn::Linear>(2)->out_features(), 1);
  EXPECT_EQ(list.state_dict().size(), 3u);
  EXPECT_TRUE(list.state_dict().contains("0.weight"));
  EXPECT_TRUE(list.state_dict().contains("2.weight"));
  EXPECT_EQ(list.parameters().size(), 3u);
  list.eval();
  for (const auto& m : list) EXPECT_FALSE(m->is_training());
  // Run by hand: the owner's forward decides.
  Tensor x = mt::ones({4, 2});
  for (const auto& m : list) {
    if (auto linear = std::dynamic_pointer_cast<mt::nn::Linear>(m)) x = linear->forward(x);
  }
  EXPECT_EQ(x.sizes().vec(), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(printed(list),
            "ModuleList(\n"
            "  (0): Linear(in_features=2, out_features=3, bias=true)\n"
            "  (1): ReLU()\n"
            "  (2): Linear(in_features=3, out_features=1, bias=false)\n"
            ")");
  EXPECT_TRUE(contains(message_of<mt::IndexError>([&] { list[3]; }), "index 3 is out of range"));
  EXPECT_THROW(list[-4], mt::IndexError);
  EXPECT_THROW(list.at<mt::nn::Linear>(1), mt::TypeError);
  EXPECT_THROW(list.push_back(nullptr), mt::ValueError);
}

TEST(NNModuleDict, OwnsItsChildrenUnderTheirKeysInInsertionOrder) {
  mt::nn::ModuleDict dict({{"encoder", std::make_shared<mt::nn::Linear>(4, 2)}, {"act", std::make_shared<mt::nn::Tanh>()}});
  dict.insert("decoder", std::make_shared<mt::nn::Linear>(2, 4));
  EXPECT_EQ(dict.size(), 3u);
  EXPECT_EQ(dict.keys(), (std::vector<std::string>{"encoder", "act", "decoder"}));
  EXPECT_TRUE(dict.contains("act"));
  EXPECT_FALSE(dict.contains("missing"));
  EXPECT_EQ(dict["decoder"]->name(), "Linear");
  EXPECT_TRUE(dict.state_dict().contains("encoder.bias"));
  EXPECT_TRUE(dict.state_dict().contains("decoder.weight"));
  EXPECT_EQ(dict.parameters().size(), 4u);
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { dict.insert("act", std::make_shared<mt::nn::ReLU>()); }),
                       "ModuleDict: key 'act' is already in the dictionary"));
  EXPECT_TRUE(contains(message_of<mt::IndexError>([&] { dict["missing"]; }), "no module under key 'missing'"));
  EXPECT_THROW(dict.insert("null", nullptr), mt::ValueError);
}

}  // namespace
