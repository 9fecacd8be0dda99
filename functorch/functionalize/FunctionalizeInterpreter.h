#pragma once
// The functionalize transform's interpreter: while it processes an op only the Functionalize key is
// live between Front and Back, so the op on functional tensors of its level reaches the Functionalize
// fallback (FunctionalizeFallback.cpp), which removes the mutations and, with remove=mutations_and_views,
// the views. Ops without functional tensors pass to the next transform untouched; the results of
// factories (ops without tensor arguments) become functional tensors of this level.
#include <memory>

#include "functorch/Interpreter.h"
#include "tensor/Tensor.h"

namespace mt::functorch {

class FunctionalizeInterpreter final : public Interpreter {
 public:
  FunctionalizeInterpreter(int64_t level, bool reapply_views)
      : Interpreter(TransformType::Functionalize, level), reapply_views_(reapply_views) {}
  ~FunctionalizeInterpreter() override { *alive_ = false; }

  bool reapply_views() const { return reapply_views_; }
  // A new base functional tensor of this level over `value`.
  Tensor wrap(Tensor value) const;
  // wrap() for every defined tensor (and tensor-list element) among the top `n` values of the stack.
  void wrap_results(Stack* stack, size_t n) const;

  void process(const OperatorHandle& op, Stack* stack) override;
  void send_to_next(const OperatorHandle& op, Stack* stack) override;

 private:
  bool reapply_views_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace mt::functorch
