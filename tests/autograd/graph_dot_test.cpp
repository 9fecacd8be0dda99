// mt::autograd::to_dot: the DOT text of a small graph, written out by hand.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "ops/api/dot.h"
#include "ops/api/ones.h"

namespace {

TEST(GraphDot, WritesEveryNodeAndEdgeOfTheBackwardGraph) {
  const mt::Tensor x = mt::ones({3}).requires_grad_();
  const mt::Tensor w = mt::ones({2, 3}).requires_grad_();
  const mt::Tensor loss = (x * w).sum();
  EXPECT_EQ(mt::autograd::to_dot(loss),
            "digraph backward {\n"
            "  node [shape=box, fontname=\"monospace\"];\n"
            "  output [label=\"[]\", shape=ellipse];\n"
            "  output -> n0;\n"
            "  n0 [label=\"SumBackward0\"];\n"
            "  n0 -> n1;\n"
            "  n1 [label=\"MulBackward0\"];\n"
            "  n1 -> n2 [label=\"0\"];\n"
            "  n1 -> n3 [label=\"1\"];\n"
            "  n3 [label=\"AccumulateGrad\\n[2, 3]\"];\n"
            "  n2 [label=\"AccumulateGrad\\n[3]\"];\n"
            "}\n");
}

TEST(GraphDot, ATensorWithoutHistoryIsALoneOutput) {
  EXPECT_EQ(mt::autograd::to_dot(mt::ones({2})),
            "digraph backward {\n"
            "  node [shape=box, fontname=\"monospace\"];\n"
            "  output [label=\"[2]\", shape=ellipse];\n"
            "}\n");
}

TEST(GraphDot, ALeafIsItsAccumulateGrad) {
  const std::string dot = mt::autograd::to_dot(mt::ones({4}).requires_grad_());
  EXPECT_NE(dot.find("output -> n0;\n  n0 [label=\"AccumulateGrad\\n[4]\"];"), std::string::npos) << dot;
}

}  // namespace
