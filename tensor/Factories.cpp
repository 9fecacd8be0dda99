#include "tensor/Factories.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tensor/Error.h"

namespace mt {

namespace {

// Calls f.template operator()<T>() with the C++ element type of `dtype`.
template <typename F>
void visit_dtype(ScalarType dtype, F&& f) {
  switch (dtype) {
#define MT_CASE(cpp, name, str) \
  case ScalarType::name:        \
    return f.template operator()<cpp>();
    MT_FORALL_SCALAR_TYPES(MT_CASE)
#undef MT_CASE
    default:
      MT_CHECK_TYPE(false, "expected a defined dtype, got ", dtype);
  }
}

// Fills a fresh contiguous tensor by calling writer.template operator()<T>(data, numel) with its
// element type. Meta tensors have no data and are left as they are.
template <typename F>
const Tensor& fill(const Tensor& t, F&& writer) {
  if (t.is_meta()) return t;
  MT_CHECK_NOT_IMPLEMENTED(t.is_cpu(), "factories can only fill cpu and meta tensors so far, got device '", t.device(),
                           "'");
  visit_dtype(t.dtype(),
              [&]<typename T>() { writer.template operator()<T>(static_cast<T*>(t.data_ptr()), t.numel()); });
  return t;
}

template <typename T>
constexpr int mantissa_bits = std::numeric_limits<T>::digits;
// Eigen's numeric_limits for half and bfloat16 give their precision (11 and 8 bits) too.
static_assert(mantissa_bits<float> == 24 && mantissa_bits<double> == 53 && mantissa_bits<Half> == 11 &&
              mantissa_bits<BFloat16> == 8);

Generator& generator_or_default(Generator* generator) { return generator ? *generator : default_generator(); }

TensorOptions with_default_dtype(const TensorOptions& options, ScalarType dtype) {
  return options.has_dtype() ? options : options.dtype(dtype);
}

TensorOptions like(const Tensor& self, const TensorOptions& options) {
  return TensorOptions()
      .dtype(options.dtype_opt().value_or(self.dtype()))
      .device(options.device_opt().value_or(self.device()));
}

template <typename V>
Tensor tensor_from(const V* values, size_t count, IntArrayRef shape, ScalarType inferred,
                   const TensorOptions& options) {
  const int64_t numel = checked_numel(shape);
  MT_CHECK_VALUE(numel == static_cast<int64_t>(count), "tensor: shape ", shape, " holds ", numel,
                 " elements but the data has ", count);
  return fill(empty(shape, with_default_dtype(options, inferred)), [&]<typename T>(T* data, int64_t n) {
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(values[i]);
  });
}

}  // namespace

Tensor empty(IntArrayRef size, const TensorOptions& options) {
  return Tensor(TensorImpl::empty(size, options.dtype(), options.device()));
}

Tensor zeros(IntArrayRef size, const TensorOptions& options) {
  return full(size, 0, with_default_dtype(options, get_default_dtype()));
}

Tensor ones(IntArrayRef size, const TensorOptions& options) {
  return full(size, 1, with_default_dtype(options, get_default_dtype()));
}

Tensor full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& options) {
  const ScalarType inferred = fill_value.isFloatingPoint() ? get_default_dtype() : fill_value.type();
  return fill(empty(size, with_default_dtype(options, inferred)),
              [&]<typename T>(T* data, int64_t n) { std::fill_n(data, n, fill_value.to<T>()); });
}

