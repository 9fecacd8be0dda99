// CPU loop of bernoulli_: one uniform double (53 random bits) per element, so any p in [0, 1] is exact
// to double precision. Serial: the draws form one stream, taken in logical order under one lock.
#include <vector>

#include "ops/Distributions.h"
#include "tensor/DtypeDispatch.h"

namespace mt {
namespace {

void bernoulli_scalar_kernel(const TensorBase& self, double p, Generator& generator) {
  const int64_t ndim = self.dim();
  const std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end());
  const std::vector<int64_t> strides(self.strides().begin(), self.strides().end());
  std::vector<int64_t> coord(ndim, 0);
  dispatch_all_types(self.dtype(), "bernoulli_", [&]<typename T>() {
    T* data = self.data_ptr<T>();
    Generator::Locked draws(generator);
    int64_t offset = 0;
    for (int64_t i = 0; i < self.numel(); ++i) {
      data[offset] = static_cast<T>(draws.uniform(53) < p ? 1 : 0);
      // Step to the next element in row-major logical order.
      for (int64_t d = ndim - 1; d >= 0; --d) {
        offset += strides[d];
        if (++coord[d] < sizes[d]) break;
        offset -= coord[d] * strides[d];
        coord[d] = 0;
      }
    }
  });
}

}  // namespace

MT_REGISTER_STUB(bernoulli_scalar_stub, kCPU, bernoulli_scalar_kernel);

}  // namespace mt
