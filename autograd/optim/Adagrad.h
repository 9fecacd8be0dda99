#pragma once
// mt::optim::Adagrad, following PyTorch's update rule exactly (t counts each parameter's steps):
//   g = grad + weight_decay * p
//   s = s + g^2                                    (s starts at initial_accumulator_value)
//   p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)
#include <cstdint>
#include <vector>

#include "autograd/optim/Optimizer.h"

namespace mt::optim {

struct AdagradOptions {
  double lr = 1e-2;
  double lr_decay = 0;
  double weight_decay = 0;
  double initial_accumulator_value = 0;
  double eps = 1e-10;
};

struct AdagradParamState {
  int64_t step = 0;
  Tensor sum;      // s
  Tensor scratch;  // g with weight decay
  Tensor denom;    // g^2, then the denominator, then the update
};

class Adagrad : public OptimizerWithOptions<AdagradOptions, AdagradParamState> {
 public:
  Adagrad(std::vector<Tensor> params, AdagradOptions options = {});
  Adagrad(std::vector<ParamGroup<AdagradOptions>> groups, AdagradOptions defaults);
  void step() override;

 protected:
  void check_options(const AdagradOptions& options) const override;
  void visit_options(size_t group, StateVisitor& v) override;
  void visit_state(size_t param, StateVisitor& v) override;
};

}  // namespace mt::optim
