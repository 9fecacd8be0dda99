#pragma once
// mt::optim::Optimizer: the base of SGD and Adam, as torch::optim::Optimizer with a single parameter
// group. It holds the parameters it updates; step() reads their .grad and changes them in place under
// no_grad (so a model's tensors keep their identity), and skips parameters whose .grad is undefined.
#include <optional>
#include <vector>

#include "tensor/Tensor.h"

namespace mt::optim {

class Optimizer {
 public:
  // `params` must be non-empty leaves (e.g. module->parameters()).
  explicit Optimizer(std::vector<Tensor> params);
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  // One update of every parameter that has a gradient.
  virtual void step() = 0;
  // Clears every parameter's .grad (set_to_none), or zeroes it in place.
  void zero_grad(bool set_to_none = true);

  const std::vector<Tensor>& parameters() const { return params_; }

  // The learning rate, which schedulers (optim/LRScheduler.h) read and set between steps. `initial_lr`
  // is the one the first scheduler attached found, as PyTorch's param_group["initial_lr"]: every
  // scheduler on this optimizer scales that one.
  virtual double lr() const = 0;
  virtual void set_lr(double lr) = 0;
  std::optional<double> initial_lr;
  // The momentum OneCycleLR cycles: SGD's and RMSprop's momentum, Adam's beta1 (PyTorch's group["momentum"]
  // or group["betas"][0]); none for an optimizer without one.
  virtual std::optional<double> momentum() const { return std::nullopt; }
  virtual void set_momentum(double) {}

 protected:
  std::vector<Tensor> params_;
};

}  // namespace mt::optim
