// bernoulli_ with a probability, the kernel (shared by CPU, CUDA and Meta: on Meta the stub draws nothing),
// and bernoulli.p, the out-of-place composition.
#include "ops/Distributions.h"

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/bernoulli.h"
#include "ops/api/empty_like.h"

namespace mt {

MT_DEFINE_STUB(bernoulli_scalar_stub, void(const TensorBase&, double, Generator&));

namespace {

// A null generator is the default one.
Tensor& bernoulli__float(Tensor& self, double p, Generator* generator) {
  MT_CHECK(p >= 0 && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  if (self.numel() > 0) bernoulli_scalar_stub(self.device().type(), self, p, generator ? *generator : default_generator());
  return self;
}

Tensor bernoulli_p(const Tensor& self, double p, Generator* generator) {
  Tensor out = mt::empty_like(self);
  out.bernoulli_(p, generator);
  return out;
}

void register_kernels(Library& m) { m.impl("bernoulli_.float", MT_FN(bernoulli__float)); }
void register_composites(Library& m) { m.impl("bernoulli.p", MT_FN(bernoulli_p)); }

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }

}  // namespace mt
