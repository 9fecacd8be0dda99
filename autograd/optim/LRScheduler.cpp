#include "autograd/optim/LRScheduler.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "ops/Factories.h"
#include "tensor/Error.h"

namespace mt::optim {

LRScheduler::LRScheduler(Optimizer& optimizer) : optimizer_(optimizer) {
  for (size_t g = 0; g < optimizer_.num_param_groups(); ++g) {
    std::optional<double>& initial = optimizer_.initial_lr(g);
    if (!initial) initial = optimizer_.lr(g);
    base_lrs_.push_back(*initial);
  }
}

namespace {

Tensor per_group(const std::vector<double>& values) {
  return mt::tensor(values, {static_cast<int64_t>(values.size())}, TensorOptions(kFloat64));
}

std::vector<double> from_per_group(const Tensor& t) {
  const Tensor c = t.to(kFloat64).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

}  // namespace

nn::OrderedDict<Tensor> LRScheduler::state_dict() const {
  nn::OrderedDict<Tensor> dict;
  dict.insert("last_epoch", mt::tensor(last_epoch_, TensorOptions(kInt64)));
  dict.insert("base_lrs", per_group(base_lrs_));
  dict.insert("last_lr", per_group(last_lrs_));
  return dict;
}

void LRScheduler::load_state_dict(const nn::OrderedDict<Tensor>& dict) {
  const int64_t groups = static_cast<int64_t>(base_lrs_.size());
  const Tensor* epoch = dict.find("last_epoch");
  MT_CHECK_VALUE(epoch && epoch->numel() == 1, "LRScheduler.load_state_dict: expected one value at key 'last_epoch'");
  for (const char* key : {"base_lrs", "last_lr"}) {
    const Tensor* t = dict.find(key);
    MT_CHECK_VALUE(t && t->dim() == 1 && t->numel() == groups, "LRScheduler.load_state_dict: expected a value per "
                   "parameter group (", groups, ") at key '", key, "'");
  }
  MT_CHECK_VALUE(dict.size() == 3, "LRScheduler.load_state_dict: expected the keys last_epoch, base_lrs and last_lr, "
                 "but got ", dict.size(), " keys");
  last_epoch_ = epoch->item<int64_t>();
  base_lrs_ = from_per_group(dict["base_lrs"]);
  last_lrs_ = from_per_group(dict["last_lr"]);
}

void LRScheduler::initial_step() {
  last_epoch_ = -1;
  step();
}

void LRScheduler::step() {
  ++last_epoch_;
  last_lrs_.clear();
  for (size_t g = 0; g < base_lrs_.size(); ++g) {
    last_lrs_.push_back(lr_at(last_epoch_, base_lrs_[g]));
    optimizer_.set_lr(g, last_lrs_.back());
  }
}

StepLR::StepLR(Optimizer& optimizer, int64_t step_size, double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
  MT_CHECK_VALUE(step_size_ > 0, "StepLR: step_size must be positive, but got ", step_size_);
  initial_step();
}

double StepLR::lr_at(int64_t epoch, double base_lr) const {
  return base_lr * std::pow(gamma_, static_cast<double>(epoch / step_size_));
}

MultiStepLR::MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma)
    : LRScheduler(optimizer), milestones_(std::move(milestones)), gamma_(gamma) {
  MT_CHECK_VALUE(std::is_sorted(milestones_.begin(), milestones_.end()), "MultiStepLR: milestones must be increasing");
  initial_step();
}

double MultiStepLR::lr_at(int64_t epoch, double base_lr) const {
  const auto passed = std::upper_bound(milestones_.begin(), milestones_.end(), epoch) - milestones_.begin();
  return base_lr * std::pow(gamma_, static_cast<double>(passed));
}

ExponentialLR::ExponentialLR(Optimizer& optimizer, double gamma) : LRScheduler(optimizer), gamma_(gamma) {
  initial_step();
}

double ExponentialLR::lr_at(int64_t epoch, double base_lr) const {
  return base_lr * std::pow(gamma_, static_cast<double>(epoch));
}

CosineAnnealingLR::CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min)
    : LRScheduler(optimizer), T_max_(T_max), eta_min_(eta_min) {
  MT_CHECK_VALUE(T_max_ > 0, "CosineAnnealingLR: T_max must be positive, but got ", T_max_);
  initial_step();
}

