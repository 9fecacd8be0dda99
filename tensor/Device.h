#pragma once
// Where a tensor's memory lives: CPU, a CUDA device (with an index), Meta (shapes only, no memory)
// or PrivateUse1 (a backend added from outside the library).
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace mt {

enum class DeviceType : int8_t { CPU, CUDA, Meta, PrivateUse1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;

std::string_view device_type_name(DeviceType t);  // "cpu", "cuda", "meta", "privateuseone"

class Device {
 public:
  using DeviceIndex = int8_t;

  // An index of -1 means "the current device" of that type.
  Device(DeviceType type, DeviceIndex index = -1);
  // Parses "cpu", "cuda", "cuda:1", "meta", "privateuseone:0".
  Device(std::string_view spec);
  Device(const char* spec) : Device(std::string_view(spec)) {}
  Device(const std::string& spec) : Device(std::string_view(spec)) {}

  DeviceType type() const { return type_; }
  DeviceIndex index() const { return index_; }
  bool has_index() const { return index_ != -1; }
  bool is_cpu() const { return type_ == kCPU; }
  bool is_cuda() const { return type_ == kCUDA; }
  bool is_meta() const { return type_ == kMeta; }

  bool operator==(const Device&) const = default;
  std::string str() const;  // "cuda:0", "cpu"

 private:
  DeviceType type_;
  DeviceIndex index_;
};

std::ostream& operator<<(std::ostream& os, DeviceType t);
std::ostream& operator<<(std::ostream& os, const Device& d);

}  // namespace mt
