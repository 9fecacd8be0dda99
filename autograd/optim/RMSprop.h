#pragma once
// mt::optim::RMSprop, following PyTorch's update rule exactly:
//   g = grad + weight_decay * p
//   v = alpha * v + (1 - alpha) * g^2
//   centered: a = alpha * a + (1 - alpha) * g, and v - a^2 stands for v below
//   d = g / (sqrt(v) + eps)
//   momentum: b = momentum * b + d; p -= lr * b      otherwise: p -= lr * d
#include <vector>

#include "autograd/optim/Optimizer.h"

namespace mt::optim {

struct RMSpropOptions {
  double lr = 1e-2;
  double alpha = 0.99;
  double eps = 1e-8;
  double weight_decay = 0;
  double momentum = 0;
  bool centered = false;
};

class RMSprop : public Optimizer {
 public:
  RMSprop(std::vector<Tensor> params, RMSpropOptions options = {});
  void step() override;
  double lr() const override { return options_.lr; }
  void set_lr(double lr) override { options_.lr = lr; }
  std::optional<double> momentum() const override { return options_.momentum; }
  void set_momentum(double m) override { options_.momentum = m; }
  // Read or change the options between steps; not re-validated.
  RMSpropOptions& options() { return options_; }

 protected:
  void visit_options(StateVisitor& v) override;
  void visit_state(size_t param, StateVisitor& v) override;

 private:
  struct ParamState {
    Tensor square_avg;     // v
    Tensor grad_avg;       // a, when centered
    Tensor momentum_buffer;  // b, with momentum
    Tensor scratch;        // g with weight decay
    Tensor denom;          // g^2, then the denominator, then the update
  };

  RMSpropOptions options_;
  std::vector<ParamState> state_;
};

}  // namespace mt::optim
