// The CPU loop of copy_ and dtype conversion.
#include <cstring>

#include "ops/Copy.h"
#include "ops/infra/TensorIterator.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

template <typename D, typename S>
D convert(S s) {
  if constexpr (std::is_same_v<D, S>) {
    return s;
  } else if constexpr (std::is_same_v<D, bool>) {
    return static_cast<opmath_t<S>>(s) != opmath_t<S>(0);
  } else if constexpr (std::is_integral_v<D> && sizeof(D) < 8 && !std::is_integral_v<S>) {
    // Through int64, as PyTorch: -1.0 becomes 255 in uint8 (and 300.0 becomes 44) instead of undefined.
    return static_cast<D>(static_cast<int64_t>(static_cast<opmath_t<S>>(s)));
  } else {
    return static_cast<D>(static_cast<opmath_t<S>>(s));
  }
}

void copy_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.dtype(0), "copy_", [&]<typename D>() {
    dispatch_all_types(iter.dtype(1), "copy_", [&]<typename S>() {
      iter.for_each([](char** data, const int64_t* strides, int64_t n) {
        if constexpr (std::is_same_v<D, S>) {
          if (strides[0] == sizeof(D) && strides[1] == sizeof(S)) {
            std::memmove(data[0], data[1], n * sizeof(D));
            return;
          }
        }
        for (int64_t k = 0; k < n; ++k) {
          *reinterpret_cast<D*>(data[0] + k * strides[0]) =
              convert<D>(*reinterpret_cast<const S*>(data[1] + k * strides[1]));
        }
      });
    });
  });
}

}  // namespace

MT_REGISTER_STUB(copy_stub, kCPU, copy_kernel);

}  // namespace mt
