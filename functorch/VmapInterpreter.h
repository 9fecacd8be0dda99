#pragma once
// The vmap transform's interpreter: while it processes an op only FuncTorchBatched is live between
// Front and Back, so tensors batched at its level reach their batching rules (functorch/batching/) or
// the loop fallback (BatchedFallback.cpp).
#include "functorch/Interpreter.h"
#include "functorch/Vmap.h"

namespace mt::functorch {

class VmapInterpreter final : public Interpreter {
 public:
  VmapInterpreter(int64_t level, int64_t batch_size, Randomness randomness)
      : Interpreter(TransformType::Vmap, level), batch_size_(batch_size), randomness_(randomness) {}

  int64_t batch_size() const { return batch_size_; }
  Randomness randomness() const { return randomness_; }

  void process(const OperatorHandle& op, Stack* stack) override;
  void send_to_next(const OperatorHandle& op, Stack* stack) override;

 private:
  int64_t batch_size_;
  Randomness randomness_;
};

// The vmap level a batching rule runs at: the innermost interpreter, which must be a vmap. Raises a
// clear error when a batched tensor is used after its vmap returned.
VmapInterpreter& current_vmap_interpreter();

}  // namespace mt::functorch
