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

struct AdamParamState {
  int64_t step = 0;
  Tensor exp_avg;         // m
  Tensor exp_avg_sq;      // v
  Tensor max_exp_avg_sq;  // v_max, with amsgrad
  Tensor scratch;         // g with weight decay, then g * g, then the denominator and the update
};

class Adam : public OptimizerWithOptions<AdamOptions, AdamParamState> {
 public:
  Adam(std::vector<Tensor> params, AdamOptions options = {});
  Adam(std::vector<ParamGroup<AdamOptions>> groups, AdamOptions defaults);
  void step() override;
  std::optional<double> momentum(size_t group = 0) const override { return options(group).betas.first; }
  void set_momentum(size_t group, double beta1) override { options(group).betas.first = beta1; }

 protected:
  Adam(AdamOptions defaults, bool decoupled_weight_decay);
  void check_options(const AdamOptions& options) const override;
  void visit_options(size_t group, StateVisitor& v) override;
  void visit_state(size_t param, StateVisitor& v) override;

 private:
  bool decoupled_weight_decay_;
};

// Adam with decoupled weight decay (Loshchilov & Hutter).
class AdamW : public Adam {
 public:
  AdamW(std::vector<Tensor> params, AdamWOptions options = {});
  AdamW(std::vector<ParamGroup<AdamWOptions>> groups, AdamWOptions defaults);
};

}  // namespace mt::optim
