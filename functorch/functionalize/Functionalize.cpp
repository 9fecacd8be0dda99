#include "functorch/functionalize/Functionalize.h"

#include "functorch/functionalize/FunctionalTensorWrapper.h"
#include "functorch/functionalize/FunctionalizeInterpreter.h"

namespace mt::detail {

std::vector<Tensor> functionalize_call(const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& f,
                                       FunctionalizeRemove remove, const std::vector<Tensor>& inputs) {
  using functorch::FunctionalTensorWrapper;
  const int64_t level = functorch::interpreter_stack_depth() + 1;
  auto owned = std::make_unique<functorch::FunctionalizeInterpreter>(level, remove == FunctionalizeRemove::Mutations);
  const functorch::FunctionalizeInterpreter& interpreter = *owned;
  std::vector<Tensor> outputs;
  std::vector<Tensor> mutated_inputs(inputs.size());
  {
    functorch::InterpreterGuard guard(std::move(owned));
    std::vector<Tensor> wrapped;
    for (const Tensor& t : inputs) wrapped.push_back(t.defined() ? interpreter.wrap(t) : t);
    outputs = f(wrapped);
    for (Tensor& out : outputs) {
      if (FunctionalTensorWrapper* w = functorch::functional_at_level(out, level)) {
        w->sync();
        out = w->value();
      }
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      FunctionalTensorWrapper* w = functorch::functional_at_level(wrapped[i], level);
      if (w == nullptr || (w->storage()->generation == 0 && w->sizes() == inputs[i].sizes())) continue;
      w->sync();
      MT_CHECK_NOT_IMPLEMENTED(w->sizes() == inputs[i].sizes(), "functionalize: the function resized its input ", i,
                               " from ", inputs[i].sizes(), " to ", w->sizes(),
                               ", which functionalize does not "
                               "support");
      mutated_inputs[i] = w->value();
    }
  }
  // The input mutations, written back at the level outside.
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (mutated_inputs[i].defined()) inputs[i].copy_(mutated_inputs[i]);
  }
  return outputs;
}

}  // namespace mt::detail
