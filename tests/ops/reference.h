#pragma once
// Independent helpers for operator tests: read any tensor into doubles in logical order, build strided
// views by hand, and compute broadcast results naively in double precision.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <cmath>
#include <functional>
#include <vector>

#include "ops/api/empty.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/std.h"

namespace mt::testing {

// Reads elements of a tensor of any layout and dtype (which must outlive it), by flat logical index, as
// doubles. It looks the geometry up once: references read every element, also in unoptimised builds.
class ElementReader {
 public:
  explicit ElementReader(const Tensor& t)
      : sizes_(t.sizes()), strides_(t.strides()), base_(static_cast<const char*>(t.data_ptr())), dtype_(t.dtype()) {}

  double operator()(int64_t flat) const {
    int64_t offset = 0;
    for (int64_t d = static_cast<int64_t>(sizes_.size()) - 1; d >= 0; --d) {
      offset += (flat % sizes_[d]) * strides_[d];
      flat /= sizes_[d];
    }
    switch (dtype_) {
      case kBool: return reinterpret_cast<const bool*>(base_)[offset];
      case kUInt8: return reinterpret_cast<const uint8_t*>(base_)[offset];
      case kInt8: return reinterpret_cast<const int8_t*>(base_)[offset];
      case kInt16: return reinterpret_cast<const int16_t*>(base_)[offset];
      case kInt32: return reinterpret_cast<const int32_t*>(base_)[offset];
      case kInt64: return static_cast<double>(reinterpret_cast<const int64_t*>(base_)[offset]);
      case kFloat32: return reinterpret_cast<const float*>(base_)[offset];
      case kFloat64: return reinterpret_cast<const double*>(base_)[offset];
      case kFloat16: return static_cast<float>(reinterpret_cast<const Half*>(base_)[offset]);
      case kBFloat16: return static_cast<float>(reinterpret_cast<const BFloat16*>(base_)[offset]);
      default: ADD_FAILURE() << "unknown dtype";
    }
    return 0;
  }

 private:
  IntArrayRef sizes_, strides_;
  const char* base_;
  ScalarType dtype_;
};

// Element at a flat logical index of a tensor of any layout and dtype, as a double.
inline double element(const Tensor& t, int64_t flat) { return ElementReader(t)(flat); }

inline std::vector<double> values(const Tensor& t) {
  const ElementReader read(t);
  std::vector<double> out(t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = read(i);
  return out;
}

// A view of t's storage with the given geometry (a transpose, a broadcast, a slice...).
inline Tensor strided_view(const Tensor& t, IntArrayRef sizes, IntArrayRef strides, int64_t offset = 0) {
  auto impl = make_intrusive<TensorImpl>(t.unsafeGetTensorImpl()->storage(), t.dtype());
  impl->set_sizes_and_strides(sizes, strides, offset);
  return Tensor(std::move(impl));
}

// All ten dtypes: bool, the five integer types, the four floating types.
inline const std::vector<ScalarType> kAllDtypes = {kBool,  kUInt8,   kInt8,    kInt16,   kInt32,
                                                   kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};

// Random values exactly representable in every dtype (small integers, halves; for uint8 their absolute
// values), so the naive double reference and the kernel see the same inputs.
inline Tensor random_tensor(IntArrayRef sizes, ScalarType dtype, uint64_t seed, bool nonzero = false) {
  Generator gen(seed);
  Tensor t = randint(-8, 9, sizes, &gen, TensorOptions(kInt64));
  std::vector<double> v = values(t);
  Tensor out = empty(sizes, TensorOptions(dtype));
  for (int64_t i = 0; i < out.numel(); ++i) {
    double x = dtype == kBool ? (static_cast<int64_t>(v[i]) % 2 != 0) : (is_floating_point(dtype) ? v[i] / 2 : v[i]);
    if (dtype == kUInt8) x = std::abs(x);
    if (nonzero && x == 0) x = dtype == kBool ? 1 : 3;
    switch (dtype) {
      case kBool: out.data_ptr<bool>()[i] = x != 0; break;
      case kUInt8: out.data_ptr<uint8_t>()[i] = static_cast<uint8_t>(x); break;
      case kInt8: out.data_ptr<int8_t>()[i] = static_cast<int8_t>(x); break;
      case kInt16: out.data_ptr<int16_t>()[i] = static_cast<int16_t>(x); break;
      case kInt32: out.data_ptr<int32_t>()[i] = static_cast<int32_t>(x); break;
      case kInt64: out.data_ptr<int64_t>()[i] = static_cast<int64_t>(x); break;
      case kFloat32: out.data_ptr<float>()[i] = static_cast<float>(x); break;
      case kFloat64: out.data_ptr<double>()[i] = x; break;
      case kFloat16: out.data_ptr<Half>()[i] = Half(static_cast<float>(x)); break;
      case kBFloat16: out.data_ptr<BFloat16>()[i] = BFloat16(static_cast<float>(x)); break;
      default: break;
    }
  }
  return out;
}

inline std::vector<int64_t> broadcast_shape(IntArrayRef a, IntArrayRef b) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t sa = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t sb = i < n - b.size() ? 1 : b[i - (n - b.size())];
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

// f applied to a and b broadcast together, in double precision, in logical order.
inline std::vector<double> naive_binary(const Tensor& a, const Tensor& b, const std::function<double(double, double)>& f) {
  const auto shape = broadcast_shape(a.sizes(), b.sizes());
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  auto index_into = [&](const Tensor& t, int64_t flat) {
    int64_t idx = 0, mul = 1;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      const int64_t coord = flat % shape[d];
      flat /= shape[d];
      const int64_t td = d - (static_cast<int64_t>(shape.size()) - t.dim());
      if (td < 0) continue;
      idx += (t.size(td) == 1 ? 0 : coord) * mul;
      mul *= t.size(td);
    }
    return idx;
  };
  std::vector<double> out(numel);
  for (int64_t i = 0; i < numel; ++i) out[i] = f(element(a, index_into(a, i)), element(b, index_into(b, i)));
  return out;
}

// v as an integer dtype holds it: C++20 conversion to an integer type is modulo 2^bits.
inline int64_t wrap_to(int64_t v, ScalarType dtype) {
  switch (dtype) {
    case kUInt8: return static_cast<uint8_t>(v);
    case kInt8: return static_cast<int8_t>(v);
    case kInt16: return static_cast<int16_t>(v);
    case kInt32: return static_cast<int32_t>(v);
    default: return v;
  }
}

// Standard normal values in `dtype`, drawn from a generator seeded with `seed`.
inline Tensor seeded_randn(IntArrayRef sizes, uint64_t seed, ScalarType dtype = kFloat32) {
  Generator g(seed);
  return mt::randn(sizes, &g, TensorOptions(dtype));
}

inline double tolerance(ScalarType t) {
  switch (t) {
    case kFloat16: return 1e-2;
    case kBFloat16: return 5e-2;
    case kFloat32: return 1e-5;
    default: return 1e-12;
  }
}

inline void expect_values_near(const Tensor& actual, const std::vector<double>& expected, double rel_tol) {
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(expected.size()));
  for (int64_t i = 0; i < actual.numel(); ++i) {
    const double a = element(actual, i), e = expected[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(a)) << "at " << i;
      continue;
    }
    EXPECT_NEAR(a, e, rel_tol * std::max(1.0, std::abs(e))) << "at flat index " << i;
  }
}

template <typename E>
void expect_error(const std::function<void()>& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "expected an error containing: " << fragment;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << "message was: " << e.what();
  }
}

}  // namespace mt::testing
