// linear and outer: compositions of matmul/addmm and mul.
#include "dispatch/Library.h"
#include "ops/api/addmm.h"
#include "ops/api/linear.h"
#include "ops/api/matmul.h"
#include "ops/api/mul.h"
#include "ops/api/outer.h"

namespace mt {
namespace {

// input @ weight^T + bias. With a bias, a 1-D or 2-D input (or a contiguous batch of rows, folded into
// one matrix) takes addmm, which adds the bias inside the GEMM, as in PyTorch 2.x.
Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  const bool has_bias = bias && bias->defined();
  if (has_bias && input.dim() == 2) return mt::addmm(*bias, input, weight.t());
  if (has_bias && input.dim() == 1) return mt::addmm(*bias, input.unsqueeze(0), weight.t()).squeeze(0);
  if (has_bias && input.dim() >= 3 && input.is_contiguous()) {
    const IntArrayRef leading = input.sizes().slice(0, input.dim() - 1);
    int64_t rows = 1;
    for (int64_t s : leading) rows *= s;
    const Tensor result = mt::addmm(*bias, input.reshape({rows, input.size(-1)}), weight.t());
    std::vector<int64_t> shape(leading.begin(), leading.end());
    shape.push_back(result.size(1));
    return result.view(shape);
  }
  Tensor output = mt::matmul(input, weight.t());
  if (has_bias) output.add_(*bias);
  return output;
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  MT_CHECK(self.dim() == 1, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  MT_CHECK(vec2.dim() == 1, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  return mt::mul(self.unsqueeze(1), vec2);
}

// Registered from inside this namespace, where the names above hide the generated mt:: functions.
void register_kernels(Library& m) {
  m.impl("linear", MT_FN(linear));
  m.impl("outer", MT_FN(outer));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_kernels(m); }

}  // namespace mt
