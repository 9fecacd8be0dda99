#include "autograd/optim/Adagrad.h"

#include "autograd/GradMode.h"
#include "ops/Factories.h"
#include "ops/api/add.h"
#include "ops/api/div.h"
#include "ops/api/mul.h"
#include "ops/api/sqrt.h"
#include "tensor/Error.h"

namespace mt::optim {

Adagrad::Adagrad(std::vector<Tensor> params, AdagradOptions options)
    : Adagrad(one_group<AdagradOptions>(std::move(params)), options) {}

Adagrad::Adagrad(std::vector<ParamGroup<AdagradOptions>> groups, AdagradOptions defaults)
    : OptimizerWithOptions(defaults) {
  add_groups(std::move(groups));
}

void Adagrad::check_options(const AdagradOptions& options) const {
  MT_CHECK_VALUE(options.lr >= 0, "Invalid learning rate: ", options.lr);
  MT_CHECK_VALUE(options.lr_decay >= 0, "Invalid lr_decay value: ", options.lr_decay);
  MT_CHECK_VALUE(options.weight_decay >= 0, "Invalid weight_decay value: ", options.weight_decay);
  MT_CHECK_VALUE(options.initial_accumulator_value >= 0, "Invalid initial_accumulator_value value: ",
                 options.initial_accumulator_value);
  MT_CHECK_VALUE(options.eps >= 0, "Invalid epsilon value: ", options.eps);
}

void Adagrad::visit_options(size_t group, StateVisitor& v) {
  AdagradOptions& o = options(group);
  v.option("lr", o.lr);
  v.option("lr_decay", o.lr_decay);
  v.option("weight_decay", o.weight_decay);
  v.option("initial_accumulator_value", o.initial_accumulator_value);
  v.option("eps", o.eps);
}

void Adagrad::visit_state(size_t param, StateVisitor& v) {
  AdagradParamState& s = state_[param];
  v.count("step", s.step);
  v.buffer("sum", s.sum);
}

// All in place on the parameter and its state; the first step allocates the state (or what a loaded state
// dict left out), later ones nothing.
void Adagrad::step() {
  NoGradGuard no_grad;
  for_each_param([&](size_t i, const AdagradOptions& o) {
    Tensor& p = params_[i];
    const Tensor& grad = p.grad();
    if (!grad.defined()) return;
    AdagradParamState& s = state_[i];
    if (!s.denom.defined()) {
      if (!s.sum.defined()) s.sum = mt::full_like(p, o.initial_accumulator_value);
      s.scratch = mt::empty_like(p);
      s.denom = mt::empty_like(p);
    }
    ++s.step;
    const Tensor* g = &grad;
    if (o.weight_decay != 0) {
      mt::add_out(s.scratch, grad, p, o.weight_decay);
      g = &s.scratch;
    }
    const double clr = o.lr / (1 + static_cast<double>(s.step - 1) * o.lr_decay);
    mt::mul_out(s.denom, *g, *g);
    s.sum.add_(s.denom);
    mt::sqrt_out(s.denom, s.sum);
    s.denom.add_(o.eps);
    mt::div_out(s.denom, *g, s.denom);
    p.add_(s.denom, -clr);
  });
}

}  // namespace mt::optim
