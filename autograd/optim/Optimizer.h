#pragma once
// mt::optim::Optimizer: the base of SGD, Adam, AdamW, RMSprop and Adagrad, as torch::optim::Optimizer. It
// holds parameter groups: parameters and the options they are updated with, so that, say, a pretrained
// body and a new head learn at different rates:
//
//   mt::optim::SGD sgd({{.params = body->parameters()},
//                       {.params = head->parameters(), .options = mt::optim::SGDOptions{.lr = 0.1}}},
//                      {.lr = 0.01, .momentum = 0.9});  // the defaults, for groups without options
//
// step() reads each parameter's .grad and changes it in place under no_grad (so a model's tensors keep
// their identity), and skips parameters whose .grad is undefined.
//
// state_dict() holds what the next steps depend on, as PyTorch's optimizer state_dict flattened into names:
// "param_groups.<g>.params" (the indices of the group's parameters, an int64 vector), "param_groups.<g>.<option>"
// (0-dim tensors: float64 numbers, bool flags; "initial_lr" once a scheduler set it) and "state.<i>.<name>"
// per parameter, numbered across the groups (its buffers, and "step" as a 0-dim int64). nn::save writes it
// to a file; load_state_dict into an optimizer over the same parameter groups continues bit for bit.
#include <cstddef>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "autograd/nn/OrderedDict.h"
#include "tensor/Tensor.h"

namespace mt::optim {

// One parameter group: its parameters and its options (the optimizer's defaults where not given).
template <typename Options>
struct ParamGroup {
  std::vector<Tensor> params;
  std::optional<Options> options = std::nullopt;
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  // One update of every parameter that has a gradient.
  virtual void step() = 0;
  // Clears every parameter's .grad (set_to_none), or zeroes it in place.
  void zero_grad(bool set_to_none = true);

  // Every parameter, group after group.
  const std::vector<Tensor>& parameters() const { return params_; }
  size_t num_param_groups() const { return group_ends_.size(); }
  std::span<const Tensor> group_parameters(size_t group) const;

  // A group's learning rate, which schedulers (optim/LRScheduler.h) read and set between steps.
  virtual double lr(size_t group = 0) const = 0;
  virtual void set_lr(size_t group, double lr) = 0;
  // The rate the first scheduler attached found in the group, as PyTorch's param_group["initial_lr"]: every
  // scheduler on this optimizer scales that one.
  std::optional<double>& initial_lr(size_t group = 0);

  // The momentum OneCycleLR cycles: SGD's and RMSprop's momentum, Adam's beta1 (PyTorch's group["momentum"]
  // or group["betas"][0]); none for an optimizer without one.
  virtual std::optional<double> momentum(size_t /*group*/ = 0) const { return std::nullopt; }
  virtual void set_momentum(size_t /*group*/, double /*momentum*/) {}

  nn::OrderedDict<Tensor> state_dict() const;
  // Checks the whole dict first (the same groups, every option present, no unknown key, each buffer of its
  // parameter's shape): a dict that does not fit raises mt::ValueError and changes nothing.
  void load_state_dict(const nn::OrderedDict<Tensor>& dict);

  // Each optimizer lists a group's options and a parameter's state once (visit_options, visit_state), for
  // state_dict and load_state_dict.
  class StateVisitor {
   public:
    virtual ~StateVisitor() = default;
    virtual void option(const char* name, double& value) = 0;
    virtual void option(const char* name, bool& value) = 0;
    virtual void buffer(const char* name, Tensor& value) = 0;  // undefined until the parameter's first step
    virtual void count(const char* name, int64_t& value) = 0;
  };

 protected:
  Optimizer() = default;
  // Appends a group's parameters (non-empty leaves, in no other group) as a new group.
  void add_params(std::vector<Tensor> params);
  // After the constructor's groups: the optimizer must have a parameter.
  void check_not_empty() const;
  // `group`, if the optimizer has it; else mt::IndexError.
  size_t checked_group(size_t group) const;
  size_t group_begin(size_t group) const { return group == 0 ? 0 : group_ends_[group - 1]; }
  size_t group_end(size_t group) const { return group_ends_[group]; }

  virtual void visit_options(size_t group, StateVisitor& v) = 0;
  virtual void visit_state(size_t param, StateVisitor& v) = 0;

  std::vector<Tensor> params_;

 private:
  std::vector<size_t> group_ends_;
  std::vector<std::optional<double>> initial_lrs_;
};

// An optimizer whose groups carry Options and whose parameters carry State. Options has a member lr.
template <typename Options, typename State>
class OptimizerWithOptions : public Optimizer {
 public:
  // A group's options, to read or change between steps (e.g. a learning-rate schedule); not re-validated.
  Options& options(size_t group = 0) { return options_[checked_group(group)]; }
  const Options& options(size_t group = 0) const { return options_[checked_group(group)]; }
  // The options of groups added without their own.
  const Options& defaults() const { return defaults_; }

  // Adds a group (PyTorch's add_param_group), e.g. layers unfrozen in fine-tuning; its options are checked.
  void add_param_group(ParamGroup<Options> group) {
    const Options options = group.options.value_or(defaults_);
    check_options(options);
    add_params(std::move(group.params));
    options_.push_back(options);
    state_.resize(params_.size());
  }

  double lr(size_t group = 0) const override { return options(group).lr; }
  void set_lr(size_t group, double lr) override { options(group).lr = lr; }

 protected:
  explicit OptimizerWithOptions(Options defaults) : defaults_(defaults) {}
  // Each optimizer's constructor: checks the defaults and adds the groups (virtual calls work from there).
  void add_groups(std::vector<ParamGroup<Options>> groups) {
    check_options(defaults_);
    for (ParamGroup<Options>& group : groups) add_param_group(std::move(group));
    check_not_empty();
  }
  virtual void check_options(const Options& options) const = 0;

  // Calls f(parameter index, its group's options) for each parameter, group after group.
  template <typename F>
  void for_each_param(F&& f) {
    for (size_t g = 0; g < num_param_groups(); ++g)
      for (size_t i = group_begin(g); i < group_end(g); ++i) f(i, std::as_const(options_[g]));
  }

  std::vector<State> state_;  // per parameter

 private:
  Options defaults_;
  std::vector<Options> options_;  // per group
};

// One group of `params` with the optimizer's options.
template <typename Options>
std::vector<ParamGroup<Options>> one_group(std::vector<Tensor> params) {
  std::vector<ParamGroup<Options>> groups(1);
  groups[0].params = std::move(params);
  return groups;
}

}  // namespace mt::optim
