#include "autograd/Node.h"

#include <atomic>

#include "tensor/Error.h"

namespace mt::autograd {

namespace {
std::atomic<uint64_t> next_sequence_nr{0};
}  // namespace

Node::Node(std::string name, std::vector<Edge> next_edges)
    : name_(std::move(name)),
      next_edges_(std::move(next_edges)),
      sequence_nr_(next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}

uint32_t Node::add_input_metadata(const Tensor& output) {
  input_metadata_.push_back({output.sizes().vec(), output.dtype(), output.device()});
  return static_cast<uint32_t>(input_metadata_.size() - 1);
}

void Node::run_pre_hooks(variable_list& grads) const {
  for (const auto& [output_nr, hook] : pre_hooks_) {
    if (!grads[output_nr].defined()) continue;
    Tensor replaced = hook(grads[output_nr]);
    if (!replaced.defined()) continue;
    check_hook_result(grads[output_nr], replaced);
    grads[output_nr] = std::move(replaced);
  }
}

void check_hook_result(const Tensor& grad, const Tensor& replaced) {
  MT_CHECK(replaced.sizes() == grad.sizes(), "hook has changed the size of value (was ", grad.sizes(), " got ",
           replaced.sizes(), ")");
  MT_CHECK(replaced.dtype() == grad.dtype(), "hook has changed the type of value (was ", grad.dtype(), " got ",
           replaced.dtype(), ")");
  MT_CHECK(replaced.device() == grad.device(), "hook has changed the device of value (was ", grad.device(), " got ",
           replaced.device(), ")");
}

}  // namespace mt::autograd
