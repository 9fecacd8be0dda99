#include "autograd/optim/Adam.h"

#include <cmath>

#include "autograd/GradMode.h"
#include "ops/Factories.h"
#include "ops/api/add.h"
#include "ops/api/div.h"
#include "ops/api/empty_like.h"
#include "ops/api/maximum.h"
#include "ops/api/mul.h"
#include "ops/api/sqrt.h"
#include "ops/api/zeros_like.h"
#include "tensor/Error.h"

namespace mt::optim {

namespace {

AdamOptions adam_options(const AdamWOptions& o) { return {o.lr, o.betas, o.eps, o.weight_decay, o.amsgrad}; }

}  // namespace

Adam::Adam(std::vector<Tensor> params, AdamOptions options) : Adam(one_group<AdamOptions>(std::move(params)), options) {}

Adam::Adam(std::vector<ParamGroup<AdamOptions>> groups, AdamOptions defaults) : Adam(defaults, false) {
  add_groups(std::move(groups));
}

Adam::Adam(AdamOptions defaults, bool decoupled_weight_decay)
    : OptimizerWithOptions(defaults), decoupled_weight_decay_(decoupled_weight_decay) {}

void Adam::check_options(const AdamOptions& options) const {
  MT_CHECK_VALUE(options.lr >= 0, "Invalid learning rate: ", options.lr);
  MT_CHECK_VALUE(options.eps >= 0, "Invalid epsilon value: ", options.eps);
  MT_CHECK_VALUE(options.betas.first >= 0 && options.betas.first < 1,
                 "Invalid beta parameter at index 0: ", options.betas.first);
  MT_CHECK_VALUE(options.betas.second >= 0 && options.betas.second < 1,
                 "Invalid beta parameter at index 1: ", options.betas.second);
  MT_CHECK_VALUE(options.weight_decay >= 0, "Invalid weight_decay value: ", options.weight_decay);
}

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions options)
    : AdamW(one_group<AdamWOptions>(std::move(params)), options) {}

AdamW::AdamW(std::vector<ParamGroup<AdamWOptions>> groups, AdamWOptions defaults)
    : Adam(adam_options(defaults), true) {
  std::vector<ParamGroup<AdamOptions>> adam_groups;
  for (ParamGroup<AdamWOptions>& g : groups) {
    adam_groups.push_back({std::move(g.params), std::nullopt});
    if (g.options) adam_groups.back().options = adam_options(*g.options);
  }
  add_groups(std::move(adam_groups));
}

void Adam::visit_options(size_t group, StateVisitor& v) {
  AdamOptions& o = options(group);
  v.option("lr", o.lr);
  v.option("betas.0", o.betas.first);
  v.option("betas.1", o.betas.second);
  v.option("eps", o.eps);
  v.option("weight_decay", o.weight_decay);
  v.option("amsgrad", o.amsgrad);
}

void Adam::visit_state(size_t param, StateVisitor& v) {
  AdamParamState& s = state_[param];
  v.count("step", s.step);
  v.buffer("exp_avg", s.exp_avg);
  v.buffer("exp_avg_sq", s.exp_avg_sq);
  v.buffer("max_exp_avg_sq", s.max_exp_avg_sq);
}

// All in place on the parameter and its state; the first step allocates the state (or what a loaded state
// dict left out), later ones nothing.
// PyTorch's addcmul_/addcdiv_ are composed from an _out op into the scratch tensor and add_.
void Adam::step() {
  NoGradGuard no_grad;
  for_each_param([&](size_t i, const AdamOptions& o) {
    const auto [beta1, beta2] = o.betas;
    Tensor& p = params_[i];
    const Tensor& grad = p.grad();
    if (!grad.defined()) return;
    AdamParamState& s = state_[i];
    if (!s.scratch.defined()) {
      if (!s.exp_avg.defined()) s.exp_avg = mt::zeros_like(p);
      if (!s.exp_avg_sq.defined()) s.exp_avg_sq = mt::zeros_like(p);
      s.scratch = mt::empty_like(p);
    }
    if (o.amsgrad && !s.max_exp_avg_sq.defined()) s.max_exp_avg_sq = mt::zeros_like(p);
    ++s.step;

    const Tensor* g = &grad;
    if (o.weight_decay != 0) {
      if (decoupled_weight_decay_) {
        p.mul_(1 - o.lr * o.weight_decay);
      } else {
        mt::add_out(s.scratch, grad, p, o.weight_decay);
        g = &s.scratch;
      }
    }
    s.exp_avg.mul_(beta1).add_(*g, 1 - beta1);
    mt::mul_out(s.scratch, *g, *g);  // g may be the scratch itself: elementwise, same index
    s.exp_avg_sq.mul_(beta2).add_(s.scratch, 1 - beta2);

    const Tensor* v = &s.exp_avg_sq;
    if (o.amsgrad) {
      mt::maximum_out(s.max_exp_avg_sq, s.max_exp_avg_sq, s.exp_avg_sq);
      v = &s.max_exp_avg_sq;
    }
    const double bias_correction1 = 1 - std::pow(beta1, static_cast<double>(s.step));
    const double bias_correction2 = 1 - std::pow(beta2, static_cast<double>(s.step));
    mt::sqrt_out(s.scratch, *v);
    s.scratch.div_(std::sqrt(bias_correction2)).add_(o.eps);  // the denominator
    mt::div_out(s.scratch, s.exp_avg, s.scratch);
    p.add_(s.scratch, -o.lr / bias_correction1);
  });
}

}  // namespace mt::optim
