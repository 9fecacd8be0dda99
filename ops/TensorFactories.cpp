// The factory operators' kernels. A factory has no tensor argument to take a backend from, so the
// dispatcher lands on its BackendSelect kernel, which reads `device` and redispatches to that backend.
// The CPU kernels make the tensor and fill it; the same kernels serve Meta, where there is nothing to
// fill. The *_like factories are backend-independent (CompositeExplicitAutograd): they call the plain
// factory with self's size, dtype and device, and it goes through BackendSelect in turn.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "ops/api/arange_ops.h"
#include "ops/api/copy_ops.h"
#include "ops/api/empty_ops.h"
#include "ops/api/empty_like_ops.h"
#include "ops/api/empty_strided_ops.h"
#include "ops/api/eye_ops.h"
#include "ops/api/fill_ops.h"
#include "ops/api/full_ops.h"
#include "ops/api/full_like_ops.h"
#include "ops/api/linspace_ops.h"
#include "ops/api/max_ops.h"
#include "ops/api/min_ops.h"
#include "ops/api/new_empty_strided_ops.h"
#include "ops/api/ones_ops.h"
#include "ops/api/ones_like_ops.h"
#include "ops/api/rand_ops.h"
#include "ops/api/rand_like_ops.h"
#include "ops/api/randint_ops.h"
#include "ops/api/randn_ops.h"
#include "ops/api/randn_like_ops.h"
#include "ops/api/std_ops.h"
#include "ops/api/t_ops.h"
#include "ops/api/zeros_ops.h"
#include "ops/api/zeros_like_ops.h"
#include "ops/Views.h"
#include "tensor/DtypeDispatch.h"

namespace mt {

namespace {

// --- BackendSelect -----------------------------------------------------------------------------------

// The keys a factory for `device` continues with: the backend's, plus what the thread's TLS adds, limited
// to the layers below BackendSelect.
DispatchKeySet backend_keys(std::optional<Device> device) {
  const LocalDispatchKeySet tls = tls_local_dispatch_key_set();
  const DispatchKeySet backend =
      DispatchKeySet(DispatchKey::Dense) | DispatchKeySet(backend_of(device.value_or(Device(kCPU)).type()));
  return ((backend | tls.included_) - tls.excluded_) &
         DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::BackendSelect);
}

// Every factory declares `device` as its last argument.
template <typename Op, typename Schema = typename Op::schema>
struct SelectBackend;
template <typename Op, typename... Args>
struct SelectBackend<Op, Tensor(Args...)> {
  static Tensor call(Args... args) {
    const std::optional<Device> device = std::get<sizeof...(Args) - 1>(std::tie(args...));
    return Op::redispatch(backend_keys(device), args...);
  }
};

// --- filling ---------------------------------------------------------------------------------------------

// A new contiguous tensor filled by writer.template operator()<T>(data, numel); Meta tensors have no
// data and are returned as they are.
template <typename F>
Tensor make_filled(IntArrayRef size, ScalarType dtype, std::optional<Device> device, F&& writer) {
  Tensor t(TensorImpl::empty(size, dtype, device.value_or(Device(kCPU))));
  if (t.is_meta()) return t;
  dispatch_all_types(dtype, "fill", [&]<typename T>() { writer.template operator()<T>(static_cast<T*>(t.data_ptr()), t.numel()); });
  return t;
}

template <typename T>
constexpr int mantissa_bits = std::numeric_limits<T>::digits;
// Eigen's numeric_limits for half and bfloat16 give their precision (11 and 8 bits) too.
static_assert(mantissa_bits<float> == 24 && mantissa_bits<double> == 53 && mantissa_bits<Half> == 11 &&
              mantissa_bits<BFloat16> == 8);

Generator& generator_or_default(Generator* generator) { return generator ? *generator : default_generator(); }

ScalarType float_dtype(std::optional<ScalarType> dtype) { return dtype.value_or(get_default_dtype()); }

// --- the backend kernels -----------------------------------------------------------------------------------

Tensor empty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return Tensor(TensorImpl::empty(size, float_dtype(dtype), device.value_or(Device(kCPU))));
}

