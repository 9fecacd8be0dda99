#pragma once
// mt::Tensor: a cheap handle to a TensorImpl (copying it is one refcount increment): TensorBase with the
// operator methods and autograd.
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
#include "tensor/TensorBase.h"

#ifdef MT_KERNEL_TU
#error "A kernel (ops/cpu, ops/cuda) sees tensors as mt::TensorBase: include tensor/TensorBase.h, not tensor/Tensor.h"
#endif

namespace mt {

namespace autograd {
class Node;
}

class Generator;  // generated methods with a `Generator?` argument take a Generator*

class Tensor : public TensorBase {
 public:
  Tensor() = default;
  explicit Tensor(intrusive_ptr<TensorImpl> impl) : TensorBase(std::move(impl)) {}
  // A kernel's TensorBase, seen with the operator methods again (PyTorch's implicit conversion).
  Tensor(const TensorBase& base) : TensorBase(base) {}  // NOLINT(google-explicit-constructor)
  Tensor(TensorBase&& base) : TensorBase(std::move(base)) {}  // NOLINT(google-explicit-constructor)

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
};

// Prints like PyTorch: `tensor([[1., 2.],\n        [3., 4.]])`, with dtype=/device= suffixes when they
// are not the defaults, and large tensors summarised with `...`.
std::ostream& operator<<(std::ostream& os, const Tensor& t);

}  // namespace mt