double CosineAnnealingLR::lr_at(int64_t epoch, double base_lr) const {
  const double phase = std::numbers::pi * static_cast<double>(epoch) / static_cast<double>(T_max_);
  return eta_min_ + (base_lr - eta_min_) * (1 + std::cos(phase)) / 2;
}

LambdaLR::LambdaLR(Optimizer& optimizer, std::function<double(int64_t)> lr_lambda)
    : LRScheduler(optimizer), lr_lambda_(std::move(lr_lambda)) {
  MT_CHECK_VALUE(static_cast<bool>(lr_lambda_), "LambdaLR: lr_lambda is empty");
  initial_step();
}

double LambdaLR::lr_at(int64_t epoch, double base_lr) const { return base_lr * lr_lambda_(epoch); }

LinearLR::LinearLR(Optimizer& optimizer, double start_factor, double end_factor, int64_t total_iters)
    : LRScheduler(optimizer), start_factor_(start_factor), end_factor_(end_factor), total_iters_(total_iters) {
  MT_CHECK_VALUE(start_factor_ > 0 && start_factor_ <= 1,
                 "Starting multiplicative factor expected to be greater than 0 and less or equal to 1.");
  MT_CHECK_VALUE(end_factor_ >= 0 && end_factor_ <= 1, "Ending multiplicative factor expected to be between 0 and 1.");
  MT_CHECK_VALUE(total_iters_ > 0, "LinearLR: total_iters must be positive, but got ", total_iters_);
  initial_step();
}

double LinearLR::lr_at(int64_t epoch, double base_lr) const {
  const double progress = static_cast<double>(std::min(epoch, total_iters_)) / static_cast<double>(total_iters_);
  return base_lr * (start_factor_ + (end_factor_ - start_factor_) * progress);
}

SequentialLR::SequentialLR(Optimizer& optimizer, std::vector<std::unique_ptr<LRScheduler>> schedulers,
                           std::vector<int64_t> milestones)
    : LRScheduler(optimizer), schedulers_(std::move(schedulers)), milestones_(std::move(milestones)) {
  MT_CHECK_VALUE(!schedulers_.empty(), "SequentialLR expects at least one scheduler");
  MT_CHECK_VALUE(schedulers_.size() == milestones_.size() + 1,
                 "Sequential Schedulers expects number of schedulers provided to be one more than the number of "
                 "milestone points, but got number of schedulers ", schedulers_.size(),
                 " and the number of milestones to be equal to ", milestones_.size());
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    MT_CHECK_VALUE(schedulers_[i] && &schedulers_[i]->optimizer() == &optimizer,
                   "Sequential Schedulers expects all schedulers to belong to the same optimizer, but got schedulers "
                   "at index ", i, " to be different than the optimizer passed in.");
  }
  MT_CHECK_VALUE(std::is_sorted(milestones_.begin(), milestones_.end()), "SequentialLR: milestones must be increasing");
  initial_step();
}

double SequentialLR::lr_at(int64_t epoch, double base_lr) const {
  const auto i = static_cast<size_t>(std::upper_bound(milestones_.begin(), milestones_.end(), epoch) - milestones_.begin());
  return schedulers_[i]->lr_at(epoch - (i == 0 ? 0 : milestones_[i - 1]), base_lr);
}

