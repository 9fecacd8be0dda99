#pragma once
// Bitwise ops (bitwise_not, and, or, xor, left and right shift): the per-device stubs that hold the
// loops. Inputs arrive in their promoted dtype, an integer type or bool (the shifts take no bool).
#include "ops/infra/DispatchStub.h"
#include "ops/infra/TensorIterator.h"

namespace mt {

enum class Bitwise { And, Or, Xor, LeftShift, RightShift };

// The name a refused dtype's error gives, as PyTorch's kernels name themselves ("lshift").
constexpr const char* bitwise_name(Bitwise op) {
  switch (op) {
    case Bitwise::And: return "bitwise_and";
    case Bitwise::Or: return "bitwise_or";
    case Bitwise::Xor: return "bitwise_xor";
    case Bitwise::LeftShift: return "lshift";
    case Bitwise::RightShift: return "rshift";
  }
  return "";
}

MT_DECLARE_STUB(bitwise_stub, void(TensorIterator&, Bitwise));
MT_DECLARE_STUB(bitwise_not_stub, void(TensorIterator&));

}  // namespace mt
