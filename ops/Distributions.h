#pragma once
// Random sampling into existing tensors: the shared part of bernoulli_ (argument checks;
// ops/Distributions.cpp) and the per-device stub that draws (ops/cpu/DistributionsKernel.cpp).
#include "ops/infra/DispatchStub.h"
#include "tensor/Generator.h"
#include "tensor/TensorBase.h"

namespace mt {

// Sets every element of self (any layout and dtype) to 1 with probability p, else 0, drawing from
// `generator` in self's logical element order, so a seed gives the same tensor whatever the strides.
MT_DECLARE_STUB(bernoulli_scalar_stub, void(const TensorBase& self, double p, Generator& generator));

}  // namespace mt
