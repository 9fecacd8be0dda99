#pragma once
// How the pointwise ops of UnaryOps, Activation, PointwiseOps, CompareOps and WhereFill build their
// TensorIterators. Every op has three forms that differ only in `out`: undefined (the functional form:
// the iterator allocates the result), an out= argument (resized when empty), or self (the in-place
// form: self is neither broadcast nor resized, and must be able to hold the result's dtype).
#include "ops/Copy.h"
#include "ops/infra/TensorIterator.h"
#include "tensor/Tensor.h"

namespace mt {

// The dtype a floating op (exp, sqrt, ...) computes in: integers and bool become the default float.
inline ScalarType float_op_dtype(ScalarType t) { return is_integral(t, /*include_bool=*/true) ? get_default_dtype() : t; }

// out = op(input), computed in input's dtype. The iterator borrows its operands, so a caller that
// converts self first (as_dtype) keeps the converted tensor alive in a local while the iterator lives.
inline TensorIterator unary_iterator(Tensor& out, const Tensor& input, bool inplace) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(input)
      .promote_inputs_to_common_dtype(true)  // a wrapped number computes in the dtype it promotes to
      .resize_outputs(!inplace)
      .build();
}

// out = op(self, other), computed in their promoted dtype; `result_dtype` overrides the dtype of an
// allocated result (kBool for comparisons).
inline TensorIterator binary_iterator(Tensor& out, const Tensor& self, const Tensor& other, bool inplace,
                                      std::optional<ScalarType> result_dtype = std::nullopt) {
  TensorIteratorConfig config;
  config.add_output(out).add_input(self).add_input(other).promote_inputs_to_common_dtype(true).resize_outputs(!inplace);
  if (result_dtype) config.output_dtype(*result_dtype);
  return config.build();
}

// The op's result: `out` itself, or the tensor the iterator allocated when `out` was undefined.
inline Tensor& result_of(Tensor& out, const TensorIterator& iter) {
  if (!out.defined()) out = iter.output();
  return out;
}

}  // namespace mt
