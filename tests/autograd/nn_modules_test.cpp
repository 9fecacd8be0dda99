// mt::nn modules: Linear (forward and PyTorch's init), activations, Dropout's training flag,
// LayerNorm and Embedding against naive references, Sequential, parameter naming and order in nested
// modules, zero_grad, printing, and the registration errors.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/mean.h"
#include "ops/api/ones.h"
#include "ops/api/std.h"
#include "ops/api/t.h"
#include "ops/api/var.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;

// Overwrites a parameter's values (under no_grad, as an optimizer would).
void set(const Tensor& param, const std::vector<double>& v) {
  mt::NoGradGuard no_grad;
  param.copy_(mt::tensor(v).reshape(param.sizes()));
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST(NNLinear, ForwardIsInputTimesWeightTransposedPlusBias) {
  mt::nn::Linear fc(3, 2);
  set(fc.weight, {1, 2, 3, -1, 0, 0.5});
  set(fc.bias, {0.25, -2});
  const Tensor x = mt::tensor({{1.0, 2.0, 3.0}, {-1.0, 0.0, 4.0}}, mt::kFloat32);
  // row 0: [1+4+9, -1+0+1.5] + b = [14.25, -1.5]; row 1: [-1+0+12, 1+0+2] + b = [11.25, 1]
  const Tensor y = fc.forward(x);
  EXPECT_EQ(y.sizes().vec(), (std::vector<int64_t>{2, 2}));
  expect_near(values(y), {14.25, -1.5, 11.25, 1.0}, 1e-6);
  EXPECT_TRUE(y.requires_grad());

  mt::nn::Linear no_bias(3, 2, /*bias=*/false);
  set(no_bias.weight, {1, 2, 3, -1, 0, 0.5});
  expect_near(values(no_bias.forward(x)), {14, 0.5, 11, 3}, 1e-6);
  EXPECT_EQ(no_bias.parameters().size(), 1u);
  EXPECT_FALSE(no_bias.bias.defined());
}

TEST(NNLinear, DefaultInitIsUniformWithinOneOverSqrtFanIn) {
  mt::Generator gen(7);
  mt::nn::Linear fc(400, 300, true, &gen);
  const double bound = 1.0 / std::sqrt(400.0);
  EXPECT_EQ(fc.weight.sizes().vec(), (std::vector<int64_t>{300, 400}));
  EXPECT_EQ(fc.bias.sizes().vec(), (std::vector<int64_t>{300}));
  for (const Tensor& t : {fc.weight, fc.bias}) {
    EXPECT_TRUE(t.requires_grad());
    EXPECT_TRUE(t.is_leaf());
    EXPECT_EQ(t.dtype(), mt::kFloat32);
    double lo = 1, hi = -1;
    for (double v : values(t)) lo = std::min(lo, v), hi = std::max(hi, v);
    EXPECT_GE(lo, -bound);
    EXPECT_LE(hi, bound);
    EXPECT_LT(lo, -0.95 * bound);  // the whole interval is used
    EXPECT_GT(hi, 0.95 * bound);
  }
  // U(-b, b): mean 0, variance b^2 / 3. 120000 draws: the sample mean's sd is ~1.7e-4 * b.
  const std::vector<double> w = values(fc.weight);
  double mean = 0, sq = 0;
  for (double v : w) mean += v, sq += v * v;
  mean /= static_cast<double>(w.size());
  const double var = sq / static_cast<double>(w.size()) - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.01 * bound);
  EXPECT_NEAR(var, bound * bound / 3, 0.02 * bound * bound / 3);
}

TEST(NNLinear, TheSameSeedGivesTheSameWeights) {
  mt::Generator a(123), b(123), c(124);
  mt::nn::Linear la(5, 4, true, &a), lb(5, 4, true, &b), lc(5, 4, true, &c);
  EXPECT_EQ(values(la.weight), values(lb.weight));
  EXPECT_EQ(values(la.bias), values(lb.bias));
  EXPECT_NE(values(la.weight), values(lc.weight));
  // Without a generator the default one is used, and it can be seeded.
  mt::manual_seed(99);
  mt::nn::Linear d1(5, 4);
  mt::manual_seed(99);
  mt::nn::Linear d2(5, 4);
  EXPECT_EQ(values(d1.weight), values(d2.weight));
}