Tensor empty_strided(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                     std::optional<Device> device) {
  return Tensor(TensorImpl::empty_strided(size, stride, float_dtype(dtype), device.value_or(Device(kCPU))));
}

Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<Device> device) {
  // Without a dtype, the fill value decides: bool, int64 or the default float.
  const ScalarType inferred = fill_value.isFloatingPoint() ? get_default_dtype() : fill_value.type();
  return make_filled(size, dtype.value_or(inferred), device,
                     [&]<typename T>(T* data, int64_t n) { std::fill_n(data, n, fill_value.to<T>()); });
}

Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return full(size, 0, float_dtype(dtype), device);
}

Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return full(size, 1, float_dtype(dtype), device);
}

// ceil((end - start) / step) for a step whose sign matches end - start's, without overflow.
__int128 integer_range_size(int64_t start, int64_t end, int64_t step) {
  const __int128 span = static_cast<__int128>(end) - start;
  return step > 0 ? (span + step - 1) / step : (-span - step - 1) / -static_cast<__int128>(step);
}

Tensor arange_start_step(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<ScalarType> dtype,
                         std::optional<Device> device) {
  const bool integral = !start.isFloatingPoint() && !end.isFloatingPoint() && !step.isFloatingPoint();
  const ScalarType out_dtype = dtype.value_or(integral ? kInt64 : get_default_dtype());
  MT_CHECK_TYPE(out_dtype != kBool, "\"arange_cpu\" not implemented for '", out_dtype, "'");
  // Integer dtypes step in integers, as the values will be stored.
  const bool integral_dtype = !is_floating_point(out_dtype);
  const double xstart = integral_dtype ? start.toLong() : start.toDouble();
  const double xend = integral_dtype ? end.toLong() : end.toDouble();
  const double xstep = integral_dtype ? step.toLong() : step.toDouble();
  MT_CHECK_VALUE(xstep != 0, "step must be nonzero");
  MT_CHECK_VALUE(std::isfinite(xstart) && std::isfinite(xend), "unsupported range: ", start, " -> ", end);
  MT_CHECK_VALUE((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart),
                 "upper bound and larger bound inconsistent with step sign");
  // Integer bounds count in integers: doubles are inexact beyond 2^53.
  const double size =
      integral_dtype ? static_cast<double>(integer_range_size(start.toLong(), end.toLong(), step.toLong()))
                     : std::ceil((xend - xstart) / xstep);
  MT_CHECK_VALUE(size <= static_cast<double>(std::numeric_limits<int64_t>::max()),
                 "invalid size, possible overflow? arange(", start, ", ", end, ", ", step, ") has ", size, " elements");
  const int64_t n = static_cast<int64_t>(size);
  if (integral_dtype) {
    const int64_t istart = start.toLong(), istep = step.toLong();
    return make_filled({n}, out_dtype, device, [&]<typename T>(T* data, int64_t count) {
      // In unsigned arithmetic, which wraps where a huge range's intermediate product would overflow.
      const auto ustart = static_cast<uint64_t>(istart), ustep = static_cast<uint64_t>(istep);
      for (int64_t i = 0; i < count; ++i)
        data[i] = static_cast<T>(static_cast<int64_t>(ustart + ustep * static_cast<uint64_t>(i)));
    });
  }
  return make_filled({n}, out_dtype, device, [&]<typename T>(T* data, int64_t count) {
    for (int64_t i = 0; i < count; ++i) data[i] = static_cast<T>(xstart + xstep * static_cast<double>(i));
  });
}

Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return arange_start_step(0, end, 1, dtype, device);
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<ScalarType> dtype,
                std::optional<Device> device) {
  MT_CHECK_VALUE(steps >= 0, "number of steps must be non-negative, got ", steps);
  const ScalarType out_dtype = float_dtype(dtype);
  MT_CHECK_TYPE(out_dtype != kBool, "\"linspace_cpu\" not implemented for '", out_dtype, "'");
  const double a = start.toDouble(), b = end.toDouble();
  const double step = steps > 1 ? (b - a) / static_cast<double>(steps - 1) : 0.0;
  // The second half counts back from `end`, so that the last value is `end` exactly; one step is `start`.
  return make_filled({steps}, out_dtype, device, [&]<typename T>(T* data, int64_t n) {
    const int64_t halfway = n == 1 ? 1 : n / 2;
    for (int64_t i = 0; i < n; ++i) {
      data[i] = static_cast<T>(i < halfway ? a + step * static_cast<double>(i) : b - step * static_cast<double>(n - 1 - i));
    }
  });
}

