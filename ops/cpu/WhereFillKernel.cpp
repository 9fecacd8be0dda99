// CPU loops of where (also behind masked_fill) and fill_.
#include "ops/WhereFill.h"
#include "ops/cpu/Loops.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

void where_kernel(TensorIterator& iter) {
  dispatch_all_types(iter.dtype(0), "where", [&]<typename T>() {
    cpu_kernel(iter, [](bool c, T a, T b) -> T { return c ? a : b; });
  });
}

void fill_kernel(TensorIterator& iter, const Scalar& value) {
  dispatch_all_types(iter.dtype(0), "fill_", [&]<typename T>() {
    const T v = value.to<T>();
    cpu_kernel(iter, [v]() -> T { return v; });
  });
}

}  // namespace

MT_REGISTER_STUB(where_stub, kCPU, where_kernel);
MT_REGISTER_STUB(fill_stub, kCPU, fill_kernel);

}  // namespace mt
