// The derivatives behind the nn functions against finite differences, first and second order:
// binary_cross_entropy (self and target, weights, every reduction) and its backward op, the losses and
// layer_norm that are compositions, softmax/log_softmax, and the matrix products.
#include <cmath>

#include "formulas_test_helpers.h"
#include "ops/api/addmm.h"
#include "ops/api/binary_cross_entropy.h"
#include "ops/api/binary_cross_entropy_backward.h"
#include "ops/api/binary_cross_entropy_with_logits.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/full.h"
#include "ops/api/l1_loss.h"
#include "ops/api/layer_norm.h"
#include "ops/api/linear.h"
#include "ops/api/mse_loss.h"
#include "ops/api/nll_loss.h"
#include "ops/api/nll_loss_backward.h"
#include "ops/api/nll_loss_forward.h"
#include "ops/api/ones.h"
#include "ops/api/outer.h"
#include "ops/api/relu.h"
#include "ops/api/std.h"
#include "ops/api/threshold_backward.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::longs;
using mt_test::rnd;
using mt_test::values;

TEST(NnFormulas, BinaryCrossEntropySelfAndTarget) {
  const variable_list in{rnd({2, 3}, 1, 0.1, 0.9), rnd({2, 3}, 2, 0.0, 1.0)};
  const Tensor weight = mt::tensor({0.5, 1.0, 2.0}, mt::kFloat64);
  for (int64_t reduction : {mt::Reduction::None, mt::Reduction::Mean, mt::Reduction::Sum}) {
    SCOPED_TRACE(reduction);
    check([reduction](const variable_list& x) { return mt::binary_cross_entropy(x[0], x[1], std::nullopt, reduction); }, in);
    check([reduction, weight](const variable_list& x) {
      return mt::binary_cross_entropy(x[0], x[1], weight, reduction);
    }, in);
  }
  // Hand-worked: loss = -(y log x + (1-y) log(1-x)); d/dx = (x - y) / (x (1 - x)); d/dy = log((1-x)/x).
  const Tensor x = mt::tensor({0.25}, mt::kFloat64).requires_grad_();
  const Tensor y = mt::tensor({1.0}, mt::kFloat64).requires_grad_();
  const auto g = mt::autograd::grad({mt::binary_cross_entropy(x, y, std::nullopt, mt::Reduction::Sum)}, {x, y});
  EXPECT_NEAR(values(g[0])[0], (0.25 - 1.0) / (0.25 * 0.75), 1e-12);
  EXPECT_NEAR(values(g[1])[0], std::log(0.75 / 0.25), 1e-12);
  EXPECT_EQ(mt::binary_cross_entropy(x, y).grad_fn()->name(), "BinaryCrossEntropyBackward0");
}

TEST(NnFormulas, BinaryCrossEntropyBackwardIsDifferentiable) {
  const variable_list in{rnd({2, 3}, 3), rnd({2, 3}, 4, 0.1, 0.9), rnd({2, 3}, 5, 0.0, 1.0)};
  check([](const variable_list& x) {
    return mt::binary_cross_entropy_backward(x[0], x[1], x[2], std::nullopt, mt::Reduction::None);
  }, in);
  const variable_list scalar_grad{rnd({}, 6), in[1], in[2]};
  check([](const variable_list& x) {
    return mt::binary_cross_entropy_backward(x[0], x[1], x[2], std::nullopt, mt::Reduction::Mean);
  }, scalar_grad);
}

TEST(NnFormulas, CompositeLosses) {
  const variable_list reg{rnd({3, 4}, 7), rnd({3, 4}, 8)};
  check([](const variable_list& x) { return mt::mse_loss(x[0], x[1]); }, reg);
  check([](const variable_list& x) { return mt::mse_loss(x[0], x[1], mt::Reduction::None); }, reg);
  check([](const variable_list& x) { return mt::l1_loss(x[0], x[1], mt::Reduction::Sum); }, reg, /*second=*/false);
  check([](const variable_list& x) { return mt::binary_cross_entropy_with_logits(x[0], x[1]); }, reg);
  const Tensor target = longs({0, 3, 1});
  const variable_list logits{rnd({3, 4}, 9)};
  check([target](const variable_list& x) { return mt::cross_entropy_loss(x[0], target); }, logits);
  check([target](const variable_list& x) {
    return mt::cross_entropy_loss(x[0], target, std::nullopt, mt::Reduction::Sum, -100, 0.1);
  }, logits);
  check([target](const variable_list& x) { return mt::nll_loss(x[0].log_softmax(1), target); }, logits);
}