Tensor eye_m(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Device> device) {
  MT_CHECK_VALUE(n >= 0, "n must be greater or equal to 0, got ", n);
  MT_CHECK_VALUE(m >= 0, "m must be greater or equal to 0, got ", m);
  return make_filled({n, m}, float_dtype(dtype), device, [&]<typename T>(T* data, int64_t numel) {
    std::fill_n(data, numel, T(0));
    for (int64_t i = 0; i < std::min(n, m); ++i) data[i * m + i] = T(1);
  });
}

Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return eye_m(n, n, dtype, device);
}

Tensor rand(IntArrayRef size, Generator* generator, std::optional<ScalarType> dtype, std::optional<Device> device) {
  const ScalarType out_dtype = float_dtype(dtype);
  MT_CHECK_TYPE(is_floating_point(out_dtype), "\"check_uniform_bounds\" not implemented for '", out_dtype,
                "': rand needs a floating-point dtype");
  return make_filled(size, out_dtype, device, [&]<typename T>(T* data, int64_t n) {
    Generator::Locked gen(generator_or_default(generator));
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(gen.uniform(mantissa_bits<T>));
  });
}

Tensor randn(IntArrayRef size, Generator* generator, std::optional<ScalarType> dtype, std::optional<Device> device) {
  const ScalarType out_dtype = float_dtype(dtype);
  MT_CHECK_TYPE(is_floating_point(out_dtype), "\"normal_kernel_cpu\" not implemented for '", out_dtype,
                "': randn needs a floating-point dtype");
  return make_filled(size, out_dtype, device, [&]<typename T>(T* data, int64_t n) {
    Generator::Locked gen(generator_or_default(generator));
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(gen.normal());
  });
}

// Both ends of [from, to] must be values of an integer dtype, as PyTorch's random_ checks.
void check_random_range(int64_t from, int64_t to, ScalarType dtype) {
  if (!is_integral(dtype, true)) return;
  const auto in_range = [dtype](int64_t v) {
    return dispatch_all_types(dtype, "randint", [v]<typename T>() {
      if constexpr (std::is_integral_v<T>) {
        return v >= int64_t{std::numeric_limits<T>::min()} && v <= int64_t{std::numeric_limits<T>::max()};
      }
      return true;
    });
  };
  MT_CHECK(in_range(from), "from is out of bounds for ", dtype);
  MT_CHECK(in_range(to), "to - 1 is out of bounds for ", dtype);
}

