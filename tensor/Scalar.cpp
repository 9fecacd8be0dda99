#include "tensor/Scalar.h"

#include <cmath>
#include <limits>

#include "tensor/Error.h"

namespace mt {

void Scalar::throw_cannot_convert(double value, ScalarType to) {
  // PyTorch names the C++ type: "uint8_t".
  detail::throw_error<RuntimeError>("value cannot be converted to type ", to == kUInt8 ? "u" : "", "int",
                                    element_size(to) * 8, "_t without overflow: ", value);
}

void check_value_fits(const Scalar& value, ScalarType dtype) {
  const double v = value.toDouble();
  auto within = [v](double max) { return !std::isfinite(v) || std::abs(v) <= max; };
  bool fits = true;
  switch (dtype) {
    case kUInt8: fits = value.fits<uint8_t>(); break;
    case kInt8: fits = value.fits<int8_t>(); break;
    case kInt16: fits = value.fits<int16_t>(); break;
    case kInt32: fits = value.fits<int32_t>(); break;
    case kInt64: fits = value.fits<int64_t>(); break;
    case kFloat32: fits = within(std::numeric_limits<float>::max()); break;
    case kFloat16: fits = within(static_cast<float>(std::numeric_limits<Half>::max())); break;
    case kBFloat16: fits = within(static_cast<float>(std::numeric_limits<BFloat16>::max())); break;
    default: break;
  }
  MT_CHECK(fits, "value cannot be converted to type ", dtype, " without overflow");
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  if (s.isBoolean()) return os << (s.toBool() ? "True" : "False");
  if (s.isIntegral(false)) return os << s.toLong();
  return os << s.toDouble();
}

}  // namespace mt
