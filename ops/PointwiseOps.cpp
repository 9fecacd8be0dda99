#include "ops/PointwiseOps.h"

#include "dispatch/Library.h"
#include "ops/BinaryOps.h"
#include "ops/api/clamp.h"
#include "ops/api/maximum.h"
#include "ops/api/minimum.h"
#include "ops/api/pow.h"
#include "ops/infra/PointwiseIterators.h"
#include "ops/WhereFill.h"
#include "tensor/TypePromotion.h"

namespace mt {

MT_DEFINE_STUB(pow_tensor_stub, void(TensorIterator&));
MT_DEFINE_STUB(pow_scalar_stub, void(TensorIterator&, const Scalar&));
MT_DEFINE_STUB(maximum_stub, void(TensorIterator&));
MT_DEFINE_STUB(minimum_stub, void(TensorIterator&));
MT_DEFINE_STUB(clamp_stub, void(TensorIterator&));
MT_DEFINE_STUB(clamp_scalar_stub, void(TensorIterator&, const std::optional<Scalar>&, const std::optional<Scalar>&));

namespace {

void check_pow_dtype(ScalarType dtype) {
  MT_CHECK_NOT_IMPLEMENTED(dtype != kBool, "\"pow\" not implemented for '", dtype, "'");
}

Tensor& pow_tensor_impl(Tensor& out, const Tensor& self, const Tensor& exponent, bool inplace) {
  check_pow_dtype(result_type(self, exponent));
  TensorIterator iter = binary_iterator(out, self, exponent, inplace);
  pow_tensor_stub(iter.device().type(), iter);
  return result_of(out, iter);
}

// x ** 0 is 1 and x ** 1 is x in every dtype, as in PyTorch: so bool ** bool (the only bool result)
// works, while the kernels take no bools.
Tensor& pow_scalar_impl(Tensor& out, const Tensor& self, const Scalar& exponent, bool inplace) {
  const ScalarType dtype = result_type(self, exponent);
  MT_CHECK(!(is_integral(dtype, false) && exponent.isIntegral(false) && exponent.toLong() < 0),
           "Integers to negative integer powers are not allowed.");
  check_value_fits(exponent, dtype);
  const double e = exponent.toDouble();
  const Tensor input = as_dtype(self, dtype);
  TensorIterator iter = unary_iterator(out, input, inplace);
  if (e == 0) {
    Tensor result = iter.output();
    TensorIterator ones = TensorIterator::nullary_op(result);
    fill_stub(iter.device().type(), ones, 1);
  } else if (e == 1) {
    copy_stub(iter.device().type(), iter);
  } else {
    pow_scalar_stub(iter.device().type(), iter, exponent);
  }
  return result_of(out, iter);
}

Tensor& maximum_impl(Tensor& out, const Tensor& self, const Tensor& other, bool inplace) {
  TensorIterator iter = binary_iterator(out, self, other, inplace);
  maximum_stub(iter.device().type(), iter);
  return result_of(out, iter);
}

Tensor& minimum_impl(Tensor& out, const Tensor& self, const Tensor& other, bool inplace) {
  TensorIterator iter = binary_iterator(out, self, other, inplace);
  minimum_stub(iter.device().type(), iter);
  return result_of(out, iter);
}

void check_clamp_bounds(bool has_min, bool has_max) {
  MT_CHECK(has_min || has_max, "clamp: At least one of 'min' or 'max' must not be None");
}

Tensor& clamp_scalar_impl(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                          const std::optional<Scalar>& max, bool inplace) {
  check_clamp_bounds(min.has_value(), max.has_value());
  // The bounds take part in type promotion like Python numbers: an int64 tensor clamped to 0.5 is float.
  ResultTypeState state = update_result_type_state(self, {});
  if (min) state = update_result_type_state(*min, state);
  if (max) state = update_result_type_state(*max, state);
  const ScalarType dtype = result_type(state);
  MT_CHECK_NOT_IMPLEMENTED(dtype != kBool, "\"clamp\" not implemented for '", dtype, "'");
  for (const std::optional<Scalar>* bound : {&min, &max}) {
    if (*bound) check_value_fits(**bound, dtype);
  }
  const Tensor input = as_dtype(self, dtype);
  TensorIterator iter = unary_iterator(out, input, inplace);
  clamp_scalar_stub(iter.device().type(), iter, min, max);
  return result_of(out, iter);
}

bool present(const std::optional<Tensor>& t) { return t.has_value() && t->defined(); }

Tensor& clamp_tensor_impl(Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                          const std::optional<Tensor>& max, bool inplace) {
  check_clamp_bounds(present(min), present(max));
  // One bound is maximum or minimum, which take bool; two bounds are clamp's own kernel, which does not.
  if (!present(max)) return maximum_impl(out, self, *min, inplace);
  if (!present(min)) return minimum_impl(out, self, *max, inplace);
  const ScalarType dtype = promote_types(promote_types(self.dtype(), min->dtype()), max->dtype());
  MT_CHECK_NOT_IMPLEMENTED(dtype != kBool, "\"clamp\" not implemented for '", dtype, "'");
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .add_input(*min)
                            .add_input(*max)
                            .promote_inputs_to_common_dtype(true)
                            .resize_outputs(!inplace)
                            .build();
  clamp_stub(iter.device().type(), iter);
  return result_of(out, iter);
}

// --- the registered kernels, one per overload ------------------------------------------------------------

Tensor pow_tensor(const Tensor& self, const Tensor& exponent) {
  Tensor out;
  return pow_tensor_impl(out, self, exponent, false);
}
Tensor& pow__tensor(Tensor& self, const Tensor& exponent) { return pow_tensor_impl(self, self, exponent, true); }
Tensor& pow_tensor_out(const Tensor& self, const Tensor& exponent, Tensor& out) {
  return pow_tensor_impl(out, self, exponent, false);
}
Tensor pow_scalar(const Tensor& self, const Scalar& exponent) {
  Tensor out;
  return pow_scalar_impl(out, self, exponent, false);
}
Tensor& pow__scalar(Tensor& self, const Scalar& exponent) { return pow_scalar_impl(self, self, exponent, true); }
Tensor& pow_scalar_out(const Tensor& self, const Scalar& exponent, Tensor& out) {
  return pow_scalar_impl(out, self, exponent, false);
}
Tensor maximum(const Tensor& self, const Tensor& other) {
  Tensor out;
  return maximum_impl(out, self, other, false);
}
Tensor& maximum_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return maximum_impl(out, self, other, false);
}
Tensor minimum(const Tensor& self, const Tensor& other) {
  Tensor out;
  return minimum_impl(out, self, other, false);
}
Tensor& minimum_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return minimum_impl(out, self, other, false);
}
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  Tensor out;
  return clamp_scalar_impl(out, self, min, max, false);
}
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_scalar_impl(self, self, min, max, true);
}
Tensor& clamp_out(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                  Tensor& out) {
  return clamp_scalar_impl(out, self, min, max, false);
}
Tensor clamp_tensor(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  Tensor out;
  return clamp_tensor_impl(out, self, min, max, false);
}
Tensor& clamp__tensor(Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return clamp_tensor_impl(self, self, min, max, true);
}
Tensor& clamp_tensor_out(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                         Tensor& out) {
  return clamp_tensor_impl(out, self, min, max, false);
}

