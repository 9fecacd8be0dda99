#pragma once
// IValue: the boxed form of every value an operator takes or returns, in 16 bytes (an 8-byte payload and
// a tag). Tensors and lists hold one reference; a Stack is the argument/result vector of a boxed call.
#include <cstdint>
#include <cstring>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tensor/Generator.h"
#include "tensor/SmallVector.h"
#include "tensor/Tensor.h"

namespace mt {

// Refcounted heap payloads of an IValue.
template <typename T>
struct IValueBox final : intrusive_ptr_target {
  explicit IValueBox(T v) : value(std::move(v)) {}
  T value;
};

class IValue {
 public:
  enum class Tag : uint8_t { None, Tensor, Bool, Int, Double, String, IntList, DoubleList, TensorList, Device, ScalarType, Generator };

  IValue() : tag_(Tag::None) { payload_.i = 0; }
  IValue(std::nullopt_t) : IValue() {}
  IValue(const Tensor& t) : IValue(Tensor(t)) {}
  // An undefined tensor boxes to None, as an absent optional tensor.
  IValue(Tensor&& t) : tag_(t.defined() ? Tag::Tensor : Tag::None) {
    if (tag_ == Tag::Tensor) new (&payload_.tensor) Tensor(std::move(t));
  }
  IValue(bool v) : tag_(Tag::Bool) { payload_.i = v; }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  IValue(T v) : tag_(Tag::Int) {
    payload_.i = static_cast<int64_t>(v);
  }
  IValue(double v) : tag_(Tag::Double) { payload_.d = v; }
  // A Scalar is stored as the number it holds, as in PyTorch.
  IValue(const Scalar& s);
  IValue(std::string v);
  IValue(std::string_view v) : IValue(std::string(v)) {}
  IValue(const char* v) : IValue(std::string(v)) {}
  IValue(std::vector<int64_t> v);
  IValue(IntArrayRef v) : IValue(v.vec()) {}
  IValue(std::vector<double> v);
  IValue(ArrayRef<double> v) : IValue(v.vec()) {}
  IValue(std::vector<Tensor> v);
  IValue(ArrayRef<Tensor> v) : IValue(v.vec()) {}
  IValue(Device d) : tag_(Tag::Device) {
    payload_.i = 0;
    payload_.device = {d.type(), d.index()};
  }
  IValue(ScalarType t) : tag_(Tag::ScalarType) { payload_.i = static_cast<int64_t>(t); }
  // `Generator?`: the caller owns the generator and keeps it alive for the call; nullptr boxes to None
  // (the default generator).
  IValue(Generator* g) : tag_(g ? Tag::Generator : Tag::None) { payload_.generator = g; }
  template <typename T>
  IValue(const std::optional<T>& v) : IValue() {
    if (v) *this = IValue(*v);
  }

  IValue(const IValue& o) : tag_(o.tag_) {
    copy_payload(o);
    retain();
  }
  IValue(IValue&& o) noexcept : tag_(o.tag_) {
    copy_payload(o);
    o.tag_ = Tag::None;
    o.payload_.i = 0;
  }
  IValue& operator=(const IValue& o) {
    IValue(o).swap(*this);
    return *this;
  }
  IValue& operator=(IValue&& o) noexcept {
    IValue(std::move(o)).swap(*this);
    return *this;
  }
  ~IValue() { release(); }
  void swap(IValue& o) noexcept {
    std::swap(tag_, o.tag_);
    Payload tmp;
    std::memcpy(static_cast<void*>(&tmp), &payload_, sizeof(Payload));
    std::memcpy(static_cast<void*>(&payload_), &o.payload_, sizeof(Payload));
    std::memcpy(static_cast<void*>(&o.payload_), &tmp, sizeof(Payload));
  }

  Tag tag() const { return tag_; }
  std::string_view tagName() const;
  bool isNone() const { return tag_ == Tag::None; }
  bool isTensor() const { return tag_ == Tag::Tensor; }
  bool isBool() const { return tag_ == Tag::Bool; }
  bool isInt() const { return tag_ == Tag::Int; }
  bool isDouble() const { return tag_ == Tag::Double; }
  bool isScalar() const { return tag_ == Tag::Bool || tag_ == Tag::Int || tag_ == Tag::Double; }
  bool isString() const { return tag_ == Tag::String; }
  bool isIntList() const { return tag_ == Tag::IntList; }
  bool isDoubleList() const { return tag_ == Tag::DoubleList; }
  bool isTensorList() const { return tag_ == Tag::TensorList; }
  bool isDevice() const { return tag_ == Tag::Device; }
  bool isScalarType() const { return tag_ == Tag::ScalarType; }
  bool isGenerator() const { return tag_ == Tag::Generator; }

  // The key set of a tensor argument without touching its refcount (the dispatcher's hot path).
  TensorImpl* unsafeToTensorImpl() const { return payload_.tensor.unsafeGetTensorImpl(); }

