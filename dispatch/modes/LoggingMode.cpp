#include "dispatch/modes/LoggingMode.h"

#include <ostream>
#include <sstream>

namespace mt {

namespace {

// PyTorch's short dtype names, as in its logging tensors: f32[2, 3].
const char* short_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "b8";
    case ScalarType::UInt8: return "u8";
    case ScalarType::Int8: return "i8";
    case ScalarType::Int16: return "i16";
    case ScalarType::Int32: return "i32";
    case ScalarType::Int64: return "i64";
    case ScalarType::Float32: return "f32";
    case ScalarType::Float64: return "f64";
    case ScalarType::Float16: return "f16";
    case ScalarType::BFloat16: return "bf16";
    case ScalarType::Undefined: break;
  }
  return "?";
}

void describe(std::ostream& os, const IValue& v) {
  if (v.isTensor()) {
    const Tensor& t = v.toTensorRef();
    os << short_name(t.dtype()) << t.sizes();
  } else if (v.isTensorList()) {
    os << "[";
    const auto& list = v.toTensorList();
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) os << ", ";
      describe(os, IValue(list[i]));
    }
    os << "]";
  } else {
    os << v;
  }
}

void describe_values(std::ostream& os, const IValue* first, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (i) os << ", ";
    describe(os, first[i]);
  }
}

}  // namespace

void LoggingMode::dispatch(const OperatorHandle& op, DispatchKeySet ks, Stack& stack) {
  std::ostringstream line;
  const size_t n_args = op.schema().arguments.size();
  line << op.operator_name().str() << "(";
  describe_values(line, stack.data() + stack.size() - n_args, n_args);
  line << ")";
  op.callBoxed(stack);
  const size_t n_returns = op.schema().returns.size();
  if (n_returns > 0) {
    line << " -> ";
    describe_values(line, stack.data() + stack.size() - n_returns, n_returns);
  }
  line << "  " << ks;
  if (out_ != nullptr) *out_ << line.str() << "\n";
  lines_.push_back(line.str());
}

}  // namespace mt
