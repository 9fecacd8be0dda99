// CPU loops of the comparisons and logical ops; every one writes bool.
#include "ops/CompareOps.h"
#include "ops/cpu/Loops.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

void compare_kernel(TensorIterator& iter, Comparison op) {
  dispatch_all_types(iter.common_dtype(), "compare", [&]<typename T>() {
    switch (op) {
      case Comparison::Eq: return cpu_kernel(iter, [](T a, T b) -> bool { return a == b; });
      case Comparison::Ne: return cpu_kernel(iter, [](T a, T b) -> bool { return a != b; });
      case Comparison::Lt: return cpu_kernel(iter, [](T a, T b) -> bool { return a < b; });
      case Comparison::Le: return cpu_kernel(iter, [](T a, T b) -> bool { return a <= b; });
      case Comparison::Gt: return cpu_kernel(iter, [](T a, T b) -> bool { return a > b; });
      case Comparison::Ge: return cpu_kernel(iter, [](T a, T b) -> bool { return a >= b; });
    }
  });
}

// The input keeps its own dtype (logical_not does not promote).
void logical_not_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.dtype(1), "logical_not",
                     [&]<typename T>() { cpu_kernel(iter, [](T a) -> bool { return a == T(0); }); });
}
void logical_and_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "logical_and", [&]<typename T>() {
    cpu_kernel(iter, [](T a, T b) -> bool { return a != T(0) && b != T(0); });
  });
}
void logical_or_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.common_dtype(), "logical_or", [&]<typename T>() {
    cpu_kernel(iter, [](T a, T b) -> bool { return a != T(0) || b != T(0); });
  });
}

}  // namespace

MT_REGISTER_STUB(compare_stub, kCPU, compare_kernel);
MT_REGISTER_STUB(logical_not_stub, kCPU, logical_not_kernel);
MT_REGISTER_STUB(logical_and_stub, kCPU, logical_and_kernel);
MT_REGISTER_STUB(logical_or_stub, kCPU, logical_or_kernel);

}  // namespace mt
