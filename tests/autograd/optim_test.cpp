// mt::optim: SGD (plain, momentum with dampening, Nesterov, weight decay), Adam / AdamW (with and
// without amsgrad), RMSprop (momentum, centered) and Adagrad (lr decay, initial accumulator), each run
// for three steps on gradients from a real backward and compared with a naive double-precision
// re-implementation of PyTorch's update formulas; skipped parameters; the
// option errors; and a small training run whose loss must drop.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/ones.h"
#include "ops/api/randn.h"
#include "ops/api/std.h"

namespace {

using mt::Tensor;
using mt_test::message_of;
using mt_test::values;
using Vec = std::vector<double>;

// The loss of step k is sum(a * p^2 + b_k * p), so the gradient 2 a p + b_k depends on p and changes
// size from step to step (b shrinks, which makes amsgrad's running maximum matter).
const Vec kStart = {0.5, -1.5, 2.0};
const Vec kA = {1.0, 0.5, 2.0};
const std::vector<Vec> kB = {{3.0, -2.0, 1.0}, {0.1, 0.2, -0.3}, {-0.05, 0.01, 0.02}};

Vec grad_at(const Vec& p, int k) {
  Vec g(p.size());
  for (size_t i = 0; i < p.size(); ++i) g[i] = 2 * kA[i] * p[i] + kB[k][i];
  return g;
}

// Runs `make_optimizer` on the loss above for three steps; returns the parameter after each step.
std::vector<Vec> run(const std::function<std::unique_ptr<mt::optim::Optimizer>(std::vector<Tensor>)>& make) {
  const Tensor p = mt::tensor(kStart, mt::kFloat64).requires_grad_();
  const Tensor a = mt::tensor(kA, mt::kFloat64);
  auto opt = make({p});
  std::vector<Vec> out;
  for (int k = 0; k < 3; ++k) {
    opt->zero_grad();
    (a * p * p + mt::tensor(kB[k], mt::kFloat64) * p).sum().backward();
    opt->step();
    out.push_back(values(p));
  }
  return out;
}

void expect_near(const std::vector<Vec>& got, const std::vector<Vec>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) {
    for (size_t i = 0; i < got[k].size(); ++i) EXPECT_NEAR(got[k][i], want[k][i], 1e-12) << "step " << k << " i " << i;
  }
}

// PyTorch's SGD, one element at a time.
std::vector<Vec> sgd_reference(double lr, double momentum, double dampening, double wd, bool nesterov) {
  Vec p = kStart, buf;
  std::vector<Vec> out;
  for (int k = 0; k < 3; ++k) {
    Vec g = grad_at(p, k);
    for (size_t i = 0; i < p.size(); ++i) g[i] += wd * p[i];
    if (momentum != 0) {
      if (buf.empty()) {
        buf = g;
      } else {
        for (size_t i = 0; i < p.size(); ++i) buf[i] = momentum * buf[i] + (1 - dampening) * g[i];
      }
      for (size_t i = 0; i < p.size(); ++i) g[i] = nesterov ? g[i] + momentum * buf[i] : buf[i];
    }
    for (size_t i = 0; i < p.size(); ++i) p[i] -= lr * g[i];
    out.push_back(p);
  }
  return out;
}

// PyTorch's Adam / AdamW, one element at a time.
std::vector<Vec> adam_reference(double lr, double b1, double b2, double eps, double wd, bool amsgrad, bool decoupled) {
  Vec p = kStart, m(3, 0), v(3, 0), vmax(3, 0);
  std::vector<Vec> out;
  for (int t = 1; t <= 3; ++t) {
    Vec g = grad_at(p, t - 1);
    for (size_t i = 0; i < p.size(); ++i) {
      if (decoupled) {
        p[i] *= 1 - lr * wd;
      } else {
        g[i] += wd * p[i];
      }
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
      vmax[i] = std::max(vmax[i], v[i]);
      const double vhat = (amsgrad ? vmax[i] : v[i]) / (1 - std::pow(b2, t));
      p[i] -= lr * (m[i] / (1 - std::pow(b1, t))) / (std::sqrt(vhat) + eps);
    }
    out.push_back(p);
  }
  return out;
}

