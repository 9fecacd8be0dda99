#pragma once
// Learning-rate schedules, as torch.optim.lr_scheduler: a scheduler attached to an optimizer sets the
// learning rate of each parameter group at construction (epoch 0) and at each step() (epoch 1, 2, ...), from
// the group's initial learning rate (its base_lr) by the schedule's closed form:
//
//   mt::optim::Adam adam(model->parameters(), {.lr = 1e-3});
//   mt::optim::StepLR schedule(adam, /*step_size=*/30, /*gamma=*/0.1);
//   for (int epoch = 0; epoch < 90; ++epoch) { train(adam); schedule.step(); }
//
// Warmup: SequentialLR(opt, {LinearLR(opt, 0.1, 1, 5), CosineAnnealingLR(opt, 95)}, {5}). OneCycleLR is
// stepped once per batch.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "autograd/optim/Optimizer.h"

namespace mt::optim {

class LRScheduler {
 public:
  explicit LRScheduler(Optimizer& optimizer);
  virtual ~LRScheduler() = default;
  LRScheduler(const LRScheduler&) = delete;
  LRScheduler& operator=(const LRScheduler&) = delete;

  // Moves to the next epoch and sets each group's learning rate for it.
  virtual void step();
  // The learning rates the last step set, one per parameter group (PyTorch's get_last_lr()).
  const std::vector<double>& get_last_lr() const { return last_lrs_; }
  int64_t last_epoch() const { return last_epoch_; }
  // The groups' initial learning rates (PyTorch's base_lrs).
  const std::vector<double>& base_lrs() const { return base_lrs_; }
  const Optimizer& optimizer() const { return optimizer_; }

  // The schedule: the learning rate at `epoch` of a group whose initial rate is base_lr.
  virtual double lr_at(int64_t epoch, double base_lr) const = 0;

  // "last_epoch" (0-dim), "base_lrs" and "last_lr" (a float64 value per group): every schedule here is a
  // closed form in the epoch, so these are all a resumed one needs. Loading sets the scheduler, not the
  // optimizer's rates (which the optimizer's own state dict restores), as PyTorch.
  nn::OrderedDict<Tensor> state_dict() const;
  void load_state_dict(const nn::OrderedDict<Tensor>& dict);

 protected:
  // Epoch 0: what PyTorch's constructor does (its _initial_step). Subclasses call it last in theirs.
  void initial_step();
  Optimizer& optimizer_;
  std::vector<double> base_lrs_;

 private:
  int64_t last_epoch_ = -1;
  std::vector<double> last_lrs_;
};

// base_lr * gamma^(epoch / step_size), the division rounding down.
class StepLR : public LRScheduler {
 public:
  StepLR(Optimizer& optimizer, int64_t step_size, double gamma = 0.1);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  int64_t step_size_;
  double gamma_;
};

// base_lr * gamma^(number of milestones <= epoch); milestones increasing.
class MultiStepLR : public LRScheduler {
 public:
  MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma = 0.1);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  std::vector<int64_t> milestones_;
  double gamma_;
};

// base_lr * gamma^epoch.
class ExponentialLR : public LRScheduler {
 public:
  ExponentialLR(Optimizer& optimizer, double gamma);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  double gamma_;
};

// eta_min + (base_lr - eta_min) (1 + cos(pi epoch / T_max)) / 2.
class CosineAnnealingLR : public LRScheduler {
 public:
  CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min = 0);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  int64_t T_max_;
  double eta_min_;
};

// base_lr * lr_lambda(epoch).
class LambdaLR : public LRScheduler {
 public:
  LambdaLR(Optimizer& optimizer, std::function<double(int64_t)> lr_lambda);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  std::function<double(int64_t)> lr_lambda_;
};

// base_lr times a factor going linearly from start_factor to end_factor over total_iters epochs, then
// end_factor (a warmup, in a SequentialLR).
class LinearLR : public LRScheduler {
 public:
  LinearLR(Optimizer& optimizer, double start_factor = 1.0 / 3, double end_factor = 1, int64_t total_iters = 5);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  double start_factor_, end_factor_;
  int64_t total_iters_;
};

// The schedulers in turn: schedulers[i] takes over at milestones[i - 1], from its own epoch 0. They must be
// attached to `optimizer`; the sequence owns them and steps in their place.
class SequentialLR : public LRScheduler {
 public:
  SequentialLR(Optimizer& optimizer, std::vector<std::unique_ptr<LRScheduler>> schedulers,
               std::vector<int64_t> milestones);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  std::vector<std::unique_ptr<LRScheduler>> schedulers_;
  std::vector<int64_t> milestones_;
};

// PyTorch's OneCycleLR (Smith & Topin's 1cycle): the learning rate rises from max_lr / div_factor to max_lr
// over the first pct_start of total_steps, then anneals to max_lr / div_factor / final_div_factor, by
// cosine or linearly; three_phase comes back to the initial rate first and anneals in a third phase. With
// cycle_momentum, the optimizer's momentum (Optimizer::momentum) moves the other way between max_momentum and
// base_momentum. Every parameter group follows the one max_lr: it sets each group's initial_lr to
// max_lr / div_factor, whatever lr the group had.
struct OneCycleLROptions {
  int64_t total_steps = 0;  // or epochs * steps_per_epoch
  int64_t epochs = 0, steps_per_epoch = 0;
  double pct_start = 0.3;
  std::string anneal_strategy = "cos";  // or "linear"
  bool cycle_momentum = true;
  double base_momentum = 0.85, max_momentum = 0.95;
  double div_factor = 25, final_div_factor = 1e4;
  bool three_phase = false;
};

class OneCycleLR : public LRScheduler {
 public:
  OneCycleLR(Optimizer& optimizer, double max_lr, OneCycleLROptions options = {});
  // Also sets the momentum; stepping past total_steps is an error.
  void step() override;
  double lr_at(int64_t step, double base_lr) const override;
  double momentum_at(int64_t step) const;
  int64_t total_steps() const { return total_steps_; }

 private:
  struct Phase {
    double end_step, start_lr, end_lr, start_momentum, end_momentum;
  };
  // The phase `step` falls in and how far into it, as PyTorch's get_lr finds them.
  std::pair<const Phase*, double> phase_at(int64_t step) const;
  double anneal(double start, double end, double pct) const;

  OneCycleLROptions options_;
  int64_t total_steps_;
  std::vector<Phase> phases_;
};

}  // namespace mt::optim