// Compositions: a scalar base becomes a wrapped-number tensor; clamp_min/clamp_max are one-sided clamps.
Tensor pow_scalar_base(const Scalar& self, const Tensor& exponent) {
  return mt::pow(wrapped_scalar_tensor(self, exponent.device()), exponent);
}
Tensor& pow_scalar_base_out(const Scalar& self, const Tensor& exponent, Tensor& out) {
  return mt::pow_out(out, wrapped_scalar_tensor(self, exponent.device()), exponent);
}
// square is pow(self, 2), as in PyTorch (so a bool squares to int64).
Tensor pow_two(const Tensor& self) { return mt::pow(self, 2); }
Tensor& pow_two_(Tensor& self) { return self.pow_(2); }
Tensor& pow_two_out(const Tensor& self, Tensor& out) { return mt::pow_out(out, self, 2); }
Tensor clamp_min_scalar(const Tensor& self, const Scalar& min) { return mt::clamp(self, min, std::nullopt); }
Tensor clamp_min_tensor(const Tensor& self, const Tensor& min) { return mt::clamp(self, min, std::nullopt); }
Tensor& clamp_min__scalar(Tensor& self, const Scalar& min) { return mt::clamp_(self, min, std::nullopt); }
Tensor& clamp_min__tensor(Tensor& self, const Tensor& min) { return mt::clamp_(self, min, std::nullopt); }
Tensor& clamp_min_scalar_out(const Tensor& self, const Scalar& min, Tensor& out) {
  return mt::clamp_out(out, self, min, std::nullopt);
}
Tensor& clamp_min_tensor_out(const Tensor& self, const Tensor& min, Tensor& out) {
  return mt::clamp_out(out, self, min, std::nullopt);
}
Tensor clamp_max_scalar(const Tensor& self, const Scalar& max) { return mt::clamp(self, std::nullopt, max); }
Tensor clamp_max_tensor(const Tensor& self, const Tensor& max) { return mt::clamp(self, std::nullopt, max); }
Tensor& clamp_max__scalar(Tensor& self, const Scalar& max) { return mt::clamp_(self, std::nullopt, max); }
Tensor& clamp_max__tensor(Tensor& self, const Tensor& max) { return mt::clamp_(self, std::nullopt, max); }
Tensor& clamp_max_scalar_out(const Tensor& self, const Scalar& max, Tensor& out) {
  return mt::clamp_out(out, self, std::nullopt, max);
}
Tensor& clamp_max_tensor_out(const Tensor& self, const Tensor& max, Tensor& out) {
  return mt::clamp_out(out, self, std::nullopt, max);
}

