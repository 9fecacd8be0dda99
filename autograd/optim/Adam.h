#pragma once
// mt::optim::Adam and mt::optim::AdamW, following PyTorch's update rule exactly (t counts each
// parameter's own steps):
//   g = grad + weight_decay * p                      (Adam: L2 penalty in the gradient)
//   p = p * (1 - lr * weight_decay)                  (AdamW: decoupled, instead of the line above)
//   m = beta1 * m + (1 - beta1) * g
//   v = beta2 * v + (1 - beta2) * g * g
//   v_max = max(v_max, v)                            (amsgrad; v_max replaces v below)
//   p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
//
//   mt::optim::Adam adam(model->parameters(), {.lr = 1e-3, .betas = {0.9, 0.99}});
#include <cstdint>
#include <utility>
#include <vector>

#include "autograd/optim/Optimizer.h"

namespace mt::optim {

struct AdamOptions {
  double lr = 1e-3;
  std::pair<double, double> betas = {0.9, 0.999};
  double eps = 1e-8;
  double weight_decay = 0;
  bool amsgrad = false;
};

// AdamW's options: Adam's with PyTorch's AdamW default weight decay.
struct AdamWOptions {
  double lr = 1e-3;
  std::pair<double, double> betas = {0.9, 0.999};
  double eps = 1e-8;
  double weight_decay = 1e-2;
  bool amsgrad = false;
};

class Adam : public Optimizer {
 public:
  Adam(std::vector<Tensor> params, AdamOptions options = {});
  void step() override;
  double lr() const override { return options_.lr; }
  void set_lr(double lr) override { options_.lr = lr; }
  std::optional<double> momentum() const override { return options_.betas.first; }
  void set_momentum(double beta1) override { options_.betas.first = beta1; }
  // Read or change the options between steps (e.g. a learning-rate schedule); not re-validated.
  AdamOptions& options() { return options_; }

 protected:
  Adam(std::vector<Tensor> params, AdamOptions options, bool decoupled_weight_decay);
  void visit_options(StateVisitor& v) override;
  void visit_state(size_t param, StateVisitor& v) override;

 private:
  struct ParamState {
    int64_t step = 0;
    Tensor exp_avg;         // m
    Tensor exp_avg_sq;      // v
    Tensor max_exp_avg_sq;  // v_max, with amsgrad
    Tensor scratch;         // g with weight decay, then g * g, then the denominator and the update
  };

  AdamOptions options_;
  bool decoupled_weight_decay_;
  std::vector<ParamState> state_;
};

// Adam with decoupled weight decay (Loshchilov & Hutter).
class AdamW : public Adam {
 public:
  AdamW(std::vector<Tensor> params, AdamWOptions options = {});
};

}  // namespace mt::optim
