#pragma once
// mt::Tensor: a cheap handle to a TensorImpl (copying it is one refcount increment).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "tensor/OptionalIntArrayRef.h"
#include "tensor/Scalar.h"
#include "tensor/TensorImpl.h"
#include "tensor/TensorOptions.h"

namespace mt {

namespace autograd {
class Node;
}

class Generator;  // generated methods with a `Generator?` argument take a Generator*

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_.defined(); }
  TensorImpl* unsafeGetTensorImpl() const { return impl_.get(); }
  const intrusive_ptr<TensorImpl>& getIntrusivePtr() const { return impl_; }
  uint32_t use_count() const { return impl_.use_count(); }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }
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

  // a[i] as in PyTorch's C++ API: select(0, i), a view (defined with the view ops in ops/ViewOps.cpp).
  Tensor operator[](int64_t index) const;
  // t.to(mt::kMeta), t.to(mt::TensorOptions().dtype(mt::kFloat64).device("cpu")): the tensor itself when
  // nothing changes and `copy` is false (defined with the conversion ops in ops/TensorConversions.cpp).
  Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;

  // Autograd, as in PyTorch (defined by the autograd layer in autograd/TensorAutograd.cpp).
  bool requires_grad() const;
  // Only leaves, and only floating-point ones, can change whether they require grad.
  const Tensor& requires_grad_(bool requires_grad = true) const;
  bool is_leaf() const;
  // The accumulated gradient of a leaf (undefined until a backward reaches it).
  const Tensor& grad() const;
  Tensor& mutable_grad() const;
  std::shared_ptr<autograd::Node> grad_fn() const;
  uint32_t output_nr() const;
  void backward(const Tensor& gradient = Tensor(), std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false) const;
  // `hook(grad)` runs when this tensor's gradient is computed; a defined result replaces the gradient.
  void register_hook(std::function<Tensor(const Tensor&)> hook) const;
  // Keeps .grad() for a non-leaf too.
  void retain_grad() const;

  // The operator methods (t.add(u), t.mul_(2), ...), generated from ops/native_functions/*.txt and
  // defined once in the library (the generated TensorMethods.cpp).
#include "ops/TensorMethods.h"

 private:
  TensorImpl* impl() const {
    if (__builtin_expect(!impl_.defined(), 0)) throw_undefined();
    return impl_.get();
  }
  [[noreturn, gnu::cold]] static void throw_undefined();
  void check_data_ptr_type(ScalarType requested) const;

  intrusive_ptr<TensorImpl> impl_;
};

// Prints like PyTorch: `tensor([[1., 2.],\n        [3., 4.]])`, with dtype=/device= suffixes when they
// are not the defaults, and large tensors summarised with `...`.
std::ostream& operator<<(std::ostream& os, const Tensor& t);

}  // namespace mt
