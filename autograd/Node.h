#pragma once
// The backward graph: a Node is the backward of one recorded operation (MulBackward0, ...). It takes
// the gradients of the op's outputs, one per output, and returns the gradients of its inputs, which
// flow along its next edges: Edge{node, input_nr} names input `input_nr` of another node (an op's
// backward, or a leaf's AccumulateGrad). An Edge without a node is an input that needs no gradient.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tensor/Tensor.h"

namespace mt::autograd {

using variable_list = std::vector<Tensor>;

class Node;

struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
  bool is_valid() const { return function != nullptr; }
};

// What an incoming gradient must look like: the forward output's shape, dtype and device.
struct InputMetadata {
  std::vector<int64_t> sizes;
  ScalarType dtype;
  Device device;
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node(std::string name, std::vector<Edge> next_edges);
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Gradients of the inputs from the gradients of the outputs (undefined ones stand for zeros).
  virtual variable_list apply(variable_list&& grads) = 0;
  // Drops what the backward saved; called after it ran unless the graph is retained.
  virtual void release_variables() {}

  const std::string& name() const { return name_; }
  const std::vector<Edge>& next_edges() const { return next_edges_; }
  // Nodes created later run first when several are ready (a topological order for one thread).
  uint64_t sequence_nr() const { return sequence_nr_; }

  uint32_t add_input_metadata(const Tensor& output);
  const std::vector<InputMetadata>& input_metadata() const { return input_metadata_; }

  // Hooks on the gradient of output `output_nr` (tensor.register_hook on a non-leaf): each may
  // return a replacement gradient.
  using GradHook = std::function<Tensor(const Tensor&)>;
  void add_pre_hook(uint32_t output_nr, GradHook hook) { pre_hooks_.push_back({output_nr, std::move(hook)}); }
  void run_pre_hooks(variable_list& grads) const;

 protected:
  void set_sequence_nr(uint64_t nr) { sequence_nr_ = nr; }

 private:
  std::string name_;
  std::vector<Edge> next_edges_;
  std::vector<InputMetadata> input_metadata_;
  std::vector<std::pair<uint32_t, GradHook>> pre_hooks_;
  uint64_t sequence_nr_;
};

// A gradient hook may replace the gradient only with one of the same size, dtype and device (PyTorch's
// "hook has changed the size of value"), which is what the rest of the graph expects.
void check_hook_result(const Tensor& grad, const Tensor& replaced);

}  // namespace mt::autograd