Tensor randint_low(int64_t low, int64_t high, IntArrayRef size, Generator* generator, std::optional<ScalarType> dtype,
                   std::optional<Device> device) {
  MT_CHECK_VALUE(low < high, "random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
  // randint's dtype defaults to int64.
  const ScalarType out_dtype = dtype.value_or(kInt64);
  check_random_range(low, high - 1, out_dtype);
  return make_filled(size, out_dtype, device, [&]<typename T>(T* data, int64_t n) {
    Generator::Locked gen(generator_or_default(generator));
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(gen.random_from_to(low, high));
  });
}

Tensor randint(int64_t high, IntArrayRef size, Generator* generator, std::optional<ScalarType> dtype,
               std::optional<Device> device) {
  return randint_low(0, high, size, generator, dtype, device);
}

void register_backend_kernels(Library& m) {
  m.impl("empty", MT_FN(empty));
  m.impl("empty_strided", MT_FN(empty_strided));
  m.impl("zeros", MT_FN(zeros));
  m.impl("ones", MT_FN(ones));
  m.impl("full", MT_FN(full));
  m.impl("arange", MT_FN(arange));
  m.impl("arange.start_step", MT_FN(arange_start_step));
  m.impl("linspace", MT_FN(linspace));
  m.impl("eye", MT_FN(eye));
  m.impl("eye.m", MT_FN(eye_m));
  m.impl("rand", MT_FN(rand));
  m.impl("randn", MT_FN(randn));
  m.impl("randint", MT_FN(randint));
  m.impl("randint.low", MT_FN(randint_low));
}

// --- *_like: self's size, dtype, device and layout (PyTorch's preserve_format) --------------------------------

ScalarType dtype_like(const Tensor& self, std::optional<ScalarType> dtype) { return dtype.value_or(self.dtype()); }
Device device_like(const Tensor& self, std::optional<Device> device) { return device.value_or(self.device()); }

Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  if (self.is_contiguous()) return ops::empty::call(self.sizes(), dtype_like(self, dtype), device_like(self, device));
  return ops::empty_strided::call(self.sizes(), preserve_format_strides(self), dtype_like(self, dtype),
                                  device_like(self, device));
}
// Contiguous tensors take the plain factory; others a tensor laid out like self, filled with its values.
Tensor made_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                 const Tensor& values) {
  if (self.is_contiguous()) return values;
  Tensor out = empty_like(self, dtype, device);
  ops::copy_::call(out, values, false);
  return out;
}
Tensor filled_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                   const Scalar& value) {
  if (self.is_contiguous()) return ops::full::call(self.sizes(), value, dtype_like(self, dtype), device_like(self, device));
  Tensor out = empty_like(self, dtype, device);
  ops::fill__Scalar::call(out, value);
  return out;
}
Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return filled_like(self, dtype, device, 0);
}
Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return filled_like(self, dtype, device, 1);
}
Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Device> device) {
  return filled_like(self, dtype, device, fill_value);
}
Tensor rand_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return made_like(self, dtype, device,
                   ops::rand::call(self.sizes(), nullptr, dtype_like(self, dtype), device_like(self, device)));
}
Tensor randn_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return made_like(self, dtype, device,
                   ops::randn::call(self.sizes(), nullptr, dtype_like(self, dtype), device_like(self, device)));
}
// Not a *_like (the size is given), but dispatched on self like them, so that transforms see it: a
// gradient buffer made from a batched gradient is batched too.
Tensor new_empty_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                         std::optional<Device> device) {
  return ops::empty_strided::call(size, stride, dtype_like(self, dtype), device_like(self, device));
}

}  // namespace

MT_LIBRARY_IMPL(mt, BackendSelect, m) {
  m.impl("empty", &SelectBackend<ops::empty>::call);
  m.impl("empty_strided", &SelectBackend<ops::empty_strided>::call);
  m.impl("zeros", &SelectBackend<ops::zeros>::call);
  m.impl("ones", &SelectBackend<ops::ones>::call);
  m.impl("full", &SelectBackend<ops::full>::call);
  m.impl("arange", &SelectBackend<ops::arange>::call);
  m.impl("arange.start_step", &SelectBackend<ops::arange_start_step>::call);
  m.impl("linspace", &SelectBackend<ops::linspace>::call);
  m.impl("eye", &SelectBackend<ops::eye>::call);
  m.impl("eye.m", &SelectBackend<ops::eye_m>::call);
  m.impl("rand", &SelectBackend<ops::rand>::call);
  m.impl("randn", &SelectBackend<ops::randn>::call);
  m.impl("randint", &SelectBackend<ops::randint>::call);
  m.impl("randint.low", &SelectBackend<ops::randint_low>::call);
}

MT_LIBRARY_IMPL(mt, CPU, m) { register_backend_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_backend_kernels(m); }

MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) {
  m.impl("empty_like", MT_FN(empty_like));
  m.impl("zeros_like", MT_FN(zeros_like));
  m.impl("ones_like", MT_FN(ones_like));
  m.impl("full_like", MT_FN(full_like));
  m.impl("rand_like", MT_FN(rand_like));
  m.impl("randn_like", MT_FN(randn_like));
  m.impl("new_empty_strided", MT_FN(new_empty_strided));
}

}  // namespace mt
