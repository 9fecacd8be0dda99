#pragma once
// Factories: functions that make a new tensor from a size and options (empty, zeros, full, arange,
// rand, ...), from another tensor's shape (*_like), or from C++ data (mt::tensor, from_blob).
// Each takes its TensorOptions last; an unset dtype means the default (float32, or what the data
// implies), an unset device the CPU. On Meta they make the tensor and skip filling it.
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "tensor/Generator.h"
#include "tensor/Scalar.h"
#include "tensor/Tensor.h"

namespace mt {

Tensor empty(IntArrayRef size, const TensorOptions& options = {});
Tensor zeros(IntArrayRef size, const TensorOptions& options = {});
Tensor ones(IntArrayRef size, const TensorOptions& options = {});
// The dtype, when unset, follows `fill_value`: bool, int64 or the default float.
Tensor full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& options = {});

// [start, end) in steps of `step`; int64 when all three are integers, else the default float.
Tensor arange(const Scalar& end, const TensorOptions& options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = 1, const TensorOptions& options = {});
// `steps` evenly spaced values from start to end, both included.
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, const TensorOptions& options = {});
Tensor eye(int64_t n, const TensorOptions& options = {});
Tensor eye(int64_t n, int64_t m, const TensorOptions& options = {});

// Uniform in [0, 1), standard normal, and integers in [low, high). A null generator means
// default_generator().
Tensor rand(IntArrayRef size, const TensorOptions& options = {});
Tensor rand(IntArrayRef size, Generator* generator, const TensorOptions& options = {});
Tensor randn(IntArrayRef size, const TensorOptions& options = {});
Tensor randn(IntArrayRef size, Generator* generator, const TensorOptions& options = {});
// randint's dtype defaults to int64.
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& options = {});
Tensor randint(int64_t high, IntArrayRef size, Generator* generator, const TensorOptions& options = {});
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions& options = {});
Tensor randint(int64_t low, int64_t high, IntArrayRef size, Generator* generator, const TensorOptions& options = {});

// A new contiguous tensor with `self`'s size; dtype and device are `self`'s unless `options` sets them.
Tensor empty_like(const Tensor& self, const TensorOptions& options = {});
Tensor zeros_like(const Tensor& self, const TensorOptions& options = {});
Tensor ones_like(const Tensor& self, const TensorOptions& options = {});
Tensor full_like(const Tensor& self, const Scalar& fill_value, const TensorOptions& options = {});
Tensor rand_like(const Tensor& self, const TensorOptions& options = {});
Tensor randn_like(const Tensor& self, const TensorOptions& options = {});

// A CPU tensor over memory the caller owns and keeps alive; it is neither copied nor freed.
Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {});

namespace detail {

template <typename T>
concept TensorDataElement = std::is_arithmetic_v<T>;

// mt::tensor reads data as Python would read numbers, not as C++ types: floating values make the
// default dtype, integers int64, bools bool. Values travel as double or int64 to the one non-template
// copy below.
template <typename T>
using CarrierOf = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
template <typename T>
ScalarType inferred_dtype_of() {
  return std::is_same_v<T, bool> ? kBool : std::is_floating_point_v<T> ? get_default_dtype() : kInt64;
}

// A new tensor of `shape` holding `count` values; its dtype is options' if set, else `inferred`.
Tensor tensor_from_values(const double* values, size_t count, IntArrayRef shape, ScalarType inferred,
                          const TensorOptions& options);
Tensor tensor_from_values(const int64_t* values, size_t count, IntArrayRef shape, ScalarType inferred,
                          const TensorOptions& options);

template <typename T>
Tensor tensor_from_vector(const std::vector<T>& data, IntArrayRef shape, const TensorOptions& options) {
  if constexpr (std::is_same_v<T, CarrierOf<T>>) {
    return tensor_from_values(data.data(), data.size(), shape, inferred_dtype_of<T>(), options);
  } else {
    const std::vector<CarrierOf<T>> values(data.begin(), data.end());
    return tensor_from_values(values.data(), values.size(), shape, inferred_dtype_of<T>(), options);
  }
}

template <typename T>
struct NestedList {
  static constexpr int depth = 0;
  using element = T;
};
template <typename T>
struct NestedList<std::initializer_list<T>> {
  static constexpr int depth = NestedList<T>::depth + 1;
  using element = typename NestedList<T>::element;
};

[[noreturn]] void throw_ragged(int64_t expected, size_t dim, size_t got);

// The shape is read from the first list at each depth (an empty list ends it with zeros); flatten
// checks every list against it.
template <typename L>
void nested_shape(const L& list, std::vector<int64_t>& shape) {
  shape.push_back(static_cast<int64_t>(list.size()));
  if constexpr (NestedList<L>::depth > 1) {
    if (list.size() > 0) return nested_shape(*list.begin(), shape);
    shape.resize(shape.size() + NestedList<L>::depth - 1, 0);
  }
}
template <typename L, typename V>
void flatten(const L& list, size_t dim, const std::vector<int64_t>& shape, std::vector<V>& out) {
  if (static_cast<int64_t>(list.size()) != shape[dim]) throw_ragged(shape[dim], dim, list.size());
  for (const auto& item : list) {
    if constexpr (NestedList<L>::depth > 1) {
      flatten(item, dim + 1, shape, out);
    } else {
      out.push_back(static_cast<V>(item));
    }
  }
}

template <typename L>
Tensor tensor_from_nested(const L& list, const TensorOptions& options) {
  using T = typename NestedList<L>::element;
  std::vector<int64_t> shape;
  nested_shape(list, shape);
  std::vector<CarrierOf<T>> values;
  flatten(list, 0, shape, values);
  return tensor_from_values(values.data(), values.size(), shape, inferred_dtype_of<T>(), options);
}

}  // namespace detail

// mt::tensor(3.5) is 0-dim; mt::tensor({{1., 2.}, {3., 4.}}) is a 2x2 float32; nested lists of one
// element type, up to 4 deep, must not be ragged.
template <detail::TensorDataElement T>
Tensor tensor(T value, const TensorOptions& options = {}) {
  const detail::CarrierOf<T> v = value;
  return detail::tensor_from_values(&v, 1, {}, detail::inferred_dtype_of<T>(), options);
}
template <detail::TensorDataElement T>
Tensor tensor(std::initializer_list<T> data, const TensorOptions& options = {}) {
  return detail::tensor_from_nested(data, options);
}
template <detail::TensorDataElement T>
Tensor tensor(std::initializer_list<std::initializer_list<T>> data, const TensorOptions& options = {}) {
  return detail::tensor_from_nested(data, options);
}
template <detail::TensorDataElement T>
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> data,
              const TensorOptions& options = {}) {
  return detail::tensor_from_nested(data, options);
}
template <detail::TensorDataElement T>
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<std::initializer_list<T>>>> data,
              const TensorOptions& options = {}) {
  return detail::tensor_from_nested(data, options);
}
// 1-D from a vector, or reshaped to `shape` (whose numel must match).
template <detail::TensorDataElement T>
Tensor tensor(const std::vector<T>& data, const TensorOptions& options = {}) {
  return detail::tensor_from_vector(data, {static_cast<int64_t>(data.size())}, options);
}
template <detail::TensorDataElement T>
Tensor tensor(const std::vector<T>& data, IntArrayRef shape, const TensorOptions& options = {}) {
  return detail::tensor_from_vector(data, shape, options);
}

}  // namespace mt