OneCycleLR::OneCycleLR(Optimizer& optimizer, double max_lr, OneCycleLROptions options)
    : LRScheduler(optimizer), options_(std::move(options)) {
  const OneCycleLROptions& o = options_;
  if (o.total_steps != 0) {
    MT_CHECK_VALUE(o.total_steps > 0, "Expected positive integer total_steps, but got ", o.total_steps);
    total_steps_ = o.total_steps;
  } else {
    MT_CHECK_VALUE(o.epochs != 0 || o.steps_per_epoch != 0,
                   "You must define either total_steps OR (epochs AND steps_per_epoch)");
    MT_CHECK_VALUE(o.epochs > 0, "Expected positive integer epochs, but got ", o.epochs);
    MT_CHECK_VALUE(o.steps_per_epoch > 0, "Expected positive integer steps_per_epoch, but got ", o.steps_per_epoch);
    total_steps_ = o.epochs * o.steps_per_epoch;
  }
  MT_CHECK_VALUE(o.pct_start >= 0 && o.pct_start <= 1, "Expected float between 0 and 1 pct_start, but got ",
                 o.pct_start);
  MT_CHECK_VALUE(o.anneal_strategy == "cos" || o.anneal_strategy == "linear",
                 "anneal_strategy must be one of 'cos' or 'linear', instead got ", o.anneal_strategy);
  MT_CHECK_VALUE(!o.cycle_momentum || optimizer.momentum(),
                 "optimizer must support momentum or beta1 with `cycle_momentum` option enabled");
  const double initial_lr = max_lr / o.div_factor, min_lr = initial_lr / o.final_div_factor;
  const double warm_end = o.pct_start * static_cast<double>(total_steps_) - 1, last = total_steps_ - 1.0;
  const double lo = o.base_momentum, hi = o.max_momentum;
  if (o.three_phase)
    phases_ = {{warm_end, initial_lr, max_lr, hi, lo},
               {2 * o.pct_start * static_cast<double>(total_steps_) - 2, max_lr, initial_lr, lo, hi},
               {last, initial_lr, min_lr, hi, hi}};
  else
    phases_ = {{warm_end, initial_lr, max_lr, hi, lo}, {last, max_lr, min_lr, lo, hi}};
  double start = 0;
  for (const Phase& p : phases_) {
    // PyTorch divides by zero there (a ZeroDivisionError at construction).
    MT_CHECK_VALUE(p.end_step != start, "OneCycleLR: a phase of the schedule ends at step ", p.end_step,
                   " where it starts; change pct_start or total_steps");
    start = p.end_step;
  }
  for (size_t g = 0; g < optimizer_.num_param_groups(); ++g) {
    optimizer_.initial_lr(g) = base_lrs_[g] = initial_lr;
    if (o.cycle_momentum) optimizer_.set_momentum(g, hi);
  }
  initial_step();
}

std::pair<const OneCycleLR::Phase*, double> OneCycleLR::phase_at(int64_t step) const {
  double start = 0;
  for (size_t i = 0; i < phases_.size(); ++i) {
    const Phase& p = phases_[i];
    if (static_cast<double>(step) <= p.end_step || i + 1 == phases_.size())
      return {&p, (static_cast<double>(step) - start) / (p.end_step - start)};
    start = p.end_step;
  }
  return {nullptr, 0};  // unreachable: the last phase takes every step
}

double OneCycleLR::anneal(double start, double end, double pct) const {
  if (options_.anneal_strategy == "linear") return (end - start) * pct + start;
  return end + (start - end) / 2 * (std::cos(std::numbers::pi * pct) + 1);
}

double OneCycleLR::lr_at(int64_t step, double /*base_lr: the schedule is max_lr's*/) const {
  const auto [phase, pct] = phase_at(step);
  return anneal(phase->start_lr, phase->end_lr, pct);
}

double OneCycleLR::momentum_at(int64_t step) const {
  const auto [phase, pct] = phase_at(step);
  return anneal(phase->start_momentum, phase->end_momentum, pct);
}

void OneCycleLR::step() {
  const int64_t next = last_epoch() + 1;
  MT_CHECK_VALUE(next <= total_steps_, "Tried to step ", next, " times. The specified number of total steps is ",
                 total_steps_);
  LRScheduler::step();
  if (options_.cycle_momentum)
    for (size_t g = 0; g < optimizer_.num_param_groups(); ++g) optimizer_.set_momentum(g, momentum_at(next));
}

}  // namespace mt::optim
