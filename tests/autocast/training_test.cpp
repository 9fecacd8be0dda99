// Autocast above autograd: the casts are recorded, so gradients reach float32 leaves as float32, and the
// spirals MLP (2-64-64-3) trained under CPU bf16 autocast still learns.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "examples/spirals.h"
#include "functorch/autocast/AutocastMode.h"
#include "ops/api/addmm.h"
#include "ops/api/argmax.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/eq.h"
#include "ops/api/matmul.h"
#include "ops/api/mse_loss.h"
#include "ops/api/ones.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;

TEST(AutocastAutograd, LeafGradientsComeBackFloat32) {
  mt::Generator g(0);
  const Tensor x = mt::randn({4, 3}, &g);
  const Tensor w = mt::randn({3, 2}, &g).requires_grad_();
  const Tensor b = mt::randn({2}, &g).requires_grad_();
  Tensor y;
  {
    mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
    y = mt::addmm(b, x, w);
    EXPECT_EQ(y.dtype(), mt::kBFloat16);
    mt::mse_loss(y, mt::zeros({4, 2}, mt::kBFloat16), mt::Reduction::Sum).backward();
  }
  ASSERT_TRUE(w.grad().defined());
  EXPECT_EQ(w.grad().dtype(), mt::kFloat32);
  EXPECT_EQ(b.grad().dtype(), mt::kFloat32);
  // d/dw sum(y^2) = 2 x^T y, with y computed in bf16: compare at bf16 precision.
  const Tensor expected = x.t().matmul(y.detach().to(mt::kFloat32)) * 2.0;
  EXPECT_LT((w.grad() - expected).abs().max().item<double>(), 0.1 * expected.abs().max().item<double>());
}

TEST(AutocastAutograd, BackwardOutsideTheGuardAlsoReachesTheLeaves) {
  const Tensor w = mt::ones({2, 2}).requires_grad_();
  Tensor loss;
  {
    mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
    loss = mt::matmul(mt::ones({1, 2}), w).sum();
  }
  loss.backward();
  EXPECT_EQ(w.grad().dtype(), mt::kFloat32);
  EXPECT_EQ(w.grad().sum().item<double>(), 4.0);
}

double accuracy(const Tensor& logits, const Tensor& labels) {
  return mt::eq(mt::argmax(logits, 1), labels).to(mt::kFloat32).mean().item<double>();
}

TEST(AutocastTraining, SpiralsMLPConvergesUnderCPUBFloat16Autocast) {
  const spirals::Dataset train = spirals::make(1500, 1);
  const spirals::Dataset test = spirals::make(600, 2);
  mt::Generator g(42);
  auto model = spirals::make_model(&g);
  mt::optim::Adam adam(model->parameters(), {.lr = 1e-2});
  constexpr int64_t kBatch = 64;
  for (int step = 0; step < 1500; ++step) {
    const Tensor idx = mt::randint(0, train.x.size(0), {kBatch}, &g);
    adam.zero_grad();
    mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
    const Tensor logits = model->forward(train.x.index_select(0, idx));
    ASSERT_EQ(logits.dtype(), mt::kBFloat16);
    const Tensor loss = mt::cross_entropy_loss(logits, train.y.index_select(0, idx));
    ASSERT_EQ(loss.dtype(), mt::kFloat32);
    loss.backward();
    adam.step();
  }
  for (const Tensor& p : model->parameters()) {
    EXPECT_EQ(p.dtype(), mt::kFloat32);
    EXPECT_EQ(p.grad().dtype(), mt::kFloat32);
  }
  mt::NoGradGuard no_grad;
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  EXPECT_GT(accuracy(model->forward(test.x), test.y), 0.9);
}

}  // namespace