// CPU, CUDA and Meta share these kernels: on Meta the iterator allocates no data and runs no loop.
void register_kernels(Library& m) {
  m.impl("pow.Tensor_Tensor", MT_FN(pow_tensor));
  m.impl("pow_.Tensor", MT_FN(pow__tensor));
  m.impl("pow.Tensor_Tensor_out", MT_FN(pow_tensor_out));
  m.impl("pow.Tensor_Scalar", MT_FN(pow_scalar));
  m.impl("pow_.Scalar", MT_FN(pow__scalar));
  m.impl("pow.Tensor_Scalar_out", MT_FN(pow_scalar_out));
  m.impl("maximum", MT_FN(maximum));
  m.impl("maximum.out", MT_FN(maximum_out));
  m.impl("minimum", MT_FN(minimum));
  m.impl("minimum.out", MT_FN(minimum_out));
  m.impl("clamp", MT_FN(clamp));
  m.impl("clamp_", MT_FN(clamp_));
  m.impl("clamp.out", MT_FN(clamp_out));
  m.impl("clamp.Tensor", MT_FN(clamp_tensor));
  m.impl("clamp_.Tensor", MT_FN(clamp__tensor));
  m.impl("clamp.Tensor_out", MT_FN(clamp_tensor_out));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("pow.Scalar", MT_FN(pow_scalar_base));
  m.impl("pow.Scalar_out", MT_FN(pow_scalar_base_out));
  m.impl("square", MT_FN(pow_two));
  m.impl("square_", MT_FN(pow_two_));
  m.impl("square.out", MT_FN(pow_two_out));
  m.impl("clamp_min", MT_FN(clamp_min_scalar));
  m.impl("clamp_min.Tensor", MT_FN(clamp_min_tensor));
  m.impl("clamp_min_", MT_FN(clamp_min__scalar));
  m.impl("clamp_min_.Tensor", MT_FN(clamp_min__tensor));
  m.impl("clamp_min.out", MT_FN(clamp_min_scalar_out));
  m.impl("clamp_min.Tensor_out", MT_FN(clamp_min_tensor_out));
  m.impl("clamp_max", MT_FN(clamp_max_scalar));
  m.impl("clamp_max.Tensor", MT_FN(clamp_max_tensor));
  m.impl("clamp_max_", MT_FN(clamp_max__scalar));
  m.impl("clamp_max_.Tensor", MT_FN(clamp_max__tensor));
  m.impl("clamp_max.out", MT_FN(clamp_max_scalar_out));
  m.impl("clamp_max.Tensor_out", MT_FN(clamp_max_tensor_out));
}

}  // namespace mt