  Tensor toTensor() const&;
  Tensor toTensor() &&;
  // A reference to the held tensor, valid while this IValue lives.
  const Tensor& toTensorRef() const {
    if (tag_ != Tag::Tensor) type_error("Tensor");
    return payload_.tensor;
  }
  Tensor& toTensorRef() {
    if (tag_ != Tag::Tensor) type_error("Tensor");
    return payload_.tensor;
  }
  bool toBool() const {
    if (tag_ != Tag::Bool) type_error("Bool");
    return payload_.i != 0;
  }
  int64_t toInt() const {
    if (tag_ != Tag::Int) type_error("Int");
    return payload_.i;
  }
  double toDouble() const;  // also accepts an int, as Python does
  Scalar toScalar() const;
  const std::string& toStringRef() const;
  const std::vector<int64_t>& toIntList() const;
  const std::vector<double>& toDoubleList() const;
  const std::vector<Tensor>& toTensorList() const;
  Device toDevice() const;
  ScalarType toScalarType() const;
  Generator* toGenerator() const;  // None gives nullptr
  std::optional<Tensor> toOptionalTensor() const;

  // Generic conversion used by the boxing machinery: to<int64_t>(), to<std::optional<Tensor>>(), ...
  template <typename T>
  T to() const;

  // Identity for tensors and lists; value equality for the rest.
  bool operator==(const IValue& o) const;

 private:
  bool holds_refcounted() const {
    return tag_ == Tag::Tensor || tag_ == Tag::String || tag_ == Tag::IntList || tag_ == Tag::DoubleList ||
           tag_ == Tag::TensorList;
  }
  // The payload is moved bitwise: a Tensor is one pointer, and refcounts are adjusted by retain/release.
  void copy_payload(const IValue& o) { std::memcpy(static_cast<void*>(&payload_), &o.payload_, sizeof(Payload)); }
  void retain() {
    if (tag_ == Tag::Tensor) {
      intrusive_ptr<TensorImpl>(payload_.tensor.unsafeGetTensorImpl()).release();
    } else if (holds_refcounted()) {
      intrusive_ptr<intrusive_ptr_target>(payload_.p).release();
    }
  }
  void release() {
    if (tag_ == Tag::Tensor) {
      payload_.tensor.~Tensor();
    } else if (holds_refcounted()) {
      intrusive_ptr<intrusive_ptr_target>::reclaim(payload_.p).reset();
    }
  }
  [[noreturn, gnu::cold]] void type_error(std::string_view expected) const;
  template <typename T>
  const T& box_value(Tag tag, std::string_view expected) const {
    if (tag_ != tag) type_error(expected);
    return static_cast<IValueBox<T>*>(payload_.p)->value;
  }

  Tag tag_;
  union Payload {
    Payload() : i(0) {}
    ~Payload() {}
    int64_t i;
    double d;
    Tensor tensor;            // Tag::Tensor
    intrusive_ptr_target* p;  // strings and lists
    Generator* generator;     // not owned
    struct {
      DeviceType type;
      Device::DeviceIndex index;
    } device;
  } payload_;
};
static_assert(sizeof(IValue) == 16, "an IValue is a tag and an 8-byte payload");

// The arguments, then the results, of a boxed call. Inline room for 8 values: a call allocates nothing.
using Stack = SmallVector<IValue, 8>;

std::ostream& operator<<(std::ostream& os, const IValue& v);

namespace detail {
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
}  // namespace detail

template <typename T>
T IValue::to() const {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, Tensor>) return toTensor();
  else if constexpr (std::is_same_v<D, bool>) return toBool();
  else if constexpr (std::is_integral_v<D>) return static_cast<D>(toInt());
  else if constexpr (std::is_same_v<D, double>) return toDouble();
  else if constexpr (std::is_same_v<D, Scalar>) return toScalar();
  else if constexpr (std::is_same_v<D, std::string>) return toStringRef();
  else if constexpr (std::is_same_v<D, std::string_view>) return toStringRef();
  else if constexpr (std::is_same_v<D, std::vector<int64_t>> || std::is_same_v<D, IntArrayRef>) return toIntList();
  else if constexpr (std::is_same_v<D, std::vector<double>> || std::is_same_v<D, ArrayRef<double>>) return toDoubleList();
  else if constexpr (std::is_same_v<D, std::vector<Tensor>> || std::is_same_v<D, ArrayRef<Tensor>>) return toTensorList();
  else if constexpr (std::is_same_v<D, Device>) return toDevice();
  else if constexpr (std::is_same_v<D, ScalarType>) return toScalarType();
  else if constexpr (std::is_same_v<D, Generator*>) return toGenerator();
  else if constexpr (std::is_same_v<D, IValue>) return *this;
  else if constexpr (detail::is_optional<D>::value) {
    if (isNone()) return std::nullopt;
    return D(to<typename D::value_type>());
  } else {
    static_assert(sizeof(D) == 0, "IValue::to<T>: unsupported type");
  }
}

}  // namespace mt
