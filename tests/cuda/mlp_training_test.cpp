// The examples' spiral MLP trained on the GPU and on the CPU from the same initial weights and the same
// batches: the losses follow each other step by step (float32 sums differ only in order) and both nets
// reach the same test accuracy. Skips without a GPU.
#include <vector>

#include "../../examples/spirals.h"
#include "cuda/cuda_test_helpers.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/randint.h"

namespace {

struct TrainingRun {
  std::vector<double> losses;
  double test_accuracy = 0;
};

TrainingRun train(mt::Device device) {
  spirals::Dataset train = spirals::make(3000, 1), test = spirals::make(900, 2);
  mt::Generator g(42);
  auto model = spirals::make_model(&g);
  model->to(device);
  mt::optim::Adam adam(model->parameters(), {.lr = 5e-3});
  const mt::Tensor x = train.x.to(device), y = train.y.to(device);
  TrainingRun run;
  for (int step = 0; step < 300; ++step) {
    const mt::Tensor idx = mt::randint(0, train.x.size(0), {64}, &g).to(device);
    adam.zero_grad();
    const mt::Tensor loss = mt::cross_entropy_loss(model->forward(x.index_select(0, idx)), y.index_select(0, idx));
    loss.backward();
    adam.step();
    run.losses.push_back(loss.item<double>());
  }
  mt::NoGradGuard no_grad;
  const mt::Tensor predicted = model->forward(test.x.to(device)).argmax(1).to(mt::kCPU);
  run.test_accuracy = predicted.eq(test.y).to(mt::kFloat64).mean().item<double>();
  return run;
}

TEST(CudaTraining, SpiralMlpTrainsOnTheGpuAsOnTheCpu) {
  MT_SKIP_WITHOUT_GPU();
  const TrainingRun on_gpu = train(mt::Device(mt::kCUDA)), on_cpu = train(mt::Device(mt::kCPU));
  ASSERT_EQ(on_gpu.losses.size(), on_cpu.losses.size());
  EXPECT_NEAR(on_gpu.losses.front(), on_cpu.losses.front(), 1e-5);
  for (size_t i = 0; i < on_cpu.losses.size(); i += 50)
    EXPECT_NEAR(on_gpu.losses[i], on_cpu.losses[i], 1e-2 * std::max(1.0, on_cpu.losses[i])) << "step " << i;
  EXPECT_GT(on_cpu.test_accuracy, 0.9);
  EXPECT_NEAR(on_gpu.test_accuracy, on_cpu.test_accuracy, 0.02);
}

}  // namespace