template <typename O, typename Options>
auto maker(Options options) {
  return [options](std::vector<Tensor> params) -> std::unique_ptr<mt::optim::Optimizer> {
    return std::make_unique<O>(std::move(params), options);
  };
}

TEST(OptimSGD, PlainStepsMatchTheReference) {
  expect_near(run(maker<mt::optim::SGD>(mt::optim::SGDOptions{.lr = 0.1})), sgd_reference(0.1, 0, 0, 0, false));
}

TEST(OptimSGD, MomentumWithDampeningMatchesTheReference) {
  expect_near(run(maker<mt::optim::SGD>(mt::optim::SGDOptions{.lr = 0.1, .momentum = 0.9, .dampening = 0.3})),
              sgd_reference(0.1, 0.9, 0.3, 0, false));
}

TEST(OptimSGD, NesterovMatchesTheReference) {
  expect_near(run(maker<mt::optim::SGD>(mt::optim::SGDOptions{.lr = 0.05, .momentum = 0.8, .nesterov = true})),
              sgd_reference(0.05, 0.8, 0, 0, true));
}

TEST(OptimSGD, WeightDecayMatchesTheReference) {
  expect_near(run(maker<mt::optim::SGD>(mt::optim::SGDOptions{.lr = 0.1, .weight_decay = 0.2})),
              sgd_reference(0.1, 0, 0, 0.2, false));
  expect_near(run(maker<mt::optim::SGD>(
                  mt::optim::SGDOptions{.lr = 0.1, .momentum = 0.5, .weight_decay = 0.2, .nesterov = true})),
              sgd_reference(0.1, 0.5, 0, 0.2, true));
}

TEST(OptimAdam, StepsMatchTheReference) {
  expect_near(run(maker<mt::optim::Adam>(mt::optim::AdamOptions{.lr = 0.1})),
              adam_reference(0.1, 0.9, 0.999, 1e-8, 0, false, false));
  expect_near(run(maker<mt::optim::Adam>(mt::optim::AdamOptions{.lr = 0.05, .betas = {0.8, 0.9}, .eps = 1e-3})),
              adam_reference(0.05, 0.8, 0.9, 1e-3, 0, false, false));
}

TEST(OptimAdam, WeightDecayIsAddedToTheGradient) {
  expect_near(run(maker<mt::optim::Adam>(mt::optim::AdamOptions{.lr = 0.1, .weight_decay = 0.3})),
              adam_reference(0.1, 0.9, 0.999, 1e-8, 0.3, false, false));
}

TEST(OptimAdam, AmsgradUsesTheRunningMaximumOfTheSecondMoment) {
  const auto ams = adam_reference(0.1, 0.9, 0.5, 1e-8, 0, true, false);
  // The gradients shrink, so v falls below its maximum and amsgrad changes the result.
  EXPECT_GT(std::abs(ams[2][0] - adam_reference(0.1, 0.9, 0.5, 1e-8, 0, false, false)[2][0]), 1e-3);
  expect_near(run(maker<mt::optim::Adam>(mt::optim::AdamOptions{.lr = 0.1, .betas = {0.9, 0.5}, .amsgrad = true})),
              ams);
}

TEST(OptimAdamW, DecouplesWeightDecay) {
  expect_near(run(maker<mt::optim::AdamW>(mt::optim::AdamWOptions{.lr = 0.1})),
              adam_reference(0.1, 0.9, 0.999, 1e-8, 1e-2, false, true));  // PyTorch's default 1e-2
  expect_near(run(maker<mt::optim::AdamW>(
                  mt::optim::AdamWOptions{.lr = 0.1, .betas = {0.9, 0.5}, .weight_decay = 0.5, .amsgrad = true})),
              adam_reference(0.1, 0.9, 0.5, 1e-8, 0.5, true, true));
}

