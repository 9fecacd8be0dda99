#include "autograd/optim/SGD.h"

#include "autograd/GradMode.h"
#include "ops/Factories.h"
#include "ops/api/add.h"
#include "ops/api/empty_like.h"
#include "ops/api/std.h"
#include "tensor/Error.h"

namespace mt::optim {

SGD::SGD(std::vector<Tensor> params, SGDOptions options) : SGD(one_group<SGDOptions>(std::move(params)), options) {}

SGD::SGD(std::vector<ParamGroup<SGDOptions>> groups, SGDOptions defaults) : OptimizerWithOptions(defaults) {
  add_groups(std::move(groups));
}

void SGD::check_options(const SGDOptions& options) const {
  MT_CHECK_VALUE(options.lr >= 0, "Invalid learning rate: ", options.lr);
  MT_CHECK_VALUE(options.momentum >= 0, "Invalid momentum value: ", options.momentum);
  MT_CHECK_VALUE(options.weight_decay >= 0, "Invalid weight_decay value: ", options.weight_decay);
  MT_CHECK_VALUE(!options.nesterov || (options.momentum > 0 && options.dampening == 0),
                 "Nesterov momentum requires a momentum and zero dampening");
}

void SGD::visit_options(size_t group, StateVisitor& v) {
  SGDOptions& o = options(group);
  v.option("lr", o.lr);
  v.option("momentum", o.momentum);
  v.option("dampening", o.dampening);
  v.option("weight_decay", o.weight_decay);
  v.option("nesterov", o.nesterov);
}

void SGD::visit_state(size_t param, StateVisitor& v) { v.buffer("momentum_buffer", state_[param].momentum_buffer); }

// Every update is an in-place op on the parameter or on per-parameter state, so a step allocates
// nothing after the first (which creates the momentum buffers and scratch tensors).
void SGD::step() {
  NoGradGuard no_grad;
  for_each_param([&](size_t i, const SGDOptions& o) {
    Tensor& p = params_[i];
    const Tensor& grad = p.grad();
    if (!grad.defined()) return;
    const Tensor* g = &grad;
    Tensor& scratch = state_[i].scratch;
    if (o.weight_decay != 0) {
      if (!scratch.defined()) scratch = mt::empty_like(p);
      mt::add_out(scratch, grad, p, o.weight_decay);
      g = &scratch;
    }
    if (o.momentum != 0) {
      Tensor& buf = state_[i].momentum_buffer;
      if (!buf.defined()) {
        buf = g->clone();
      } else {
        buf.mul_(o.momentum).add_(*g, 1 - o.dampening);
      }
      if (o.nesterov) {
        if (!scratch.defined()) scratch = mt::empty_like(p);
        mt::add_out(scratch, *g, buf, o.momentum);  // may read and write scratch: elementwise, same index
        g = &scratch;
      } else {
        g = &buf;
      }
    }
    p.add_(*g, -o.lr);
  });
}

}  // namespace mt::optim
