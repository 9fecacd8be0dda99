#include "ops/Factories.h"

#include "ops/api/arange_ops.h"
#include "ops/api/empty_ops.h"
#include "ops/api/empty_like_ops.h"
#include "ops/api/eye_ops.h"
#include "ops/api/full_ops.h"
#include "ops/api/full_like_ops.h"
#include "ops/api/linspace_ops.h"
#include "ops/api/ones_ops.h"
#include "ops/api/ones_like_ops.h"
#include "ops/api/rand_ops.h"
#include "ops/api/rand_like_ops.h"
#include "ops/api/randint_ops.h"
#include "ops/api/randn_ops.h"
#include "ops/api/randn_like_ops.h"
#include "ops/api/zeros_ops.h"
#include "ops/api/zeros_like_ops.h"
#include "tensor/DtypeDispatch.h"
#include "tensor/Error.h"

namespace mt {

namespace {

template <typename V>
Tensor tensor_from(const V* values, size_t count, IntArrayRef shape, ScalarType inferred,
                   const TensorOptions& options) {
  const int64_t numel = checked_numel(shape);
  MT_CHECK_VALUE(numel == static_cast<int64_t>(count), "tensor: shape ", shape, " holds ", numel,
                 " elements but the data has ", count);
  // Another device gets the values through a CPU tensor.
  if (options.has_device() && !options.device().is_cpu() && !options.device().is_meta()) {
    return tensor_from(values, count, shape, inferred, options.device(Device(kCPU))).to(options.device());
  }
  Tensor t = empty(shape, options.has_dtype() ? options : options.dtype(inferred));
  if (t.is_meta()) return t;
  // Checked as PyTorch's torch.tensor: 300 is no uint8, -1 is 255.
  dispatch_all_types(t.dtype(), "tensor", [&]<typename T>() {
    T* data = static_cast<T*>(t.data_ptr());
    for (size_t i = 0; i < count; ++i) data[i] = Scalar(values[i]).to<T>();
  });
  return t;
}

}  // namespace

// Each factory unpacks its TensorOptions into the operator's dtype and device arguments.
Tensor empty(IntArrayRef size, const TensorOptions& options) {
  return ops::empty::call(size, options.dtype_opt(), options.device_opt());
}
Tensor zeros(IntArrayRef size, const TensorOptions& options) {
  return ops::zeros::call(size, options.dtype_opt(), options.device_opt());
}
Tensor ones(IntArrayRef size, const TensorOptions& options) {
  return ops::ones::call(size, options.dtype_opt(), options.device_opt());
}
Tensor full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& options) {
  return ops::full::call(size, fill_value, options.dtype_opt(), options.device_opt());
}

Tensor arange(const Scalar& end, const TensorOptions& options) {
  return ops::arange::call(end, options.dtype_opt(), options.device_opt());
}
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, const TensorOptions& options) {
  return ops::arange_start_step::call(start, end, step, options.dtype_opt(), options.device_opt());
}
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, const TensorOptions& options) {
  return ops::linspace::call(start, end, steps, options.dtype_opt(), options.device_opt());
}
Tensor eye(int64_t n, const TensorOptions& options) {
  return ops::eye::call(n, options.dtype_opt(), options.device_opt());
}
Tensor eye(int64_t n, int64_t m, const TensorOptions& options) {
  return ops::eye_m::call(n, m, options.dtype_opt(), options.device_opt());
}

Tensor rand(IntArrayRef size, const TensorOptions& options) { return rand(size, nullptr, options); }
Tensor rand(IntArrayRef size, Generator* generator, const TensorOptions& options) {
  return ops::rand::call(size, generator, options.dtype_opt(), options.device_opt());
}
Tensor randn(IntArrayRef size, const TensorOptions& options) { return randn(size, nullptr, options); }
Tensor randn(IntArrayRef size, Generator* generator, const TensorOptions& options) {
  return ops::randn::call(size, generator, options.dtype_opt(), options.device_opt());
}
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& options) {
  return randint(high, size, nullptr, options);
}
Tensor randint(int64_t high, IntArrayRef size, Generator* generator, const TensorOptions& options) {
  return ops::randint::call(high, size, generator, options.dtype_opt(), options.device_opt());
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions& options) {
  return randint(low, high, size, nullptr, options);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, Generator* generator, const TensorOptions& options) {
  return ops::randint_low::call(low, high, size, generator, options.dtype_opt(), options.device_opt());
}

Tensor empty_like(const Tensor& self, const TensorOptions& options) {
  return ops::empty_like::call(self, options.dtype_opt(), options.device_opt());
}
Tensor zeros_like(const Tensor& self, const TensorOptions& options) {
  return ops::zeros_like::call(self, options.dtype_opt(), options.device_opt());
}
Tensor ones_like(const Tensor& self, const TensorOptions& options) {
  return ops::ones_like::call(self, options.dtype_opt(), options.device_opt());
}
Tensor full_like(const Tensor& self, const Scalar& fill_value, const TensorOptions& options) {
  return ops::full_like::call(self, fill_value, options.dtype_opt(), options.device_opt());
}
Tensor rand_like(const Tensor& self, const TensorOptions& options) {
  return ops::rand_like::call(self, options.dtype_opt(), options.device_opt());
}
Tensor randn_like(const Tensor& self, const TensorOptions& options) {
  return ops::randn_like::call(self, options.dtype_opt(), options.device_opt());
}

Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options) {
  MT_CHECK_VALUE(options.device().is_cpu(), "from_blob: expected a cpu device, got '", options.device(), "'");
  const size_t nbytes = static_cast<size_t>(checked_numel(sizes)) * element_size(options.dtype());
  auto storage = make_intrusive<StorageImpl>(DataPtr(data, nullptr, nullptr, Device(kCPU)), nbytes, nullptr);
  auto impl = make_intrusive<TensorImpl>(std::move(storage), options.dtype());
  impl->set_sizes_contiguous(sizes);
  return Tensor(std::move(impl));
}

namespace detail {

void throw_ragged(int64_t expected, size_t dim, size_t got) {
  detail::throw_error<ValueError>("expected sequence of length ", expected, " at dim ", dim, " (got ", got, ")");
}

Tensor tensor_from_values(const double* values, size_t count, IntArrayRef shape, ScalarType inferred,
                          const TensorOptions& options) {
  return tensor_from(values, count, shape, inferred, options);
}
Tensor tensor_from_values(const int64_t* values, size_t count, IntArrayRef shape, ScalarType inferred,
                          const TensorOptions& options) {
  return tensor_from(values, count, shape, inferred, options);
}

}  // namespace detail

}  // namespace mt
