// Trains the MLP 784-256-128-10 or the CNN of PyTorch's MNIST example (two 3 x 3 convolutions of 32 and 64
// filters, 2 x 2 max pooling, dropout, 9216-128-10) with ReLU, Adam at 1e-3 and batches of 64 on
// Fashion-MNIST, the same runs as ../shared/yardstick/fashion_mnist.cpp does in libtorch: a progress bar per
// epoch with loss, accuracy and samples/s, the test accuracy and the inference time over the test set after
// each epoch, then one machine-readable RESULT line. The data folder defaults to where Debian's
// dataset-fashion-mnist puts the files.
//
//   ./fashion_mnist [mlp|cnn] [epochs=2] [cpu|cuda] [data dir]
#include <microtorch/microtorch.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ops/infra/Parallel.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace data = mt::data;

constexpr int64_t kBatch = 64;
// Fashion-MNIST's pixel mean and standard deviation (of the training images, scaled to [0, 1]).
constexpr double kMean = 0.2860, kStd = 0.3530;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void print_progress(int epoch, int epochs, int64_t step, int64_t steps, double loss, double acc, double samples_per_s) {
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * step / steps);
  std::printf("\repoch %d/%d [%s%s] loss %.4f  acc %5.1f%%  %6.0f samples/s", epoch, epochs,
              std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(), loss, 100 * acc,
              samples_per_s);
  std::fflush(stdout);
}

// The fraction of the test examples the model classifies right, and the seconds its forward passes (with
// the argmax) took: the batches are made beforehand, as the yardstick times its inference.
std::pair<double, double> test_accuracy(mt::nn::Sequential& model, const std::vector<data::Example>& batches) {
  const mt::InferenceMode inference;
  int64_t correct = 0, seen = 0;
  double infer_s = 0;
  for (const data::Example& b : batches) {
    const auto start = Clock::now();
    const mt::Tensor predicted = model.forward(b.data).argmax(1);
    infer_s += since(start);
    correct += predicted.eq(b.target).sum().item<int64_t>();
    seen += b.target.size(0);
  }
  return {static_cast<double>(correct) / static_cast<double>(seen), infer_s};
}

std::shared_ptr<mt::nn::Sequential> mlp() {
  namespace nn = mt::nn;
  return std::make_shared<nn::Sequential>(std::make_shared<nn::Flatten>(), std::make_shared<nn::Linear>(784, 256),
                                          std::make_shared<nn::ReLU>(), std::make_shared<nn::Linear>(256, 128),
                                          std::make_shared<nn::ReLU>(), std::make_shared<nn::Linear>(128, 10));
}

std::shared_ptr<mt::nn::Sequential> cnn() {
  namespace nn = mt::nn;
  return std::make_shared<nn::Sequential>(
      std::make_shared<nn::Conv2d>(nn::Conv2dOptions(1, 32, 3)), std::make_shared<nn::ReLU>(),
      std::make_shared<nn::Conv2d>(nn::Conv2dOptions(32, 64, 3)), std::make_shared<nn::ReLU>(),
      std::make_shared<nn::MaxPool2d>(2), std::make_shared<nn::Dropout>(0.25), std::make_shared<nn::Flatten>(),
      std::make_shared<nn::Linear>(9216, 128), std::make_shared<nn::ReLU>(), std::make_shared<nn::Dropout>(0.5),
      std::make_shared<nn::Linear>(128, 10));
}

int run(int argc, char** argv) {
  const std::string model_name = argc > 1 ? argv[1] : "mlp";
  const int epochs = argc > 2 ? std::atoi(argv[2]) : 2;
  const mt::Device device(argc > 3 ? argv[3] : "cpu");
  const std::string root = argc > 4 ? argv[4] : data::datasets::kFashionMnistDir;
  if ((model_name != "mlp" && model_name != "cnn") || epochs < 1) {
    std::fprintf(stderr, "usage: %s [mlp|cnn] [epochs=2] [cpu|cuda] [data dir]\n", argv[0]);
    return 2;
  }
  if (!std::filesystem::exists(root)) {
    std::fprintf(stderr, "no Fashion-MNIST data in '%s': apt-get install dataset-fashion-mnist, or give the folder "
                 "that holds its four IDX files\n", root.c_str());
    return 1;
  }

  mt::manual_seed(0);  // the weights' initialisation and the shuffle
  const auto load_start = Clock::now();
  const auto train = std::make_shared<data::datasets::MNIST>(root, data::datasets::Mode::Train);
  const auto test = std::make_shared<data::datasets::MNIST>(root, data::datasets::Mode::Test);
  const data::transforms::Transform normalize =
      data::transforms::Compose({data::transforms::ConvertImageDtype(), data::transforms::Normalize({kMean}, {kStd})});
  data::DataLoader train_loader(train, {.batch_size = kBatch, .shuffle = true, .transform = normalize});
  data::DataLoader test_loader(test, {.batch_size = kBatch, .transform = normalize});
  std::printf("Fashion-MNIST from %s: %lld training and %lld test images, read in %.2f s; on %s\n", root.c_str(),
              static_cast<long long>(train->size()), static_cast<long long>(test->size()), since(load_start),
              device.str().c_str());

  const auto model = model_name == "mlp" ? mlp() : cnn();
  model->to(device);
  mt::optim::Adam adam(model->parameters(), {.lr = 1e-3});

  std::vector<data::Example> test_batches;
  for (const data::Example& b : test_loader) test_batches.push_back({b.data.to(device), b.target.to(device)});
  double epoch_sum = 0, infer_sum = 0, accuracy = 0;
  const int64_t steps = train_loader.size();
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    model->train();
    const auto start = Clock::now();
    double loss_sum = 0, correct = 0;
    int64_t step = 0, seen = 0;
    for (const data::Example& b : train_loader) {
      const mt::Tensor x = b.data.to(device), y = b.target.to(device);
      adam.zero_grad();
      const mt::Tensor logits = model->forward(x);
      const mt::Tensor loss = mt::cross_entropy_loss(logits, y);
      loss.backward();
      adam.step();
      loss_sum += loss.item<double>() * static_cast<double>(x.size(0));
      correct += static_cast<double>(logits.detach().argmax(1).eq(y).sum().item<int64_t>());
      seen += x.size(0);
      if (++step % 50 == 0 || step == steps)
        print_progress(epoch, epochs, step, steps, loss_sum / seen, correct / seen, seen / since(start));
    }
    const double epoch_s = since(start);
    epoch_sum += epoch_s;
    model->eval();
    double infer_s = 0;
    std::tie(accuracy, infer_s) = test_accuracy(*model, test_batches);
    infer_sum += infer_s;
    std::printf("\n  %.2f s, test accuracy %.2f%%, inference %.3f s\n", epoch_s, 100 * accuracy, infer_s);
  }
  std::printf("RESULT model=%s epochs=%d batch=%lld threads=%d device=%s epoch_s=%.3f test_acc=%.4f "
              "infer_s=%.4f\n",
              model_name.c_str(), epochs, static_cast<long long>(kBatch), mt::get_num_threads(), device.str().c_str(),
              epoch_sum / epochs, accuracy, infer_sum / epochs);
  return 0;
}

}  // namespace

// A bad argument, a device that is not there or a broken data file ends the program with the library's
// message.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const mt::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