TEST(NNActivation, ReLUAndGELUMatchTheirFormulas) {
  const std::vector<double> xs = {-3, -1, -0.5, 0, 0.5, 1, 3};
  const Tensor x = mt::tensor(xs, mt::kFloat64);
  std::vector<double> relu, exact, tanh_approx;
  for (double v : xs) {
    relu.push_back(v > 0 ? v : 0);
    exact.push_back(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
    const double k = std::sqrt(2 / std::numbers::pi);
    tanh_approx.push_back(0.5 * v * (1 + std::tanh(k * (v + 0.044715 * v * v * v))));
  }
  expect_near(values(mt::nn::ReLU().forward(x)), relu, 0);
  expect_near(values(mt::nn::GELU().forward(x)), exact, 1e-12);
  expect_near(values(mt::nn::GELU("tanh").forward(x)), tanh_approx, 1e-12);
  EXPECT_EQ(message_of<mt::Error>([] { mt::nn::GELU("fast"); }), "approximate argument must be either none or tanh.");
}

TEST(NNDropout, TrainingFlagTurnsItOnAndOff) {
  mt::Generator gen(3);
  auto model = std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Dropout>(0.5, &gen));
  const Tensor x = mt::ones({1000});
  EXPECT_TRUE(model->is_training());
  EXPECT_TRUE((*model)[0]->is_training());
  const std::vector<double> train = values(model->forward(x));
  int zeros = 0;
  for (double v : train) {
    EXPECT_TRUE(v == 0 || v == 2) << v;  // kept values are scaled by 1 / (1 - p)
    zeros += v == 0;
  }
  EXPECT_GT(zeros, 400);
  EXPECT_LT(zeros, 600);

  model->eval();
  EXPECT_FALSE(model->is_training());
  EXPECT_FALSE((*model)[0]->is_training());  // recursive
  EXPECT_EQ(values(model->forward(x)), std::vector<double>(1000, 1.0));
  model->train();
  EXPECT_TRUE((*model)[0]->is_training());

  EXPECT_EQ(message_of<mt::ValueError>([] { mt::nn::Dropout(1.5); }),
            "dropout probability has to be between 0 and 1, but got 1.5");
}

// Dropout2d zeroes whole [H, W] planes ([L] rows of a 3-D input, as PyTorch); Dropout1d rows of [N, C, L]
// or of an unbatched [C, L]; both are the identity in eval mode.
TEST(NNDropout, ChannelDropoutModulesZeroWholeChannels) {
  mt::Generator gen(4);
  const auto whole_rows = [](const Tensor& y, int64_t rows, int64_t row_length) {
    const std::vector<double> v = values(y);
    int64_t dropped = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const double first = v[static_cast<size_t>(r * row_length)];
      EXPECT_TRUE(first == 0 || first == 2) << r;
      for (int64_t i = 0; i < row_length; ++i) EXPECT_EQ(v[static_cast<size_t>(r * row_length + i)], first) << r;
      dropped += first == 0;
    }
    return dropped;
  };
  mt::nn::Dropout2d d2(0.5, &gen);
  const int64_t dropped = whole_rows(d2.forward(mt::ones({10, 20, 3, 4})), 200, 12);
  EXPECT_GT(dropped, 50);
  EXPECT_LT(dropped, 150);
  whole_rows(d2.forward(mt::ones({10, 20, 7})), 200, 7);
  mt::nn::Dropout1d d1(0.5, &gen);
  whole_rows(d1.forward(mt::ones({10, 20, 7})), 200, 7);
  const Tensor unbatched = d1.forward(mt::ones({20, 7}));
  EXPECT_EQ(unbatched.sizes().vec(), (std::vector<int64_t>{20, 7}));
  whole_rows(unbatched, 20, 7);
  d2.eval();
  const Tensor x = mt::ones({2, 3, 4, 4});
  EXPECT_TRUE(d2.forward(x).is_same(x));
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { d2.forward(mt::ones({2, 3})); }),
                       "dropout2d: Received a 2-D input to dropout2d"));
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { d1.forward(mt::ones({2, 3, 4, 4})); }),
                       "dropout1d: Expected 2D or 3D input, but received a 4D input"));
  EXPECT_EQ(message_of<mt::ValueError>([] { mt::nn::Dropout2d(-1); }),
            "dropout probability has to be between 0 and 1, but got -1");
  std::ostringstream printed;
  printed << mt::nn::Dropout2d(0.25);
  EXPECT_EQ(printed.str(), "Dropout2d(p=0.25)");
}

