#pragma once
// A DispatchStub is the per-device function behind one piece of an op: the op's shared code (shape,
// dtype, allocation through TensorIterator) calls `add_stub(iter.device().type(), iter, alpha)`, and each
// backend folder registers its loop: MT_REGISTER_STUB(add_stub, kCPU, add_kernel_cpu).
#include <array>

#include "tensor/Device.h"
#include "tensor/Error.h"
#include "tensor/Macros.h"

namespace mt {

template <typename Fn>
class DispatchStub {
 public:
  constexpr DispatchStub(const char* name) : name_(name) {}

  // Meta tensors have no data, so there is nothing to compute.
  template <typename... Args>
  void operator()(DeviceType device, Args&&... args) const {
    if (device == kMeta) return;
    Fn* fn = fns_[static_cast<int>(device)];
    MT_CHECK_NOT_IMPLEMENTED(fn != nullptr, "\"", name_, "\" has no kernel for device type ", device);
    fn(std::forward<Args>(args)...);
  }
  // The registered loop, or nullptr (tests/isa checks which program's copy of a kernel runs).
  Fn* kernel(DeviceType device) const { return fns_[static_cast<int>(device)]; }
  bool set(DeviceType device, Fn* fn) {
    fns_[static_cast<int>(device)] = fn;
    return true;
  }

 private:
  const char* name_;
  std::array<Fn*, 4> fns_{};
};

}  // namespace mt

// In the op's header: MT_DECLARE_STUB(add_stub, void(TensorIterator&, const Scalar&));
#define MT_DECLARE_STUB(name, fn_type) extern ::mt::DispatchStub<fn_type> name
// In the op's .cpp: MT_DEFINE_STUB(add_stub);
#define MT_DEFINE_STUB(name, fn_type) constinit ::mt::DispatchStub<fn_type> name(#name)
// In a backend's kernel file.
#define MT_REGISTER_STUB(name, device, fn) \
  static const bool MT_CONCAT(name##_registered_, __COUNTER__) = name.set(device, fn)
