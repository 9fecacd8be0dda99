#include "autograd/optim/Optimizer.h"

#include "autograd/nn/Module.h"
#include "tensor/Error.h"

namespace mt::optim {

Optimizer::Optimizer(std::vector<Tensor> params) : params_(std::move(params)) {
  MT_CHECK_VALUE(!params_.empty(), "optimizer got an empty parameter list");
  for (const Tensor& p : params_) {
    MT_CHECK_VALUE(p.defined(), "optimizer got an undefined tensor as a parameter");
    MT_CHECK_VALUE(p.is_leaf(), "can't optimize a non-leaf Tensor");
  }
}

void Optimizer::zero_grad(bool set_to_none) {
  for (const Tensor& p : params_) nn::clear_grad(p, set_to_none);
}

}  // namespace mt::optim
