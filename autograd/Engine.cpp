#include "autograd/Engine.h"

#include <algorithm>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "autograd/AccumulateGrad.h"
#include "autograd/GradMode.h"
#include "ops/TensorOperators.h"

namespace mt::autograd {

namespace {

// The node the engine starts from: hands the root gradients to the roots.
class GraphRoot final : public Node {
 public:
  GraphRoot(std::vector<Edge> roots, variable_list grads) : Node("GraphRoot", std::move(roots)), grads_(std::move(grads)) {}
  variable_list apply(variable_list&&) override { return std::move(grads_); }

 private:
  variable_list grads_;
};

struct ByPriority {
  bool operator()(const Node* a, const Node* b) const { return a->sequence_nr() < b->sequence_nr(); }
};

void check_gradient(const Node& producer, size_t index, const Tensor& grad, const InputMetadata& expected) {
  MT_CHECK(grad.sizes() == IntArrayRef(expected.sizes), "Function ", producer.name(),
           " returned an invalid gradient at index ", index, " - got ", grad.sizes(),
           " but expected shape compatible with ", IntArrayRef(expected.sizes));
  MT_CHECK(grad.device() == expected.device, "Function ", producer.name(), " returned an invalid gradient at index ",
           index, " - expected device ", expected.device, " but got ", grad.device());
}

// Which nodes run: all reachable ones for backward(); for grad(), only those on a path to a captured
// edge, never AccumulateGrad.
class GraphTask {
 public:
  GraphTask(Node* root, const BackwardOptions& options) : options_(options) {
    for (const Edge& e : options.capture) capture_nodes_.insert(e.function.get());
    std::vector<Node*> stack{root};
    std::unordered_set<Node*> seen{root};
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      order_.push_back(n);
      for (const Edge& e : n->next_edges()) {
        if (!e.is_valid()) continue;
        if (seen.insert(e.function.get()).second) stack.push_back(e.function.get());
      }
    }
    // A node's next functions existed when it was recorded, so in increasing sequence_nr every node
    // comes after the nodes its gradients flow into: one pass decides which lead to a captured edge.
    if (!options.capture.empty()) {
      std::vector<Node*> children_first = order_;
      std::sort(children_first.begin(), children_first.end(), [](const Node* a, const Node* b) {
        return a->sequence_nr() < b->sequence_nr();
      });
      for (Node* n : children_first) {
        if (dynamic_cast<AccumulateGrad*>(n)) continue;
        for (const Edge& e : n->next_edges()) {
          if (e.is_valid() && (needed_.count(e.function.get()) || capture_nodes_.count(e.function.get()))) {
            needed_.insert(n);
            break;
          }
        }
      }
    }
    for (Node* n : order_) {
      if (!executes(n)) continue;
      for (const Edge& e : n->next_edges())
        if (e.is_valid() && reached(e.function.get())) ++dependencies_[e.function.get()];
    }
  }

  bool executes(Node* n) const { return options_.capture.empty() || needed_.count(n); }
  bool reached(Node* n) const { return executes(n) || capture_nodes_.count(n); }
  // Returns true when the last awaited gradient for `n` arrived.
  bool arrive(Node* n) { return --dependencies_[n] == 0; }

 private:
  const BackwardOptions& options_;
  std::vector<Node*> order_;
  std::unordered_set<Node*> needed_, capture_nodes_;
  std::unordered_map<Node*, int> dependencies_;
};

}  // namespace

variable_list run_backward(const std::vector<Edge>& roots, variable_list root_grads, const BackwardOptions& options) {
  AutoGradMode grad_mode(options.create_graph);
  auto root = std::make_shared<GraphRoot>(roots, std::move(root_grads));
  GraphTask task(root.get(), options);

  variable_list captured(options.capture.size());
  std::unordered_map<Node*, variable_list> buffers;
  std::priority_queue<Node*, std::vector<Node*>, ByPriority> ready;
  ready.push(root.get());
  while (!ready.empty()) {
    Node* node = ready.top();
    ready.pop();
    variable_list grads = std::move(buffers[node]);
    buffers.erase(node);
    grads.resize(node == root.get() ? 0 : node->input_metadata().size());
    node->run_pre_hooks(grads);
    for (size_t i = 0; i < options.capture.size(); ++i) {
      if (options.capture[i].function.get() == node) captured[i] = grads[options.capture[i].input_nr];
    }
    if (!task.executes(node)) continue;

    variable_list outputs = node->apply(std::move(grads));
    if (!options.keep_graph) node->release_variables();
    const auto& edges = node->next_edges();
    MT_CHECK(outputs.size() == edges.size() || edges.empty(), "Function ", node->name(), " returned ",
             outputs.size(), " gradients but expected ", edges.size());
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& e = edges[i];
      if (!e.is_valid() || !task.reached(e.function.get())) continue;
      Node* next = e.function.get();
      if (outputs[i].defined()) {
        const InputMetadata& expected = next->input_metadata()[e.input_nr];
        check_gradient(*node, i, outputs[i], expected);
        if (outputs[i].dtype() != expected.dtype) outputs[i] = outputs[i].to(expected.dtype);
        variable_list& buffer = buffers[next];
        buffer.resize(next->input_metadata().size());
        Tensor& slot = buffer[e.input_nr];
        slot = slot.defined() ? slot + outputs[i] : std::move(outputs[i]);
      }
      if (task.arrive(next)) ready.push(next);
    }
  }
  return captured;
}

}  // namespace mt::autograd
