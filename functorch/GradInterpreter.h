#pragma once
// The interpreter of the autograd-based transforms (grad, grad_and_value, vjp, and jvp, jacrev,
// jacfwd, hessian built on them). Processing an op it lifts every tensor argument to its level
// (a tensor from outside becomes an immutable wrapper: a constant here) and enables only the autograd
// keys, so the ordinary Autograd kernels record the op on this level's wrappers. Passing the op on, it
// unwraps its own level, calls the op from the top for the next-outer transform, and wraps the results.
#include <memory>

#include "functorch/Interpreter.h"

namespace mt::functorch {

class GradInterpreter final : public Interpreter {
 public:
  // `prev_grad_mode`: the grad mode outside the transform, which the outer levels keep seeing.
  GradInterpreter(int64_t level, bool prev_grad_mode)
      : Interpreter(TransformType::Grad, level), prev_grad_mode_(prev_grad_mode), alive_(std::make_shared<bool>(true)) {}
  // The level's wrappers act as plain tensors from now on.
  ~GradInterpreter() override { *alive_ = false; }

  // Wraps `t` at this level; `immutable` for tensors captured from outside.
  Tensor wrap(Tensor t, bool immutable) const;

  void process(const OperatorHandle& op, Stack* stack) override;
  void send_to_next(const OperatorHandle& op, Stack* stack) override;

 private:
  bool prev_grad_mode_;
  std::shared_ptr<bool> alive_;
};

}  // namespace mt::functorch
