#include "dispatch/IValue.h"

namespace mt {

IValue::IValue(const Scalar& s) {
  if (s.isFloatingPoint()) {
    tag_ = Tag::Double;
    payload_.d = s.toDouble();
  } else if (s.isBoolean()) {
    tag_ = Tag::Bool;
    payload_.i = s.toBool();
  } else {
    tag_ = Tag::Int;
    payload_.i = s.toLong();
  }
}

IValue::IValue(std::string v) : tag_(Tag::String) { payload_.p = new IValueBox<std::string>(std::move(v)); retain(); }
IValue::IValue(std::vector<int64_t> v) : tag_(Tag::IntList) {
  payload_.p = new IValueBox<std::vector<int64_t>>(std::move(v));
  retain();
}
IValue::IValue(std::vector<double> v) : tag_(Tag::DoubleList) {
  payload_.p = new IValueBox<std::vector<double>>(std::move(v));
  retain();
}
IValue::IValue(std::vector<Tensor> v) : tag_(Tag::TensorList) {
  payload_.p = new IValueBox<std::vector<Tensor>>(std::move(v));
  retain();
}

std::string_view IValue::tagName() const {
  switch (tag_) {
    case Tag::None:
      return "None";
    case Tag::Tensor:
      return "Tensor";
    case Tag::Bool:
      return "Bool";
    case Tag::Int:
      return "Int";
    case Tag::Double:
      return "Double";
    case Tag::String:
      return "String";
    case Tag::IntList:
      return "IntList";
    case Tag::DoubleList:
      return "DoubleList";
    case Tag::TensorList:
      return "TensorList";
    case Tag::Device:
      return "Device";
    case Tag::ScalarType:
      return "ScalarType";
    case Tag::Generator:
      return "Generator";
  }
  return "Unknown";
}

void IValue::type_error(std::string_view expected) const {
  throw TypeError(detail::str_cat("Expected ", expected, " but got ", tagName()));
}

Tensor IValue::toTensor() const& { return toTensorRef(); }

Tensor IValue::toTensor() && {
  if (tag_ != Tag::Tensor) type_error("Tensor");
  Tensor t = std::move(payload_.tensor);
  payload_.tensor.~Tensor();
  tag_ = Tag::None;
  payload_.i = 0;
  return t;
}

double IValue::toDouble() const {
  if (tag_ == Tag::Int) return static_cast<double>(payload_.i);
  if (tag_ != Tag::Double) type_error("Double");
  return payload_.d;
}

Scalar IValue::toScalar() const {
  if (tag_ == Tag::Double) return Scalar(payload_.d);
  if (tag_ == Tag::Int) return Scalar(payload_.i);
  if (tag_ == Tag::Bool) return Scalar(payload_.i != 0);
  type_error("Scalar");
}

const std::string& IValue::toStringRef() const { return box_value<std::string>(Tag::String, "String"); }
const std::vector<int64_t>& IValue::toIntList() const { return box_value<std::vector<int64_t>>(Tag::IntList, "IntList"); }
const std::vector<double>& IValue::toDoubleList() const {
  return box_value<std::vector<double>>(Tag::DoubleList, "DoubleList");
}
const std::vector<Tensor>& IValue::toTensorList() const {
  return box_value<std::vector<Tensor>>(Tag::TensorList, "TensorList");
}

Device IValue::toDevice() const {
  if (tag_ != Tag::Device) type_error("Device");
  return Device(payload_.device.type, payload_.device.index);
}

ScalarType IValue::toScalarType() const {
  if (tag_ != Tag::ScalarType) type_error("ScalarType");
  return static_cast<ScalarType>(payload_.i);
}

Generator* IValue::toGenerator() const {
  if (isNone()) return nullptr;
  if (tag_ != Tag::Generator) type_error("Generator");
  return payload_.generator;
}

std::optional<Tensor> IValue::toOptionalTensor() const {
  if (isNone()) return std::nullopt;
  return toTensor();
}

bool IValue::operator==(const IValue& o) const {
  if (tag_ != o.tag_) return false;
  switch (tag_) {
    case Tag::None:
      return true;
    case Tag::Double:
      return payload_.d == o.payload_.d;
    case Tag::String:
      return toStringRef() == o.toStringRef();
    case Tag::IntList:
      return toIntList() == o.toIntList();
    case Tag::DoubleList:
      return toDoubleList() == o.toDoubleList();
    case Tag::Device:
      return toDevice() == o.toDevice();
    default:
      return payload_.i == o.payload_.i;  // ints, bools, dtypes; tensors, tensor lists, generators by identity
  }
}

std::ostream& operator<<(std::ostream& os, const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::None:
      return os << "None";
    case IValue::Tag::Tensor:
      return os << v.toTensorRef().toString();
    case IValue::Tag::Bool:
    case IValue::Tag::Int:
    case IValue::Tag::Double:
      return os << v.toScalar();
    case IValue::Tag::String:
      return os << '"' << v.toStringRef() << '"';
    case IValue::Tag::IntList:
      return os << IntArrayRef(v.toIntList());
    case IValue::Tag::DoubleList:
      return os << ArrayRef<double>(v.toDoubleList());
    case IValue::Tag::TensorList:
      return os << "[" << v.toTensorList().size() << " tensors]";
    case IValue::Tag::Device:
      return os << v.toDevice();
    case IValue::Tag::ScalarType:
      return os << v.toScalarType();
    case IValue::Tag::Generator:
      return os << "Generator(seed=" << v.toGenerator()->current_seed() << ")";
  }
  return os;
}

}  // namespace mt
