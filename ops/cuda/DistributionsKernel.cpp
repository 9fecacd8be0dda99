// CUDA bernoulli_: drawn on the CPU, then copied to the device. There is one Generator (an mt19937
// stream) for both devices, so drawing with the CPU loop gives a seed the same tensor on CUDA as on the
// CPU, element for element in logical order. The cost: one serial host draw per element and a
// host-to-device copy of self's size, where a device generator (Philox, as PyTorch's) would fill self in
// place; for dropout masks that is a copy as large as the activation.
#include "ops/Distributions.h"
#include "tensor/Tensor.h"

namespace mt {
namespace {

void bernoulli_scalar_kernel_cuda(const TensorBase& self, double p, Generator& generator) {
  const Tensor drawn(TensorImpl::empty(self.sizes(), self.dtype(), Device(kCPU)));
  bernoulli_scalar_stub(kCPU, drawn, p, generator);
  Tensor(self).copy_(drawn);
}

}  // namespace

MT_REGISTER_STUB(bernoulli_scalar_stub, kCUDA, bernoulli_scalar_kernel_cuda);

}  // namespace mt
