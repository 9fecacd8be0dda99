// The activations that are others with fixed or derived constants: selu and celu are elu, relu6 is
// hardtanh(0, 6); glu gates one half of a dim by the sigmoid of the other.
#include "dispatch/Library.h"
#include "ops/api/celu.h"
#include "ops/api/elu.h"
#include "ops/api/glu.h"
#include "ops/api/hardtanh.h"
#include "ops/api/relu6.h"
#include "ops/api/selu.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

Tensor selu(const Tensor& self) { return mt::elu(self, kSeluAlpha, kSeluScale); }
Tensor& selu_(Tensor& self) { return mt::elu_(self, kSeluAlpha, kSeluScale); }

double celu_input_scale(const Scalar& alpha) {
  MT_CHECK(alpha.toDouble() != 0, "ZeroDivisionError from celu: alpha cannot be 0.");
  return 1 / alpha.toDouble();
}
Tensor celu(const Tensor& self, const Scalar& alpha) { return mt::elu(self, alpha, 1, celu_input_scale(alpha)); }
Tensor& celu_(Tensor& self, const Scalar& alpha) { return mt::elu_(self, alpha, 1, celu_input_scale(alpha)); }

Tensor relu6(const Tensor& self) { return mt::hardtanh(self, 0, 6); }
Tensor& relu6_(Tensor& self) { return mt::hardtanh_(self, 0, 6); }

Tensor glu(const Tensor& self, int64_t dim) {
  MT_CHECK(self.dim() > 0, "glu does not support scalars because halving size must be even");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.size(d);
  MT_CHECK(n % 2 == 0, "Halving dimension must be even, but dimension ", d, " is size ", n);
  return self.narrow(d, 0, n / 2) * self.narrow(d, n / 2, n / 2).sigmoid();
}

void register_composites(Library& m) {
  m.impl("selu", MT_FN(selu));
  m.impl("selu_", MT_FN(selu_));
  m.impl("celu", MT_FN(celu));
  m.impl("celu_", MT_FN(celu_));
  m.impl("relu6", MT_FN(relu6));
  m.impl("relu6_", MT_FN(relu6_));
  m.impl("glu", MT_FN(glu));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