TEST(OptimAdam, Float32ParametersFollowTheReferenceClosely) {
  const Tensor p = mt::tensor(kStart, mt::kFloat32).requires_grad_();
  mt::optim::Adam adam({p}, {.lr = 0.1});
  const auto want = adam_reference(0.1, 0.9, 0.999, 1e-8, 0, false, false);
  for (int k = 0; k < 3; ++k) {
    adam.zero_grad();
    (mt::tensor(kA, mt::kFloat32) * p * p + mt::tensor(kB[k], mt::kFloat32) * p).sum().backward();
    adam.step();
    const Vec got = values(p);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[k][i], 1e-5);
  }
}

// PyTorch's RMSprop, one element at a time.
std::vector<Vec> rmsprop_reference(double lr, double alpha, double eps, double wd, double momentum, bool centered) {
  Vec p = kStart, v(3, 0), a(3, 0), b(3, 0);
  std::vector<Vec> out;
  for (int k = 0; k < 3; ++k) {
    const Vec grad = grad_at(p, k);
    for (size_t i = 0; i < p.size(); ++i) {
      const double g = grad[i] + wd * p[i];
      v[i] = alpha * v[i] + (1 - alpha) * g * g;
      a[i] = alpha * a[i] + (1 - alpha) * g;
      const double d = g / (std::sqrt(centered ? v[i] - a[i] * a[i] : v[i]) + eps);
      b[i] = momentum * b[i] + d;
      p[i] -= lr * (momentum > 0 ? b[i] : d);
    }
    out.push_back(p);
  }
  return out;
}

// PyTorch's Adagrad, one element at a time.
std::vector<Vec> adagrad_reference(double lr, double lr_decay, double wd, double init, double eps) {
  Vec p = kStart, sum(3, init);
  std::vector<Vec> out;
  for (int t = 1; t <= 3; ++t) {
    const Vec grad = grad_at(p, t - 1);
    const double clr = lr / (1 + (t - 1) * lr_decay);
    for (size_t i = 0; i < p.size(); ++i) {
      const double g = grad[i] + wd * p[i];
      sum[i] += g * g;
      p[i] -= clr * g / (std::sqrt(sum[i]) + eps);
    }
    out.push_back(p);
  }
  return out;
}

TEST(OptimRMSprop, StepsMatchTheReference) {
  using mt::optim::RMSprop, mt::optim::RMSpropOptions;
  expect_near(run(maker<RMSprop>(RMSpropOptions{.lr = 0.01})), rmsprop_reference(0.01, 0.99, 1e-8, 0, 0, false));
  expect_near(run(maker<RMSprop>(RMSpropOptions{.lr = 0.05, .alpha = 0.9, .weight_decay = 0.1})),
              rmsprop_reference(0.05, 0.9, 1e-8, 0.1, 0, false));
  expect_near(run(maker<RMSprop>(RMSpropOptions{.lr = 0.02, .momentum = 0.8})),
              rmsprop_reference(0.02, 0.99, 1e-8, 0, 0.8, false));
  expect_near(run(maker<RMSprop>(RMSpropOptions{.lr = 0.02, .alpha = 0.5, .eps = 1e-3, .momentum = 0.5, .centered = true})),
              rmsprop_reference(0.02, 0.5, 1e-3, 0, 0.5, true));
}

TEST(OptimAdagrad, StepsMatchTheReference) {
  using mt::optim::Adagrad, mt::optim::AdagradOptions;
  expect_near(run(maker<Adagrad>(AdagradOptions{.lr = 0.1})), adagrad_reference(0.1, 0, 0, 0, 1e-10));
  expect_near(run(maker<Adagrad>(AdagradOptions{.lr = 0.1, .lr_decay = 0.5, .weight_decay = 0.2,
                                                .initial_accumulator_value = 0.3, .eps = 1e-3})),
              adagrad_reference(0.1, 0.5, 0.2, 0.3, 1e-3));
}

