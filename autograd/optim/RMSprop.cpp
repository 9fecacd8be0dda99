#include "autograd/optim/RMSprop.h"

#include "autograd/GradMode.h"
#include "ops/Factories.h"
#include "ops/api/add.h"
#include "ops/api/div.h"
#include "ops/api/mul.h"
#include "ops/api/sqrt.h"
#include "ops/api/sub.h"
#include "tensor/Error.h"

namespace mt::optim {

RMSprop::RMSprop(std::vector<Tensor> params, RMSpropOptions options)
    : RMSprop(one_group<RMSpropOptions>(std::move(params)), options) {}

RMSprop::RMSprop(std::vector<ParamGroup<RMSpropOptions>> groups, RMSpropOptions defaults)
    : OptimizerWithOptions(defaults) {
  add_groups(std::move(groups));
}

void RMSprop::check_options(const RMSpropOptions& options) const {
  MT_CHECK_VALUE(options.lr >= 0, "Invalid learning rate: ", options.lr);
  MT_CHECK_VALUE(options.eps >= 0, "Invalid epsilon value: ", options.eps);
  MT_CHECK_VALUE(options.momentum >= 0, "Invalid momentum value: ", options.momentum);
  MT_CHECK_VALUE(options.weight_decay >= 0, "Invalid weight_decay value: ", options.weight_decay);
  MT_CHECK_VALUE(options.alpha >= 0, "Invalid alpha value: ", options.alpha);
}

void RMSprop::visit_options(size_t group, StateVisitor& v) {
  RMSpropOptions& o = options(group);
  v.option("lr", o.lr);
  v.option("alpha", o.alpha);
  v.option("eps", o.eps);
  v.option("weight_decay", o.weight_decay);
  v.option("momentum", o.momentum);
  v.option("centered", o.centered);
}

void RMSprop::visit_state(size_t param, StateVisitor& v) {
  RMSpropParamState& s = state_[param];
  v.buffer("square_avg", s.square_avg);
  v.buffer("grad_avg", s.grad_avg);
  v.buffer("momentum_buffer", s.momentum_buffer);
}

// All in place on the parameter and its state; the first step allocates the state (or what a loaded state
// dict left out), later ones nothing.
void RMSprop::step() {
  NoGradGuard no_grad;
  for_each_param([&](size_t i, const RMSpropOptions& o) {
    Tensor& p = params_[i];
    const Tensor& grad = p.grad();
    if (!grad.defined()) return;
    RMSpropParamState& s = state_[i];
    if (!s.denom.defined()) {
      if (!s.square_avg.defined()) s.square_avg = mt::zeros_like(p);
      s.scratch = mt::empty_like(p);
      s.denom = mt::empty_like(p);
    }
    if (o.centered && !s.grad_avg.defined()) s.grad_avg = mt::zeros_like(p);
    if (o.momentum > 0 && !s.momentum_buffer.defined()) s.momentum_buffer = mt::zeros_like(p);
    const Tensor* g = &grad;
    if (o.weight_decay != 0) {
      mt::add_out(s.scratch, grad, p, o.weight_decay);
      g = &s.scratch;
    }
    mt::mul_out(s.denom, *g, *g);
    s.square_avg.mul_(o.alpha).add_(s.denom, 1 - o.alpha);
    if (o.centered) {
      s.grad_avg.mul_(o.alpha).add_(*g, 1 - o.alpha);
      mt::mul_out(s.denom, s.grad_avg, s.grad_avg);
      mt::sub_out(s.denom, s.square_avg, s.denom);
      mt::sqrt_out(s.denom, s.denom);
    } else {
      mt::sqrt_out(s.denom, s.square_avg);
    }
    s.denom.add_(o.eps);
    mt::div_out(s.denom, *g, s.denom);
    if (o.momentum > 0) {
      s.momentum_buffer.mul_(o.momentum).add_(s.denom);
      p.add_(s.momentum_buffer, -o.lr);
    } else {
      p.add_(s.denom, -o.lr);
    }
  });
}

}  // namespace mt::optim
