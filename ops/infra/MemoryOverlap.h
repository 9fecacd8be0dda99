#pragma once
// Checks that an op writing a tensor does not read or write one memory location through two elements
// (PyTorch's ATen/MemoryOverlap.h): the result would depend on the order of the loop, or of the threads.
// TensorIterator runs the first two for every output; ops with their own loops (scatter_) call them.
#include "tensor/Tensor.h"

namespace mt {

bool shares_storage(const Tensor& a, const Tensor& b);

// Refuses an output whose elements share memory. Only an expanded dim is sure to; other strides are left
// alone, as PyTorch leaves them.
void check_no_internal_overlap(const Tensor& out);

// Refuses an input whose elements share memory with the output's at other positions: the two must be the
// same elements in the same order (an in-place op), or apart. Tensors that are not dense are too hard
// to tell, and pass, as in PyTorch.
void check_no_partial_overlap(const Tensor& out, const Tensor& in);

// Refuses an input that shares any memory with the output (ops that read the input at positions other
// than the one they write, as scatter_ reads its src and index).
void check_no_overlap(const Tensor& out, const Tensor& in);

}  // namespace mt
