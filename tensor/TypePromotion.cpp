#include "tensor/TypePromotion.h"

namespace mt {

namespace {

ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promote_types(a, b);
}

// `lower` (a lower-priority group) only matters when its category is higher than `higher`'s.
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (is_floating_point(higher)) return higher;
  if (higher == kBool || is_floating_point(lower)) return promote_skip_undefined(higher, lower);
  return higher != ScalarType::Undefined ? higher : lower;
}

ScalarType wrapped_number_type(ScalarType t) { return is_floating_point(t) ? get_default_dtype() : t; }

}  // namespace

ResultTypeState update_result_type_state(const Tensor& tensor, const ResultTypeState& in_state) {
  if (!tensor.defined()) return in_state;
  ResultTypeState state = in_state;
  const bool wrapped = tensor.unsafeGetTensorImpl()->is_wrapped_number();
  const ScalarType current = wrapped ? wrapped_number_type(tensor.dtype()) : tensor.dtype();
  if (tensor.dim() > 0) {
    state.dim_result = promote_skip_undefined(state.dim_result, current);
  } else if (wrapped) {
    state.wrapped_result = promote_skip_undefined(state.wrapped_result, current);
  } else {
    state.zero_result = promote_skip_undefined(state.zero_result, current);
  }
  return state;
}

ResultTypeState update_result_type_state(const Scalar& scalar, const ResultTypeState& in_state) {
  ResultTypeState state = in_state;
  state.wrapped_result = promote_skip_undefined(state.wrapped_result, wrapped_number_type(scalar.type()));
  return state;
}

ScalarType result_type(const ResultTypeState& state) {
  return combine_categories(state.dim_result, combine_categories(state.zero_result, state.wrapped_result));
}

ScalarType result_type(const Tensor& a, const Tensor& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}
ScalarType result_type(const Tensor& a, const Scalar& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}
ScalarType result_type(const Scalar& a, const Tensor& b) { return result_type(b, a); }
ScalarType result_type(const Scalar& a, const Scalar& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}

}  // namespace mt
