// CPU loops of the bitwise ops. The loops are plain integer code, which the compiler vectorises.
#include <type_traits>

#include "ops/BitwiseOps.h"
#include "ops/ScalarMath.h"
#include "ops/cpu/Loops.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

// On bool, not is logical (~true would be -2, also true).
void bitwise_not_kernel(TensorIterator& iter) {
  dispatch_integral_types_and_bool(iter.common_dtype(), "bitwise_not", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel(iter, [](bool a) -> bool { return !a; });
    } else {
      cpu_kernel(iter, [](T a) -> T { return static_cast<T>(~a); });
    }
  });
}

void bitwise_kernel(TensorIterator& iter, Bitwise op) {
  switch (op) {
    case Bitwise::And:
      return dispatch_integral_types_and_bool(iter.common_dtype(), bitwise_name(op), [&]<typename T>() {
        cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(a & b); });
      });
    case Bitwise::Or:
      return dispatch_integral_types_and_bool(iter.common_dtype(), bitwise_name(op), [&]<typename T>() {
        cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(a | b); });
      });
    case Bitwise::Xor:
      return dispatch_integral_types_and_bool(iter.common_dtype(), bitwise_name(op), [&]<typename T>() {
        cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(a ^ b); });
      });
    case Bitwise::LeftShift:
      return dispatch_integral_types(iter.common_dtype(), bitwise_name(op), [&]<typename T>() {
        cpu_kernel(iter, [](T a, T b) -> T { return shift_left(a, b); });
      });
    case Bitwise::RightShift:
      return dispatch_integral_types(iter.common_dtype(), bitwise_name(op), [&]<typename T>() {
        cpu_kernel(iter, [](T a, T b) -> T { return shift_right(a, b); });
      });
  }
}

}  // namespace

MT_REGISTER_STUB(bitwise_stub, kCPU, bitwise_kernel);
MT_REGISTER_STUB(bitwise_not_stub, kCPU, bitwise_not_kernel);

}  // namespace mt
