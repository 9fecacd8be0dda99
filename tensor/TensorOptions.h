#pragma once
// TensorOptions: dtype and device for factories, each optional (unset means the default), built
// fluently as in PyTorch: `mt::TensorOptions().dtype(mt::kFloat64).device("cpu")`.
#include <optional>

#include "tensor/Device.h"
#include "tensor/ScalarType.h"

namespace mt {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}
  TensorOptions(Device device) : device_(device) {}
  TensorOptions(DeviceType device) : device_(Device(device)) {}

  TensorOptions dtype(ScalarType d) const {
    TensorOptions r = *this;
    r.dtype_ = d;
    return r;
  }
  TensorOptions device(Device d) const {
    TensorOptions r = *this;
    r.device_ = d;
    return r;
  }

  ScalarType dtype() const { return dtype_.value_or(get_default_dtype()); }
  Device device() const { return device_.value_or(Device(kCPU)); }
  bool has_dtype() const { return dtype_.has_value(); }
  bool has_device() const { return device_.has_value(); }
  std::optional<ScalarType> dtype_opt() const { return dtype_; }
  std::optional<Device> device_opt() const { return device_; }

 private:
  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
};

inline TensorOptions dtype(ScalarType d) { return TensorOptions(d); }
inline TensorOptions device(Device d) { return TensorOptions(d); }

}  // namespace mt