Tensor arange(const Scalar& end, const TensorOptions& options) { return arange(0, end, 1, options); }

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, const TensorOptions& options) {
  const bool integral = !start.isFloatingPoint() && !end.isFloatingPoint() && !step.isFloatingPoint();
  const TensorOptions opts = with_default_dtype(options, integral ? kInt64 : get_default_dtype());
  // Integer dtypes step in integers, as the values will be stored.
  const bool integral_dtype = !is_floating_point(opts.dtype());
  const double xstart = integral_dtype ? start.toLong() : start.toDouble();
  const double xend = integral_dtype ? end.toLong() : end.toDouble();
  const double xstep = integral_dtype ? step.toLong() : step.toDouble();
  MT_CHECK_VALUE(xstep != 0, "step must be nonzero");
  MT_CHECK_VALUE(std::isfinite(xstart) && std::isfinite(xend), "unsupported range: ", start, " -> ", end);
  MT_CHECK_VALUE((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart),
                 "upper bound and larger bound inconsistent with step sign");
  const double size = std::ceil((xend - xstart) / xstep);
  MT_CHECK_VALUE(size <= static_cast<double>(std::numeric_limits<int64_t>::max()),
                 "invalid size, possible overflow? arange(", start, ", ", end, ", ", step, ") has ", size, " elements");
  if (integral_dtype) {
    const int64_t istart = start.toLong(), istep = step.toLong();
    return fill(empty({static_cast<int64_t>(size)}, opts), [&]<typename T>(T* data, int64_t n) {
      for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(istart + istep * i);
    });
  }
  return fill(empty({static_cast<int64_t>(size)}, opts), [&]<typename T>(T* data, int64_t n) {
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(xstart + xstep * static_cast<double>(i));
  });
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, const TensorOptions& options) {
  MT_CHECK_VALUE(steps >= 0, "number of steps must be non-negative, got ", steps);
  const double a = start.toDouble(), b = end.toDouble();
  const double step = steps > 1 ? (b - a) / static_cast<double>(steps - 1) : 0.0;
  // The second half counts back from `end`, so that the last value is `end` exactly.
  return fill(empty({steps}, options), [&]<typename T>(T* data, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      data[i] =
          static_cast<T>(i < n / 2 ? a + step * static_cast<double>(i) : b - step * static_cast<double>(n - 1 - i));
    }
  });
}

Tensor eye(int64_t n, const TensorOptions& options) { return eye(n, n, options); }

Tensor eye(int64_t n, int64_t m, const TensorOptions& options) {
  MT_CHECK_VALUE(n >= 0, "n must be greater or equal to 0, got ", n);
  MT_CHECK_VALUE(m >= 0, "m must be greater or equal to 0, got ", m);
  return fill(empty({n, m}, options), [&]<typename T>(T* data, int64_t numel) {
    std::fill_n(data, numel, T(0));
    for (int64_t i = 0; i < std::min(n, m); ++i) data[i * m + i] = T(1);
  });
}

Tensor rand(IntArrayRef size, const TensorOptions& options) { return rand(size, nullptr, options); }

Tensor rand(IntArrayRef size, Generator* generator, const TensorOptions& options) {
  MT_CHECK_TYPE(is_floating_point(options.dtype()), "\"check_uniform_bounds\" not implemented for '", options.dtype(),
                "': rand needs a floating-point dtype");
  return fill(empty(size, options), [&]<typename T>(T* data, int64_t n) {
    Generator::Locked gen(generator_or_default(generator));
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(gen.uniform(mantissa_bits<T>));
  });
}

Tensor randn(IntArrayRef size, const TensorOptions& options) { return randn(size, nullptr, options); }

Tensor randn(IntArrayRef size, Generator* generator, const TensorOptions& options) {
  MT_CHECK_TYPE(is_floating_point(options.dtype()), "\"normal_kernel_cpu\" not implemented for '", options.dtype(),
                "': randn needs a floating-point dtype");
  return fill(empty(size, options), [&]<typename T>(T* data, int64_t n) {
    Generator::Locked gen(generator_or_default(generator));
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(gen.normal());
  });
}

Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& options) {
  return randint(0, high, size, nullptr, options);
}
Tensor randint(int64_t high, IntArrayRef size, Generator* generator, const TensorOptions& options) {
  return randint(0, high, size, generator, options);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions& options) {
  return randint(low, high, size, nullptr, options);
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, Generator* generator, const TensorOptions& options) {
  MT_CHECK_VALUE(low < high, "random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
  return fill(empty(size, with_default_dtype(options, kInt64)), [&]<typename T>(T* data, int64_t n) {
    Generator::Locked gen(generator_or_default(generator));
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(gen.random_from_to(low, high));
  });
}

Tensor empty_like(const Tensor& self, const TensorOptions& options) { return empty(self.sizes(), like(self, options)); }
Tensor zeros_like(const Tensor& self, const TensorOptions& options) { return zeros(self.sizes(), like(self, options)); }
Tensor ones_like(const Tensor& self, const TensorOptions& options) { return ones(self.sizes(), like(self, options)); }
Tensor full_like(const Tensor& self, const Scalar& fill_value, const TensorOptions& options) {
  return full(self.sizes(), fill_value, like(self, options));
}
Tensor rand_like(const Tensor& self, const TensorOptions& options) { return rand(self.sizes(), like(self, options)); }
Tensor randn_like(const Tensor& self, const TensorOptions& options) { return randn(self.sizes(), like(self, options)); }

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
