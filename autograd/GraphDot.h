#pragma once
// mt::autograd::to_dot: the backward graph behind a tensor as Graphviz DOT (render it with
// `dot -Tsvg graph.dot -o graph.svg`). One box per node, named as PyTorch names them (MulBackward0...);
// leaves appear as their AccumulateGrad with the leaf's shape; edges run from a node to the nodes its
// gradients flow into, labelled with the input number when a node has several inputs.
#include <string>

#include "tensor/Tensor.h"

namespace mt::autograd {

std::string to_dot(const Tensor& t);

}  // namespace mt::autograd
