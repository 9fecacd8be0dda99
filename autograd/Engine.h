#pragma once
// The engine: runs a backward graph from given roots. One thread; a node runs once every gradient
// for it has arrived (dependency counts), and among ready nodes the latest created runs first.
#include <optional>

#include "autograd/Node.h"

namespace mt::autograd {

struct BackwardOptions {
  bool keep_graph = false;
  bool create_graph = false;
  // Empty: accumulate into the leaves' .grad (backward()). Otherwise: return the gradients arriving at
  // these edges and accumulate nothing (grad()).
  std::vector<Edge> capture;
};

// Gradients for `capture` (undefined where none arrived), or nothing when capture is empty.
variable_list run_backward(const std::vector<Edge>& roots, variable_list root_grads, const BackwardOptions& options);

}  // namespace mt::autograd
