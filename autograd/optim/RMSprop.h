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

struct RMSpropParamState {
  Tensor square_avg;       // v
  Tensor grad_avg;         // a, when centered
  Tensor momentum_buffer;  // b, with momentum
  Tensor scratch;          // g with weight decay
  Tensor denom;            // g^2, then the denominator, then the update
};

class RMSprop : public OptimizerWithOptions<RMSpropOptions, RMSpropParamState> {
 public:
  RMSprop(std::vector<Tensor> params, RMSpropOptions options = {});
  RMSprop(std::vector<ParamGroup<RMSpropOptions>> groups, RMSpropOptions defaults);
  void step() override;
  std::optional<double> momentum(size_t group = 0) const override { return options(group).momentum; }
  void set_momentum(size_t group, double m) override { options(group).momentum = m; }

 protected:
  void check_options(const RMSpropOptions& options) const override;
  void visit_options(size_t group, StateVisitor& v) override;
  void visit_state(size_t param, StateVisitor& v) override;
};

}  // namespace mt::optim
