// cosine_similarity and pairwise_distance as PyTorch 2.x composes them (ATen's Distance.cpp): norms,
// divisions and a sum; cdist as the norms of broadcast differences. Every layer handles them through their
// parts.
#include <algorithm>
#include <optional>

#include "autograd/GradMode.h"
#include "dispatch/Library.h"
#include "ops/TensorOperators.h"
#include "ops/infra/TensorIterator.h"
#include "tensor/TypePromotion.h"

namespace mt {
namespace {

// <x1, x2> / (||x1|| ||x2||) along dim, each tensor divided by its norm first (clamped to eps), which keeps
// the result within [-1, 1]. The clamp is made invisible to autograd, as PyTorch's: the gradient is the
// unclamped norm's.
Tensor cosine_similarity(const Tensor& x1_in, const Tensor& x2_in, int64_t dim, double eps) {
  const ScalarType common = result_type(x1_in, x2_in);
  MT_CHECK(is_floating_point(common), "expected common dtype to be floating point, yet common dtype is ", common);
  const auto shape = infer_size(x1_in.sizes(), x2_in.sizes());
  const Tensor x1 = x1_in.to(common).expand(shape), x2 = x2_in.to(common).expand(shape);
  const int64_t d[] = {dim};
  Tensor x1_norm = x1.norm(2, d, /*keepdim=*/true).clone(), x2_norm = x2.norm(2, d, /*keepdim=*/true).clone();
  {
    NoGradGuard no_grad;
    x1_norm.clamp_min_(eps);
    x2_norm.clamp_min_(eps);
  }
  return ((x1 / x1_norm) * (x2 / x2_norm)).sum(d);
}

// The p-norm of x1 - x2 + eps along the last dim of the broadcast shape.
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  const int64_t last = std::max(x1.dim(), x2.dim()) - 1;
  const int64_t d[] = {last};
  return (x1 - x2 + eps).norm(p, d, keepdim);
}

// The p-norm distance of every row of x1 to every row of x2 ([..., P, M] and [..., R, M] give [..., P, R],
// the batch dims broadcast): the norm of the broadcast differences, for every p and compute_mode (PyTorch's
// matrix-product path for p = 2 rounds differently; this one is exact up to the norm's rounding, and its
// gradient at a zero distance is 0 as PyTorch's).
Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  MT_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  MT_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  MT_CHECK(x1.size(-1) == x2.size(-1), "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
           " X2: ", x2.size(-1));
  MT_CHECK(is_floating_point(x1.dtype()), "cdist only supports floating-point dtypes, X1 got: ", x1.dtype());
  MT_CHECK(is_floating_point(x2.dtype()), "cdist only supports floating-point dtypes, X2 got: ", x2.dtype());
  MT_CHECK(p >= 0, "cdist only supports non-negative p values");
  MT_CHECK(!compute_mode || (*compute_mode >= 0 && *compute_mode <= 2), "possible modes: 0, 1, 2, but was: ",
           *compute_mode);
  const int64_t last[] = {-1};
  return (x1.unsqueeze(-2) - x2.unsqueeze(-3)).norm(p, last);
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("cosine_similarity", MT_FN(cosine_similarity));
  m.impl("pairwise_distance", MT_FN(pairwise_distance));
  m.impl("cdist", MT_FN(cdist));
}

}  // namespace mt
