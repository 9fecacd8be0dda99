#include "tensor/Scalar.h"

#include "tensor/Error.h"

namespace mt {

void Scalar::throw_cannot_convert(double value, int bits) {
  detail::throw_error<RuntimeError>("value cannot be converted to type int", bits, "_t without overflow: ", value);
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  if (s.isBoolean()) return os << (s.toBool() ? "True" : "False");
  if (s.isIntegral(false)) return os << s.toLong();
  return os << s.toDouble();
}

}  // namespace mt