TEST(Optim, ParametersWithoutAGradientAreSkipped) {
  const Tensor used = mt::tensor(Vec{1.0, 2.0}, mt::kFloat64).requires_grad_();
  const Tensor unused = mt::tensor(Vec{3.0, 4.0}, mt::kFloat64).requires_grad_();
  mt::optim::Adam adam({used, unused}, {.lr = 0.1});
  mt::optim::SGD sgd({used, unused}, {.lr = 0.1, .momentum = 0.9});
  for (int k = 0; k < 2; ++k) {
    used.sum().backward();
    adam.step();
    sgd.step();
    adam.zero_grad();
  }
  EXPECT_EQ(values(unused), (Vec{3.0, 4.0}));
  // Its first real step is Adam's first step (bias corrections at t = 1): -lr * sign(g).
  (unused * 2.0).sum().backward();
  adam.step();
  const Vec got = values(unused);
  EXPECT_NEAR(got[0], 3.0 - 0.1, 1e-7);
  EXPECT_NEAR(got[1], 4.0 - 0.1, 1e-7);
}

TEST(Optim, ZeroGradResetsOrZeroesTheGradients) {
  const Tensor p = mt::ones({3}, mt::kFloat64).requires_grad_();
  mt::optim::SGD sgd({p}, {.lr = 0.1});
  (p * p).sum().backward();
  const Tensor g = p.grad();
  sgd.zero_grad(/*set_to_none=*/false);
  EXPECT_TRUE(p.grad().is_same(g));
  EXPECT_EQ(values(p.grad()), (Vec{0, 0, 0}));
  sgd.zero_grad();
  EXPECT_FALSE(p.grad().defined());
  sgd.step();  // nothing to do
  EXPECT_EQ(values(p), (Vec{1, 1, 1}));
}

TEST(Optim, StepUpdatesInPlaceAndRecordsNothing) {
  const Tensor p = mt::ones({3}).requires_grad_();
  const void* data = p.data_ptr();
  const uint32_t version = p._version();
  mt::optim::Adam adam({p});
  p.sum().backward();
  adam.step();
  EXPECT_EQ(p.data_ptr(), data);
  EXPECT_GT(p._version(), version);
  EXPECT_TRUE(p.is_leaf());
  EXPECT_EQ(p.grad_fn(), nullptr);
}

TEST(Optim, InvalidOptionsAreRejectedInPyTorchsWords) {
  const std::vector<Tensor> ps = {mt::ones({1}).requires_grad_()};
  using mt::optim::Adam, mt::optim::AdamW, mt::optim::SGD;
  EXPECT_EQ(message_of<mt::ValueError>([&] { SGD(ps, {.lr = -1}); }), "Invalid learning rate: -1");
  EXPECT_EQ(message_of<mt::ValueError>([&] { SGD(ps, {.lr = 0.1, .momentum = -0.5}); }),
            "Invalid momentum value: -0.5");
  EXPECT_EQ(message_of<mt::ValueError>([&] { SGD(ps, {.lr = 0.1, .weight_decay = -1e-3}); }),
            "Invalid weight_decay value: -0.001");
  EXPECT_EQ(message_of<mt::ValueError>([&] { SGD(ps, {.lr = 0.1, .nesterov = true}); }),
            "Nesterov momentum requires a momentum and zero dampening");
  EXPECT_EQ(
      message_of<mt::ValueError>([&] { SGD(ps, {.lr = 0.1, .momentum = 0.9, .dampening = 0.1, .nesterov = true}); }),
      "Nesterov momentum requires a momentum and zero dampening");
  EXPECT_EQ(message_of<mt::ValueError>([&] { Adam(ps, {.lr = -0.5}); }), "Invalid learning rate: -0.5");
  EXPECT_EQ(message_of<mt::ValueError>([&] { Adam(ps, {.eps = -1e-8}); }), "Invalid epsilon value: -1e-08");
  EXPECT_EQ(message_of<mt::ValueError>([&] {
              Adam(ps, {.betas = {1.0, 0.999}});
            }),
            "Invalid beta parameter at index 0: 1");
  EXPECT_EQ(message_of<mt::ValueError>([&] {
              AdamW(ps, {.betas = {0.9, -0.1}});
            }),
            "Invalid beta parameter at index 1: -0.1");
  EXPECT_EQ(message_of<mt::ValueError>([&] { AdamW(ps, {.weight_decay = -0.01}); }),
            "Invalid weight_decay value: -0.01");
  using mt::optim::Adagrad, mt::optim::RMSprop;
  EXPECT_EQ(message_of<mt::ValueError>([&] { RMSprop(ps, {.alpha = -0.1}); }), "Invalid alpha value: -0.1");
  EXPECT_EQ(message_of<mt::ValueError>([&] { RMSprop(ps, {.momentum = -1}); }), "Invalid momentum value: -1");
  EXPECT_EQ(message_of<mt::ValueError>([&] { Adagrad(ps, {.lr_decay = -1}); }), "Invalid lr_decay value: -1");
  EXPECT_EQ(message_of<mt::ValueError>([&] { Adagrad(ps, {.initial_accumulator_value = -1}); }),
            "Invalid initial_accumulator_value value: -1");
  EXPECT_EQ(message_of<mt::ValueError>([&] { SGD(std::vector<Tensor>{}, {.lr = 0.1}); }), "optimizer got an empty parameter list");
  const Tensor non_leaf = ps[0] * 2.0;
  EXPECT_EQ(message_of<mt::ValueError>([&] { Adam({non_leaf}); }), "can't optimize a non-leaf Tensor");
}