// nll_loss's own derivative (through nll_loss_backward) and that one's, for every rank, reduction, weight
// and ignored targets; and the hand-worked gradient -w[c] / (summed weights) of a weighted Mean.
TEST(NnFormulas, NllLossAndItsBackward) {
  const Tensor weight = mt::tensor({0.5, 1.0, 2.0, 1.5}, mt::kFloat64);
  struct Case {
    std::vector<int64_t> input;
    Tensor target;
  };
  const Case cases[] = {{{4}, longs({2}).reshape({})}, {{3, 4}, longs({0, 3, -100})}, {{2, 4, 2}, longs({1, -100, 3, 0}).reshape({2, 2})}};
  uint64_t seed = 20;
  for (const Case& c : cases) {
    for (int64_t reduction : {mt::Reduction::None, mt::Reduction::Mean, mt::Reduction::Sum}) {
      for (bool weighted : {false, true}) {
        SCOPED_TRACE(std::to_string(c.input.size()) + "-d input, reduction " + std::to_string(reduction));
        const std::optional<Tensor> w = weighted ? std::optional<Tensor>(weight) : std::nullopt;
        const Tensor target = c.target;
        check([=](const variable_list& x) { return mt::nll_loss(x[0], target, w, reduction); }, {rnd(c.input, seed++)});
        const Tensor self = rnd(c.input, seed++);
        const Tensor total_weight = std::get<1>(mt::nll_loss_forward(self, target, w, reduction, -100));
        const Tensor grad_output = reduction == mt::Reduction::None ? rnd(target.sizes().vec(), seed++) : rnd({}, seed++);
        check([=](const variable_list& x) {
          return mt::nll_loss_backward(x[0], x[1], target, w, reduction, -100, total_weight);
        }, {grad_output, self});
      }
    }
  }
  const Tensor x = mt::tensor({0.1, 0.2, 0.7, 0.4, 0.3, 0.3}, mt::kFloat64).reshape({2, 3}).requires_grad_();
  const Tensor loss = mt::nll_loss(x, longs({2, 0}), mt::tensor({1.0, 2.0, 3.0}, mt::kFloat64));
  EXPECT_EQ(loss.grad_fn()->name(), "NllLossBackward0");
  EXPECT_NEAR(values(loss)[0], -(3.0 * 0.7 + 1.0 * 0.4) / 4.0, 1e-12);
  EXPECT_EQ(values(mt::autograd::grad({loss}, {x})[0]), (std::vector<double>{0, 0, -0.75, -0.25, 0, 0}));
  const Tensor trained_weight = mt::ones({3}, mt::kFloat64).requires_grad_();
  try {
    (void)mt::nll_loss(x, longs({2, 0}), trained_weight);
    ADD_FAILURE() << "expected an error";
  } catch (const mt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the derivative for 'weight' is not implemented."), std::string::npos) << e.what();
  }
}

// relu's gradient op is differentiable in turn: along grad_output with the same mask, along self zero;
// and relu's derivative is that op.
TEST(NnFormulas, ThresholdBackward) {
  check([](const variable_list& x) { return mt::threshold_backward(x[0], x[1], 0.25); }, {rnd({3, 4}, 30), rnd({3, 4}, 31)});
  check([](const variable_list& x) { return mt::threshold_backward(x[0], x[1], 0.0); }, {rnd({4}, 32), rnd({3, 4}, 33)});
  const Tensor x = mt::tensor({-1.0, 0.0, 2.0}, mt::kFloat64).requires_grad_();
  const Tensor y = mt::relu(x);
  EXPECT_EQ(values(mt::autograd::grad({y.sum()}, {x})[0]), (std::vector<double>{0, 0, 1}));
}

