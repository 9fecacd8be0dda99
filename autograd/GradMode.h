#pragma once
// Grad mode: a thread-local switch that autograd kernels read before recording a graph. Turning it
// off (no_grad) changes no dispatch keys: the autograd layer still runs, records nothing, and in-place
// ops still bump version counters. InferenceMode (autograd/InferenceMode.h) goes further.
namespace mt {

struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

// Sets grad mode for a scope and restores the previous mode on exit.
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : prev_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~AutoGradMode() { GradMode::set_enabled(prev_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool prev_;
};

// torch.no_grad() in C++.
class NoGradGuard : public AutoGradMode {
 public:
  NoGradGuard() : AutoGradMode(false) {}
};

}  // namespace mt