// XOR-ish data: four noisy clusters at (+-1, +-1), labelled 1 where the signs differ. No linear model
// separates them; a 2-layer MLP must.
void xor_data(Tensor& x, Tensor& y) {
  mt::Generator gen(5);
  const Tensor noise = mt::randn({64, 2}, &gen).mul_(0.2);
  Vec centres, labels;
  for (int i = 0; i < 64; ++i) {
    const double a = (i & 1) ? 1 : -1, b = (i & 2) ? 1 : -1;
    centres.insert(centres.end(), {a, b});
    labels.push_back(a != b);
  }
  x = mt::tensor(centres).reshape({64, 2}) + noise;
  y = mt::tensor(labels).to(mt::kInt64);
}

double train_xor(mt::optim::Optimizer& opt, mt::nn::Sequential& model, double* first_loss) {
  Tensor x, y;
  xor_data(x, y);
  double loss_value = 0;
  for (int epoch = 0; epoch < 200; ++epoch) {
    opt.zero_grad();
    const Tensor loss = mt::cross_entropy_loss(model.forward(x), y);
    loss.backward();
    opt.step();
    loss_value = loss.item<double>();
    if (epoch == 0) *first_loss = loss_value;
  }
  // Accuracy on the training points.
  mt::NoGradGuard no_grad;
  const Tensor predicted = model.forward(x).argmax(1);
  EXPECT_EQ(predicted.eq(y).sum().item<int64_t>(), 64);
  return loss_value;
}

std::shared_ptr<mt::nn::Sequential> mlp() {
  mt::Generator gen(1);
  return std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Linear>(2, 16, true, &gen),
                                              std::make_shared<mt::nn::ReLU>(),
                                              std::make_shared<mt::nn::Linear>(16, 2, true, &gen));
}

TEST(OptimTraining, SGDWithMomentumLearnsXor) {
  auto model = mlp();
  mt::optim::SGD sgd(model->parameters(), {.lr = 0.1, .momentum = 0.9});
  double first = 0;
  const double last = train_xor(sgd, *model, &first);
  EXPECT_GT(first, 0.5);
  EXPECT_LT(last, 0.1 * first);
}

TEST(OptimTraining, AdamLearnsXor) {
  auto model = mlp();
  mt::optim::Adam adam(model->parameters(), {.lr = 0.05});
  double first = 0;
  const double last = train_xor(adam, *model, &first);
  EXPECT_GT(first, 0.5);
  EXPECT_LT(last, 0.1 * first);
}

}  // namespace