// Hand-worked at logits of 0 and elsewhere: with L = 1 + (p - 1) y, d/dx = (1 - y) - L sigmoid(-x) and
// d2/dx2 = L sigmoid(x) sigmoid(-x). Zero logits are what a zero-initialised last layer gives.
TEST(NnFormulas, BinaryCrossEntropyWithLogitsAtAndAroundZero) {
  const std::vector<double> xs{0.0, 0.0, -0.0, 2.0, -3.0, 40.0, -40.0};
  const std::vector<double> ys{1.0, 0.0, 0.3, 0.3, 1.0, 0.0, 1.0};
  const double pos_weight = 2.5;
  const Tensor x = mt::tensor(xs, mt::kFloat64).requires_grad_();
  const Tensor y = mt::tensor(ys, mt::kFloat64);
  const Tensor pw = mt::full({7}, pos_weight, mt::kFloat64);
  for (bool weighted : {false, true}) {
    SCOPED_TRACE(weighted);
    const Tensor loss = mt::binary_cross_entropy_with_logits(x, y, std::nullopt,
                                                             weighted ? std::optional<Tensor>(pw) : std::nullopt,
                                                             mt::Reduction::Sum);
    const auto d1 = mt::autograd::grad({loss}, {x}, {}, /*retain_graph=*/true, /*create_graph=*/true)[0];
    const std::vector<double> g = values(d1);
    const std::vector<double> h = values(mt::autograd::grad({d1.sum()}, {x})[0]);
    for (size_t i = 0; i < xs.size(); ++i) {
      const double sig = 1 / (1 + std::exp(-xs[i])), l = 1 + ((weighted ? pos_weight : 1.0) - 1) * ys[i];
      EXPECT_NEAR(g[i], (1 - ys[i]) - l * (1 - sig), 1e-12) << "x " << xs[i] << " y " << ys[i];
      EXPECT_NEAR(h[i], l * sig * (1 - sig), 1e-12) << "x " << xs[i] << " y " << ys[i];
    }
  }
  check([](const variable_list& v) {
    return mt::binary_cross_entropy_with_logits(v[0] * 0.0, v[1], std::nullopt, std::nullopt, mt::Reduction::Sum);
  }, {rnd({2, 3}, 14), rnd({2, 3}, 15, 0.0, 1.0)});
}

TEST(NnFormulas, LayerNorm) {
  const variable_list in{rnd({2, 3, 4}, 10), rnd({4}, 11), rnd({4}, 12)};
  check([](const variable_list& x) { return mt::layer_norm(x[0], {4}, x[1], x[2]); }, in);
  check([](const variable_list& x) { return mt::layer_norm(x[0], {3, 4}); }, {in[0]});
}

TEST(NnFormulas, SoftmaxSecondOrder) {
  const variable_list in{rnd({2, 3, 4}, 13)};
  for (int64_t dim : {0, 1, -1}) {
    check([dim](const variable_list& x) { return x[0].softmax(dim); }, in);
    check([dim](const variable_list& x) { return x[0].log_softmax(dim); }, in);
  }
}

TEST(NnFormulas, MatrixProductsSecondOrder) {
  const variable_list mats{rnd({2, 3}, 14), rnd({3, 4}, 15)};
  check([](const variable_list& x) { return x[0].mm(x[1]); }, mats);
  check([](const variable_list& x) { return mt::addmm(x[0].sum(1), x[1].t(), x[0].t(), 0.5, 2.0); }, mats);
  check([](const variable_list& x) { return mt::linear(x[0], x[1].t()).relu(); }, mats);
  const variable_list batches{rnd({2, 2, 3}, 16), rnd({2, 3, 2}, 17)};
  check([](const variable_list& x) { return x[0].bmm(x[1]); }, batches);
  check([](const variable_list& x) { return x[0].matmul(x[1].select(0, 1)); }, batches);
  check([](const variable_list& x) { return x[0].select(0, 0).mv(x[1].select(0, 1).select(1, 0)); }, batches);
  const variable_list vecs{rnd({3}, 18), rnd({3}, 19)};
  check([](const variable_list& x) { return x[0].dot(x[1]); }, vecs);
  check([](const variable_list& x) { return mt::outer(x[0], x[1]); }, vecs);
}

}  // namespace
