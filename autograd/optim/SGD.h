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

struct SGDParamState {
  Tensor momentum_buffer;  // undefined until the parameter's first step
  Tensor scratch;          // holds g when weight decay or Nesterov make one
};

class SGD : public OptimizerWithOptions<SGDOptions, SGDParamState> {
 public:
  SGD(std::vector<Tensor> params, SGDOptions options);
  SGD(std::vector<ParamGroup<SGDOptions>> groups, SGDOptions defaults);
  void step() override;
  std::optional<double> momentum(size_t group = 0) const override { return options(group).momentum; }
  void set_momentum(size_t group, double m) override { options(group).momentum = m; }

 protected:
  void check_options(const SGDOptions& options) const override;
  void visit_options(size_t group, StateVisitor& v) override;
  void visit_state(size_t param, StateVisitor& v) override;
};

}  // namespace mt::optim
