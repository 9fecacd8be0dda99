// BM_FashionMnistMLPStep: one training step of examples/fashion_mnist's MLP (784-256-128-10, ReLU, cross-entropy, Adam at 1e-3) on
// Fashion-MNIST batches of 64 as its DataLoader gives them (shuffled, converted and normalised): the
// loader's next batch, zero_grad, forward, backward, step. An epoch is 938 of them; compare with the
// libtorch yardstick's epoch (../shared/yardstick/fashion_mnist.cpp). Needs Debian's dataset-fashion-mnist.
#include <benchmark/benchmark.h>
#include <microtorch/microtorch.h>

#include <filesystem>
#include <memory>
#include <optional>

namespace {

namespace data = mt::data;

void BM_FashionMnistMLPStep(benchmark::State& state) {
  if (!std::filesystem::exists(data::datasets::kFashionMnistDir)) {
    state.SkipWithError("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)");
    return;
  }
  mt::manual_seed(0);
  const auto train = std::make_shared<data::datasets::MNIST>(data::datasets::kFashionMnistDir);
  data::DataLoader loader(
      train, {.batch_size = state.range(0),
              .shuffle = true,
              .transform = data::transforms::Compose(
                  {data::transforms::ConvertImageDtype(), data::transforms::Normalize({0.2860}, {0.3530})})});
  auto model = std::make_shared<mt::nn::Sequential>(
      std::make_shared<mt::nn::Flatten>(), std::make_shared<mt::nn::Linear>(784, 256), std::make_shared<mt::nn::ReLU>(),
      std::make_shared<mt::nn::Linear>(256, 128), std::make_shared<mt::nn::ReLU>(),
      std::make_shared<mt::nn::Linear>(128, 10));
  mt::optim::Adam adam(model->parameters(), {.lr = 1e-3});
  std::optional<data::DataLoader::Iterator> batch;
  for (auto _ : state) {
    if (!batch || *batch == loader.end()) batch = loader.begin();
    const data::Example& b = **batch;
    adam.zero_grad();
    const mt::Tensor loss = mt::cross_entropy_loss(model->forward(b.data), b.target);
    loss.backward();
    adam.step();
    ++*batch;
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_FashionMnistMLPStep)->Arg(64);

// The CNN's first layer (the yardstick's Conv2d(1, 32, 3)) on a batch of 28 x 28 images: forward, and the
// backward of a sum into the input and the parameters.
void BM_Conv2dTrainStep(benchmark::State& state) {
  mt::manual_seed(0);
  mt::nn::Conv2d conv(mt::nn::Conv2dOptions(1, 32, 3));
  const mt::Tensor x = mt::randn({state.range(0), 1, 28, 28}).requires_grad_();
  for (auto _ : state) {
    conv.zero_grad();
    x.mutable_grad() = mt::Tensor();
    conv.forward(x).sum().backward();
    benchmark::DoNotOptimize(x.grad().data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Conv2dTrainStep)->Arg(64);

}  // namespace
