#pragma once
// sort's per-device stub and the order it sorts in. Both devices sort unsigned keys, one per element, that
// order as the elements do: NaN above +inf (PyTorch's order, in both directions), -0.0 equal to 0.0, and
// descending as the complement of the ascending key. A stable radix sort of these keys is a stable sort of the
// elements, on the CPU (ops/cpu/SortingKernel.cpp) and on CUDA (cub, ops/cuda/SortingKernel.cu).
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/infra/DispatchStub.h"
#include "ops/ScalarMath.h"
#include "tensor/TensorBase.h"

namespace mt {

// Sorts each row of `self` (contiguous, rows along its last dim) into `values` and `indices` (contiguous, of
// self's shape): indices hold positions within the row, of int64.
MT_DECLARE_STUB(sort_stub, void(const TensorBase& values, const TensorBase& indices, const TensorBase& self, bool descending));

// 16-bit floats sort by their float value: the conversion is exact and keeps the order.
template <typename T>
using sort_key_t = std::conditional_t<sizeof(T) == 8, uint64_t,
                                      std::conditional_t<sizeof(T) == 1, uint8_t,
                                                         std::conditional_t<sizeof(T) == 4 || !std::is_integral_v<T>,
                                                                            uint32_t, uint16_t>>>;

template <typename T>
MT_HOST_DEVICE sort_key_t<T> sort_key(T v, bool descending) {
  using K = sort_key_t<T>;
  K key;
  if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
    key = static_cast<K>(v);
  } else if constexpr (std::is_integral_v<T>) {
    key = static_cast<K>(static_cast<std::make_unsigned_t<T>>(v)) ^ (K(1) << (8 * sizeof(T) - 1));
  } else {
    using F = std::conditional_t<sizeof(T) == 8, double, float>;
    const F f = static_cast<F>(v);
    constexpr K sign = K(1) << (8 * sizeof(K) - 1);
    if (f != f) {
      key = ~K(0);
    } else {
      const F canonical = f == F(0) ? F(0) : f;  // -0.0 sorts as 0.0
#ifdef __CUDA_ARCH__
      if constexpr (sizeof(F) == 8) key = static_cast<K>(__double_as_longlong(canonical));
      else key = __float_as_uint(canonical);
#else
      std::memcpy(&key, &canonical, sizeof(K));
#endif
      key = (key & sign) ? ~key : key | sign;
    }
  }
  return descending ? static_cast<K>(~key) : key;
}

}  // namespace mt