TEST(NNLayerNorm, ForwardMatchesANaiveReference) {
  mt::nn::LayerNorm ln({3}, 1e-5);
  EXPECT_EQ(values(ln.weight), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(values(ln.bias), (std::vector<double>{0, 0, 0}));
  set(ln.weight, {0.5, 1, 2});
  set(ln.bias, {0, 1, -1});
  const std::vector<double> xs = {1, 2, 4, -3, 0, 3};
  const Tensor y = ln.forward(mt::tensor(xs, mt::kFloat32).reshape({2, 3}));
  std::vector<double> want;
  const std::vector<double> w = {0.5, 1, 2}, b = {0, 1, -1};
  for (int r = 0; r < 2; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < 3; ++c) mean += xs[r * 3 + c] / 3;
    for (int c = 0; c < 3; ++c) var += (xs[r * 3 + c] - mean) * (xs[r * 3 + c] - mean) / 3;  // biased
    for (int c = 0; c < 3; ++c) want.push_back((xs[r * 3 + c] - mean) / std::sqrt(var + 1e-5) * w[c] + b[c]);
  }
  expect_near(values(y), want, 1e-5);

  mt::nn::LayerNorm plain({2, 3}, 1e-5, /*elementwise_affine=*/false);
  EXPECT_TRUE(plain.parameters().empty());
  double mean = 0, var = 0;
  for (double v : xs) mean += v / 6;
  for (double v : xs) var += (v - mean) * (v - mean) / 6;
  std::vector<double> want_all;
  for (double v : xs) want_all.push_back((v - mean) / std::sqrt(var + 1e-5));
  expect_near(values(plain.forward(mt::tensor(xs, mt::kFloat32).reshape({1, 2, 3}))), want_all, 1e-5);
}

TEST(NNEmbedding, ForwardLooksUpRowsAndThePaddingRowStartsAtZero) {
  mt::Generator gen(11);
  mt::nn::Embedding emb(5, 3, /*padding_idx=*/-1, &gen);
  EXPECT_EQ(emb.padding_idx(), 4);  // negative counts from the end
  const std::vector<double> w = values(emb.weight);
  EXPECT_EQ(std::vector<double>(w.begin() + 12, w.end()), (std::vector<double>{0, 0, 0}));
  const Tensor idx = mt::tensor({{2, 0}, {4, 2}}, mt::kInt64);
  const Tensor y = emb.forward(idx);
  EXPECT_EQ(y.sizes().vec(), (std::vector<int64_t>{2, 2, 3}));
  std::vector<double> want;
  for (int64_t i : {2, 0, 4, 2}) want.insert(want.end(), w.begin() + i * 3, w.begin() + i * 3 + 3);
  EXPECT_EQ(values(y), want);

  // N(0, 1) init.
  mt::nn::Embedding big(1000, 100, std::nullopt, &gen);
  double mean = 0, sq = 0;
  for (double v : values(big.weight)) mean += v / 1e5, sq += v * v / 1e5;
  EXPECT_NEAR(mean, 0, 0.02);
  EXPECT_NEAR(sq - mean * mean, 1, 0.03);

  EXPECT_EQ(message_of<mt::ValueError>([] { mt::nn::Embedding(5, 3, 5); }),
            "Padding_idx must be within num_embeddings");
  EXPECT_EQ(message_of<mt::ValueError>([] { mt::nn::Embedding(5, 3, -6); }),
            "Padding_idx must be within num_embeddings");
}

// A module with its own parameter and buffer, a Linear child and a nested Sequential.
struct Net : mt::nn::Module {
  Net()
      : fc1(register_module("fc1", std::make_shared<mt::nn::Linear>(2, 3))),
        body(register_module("body", std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Linear>(3, 4),
                                                                          std::make_shared<mt::nn::ReLU>(),
                                                                          std::make_shared<mt::nn::Linear>(4, 1)))) {
    scale = register_parameter("scale", mt::ones({1}));
    register_buffer("steps", mt::zeros({1}, mt::kInt64));
  }
  std::string name() const override { return "Net"; }
  Tensor forward(const Tensor& x) { return body->forward(fc1->forward(x)) * scale; }

  std::shared_ptr<mt::nn::Linear> fc1;
  std::shared_ptr<mt::nn::Sequential> body;
  Tensor scale;
};

