#pragma once
// mt::optim::Optimizer: the base of SGD and Adam, as torch::optim::Optimizer with a single parameter
// group. It holds the parameters it updates; step() reads their .grad and changes them in place under
// no_grad (so a model's tensors keep their identity), and skips parameters whose .grad is undefined.
//
// state_dict() holds what the next steps depend on, as PyTorch's optimizer state_dict flattened into names:
// "param_groups.0.<option>" (0-dim tensors: float64 numbers, bool flags; "initial_lr" once a scheduler set
// it) and "state.<i>.<name>" per parameter (its buffers, and "step" as a 0-dim int64). nn::save writes it
// to a file; load_state_dict into an optimizer over the same parameters continues bit for bit.
#include <optional>
#include <vector>

#include "autograd/nn/OrderedDict.h"
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

  nn::OrderedDict<Tensor> state_dict() const;
  // Checks the whole dict first (every option present, no unknown key, each buffer of its parameter's
  // shape): a dict that does not fit raises mt::ValueError and changes nothing.
  void load_state_dict(const nn::OrderedDict<Tensor>& dict);

  // Each optimizer lists its options and its per-parameter state once (visit_options, visit_state), for
  // state_dict and load_state_dict.
  class StateVisitor {
   public:
    virtual ~StateVisitor() = default;
    virtual void option(const char* name, double& value) = 0;
    virtual void option(const char* name, bool& value) = 0;
    virtual void buffer(const char* name, Tensor& value) = 0;  // undefined until the parameter's first step
    virtual void count(const char* name, int64_t& value) = 0;
  };

  // The momentum OneCycleLR cycles: SGD's and RMSprop's momentum, Adam's beta1 (PyTorch's group["momentum"]
  // or group["betas"][0]); none for an optimizer without one.
  virtual std::optional<double> momentum() const { return std::nullopt; }
  virtual void set_momentum(double) {}

 protected:
  virtual void visit_options(StateVisitor& v) = 0;
  virtual void visit_state(size_t param, StateVisitor& v) = 0;

  std::vector<Tensor> params_;
};

}  // namespace mt::optim
