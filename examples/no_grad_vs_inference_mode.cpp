// no_grad versus inference_mode, shown with the dispatcher's own trace.
//
// Under no_grad the Autograd and ADInplaceOrView kernels still run: the autograd kernel records nothing
// because of a thread-local flag, and in-place ops still bump version counters. Under inference_mode
// the autograd keys are excluded for every tensor, and the tensors made there ("inference tensors")
// carry neither the Autograd nor the ADInplaceOrView key, so later ops on them skip both layers
// entirely, in any mode. The price: inference tensors can never be saved for backward.
#include <microtorch/microtorch.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

// Runs `f` with the dispatch trace written to a string, and prints it under `title`.
template <typename F>
void show_trace(const char* title, F&& f) {
  std::ostringstream trace;
  mt::set_dispatch_trace_stream(&trace);
  mt::set_dispatch_trace_enabled(true);
  f();
  mt::set_dispatch_trace_enabled(false);
  mt::set_dispatch_trace_stream(&std::cerr);
  std::printf("--- %s\n%s\n", title, trace.str().c_str());
}

template <typename F>
double ns_per_call(F&& f) {
  constexpr int kCalls = 200000;
  for (int i = 0; i < kCalls / 10; ++i) f();
  const auto start = Clock::now();
  for (int i = 0; i < kCalls; ++i) f();
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kCalls;
}

}  // namespace

int main() {
  const mt::Tensor w = mt::ones({1}).requires_grad_();
  const mt::Tensor x = mt::ones({1});

  show_trace("grad mode: add records a node (AutogradCPU runs, then CPU)", [&] { (void)mt::add(w, x); });
  show_trace("no_grad: the same layers run; the autograd kernel records nothing", [&] {
    mt::NoGradGuard no_grad;
    (void)mt::add(w, x);
  });
  show_trace("inference_mode: the autograd layer is excluded, straight to CPU", [&] {
    mt::InferenceMode guard;
    (void)mt::add(w, x);
  });

  mt::Tensor made_in_no_grad, made_in_inference;
  {
    mt::NoGradGuard no_grad;
    made_in_no_grad = w * 2;
  }
  {
    mt::InferenceMode guard;
    made_in_inference = w * 2;
  }
  std::cout << "keys of a tensor made under no_grad:        " << made_in_no_grad.unsafeGetTensorImpl()->key_set()
            << "\nkeys of a tensor made under inference_mode: " << made_in_inference.unsafeGetTensorImpl()->key_set()
            << "\n\n";

  show_trace("in-place on a no_grad tensor, back in grad mode: ADInplaceOrView bumps its version",
             [&] { made_in_no_grad.add_(1); });
  std::printf("its version is now %u\n\n", made_in_no_grad._version());
  show_trace("an op on an inference tensor, even in grad mode: neither autograd layer is visited",
             [&] { (void)mt::add(made_in_inference, made_in_inference); });

  try {
    made_in_inference.add_(1);
  } catch (const mt::Error& e) {
    std::printf("in-place on an inference tensor outside inference_mode:\n  %s\n", e.what());
  }
  try {
    (w * made_in_inference).sum().backward();
  } catch (const mt::Error& e) {
    std::printf("saving an inference tensor for backward:\n  %s\n\n", e.what());
  }
  // A view made where autograd records nothing, written in place where it records: ambiguous, so refused.
  const mt::Tensor h = w * 2;
  mt::Tensor view_made_in_no_grad;
  {
    mt::NoGradGuard no_grad;
    view_made_in_no_grad = h.view({1});
  }
  try {
    view_made_in_no_grad.mul_(2);
  } catch (const mt::Error& e) {
    std::printf("in-place in grad mode on a view made under no_grad:\n  %s\n\n", e.what());
  }

  const mt::Tensor b = mt::ones({1});
  double no_grad_ns = 0, inference_ns = 0, grad_ns = 0;
  grad_ns = ns_per_call([&] { (void)mt::add(w, b); });
  {
    mt::NoGradGuard no_grad;
    no_grad_ns = ns_per_call([&] { (void)mt::add(w, b); });
  }
  {
    mt::InferenceMode guard;
    const mt::Tensor ia = mt::ones({1}), ib = mt::ones({1});
    inference_ns = ns_per_call([&] { (void)mt::add(ia, ib); });
  }
  std::printf("a 1-element add: recording a node %.0f ns, no_grad %.0f ns, inference_mode %.0f ns\n", grad_ns,
              no_grad_ns, inference_ns);
  return 0;
}
