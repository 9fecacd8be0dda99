#pragma once
// result_type: the dtype of an op's result from its tensor and scalar arguments, with PyTorch's rules
// for Python numbers. Arguments fall in three priority groups: tensors with dims, 0-dim tensors, and
// wrapped numbers (Scalars, or tensors made from one). Within a group dtypes promote as usual; a lower
// group changes the result only when its category (bool < integral < floating) is higher, so
// `int64 vector + 2.5` is float32 but `float16 vector + 2.5` stays float16.
#include "tensor/Scalar.h"
#include "tensor/Tensor.h"

namespace mt {

struct ResultTypeState {
  ScalarType dim_result = ScalarType::Undefined;
  ScalarType zero_result = ScalarType::Undefined;
  ScalarType wrapped_result = ScalarType::Undefined;
};

// Adds one argument. A wrapped number counts by category only: floating ones as the default dtype.
ResultTypeState update_result_type_state(const Tensor& tensor, const ResultTypeState& in_state);
ResultTypeState update_result_type_state(const Scalar& scalar, const ResultTypeState& in_state);
ScalarType result_type(const ResultTypeState& state);

ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& a, const Scalar& b);
ScalarType result_type(const Scalar& a, const Tensor& b);
ScalarType result_type(const Scalar& a, const Scalar& b);

}  // namespace mt
