// addmv, addbmm, baddbmm, kron and tensordot as compositions of addmm, bmm, mm, mul and views, as PyTorch's
// kron and tensordot are: autograd, vmap, Meta and CUDA come from their parts. addbmm is one product:
// sum_b batch1[b] @ batch2[b] is batch1's batches side by side times batch2's stacked.
#include <algorithm>

#include "dispatch/Library.h"
#include "ops/ReduceOps.h"
#include "ops/TensorOperators.h"
#include "ops/Views.h"
#include "ops/api/add.h"
#include "ops/api/addmm.h"
#include "ops/api/bmm.h"
#include "ops/api/mm.h"
#include "ops/api/sum.h"

namespace mt {
namespace {

bool is_one(const Scalar& s) { return s.to<double>() == 1; }

// beta * self + alpha * (mat @ vec): addmm with vec as a one-column matrix; self broadcasts.
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  MT_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, "vector + matrix @ vector expected, got ",
           self.dim(), ", ", mat.dim(), ", ", vec.dim());
  MT_CHECK(mat.size(1) == vec.size(0) && (mat.size(0) == self.numel() || self.numel() == 1),
           "size mismatch, got input (", self.numel(), "), mat (", mat.size(0), "x", mat.size(1), "), vec (",
           vec.size(0), ")");
  return mt::addmm(self.dim() == 1 ? self.unsqueeze(1) : self, mat, vec.unsqueeze(1), beta, alpha).squeeze(1);
}

void check_batches(const Tensor& batch1, const Tensor& batch2) {
  MT_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  MT_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  MT_CHECK(batch1.size(0) == batch2.size(0), "batch1 and batch2 must have same number of batches, got ",
           batch1.size(0), " and ", batch2.size(0));
  MT_CHECK(batch1.size(2) == batch2.size(1), "Incompatible matrix sizes for bmm (", batch1.size(1), "x",
           batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2), ")");
}

// beta * self + alpha * sum_b batch1[b] @ batch2[b].
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) {
  check_batches(batch1, batch2);
  const int64_t batches = batch1.size(0), n = batch1.size(1), k = batch1.size(2);
  const Tensor rows = batch1.permute({1, 0, 2}).reshape({n, batches * k});
  return mt::addmm(self, rows, batch2.reshape({batches * k, batch2.size(2)}), beta, alpha);
}

// beta * self + alpha * batch1 @ batch2, self broadcast to the product's shape; with beta 0 self's values
// (NaN included) are not read, as addmm's.
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  check_batches(batch1, batch2);
  const Tensor product = mt::bmm(batch1, batch2);
  const Tensor base = self.expand(product.sizes());
  if (beta.to<double>() == 0) return is_one(alpha) ? product : product.mul(alpha);
  return mt::add(is_one(beta) ? base : base.mul(beta), product, alpha);
}

// The Kronecker product: both shapes padded with leading 1s to the longer one; result[i] =
// self[i / other.shape] * other[i % other.shape], as one broadcast product of interleaved views.
Tensor kron(const Tensor& self, const Tensor& other) {
  const int64_t dims = std::max(self.dim(), other.dim());
  DimVector self_shape, other_shape, out_shape;
  for (int64_t i = 0; i < dims; ++i) {
    const int64_t a = i < dims - self.dim() ? 1 : self.size(i - (dims - self.dim()));
    const int64_t b = i < dims - other.dim() ? 1 : other.size(i - (dims - other.dim()));
    self_shape.push_back(a);
    self_shape.push_back(1);
    other_shape.push_back(1);
    other_shape.push_back(b);
    out_shape.push_back(a * b);
  }
  return (self.reshape(self_shape) * other.reshape(other_shape)).reshape(out_shape);
}

// Contracts dims_self of self with dims_other of other (pairwise, in order) as one mm: self's free dims
// then its contracted ones, times other's contracted ones then its free ones. A contracted dim of size 1
// on one side meets the other's summed, as PyTorch's.
Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self, IntArrayRef dims_other) {
  MT_CHECK(dims_self.size() == dims_other.size(), "both dimension lists should have same length");
  const DimMask mask_self = make_dim_mask(dims_self, self.dim(), /*empty_means_all=*/false);
  const DimMask mask_other = make_dim_mask(dims_other, other.dim(), /*empty_means_all=*/false);
  Tensor a = self, b = other;
  DimVector perm_a, perm_b, out_shape;
  int64_t free_a = 1, free_b = 1, contracted = 1;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (!(mask_self >> d & 1)) {
      perm_a.push_back(d);
      out_shape.push_back(self.size(d));
      free_a *= self.size(d);
    }
  for (size_t i = 0; i < dims_self.size(); ++i) {
    const int64_t da = maybe_wrap_dim(dims_self[i], self.dim()), db = maybe_wrap_dim(dims_other[i], other.dim());
    const int64_t sa = self.size(da), sb = other.size(db);
    if (sa != sb) {
      MT_CHECK(sa == 1 || sb == 1, "contracted dimensions need to match, but first has size ", sa, " in dim ", da,
               " and second has size ", sb, " in dim ", db);
      const int64_t dim[] = {sb == 1 ? da : db};
      if (sb == 1) a = mt::sum(a, dim, /*keepdim=*/true, a.scalar_type());
      else b = mt::sum(b, dim, /*keepdim=*/true, b.scalar_type());
    }
    perm_a.push_back(da);
    perm_b.push_back(db);
    contracted *= std::min(sa, sb);
  }
  for (int64_t d = 0; d < other.dim(); ++d)
    if (!(mask_other >> d & 1)) {
      perm_b.push_back(d);
      out_shape.push_back(other.size(d));
      free_b *= other.size(d);
    }
  const Tensor product = mt::mm(a.permute(perm_a).reshape({free_a, contracted}),
                                b.permute(perm_b).reshape({contracted, free_b}));
  return product.reshape(out_shape);
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("addmv", MT_FN(addmv));
  m.impl("addbmm", MT_FN(addbmm));
  m.impl("baddbmm", MT_FN(baddbmm));
  m.impl("kron", MT_FN(kron));
  m.impl("tensordot", MT_FN(tensordot));
}

}  // namespace mt
