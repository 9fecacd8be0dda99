#include "tensor/Device.h"

#include <charconv>

#include "tensor/Error.h"

namespace mt {

std::string_view device_type_name(DeviceType t) {
  switch (t) {
    case kCPU:
      return "cpu";
    case kCUDA:
      return "cuda";
    case kMeta:
      return "meta";
    case kPrivateUse1:
      return "privateuseone";
  }
  return "unknown";
}

Device::Device(DeviceType type, DeviceIndex index) : type_(type), index_(index) {
  MT_CHECK_VALUE(index >= -1, "Device index must be -1 or non-negative, got ", int(index));
  MT_CHECK_VALUE(!(type == kCPU && index > 0), "CPU device index must be -1 or zero, got ", int(index));
}

Device::Device(std::string_view spec) : type_(kCPU), index_(-1) {
  const auto colon = spec.find(':');
  const std::string_view type_part = spec.substr(0, colon);
  bool known = false;
  for (DeviceType t : {kCPU, kCUDA, kMeta, kPrivateUse1}) {
    if (type_part == device_type_name(t)) {
      type_ = t;
      known = true;
    }
  }
  MT_CHECK_VALUE(known, "Expected one of cpu, cuda, meta, privateuseone device type at start of device string: ",
                 spec);
  if (colon == std::string_view::npos) return;
  const std::string_view index_part = spec.substr(colon + 1);
  int index = -1;
  const auto [end, ec] = std::from_chars(index_part.data(), index_part.data() + index_part.size(), index);
  MT_CHECK_VALUE(!index_part.empty() && ec == std::errc() && end == index_part.data() + index_part.size() &&
                     index >= 0 && index <= 127 && (index_part.size() == 1 || index_part[0] != '0'),
                 "Invalid device string: '", spec, "': expected a device index from 0 to 127 after ':'");
  MT_CHECK_VALUE(!(type_ == kCPU && index != 0), "Invalid device string: '", spec,
                 "': CPU device index must be -1 or zero, got ", index);
  index_ = static_cast<DeviceIndex>(index);
}

std::string Device::str() const {
  std::string s(device_type_name(type_));
  if (has_index()) s.append(":").append(std::to_string(int(index_)));
  return s;
}

std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << device_type_name(t); }
std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

}  // namespace mt
