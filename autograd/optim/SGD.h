#pragma once
// mt::optim::SGD: stochastic gradient descent with optional momentum, dampening, Nesterov momentum
// and (L2) weight decay, following PyTorch's update rule exactly:
//   g = grad + weight_decay * p
//   b = g                                   on the first step (the buffer starts as the gradient)
//   b = momentum * b + (1 - dampening) * g  afterwards
//   g = nesterov ? g + momentum * b : b     (when momentum != 0)
//   p -= lr * g
//
//   mt::optim::SGD sgd(model->parameters(), {.lr = 0.1, .momentum = 0.9});
#include <vector>

#include "autograd/optim/Optimizer.h"

namespace mt::optim {

struct SGDOptions {
  double lr = 1e-3;
  double momentum = 0;
  double dampening = 0;
  double weight_decay = 0;
  bool nesterov = false;
};

class SGD : public Optimizer {
 public:
  SGD(std::vector<Tensor> params, SGDOptions options);
  void step() override;
  double lr() const override { return options_.lr; }
  void set_lr(double lr) override { options_.lr = lr; }
  std::optional<double> momentum() const override { return options_.momentum; }
  void set_momentum(double m) override { options_.momentum = m; }
  // Read or change the options between steps (e.g. a learning-rate schedule); not re-validated.
  SGDOptions& options() { return options_; }

 protected:
  void visit_options(StateVisitor& v) override;
  void visit_state(size_t param, StateVisitor& v) override;

 private:
  SGDOptions options_;
  std::vector<Tensor> momentum_buffers_;  // per parameter; undefined until its first step
  std::vector<Tensor> scratch_;           // per parameter; holds g when weight decay or Nesterov make one
};

}  // namespace mt::optim