// Module::to moves every parameter (and its grad) in place: the tensors the layers and an optimizer
// hold are the ones moved. Meta stands in for a device here; tests/cuda does the same on a GPU.
TEST(NNModule, ToMovesTheParametersTheLayersAndOptimizersHold) {
  auto net = std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Linear>(3, 4),
                                                  std::make_shared<mt::nn::ReLU>(),
                                                  std::make_shared<mt::nn::Linear>(4, 2));
  const std::vector<Tensor> params = net->parameters();
  mt::optim::SGD sgd(params, {.lr = 0.1});
  net->forward(mt::ones({1, 3})).sum().backward();
  ASSERT_TRUE(params[0].grad().defined());
  net->to(mt::Device("meta"));
  for (const Tensor& p : net->parameters()) {
    EXPECT_TRUE(p.is_meta());
    EXPECT_TRUE(p.requires_grad());
    EXPECT_TRUE(p.is_leaf());
  }
  EXPECT_TRUE(params[0].is_meta());  // the same tensors
  EXPECT_TRUE(params[0].grad().is_meta());
  EXPECT_EQ(params[0].sizes(), mt::IntArrayRef({4, 3}));
  const Tensor out = net->forward(mt::ones({5, 3}, mt::TensorOptions().device(mt::Device("meta"))));
  EXPECT_TRUE(out.is_meta());
  EXPECT_EQ(out.sizes(), mt::IntArrayRef({5, 2}));
  EXPECT_TRUE(out.requires_grad());
}

