#include "tensor/Tensor.h"

#include <sstream>

#include "tensor/Allocator.h"
#include "tensor/Error.h"

namespace mt {

void TensorBase::throw_undefined() {
  throw RuntimeError(
      "Tensor is undefined: this method needs a tensor that holds data (a default-constructed mt::Tensor() holds "
      "none)");
}

void TensorBase::check_data_ptr_type(ScalarType requested) const {
  MT_CHECK_TYPE(requested == impl()->dtype(), "expected scalar type ", requested, " but found ", impl()->dtype());
}

Scalar TensorBase::item() const {
  MT_CHECK_VALUE(numel() == 1, "a Tensor with ", numel(), " elements cannot be converted to Scalar");
  MT_CHECK(!is_meta(), "Tensor.item() cannot be called on meta tensors");
  MT_CHECK(!impl()->is_fake(), "Tensor.item() cannot be called on fake tensors (made under FakeTensorMode): they have "
           "no data");
  // A device tensor's element is copied to the host, which waits for the kernels that compute it.
  const TensorImpl& holder = impl()->data_holder();
  alignas(8) char host_copy[8];
  const void* p = holder.data();
  if (!holder.device().is_cpu()) {
    get_allocator(holder.device().type())->copy_to_host(host_copy, p, holder.itemsize());
    p = host_copy;
  }
  switch (dtype()) {
#define MT_CASE(cpp, name, str) \
  case ScalarType::name:        \
    return Scalar(*static_cast<const cpp*>(p));
    MT_FORALL_SCALAR_TYPES(MT_CASE)
#undef MT_CASE
    default:
      break;
  }
  MT_CHECK(false, "item(): unsupported dtype ", dtype());
  return Scalar();
}

std::string TensorBase::toString() const {
  if (!defined()) return "UndefinedTensor";
  std::ostringstream ss;
  ss << "Tensor(dtype=" << dtype() << ", device=" << device() << ", sizes=" << sizes() << ")";
  return ss.str();
}

}  // namespace mt
