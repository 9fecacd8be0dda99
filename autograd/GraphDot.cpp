#include "autograd/GraphDot.h"

#include <sstream>
#include <unordered_map>
#include <vector>

#include "autograd/AccumulateGrad.h"
#include "autograd/AutogradMeta.h"

namespace mt::autograd {

namespace {

std::string shape_of(const Tensor& t) {
  std::ostringstream os;
  os << '[';
  for (int64_t d = 0; d < t.dim(); ++d) os << (d ? ", " : "") << t.size(d);
  os << ']';
  return os.str();
}

std::string label_of(const Node& node) {
  if (const auto* acc = dynamic_cast<const AccumulateGrad*>(&node)) {
    return "AccumulateGrad\\n" + shape_of(acc->variable());
  }
  return node.name();
}

}  // namespace

std::string to_dot(const Tensor& t) {
  std::ostringstream os;
  os << "digraph backward {\n  node [shape=box, fontname=\"monospace\"];\n";
  os << "  output [label=\"" << shape_of(t) << "\", shape=ellipse];\n";
  const Edge root = gradient_edge(t);
  if (root.is_valid()) {
    // Nodes are numbered in the order they are first reached, so the output is deterministic.
    std::unordered_map<const Node*, size_t> ids;
    std::vector<const Node*> pending;
    const auto id_of = [&](const Node* n) {
      auto [it, inserted] = ids.emplace(n, ids.size());
      if (inserted) pending.push_back(n);
      return it->second;
    };
    os << "  output -> n" << id_of(root.function.get()) << ";\n";
    while (!pending.empty()) {
      const Node* node = pending.back();
      pending.pop_back();
      const size_t id = ids.at(node);
      os << "  n" << id << " [label=\"" << label_of(*node) << "\"];\n";
      const auto& edges = node->next_edges();
      for (size_t i = 0; i < edges.size(); ++i) {
        if (!edges[i].is_valid()) continue;
        os << "  n" << id << " -> n" << id_of(edges[i].function.get());
        if (edges.size() > 1) os << " [label=\"" << i << "\"]";
        os << ";\n";
      }
    }
  }
  os << "}\n";
  return os.str();
}

}  // namespace mt::autograd
