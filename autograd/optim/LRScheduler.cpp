#include "autograd/optim/LRScheduler.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "tensor/Error.h"

namespace mt::optim {

LRScheduler::LRScheduler(Optimizer& optimizer) : optimizer_(optimizer) {
  if (!optimizer_.initial_lr) optimizer_.initial_lr = optimizer_.lr();
  base_lr_ = *optimizer_.initial_lr;
}

void LRScheduler::initial_step() {
  last_epoch_ = -1;
  step();
}

void LRScheduler::step() {
  ++last_epoch_;
  last_lr_ = lr_at(last_epoch_);
  optimizer_.set_lr(last_lr_);
}

StepLR::StepLR(Optimizer& optimizer, int64_t step_size, double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
  MT_CHECK_VALUE(step_size_ > 0, "StepLR: step_size must be positive, but got ", step_size_);
  initial_step();
}

double StepLR::lr_at(int64_t epoch) const {
  return base_lr() * std::pow(gamma_, static_cast<double>(epoch / step_size_));
}

MultiStepLR::MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma)
    : LRScheduler(optimizer), milestones_(std::move(milestones)), gamma_(gamma) {
  MT_CHECK_VALUE(std::is_sorted(milestones_.begin(), milestones_.end()), "MultiStepLR: milestones must be increasing");
  initial_step();
}

double MultiStepLR::lr_at(int64_t epoch) const {
  const auto passed = std::upper_bound(milestones_.begin(), milestones_.end(), epoch) - milestones_.begin();
  return base_lr() * std::pow(gamma_, static_cast<double>(passed));
}

ExponentialLR::ExponentialLR(Optimizer& optimizer, double gamma) : LRScheduler(optimizer), gamma_(gamma) {
  initial_step();
}

double ExponentialLR::lr_at(int64_t epoch) const { return base_lr() * std::pow(gamma_, static_cast<double>(epoch)); }

CosineAnnealingLR::CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min)
    : LRScheduler(optimizer), T_max_(T_max), eta_min_(eta_min) {
  MT_CHECK_VALUE(T_max_ > 0, "CosineAnnealingLR: T_max must be positive, but got ", T_max_);
  initial_step();
}

double CosineAnnealingLR::lr_at(int64_t epoch) const {
  const double phase = std::numbers::pi * static_cast<double>(epoch) / static_cast<double>(T_max_);
  return eta_min_ + (base_lr() - eta_min_) * (1 + std::cos(phase)) / 2;
}

LambdaLR::LambdaLR(Optimizer& optimizer, std::function<double(int64_t)> lr_lambda)
    : LRScheduler(optimizer), lr_lambda_(std::move(lr_lambda)) {
  MT_CHECK_VALUE(static_cast<bool>(lr_lambda_), "LambdaLR: lr_lambda is empty");
  initial_step();
}

double LambdaLR::lr_at(int64_t epoch) const { return base_lr() * lr_lambda_(epoch); }

LinearLR::LinearLR(Optimizer& optimizer, double start_factor, double end_factor, int64_t total_iters)
    : LRScheduler(optimizer), start_factor_(start_factor), end_factor_(end_factor), total_iters_(total_iters) {
  MT_CHECK_VALUE(start_factor_ > 0 && start_factor_ <= 1,
                 "Starting multiplicative factor expected to be greater than 0 and less or equal to 1.");
  MT_CHECK_VALUE(end_factor_ >= 0 && end_factor_ <= 1, "Ending multiplicative factor expected to be between 0 and 1.");
  MT_CHECK_VALUE(total_iters_ > 0, "LinearLR: total_iters must be positive, but got ", total_iters_);
  initial_step();
}

double LinearLR::lr_at(int64_t epoch) const {
  const double progress = static_cast<double>(std::min(epoch, total_iters_)) / static_cast<double>(total_iters_);
  return base_lr() * (start_factor_ + (end_factor_ - start_factor_) * progress);
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

double SequentialLR::lr_at(int64_t epoch) const {
  const auto i = static_cast<size_t>(std::upper_bound(milestones_.begin(), milestones_.end(), epoch) - milestones_.begin());
  return schedulers_[i]->lr_at(epoch - (i == 0 ? 0 : milestones_[i - 1]));
}

}  // namespace mt::optim
