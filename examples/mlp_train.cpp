// Trains a small MLP to tell apart three interleaved noisy spirals (generated deterministically from a
// seed), printing a progress bar per epoch, then times the evaluation of the test set under no_grad and
// under inference_mode, taking turns. The second argument picks the device ("cuda" trains on the GPU; the model
// and data are made on the CPU from the same seeds, then moved, so both devices train the same net).
//
//   ./mlp_train [epochs] [cpu|cuda]
#include <microtorch/microtorch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "spirals.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int64_t kBatch = 64;

double accuracy(const mt::Tensor& logits, const mt::Tensor& labels) {
  return logits.argmax(1).eq(labels).to(mt::kFloat64).mean().item<double>();
}

void print_progress(int64_t epoch, int64_t epochs, int64_t step, int64_t steps, double loss, double acc,
                    double samples_per_s, bool done) {
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * step / steps);
  std::printf("\repoch %2lld/%lld [%s%s] loss %.4f  acc %5.1f%%  %8.0f samples/s%s",
              static_cast<long long>(epoch), static_cast<long long>(epochs), std::string(filled, '#').c_str(),
              std::string(kWidth - filled, '.').c_str(), loss, 100 * acc, samples_per_s, done ? "\n" : "");
  std::fflush(stdout);
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Evaluates `model` on `data` `repeats` times and returns the mean milliseconds per pass.
// A pass goes through the data in batches, as an evaluation loop over a data loader does: each batch a
// view of the data, its predictions counted on the way.
double time_eval(mt::nn::Sequential& model, const spirals::Dataset& data, int repeats, double& acc) {
  const int64_t n = data.x.size(0);
  const auto start = Clock::now();
  for (int i = 0; i < repeats; ++i) {
    int64_t correct = 0;
    for (int64_t b = 0; b < n; b += kBatch) {
      const int64_t len = std::min(kBatch, n - b);
      const mt::Tensor logits = model.forward(data.x.narrow(0, b, len));
      correct += logits.argmax(1).eq(data.y.narrow(0, b, len)).sum().item<int64_t>();
    }
    acc = static_cast<double>(correct) / static_cast<double>(n);
  }
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / repeats;
}

}  // namespace

int run(int argc, char** argv) {
  const int64_t epochs = argc > 1 ? std::atoll(argv[1]) : 10;
  const mt::Device device(argc > 2 ? argv[2] : "cpu");
  spirals::Dataset train = spirals::make(6000, 1);
  spirals::Dataset test = spirals::make(1500, 2);
  for (spirals::Dataset* d : {&train, &test}) {
    d->x = d->x.to(device);
    d->y = d->y.to(device);
  }
  mt::Generator g(42);
  auto model = spirals::make_model(&g);
  model->to(device);
  mt::optim::Adam adam(model->parameters(), {.lr = 5e-3});
  std::printf("%lld training and %lld test points, 3 spirals, on %s\n", static_cast<long long>(train.x.size(0)),
              static_cast<long long>(test.x.size(0)), device.str().c_str());

  const int64_t steps = train.x.size(0) / kBatch;
  const auto training_start = Clock::now();
  for (int64_t epoch = 1; epoch <= epochs; ++epoch) {
    const auto epoch_start = Clock::now();
    double loss_sum = 0, correct = 0;
    for (int64_t step = 1; step <= steps; ++step) {
      const mt::Tensor idx = mt::randint(0, train.x.size(0), {kBatch}, &g).to(device);
      const mt::Tensor xb = train.x.index_select(0, idx), yb = train.y.index_select(0, idx);
      adam.zero_grad();
      const mt::Tensor logits = model->forward(xb);
      const mt::Tensor loss = mt::cross_entropy_loss(logits, yb);
      loss.backward();
      adam.step();
      loss_sum += loss.item<double>();
      correct += accuracy(logits.detach(), yb) * kBatch;
      const double seconds = std::chrono::duration<double>(Clock::now() - epoch_start).count();
      if (step % 10 == 0 || step == steps)
        print_progress(epoch, epochs, step, steps, loss_sum / step, correct / (step * kBatch),
                       step * kBatch / seconds, step == steps);
    }
  }
  const double training_s = std::chrono::duration<double>(Clock::now() - training_start).count();

  model->eval();
  // The two modes take turns, a round of passes each, and each reports its median round: timed one after
  // the other, the second would meet a different machine (clock speed, other processes) from the first.
  double acc_no_grad = 0, acc_inference = 0;
  constexpr int kRounds = 21, kPasses = 10;
  std::vector<double> ms_no_grad, ms_inference;
  for (int round = 0; round <= kRounds; ++round) {  // round 0 warms up
    {
      mt::NoGradGuard no_grad;
      const double ms = time_eval(*model, test, kPasses, acc_no_grad);
      if (round > 0) ms_no_grad.push_back(ms);
    }
    {
      mt::InferenceMode inference;
      const double ms = time_eval(*model, test, kPasses, acc_inference);
      if (round > 0) ms_inference.push_back(ms);
    }
  }
  std::printf("trained in %.1f s; test accuracy %.1f%%\n", training_s, 100 * acc_inference);
  std::printf("evaluating the test set (median of %d rounds of %d passes, taking turns): no_grad %.3f ms/pass, "
              "inference_mode %.3f ms/pass\n",
              kRounds, kPasses, median(ms_no_grad), median(ms_inference));
  if (acc_no_grad != acc_inference) {
    std::printf("error: the two modes disagree\n");
    return 1;
  }
  return acc_inference >= 0.95 ? 0 : 1;
}

// A bad argument or a device that is not there ends the program with the library's message.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const mt::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
