#pragma once
// mt::TensorBase: a tensor handle without the operator methods (PyTorch's at::TensorBase). It holds what a
// kernel reads of a tensor (sizes, strides, dtype, device, data) and nothing generated from the operator
// declarations, so the kernels (ops/cpu, ops/cuda), which see only this, do not rebuild when an op is
// declared. mt::Tensor (tensor/Tensor.h) adds the operator methods and autograd; it converts to and from
// TensorBase at the cost of a reference count.
#include <cstdint>
#include <string>
#include <type_traits>

#include "tensor/Scalar.h"
#include "tensor/TensorImpl.h"
#include "tensor/TensorOptions.h"

namespace mt {

class TensorBase {
 public:
  TensorBase() = default;
  explicit TensorBase(intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_.defined(); }
  TensorImpl* unsafeGetTensorImpl() const { return impl_.get(); }
  const intrusive_ptr<TensorImpl>& getIntrusivePtr() const { return impl_; }
  uint32_t use_count() const { return impl_.use_count(); }
  bool is_same(const TensorBase& o) const { return impl_ == o.impl_; }
  void reset() { impl_.reset(); }

  IntArrayRef sizes() const { return impl()->sizes(); }
  IntArrayRef strides() const { return impl()->strides(); }
  int64_t size(int64_t d) const { return impl()->size(d); }
  int64_t stride(int64_t d) const { return impl()->stride(d); }
  int64_t dim() const { return impl()->dim(); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return impl()->numel(); }
  int64_t storage_offset() const { return impl()->storage_offset(); }
  bool is_contiguous() const { return impl()->is_contiguous(); }
  ScalarType dtype() const { return impl()->dtype(); }
  ScalarType scalar_type() const { return impl()->dtype(); }
  size_t element_size() const { return impl()->itemsize(); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(); }
  Device device() const { return impl()->device(); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  bool is_meta() const { return device().is_meta(); }
  bool is_floating_point() const { return mt::is_floating_point(dtype()); }
  bool is_inference() const { return impl()->is_inference(); }
  uint32_t _version() const { return impl()->version(); }
  DispatchKeySet key_set() const { return impl()->key_set(); }
  TensorOptions options() const { return TensorOptions().dtype(dtype()).device(device()); }

  // Address of the first element, typed; T must match the dtype exactly.
  template <typename T>
  T* data_ptr() const {
    check_data_ptr_type(scalar_type_of<std::remove_const_t<T>>);
    return static_cast<T*>(impl()->data());
  }
  void* data_ptr() const { return impl()->data(); }

  // The value of a one-element tensor, converted to T as a static_cast would.
  template <typename T>
  T item() const {
    return item().to<T>();
  }
  Scalar item() const;

  std::string toString() const;  // "Tensor(dtype=mt.float32, device=cpu, sizes=[2, 3])", for errors

 protected:
  TensorImpl* impl() const {
    if (__builtin_expect(!impl_.defined(), 0)) throw_undefined();
    return impl_.get();
  }
  [[noreturn, gnu::cold]] static void throw_undefined();
  void check_data_ptr_type(ScalarType requested) const;

  intrusive_ptr<TensorImpl> impl_;
};

}  // namespace mt