TEST(NNModule, NamedParametersOfNestedModulesAreDottedAndInRegistrationOrder) {
  Net net;
  const std::vector<std::string> names = {"scale",       "fc1.weight",    "fc1.bias",   "body.0.weight",
                                          "body.0.bias", "body.2.weight", "body.2.bias"};
  const auto named = net.named_parameters();
  EXPECT_EQ(named.keys(), names);
  // The very tensors the modules hold, not copies.
  EXPECT_TRUE(named["scale"].is_same(net.scale));
  EXPECT_TRUE(named["fc1.weight"].is_same(net.fc1->weight));
  EXPECT_TRUE(named["body.2.bias"].is_same(net.body->at<mt::nn::Linear>(2)->bias));
  const auto params = net.parameters();
  ASSERT_EQ(params.size(), names.size());
  for (size_t i = 0; i < params.size(); ++i) EXPECT_TRUE(params[i].is_same(named[names[i]]));

  EXPECT_EQ(net.named_parameters(/*recurse=*/false).keys(), std::vector<std::string>{"scale"});
  EXPECT_EQ(net.parameters(false).size(), 1u);
  EXPECT_EQ(net.named_buffers().keys(), std::vector<std::string>{"steps"});
  EXPECT_EQ(net.buffers().size(), 1u);
  EXPECT_EQ(net.named_children().keys(), (std::vector<std::string>{"fc1", "body"}));
  EXPECT_EQ(net.children().size(), 2u);
  EXPECT_EQ(net.body->named_parameters().keys(),
            (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  EXPECT_EQ(net.forward(mt::ones({5, 2})).sizes().vec(), (std::vector<int64_t>{5, 1}));
}

TEST(NNModule, RegisterParameterSetsRequiresGrad) {
  mt::nn::Module m;
  const Tensor frozen = m.register_parameter("frozen", mt::ones({2}), /*requires_grad=*/false);
  const Tensor trained = m.register_parameter("trained", mt::ones({2}));
  EXPECT_FALSE(frozen.requires_grad());
  EXPECT_TRUE(trained.requires_grad());
  EXPECT_EQ(m.parameters().size(), 2u);  // frozen parameters are still parameters, as in PyTorch
}

TEST(NNModule, RegistrationErrors) {
  mt::nn::Module m;
  m.register_parameter("w", mt::ones({1}));
  EXPECT_EQ(message_of<mt::Error>([&] { m.register_parameter("", mt::ones({1})); }),
            "Parameter name must not be empty");
  EXPECT_EQ(message_of<mt::Error>([&] { m.register_buffer("a.b", mt::ones({1})); }),
            "Buffer name must not contain a dot (got 'a.b')");
  EXPECT_EQ(message_of<mt::Error>([&] { m.register_module("w", std::make_shared<mt::nn::ReLU>()); }),
            "Submodule 'w' already defined: Module already has a parameter, buffer or submodule of that name");
  EXPECT_EQ(message_of<mt::Error>([&] { m.register_module("r", std::shared_ptr<mt::nn::ReLU>()); }),
            "Submodule 'r' is null");
  EXPECT_EQ(message_of<mt::Error>([&] { m.register_parameter("u", Tensor()); }),
            "Parameter 'u' is an undefined tensor");
  EXPECT_EQ(m.parameters().size(), 1u);  // the failed calls added nothing
}

TEST(NNModule, ZeroGradResetsOrZeroesEveryGradient) {
  Net net;
  net.forward(mt::ones({4, 2})).sum().backward();
  for (const Tensor& p : net.parameters()) ASSERT_TRUE(p.grad().defined());
  const Tensor fc1_grad = net.fc1->weight.grad();
  net.zero_grad(/*set_to_none=*/false);
  for (const Tensor& p : net.parameters()) {
    ASSERT_TRUE(p.grad().defined());
    for (double v : values(p.grad())) EXPECT_EQ(v, 0);
  }
  EXPECT_TRUE(net.fc1->weight.grad().is_same(fc1_grad));  // zeroed in place
  net.zero_grad();
  for (const Tensor& p : net.parameters()) EXPECT_FALSE(p.grad().defined());
}

TEST(NNSequential, ChainsForwardsAndIndexesItsModules) {
  mt::nn::Sequential seq;
  seq.push_back(std::make_shared<mt::nn::Linear>(2, 2));
  seq.push_back(std::make_shared<mt::nn::ReLU>());
  EXPECT_EQ(seq.size(), 2u);
  auto fc = seq.at<mt::nn::Linear>(0);
  set(fc->weight, {1, -1, -1, 1});
  set(fc->bias, {0, 0});
  EXPECT_EQ(values(seq.forward(mt::tensor({{3.0, 1.0}}, mt::kFloat32))), (std::vector<double>{2, 0}));
  EXPECT_EQ(seq[1]->name(), "ReLU");
  EXPECT_EQ(message_of<mt::Error>([&] { seq.at<mt::nn::Linear>(1); }),
            "Sequential: module 1 (ReLU) is not of the requested type");
  EXPECT_EQ(message_of<mt::IndexError>([&] { seq[2]; }), "index 2 is out of range for a Sequential of 2 modules");
}

TEST(NNModule, PrintsTheModuleTreeLikePyTorch) {
  auto model = std::make_shared<mt::nn::Sequential>(
      std::make_shared<mt::nn::Linear>(784, 128), std::make_shared<mt::nn::ReLU>(),
      std::make_shared<mt::nn::Dropout>(0.25), std::make_shared<mt::nn::GELU>("tanh"),
      std::make_shared<mt::nn::LayerNorm>(std::vector<int64_t>{128}), std::make_shared<mt::nn::Linear>(128, 10, false));
  std::ostringstream ss;
  ss << *model;
  EXPECT_EQ(ss.str(),
            "Sequential(\n"
            "  (0): Linear(in_features=784, out_features=128, bias=true)\n"
            "  (1): ReLU()\n"
            "  (2): Dropout(p=0.25)\n"
            "  (3): GELU(approximate='tanh')\n"
            "  (4): LayerNorm([128], eps=1e-05, elementwise_affine=true)\n"
            "  (5): Linear(in_features=128, out_features=10, bias=false)\n"
            ")");
  std::ostringstream nested;
  nested << Net();
  EXPECT_EQ(nested.str(),
            "Net(\n"
            "  (fc1): Linear(in_features=2, out_features=3, bias=true)\n"
            "  (body): Sequential(\n"
            "    (0): Linear(in_features=3, out_features=4, bias=true)\n"
            "    (1): ReLU()\n"
            "    (2): Linear(in_features=4, out_features=1, bias=true)\n"
            "  )\n"
            ")");
  std::ostringstream emb;
  emb << mt::nn::Embedding(10, 3, 0);
  EXPECT_EQ(emb.str(), "Embedding(10, 3, padding_idx=0)");
}

}  // namespace
