// Built by the package test against an installed microtorch: exits non-zero unless the library works,
// including registering an operator from outside the library and calling it through the dispatcher.
#include <microtorch/microtorch.h>

#include <iostream>

namespace {
mt::Tensor first(const mt::Tensor& a, const mt::Tensor&) { return a; }
}  // namespace

MT_LIBRARY(consumer, m) { m.def("consumer::first(Tensor a, Tensor b) -> Tensor", MT_FN(first)); }

int main() {
  mt::Tensor t = mt::ones({2, 3}, mt::kFloat64);
  std::cout << t << "\n";
  auto op = mt::Dispatcher::singleton()
                .findSchemaOrThrow("consumer::first", "")
                .typed<mt::Tensor(const mt::Tensor&, const mt::Tensor&)>();
  const mt::Tensor r = op.call(t, mt::zeros({1}));
  const bool ok = t.numel() == 6 && t.data_ptr<double>()[5] == 1.0 && r.is_same(t);
  std::cout << (ok ? "consumer: ok" : "consumer: FAILED") << "\n";
  return ok ? 0 : 1;
}
