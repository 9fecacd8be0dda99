// Per-sample gradients of the spiral MLP's cross-entropy loss for a batch of 64: once with
// vmap(grad(loss)), which runs the forward and backward pass once for the whole batch, and once with a
// loop of 64 ordinary backward passes. Checks that the two agree and prints both times. The argument
// picks the device (the model and data are made on the CPU, then moved).
//
//   ./per_sample_grads [cpu|cuda]
#include <microtorch/microtorch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <vector>

#include "spirals.h"

namespace {

using Clock = std::chrono::steady_clock;
using Tensors = std::vector<mt::Tensor>;

constexpr int64_t kBatch = 64;
constexpr size_t kParams = 6;  // weight and bias of the three Linear layers, in model->parameters() order

// The model's forward pass as a function of its parameters: loss(W1, b1, W2, b2, W3, b3, x, y) for one
// sample x [2] with label y [].
mt::Tensor loss(const Tensors& a) {
  mt::Tensor h = mt::relu(mt::linear(a[6].unsqueeze(0), a[0], a[1]));
  h = mt::relu(mt::linear(h, a[2], a[3]));
  const mt::Tensor logits = mt::linear(h, a[4], a[5]);
  return mt::cross_entropy_loss(logits, a[7].unsqueeze(0));
}

// The best of `repeats` runs of `f`, in milliseconds.
template <typename F>
double best_ms(int repeats, F f) {
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const auto start = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return best;
}

}  // namespace

int run(int argc, char** argv) {
  const mt::Device device(argc > 1 ? argv[1] : "cpu");
  mt::Generator g(7);
  auto model = spirals::make_model(&g);
  model->to(device);
  const spirals::Dataset data = spirals::make(kBatch * 3, 3);
  const mt::Tensor x = data.x.narrow(0, 0, kBatch).to(device), y = data.y.narrow(0, 0, kBatch).to(device);
  const Tensors params = model->parameters();

  // vmap(grad(loss)): parameters shared (in_dim None), samples and labels batched along dim 0.
  std::vector<std::optional<int64_t>> in_dims(kParams, std::nullopt);
  in_dims.push_back(0);
  in_dims.push_back(0);
  const auto per_sample_grads = mt::vmap(mt::grad(loss, std::vector<int64_t>{0, 1, 2, 3, 4, 5}), in_dims);
  Tensors inputs = params;
  inputs.push_back(x);
  inputs.push_back(y);
  Tensors vmapped;
  const double vmap_ms = best_ms(20, [&] { vmapped = per_sample_grads(inputs); });

  // The loop: one backward pass per sample.
  std::vector<Tensors> looped(kBatch);
  const double loop_ms = best_ms(5, [&] {
    for (int64_t i = 0; i < kBatch; ++i) {
      Tensors args = params;
      args.push_back(x[i]);
      args.push_back(y[i]);
      looped[i] = mt::autograd::grad({loss(args)}, params);
    }
  });

  double max_diff = 0;
  for (size_t p = 0; p < kParams; ++p) {
    Tensors per_param;
    for (int64_t i = 0; i < kBatch; ++i) per_param.push_back(looped[i][p]);
    max_diff = std::max(max_diff, (vmapped[p] - mt::stack(per_param, 0)).abs().max().item<double>());
  }
  std::printf("per-sample gradients of a 2-64-64-3 MLP's cross-entropy, batch of %lld, on %s:\n",
              static_cast<long long>(kBatch), device.str().c_str());
  for (size_t p = 0; p < kParams; ++p) {
    std::ostringstream shape;
    shape << vmapped[p].sizes();
    std::printf("  layer %zu %-6s %s\n", p / 2 + 1, p % 2 ? "bias" : "weight", shape.str().c_str());
  }
  std::printf("vmap(grad(loss)) %.3f ms, loop of %lld backward passes %.3f ms: %.1fx faster\n", vmap_ms,
              static_cast<long long>(kBatch), loop_ms, loop_ms / vmap_ms);
  std::printf("largest difference between the two: %.2e\n", max_diff);
  if (max_diff > 1e-5) {
    std::printf("error: vmap(grad) and the loop disagree\n");
    return 1;
  }
  return 0;
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
