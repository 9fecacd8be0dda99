// matmul: every rank case of PyTorch's matmul as dot, mm or bmm on views and reshapes of its arguments, so
// that autograd, vmap and Meta get it from those ops.
#include "dispatch/Library.h"
#include "ops/api/bmm.h"
#include "ops/api/dot.h"
#include "ops/api/matmul.h"
#include "ops/api/mm.h"
#include "ops/api/mv.h"
#include "ops/LinearAlgebra.h"
#include "ops/infra/TensorIterator.h"

namespace mt {
namespace {

using Shape = SmallVector<int64_t, 5>;

int64_t product(IntArrayRef sizes) {
  int64_t p = 1;
  for (int64_t s : sizes) p *= s;
  return p;
}

Shape concat(IntArrayRef a, std::initializer_list<int64_t> b) {
  Shape out;
  for (int64_t s : a) out.push_back(s);
  for (int64_t s : b) out.push_back(s);
  return out;
}

// A matrix times a vector, as mm with a one-column matrix, with PyTorch 2.x's mv error (1.13 said
// "size mismatch, got 2, 2x3,4").
Tensor matrix_vector(const Tensor& mat, const Tensor& vec) {
  MT_CHECK(mat.size(1) == vec.size(0), "size mismatch, got input (", mat.size(0), "), mat (", mat.size(0), "x",
           mat.size(1), "), vec (", vec.size(0), ")");
  // PyTorch's mv is addmv into a result made like vec, which its message names first.
  MT_CHECK_TYPE(mat.dtype() == vec.dtype(), "addmv input tensors must have the same dtype, but got ", vec.dtype(),
                ", ", mat.dtype(), ", and ", vec.dtype());
  return mt::mm(mat, vec.unsqueeze(1)).squeeze(1);
}

// Whether all dims of t but the last merge into one without a copy.
bool leading_dims_merge(const Tensor& t) {
  if (t.numel() == 0) return true;
  for (int64_t i = 0; i + 2 < t.dim(); ++i)
    if (t.stride(i) != t.stride(i + 1) * t.size(i + 1)) return false;
  return true;
}

// t (3-D or more) times a matrix or a vector as one mm over all of t's rows: (b, n, k) @ (k, p) is
// (b*n, k) @ (k, p).
Tensor folded(const Tensor& t, const Tensor& other) {
  const IntArrayRef leading = t.sizes().slice(0, t.dim() - 1);
  const Tensor rows = t.reshape({product(leading), t.size(-1)});
  if (other.dim() == 1) return matrix_vector(rows, other).view(leading);
  return mt::mm(rows, other).view(concat(leading, {other.size(1)}));
}

// The general case: batch dims broadcast against each other, then one bmm over the flattened batch.
// A vector argument is a one-row (self) or one-column (other) matrix whose dim is dropped at the end.
Tensor batched(const Tensor& self, const Tensor& other) {
  const int64_t da = self.dim(), db = other.dim();
  const int64_t n = da > 1 ? self.size(-2) : 1, k1 = self.size(-1);
  const int64_t k2 = db > 1 ? other.size(-2) : other.size(0), p = db > 1 ? other.size(-1) : 1;
  const Shape batch = infer_size(self.sizes().slice(0, std::max<int64_t>(da - 2, 0)),
                                 other.sizes().slice(0, std::max<int64_t>(db - 2, 0)));
  const int64_t count = product(batch);
  const Tensor a = self.expand(concat(batch, {n, k1})).reshape({count, n, k1});
  const Tensor b = db == 1 ? other.expand(concat(batch, {k2})).reshape({count, k2}).unsqueeze(2)
                           : other.expand(concat(batch, {k2, p})).reshape({count, k2, p});
  Shape shape = batch;
  if (da > 1) shape.push_back(n);
  if (db > 1) shape.push_back(p);
  return mt::bmm(a, b).view(shape);
}

Tensor matmul(const Tensor& self, const Tensor& other) {
  const int64_t da = self.dim(), db = other.dim();
  MT_CHECK(da > 0 && db > 0, "both arguments to matmul need to be at least 1D, but they are ", da, "D and ", db,
           "D");
  if (da == 1 && db == 1) return mt::dot(self, other);
  if (da == 2 && db == 1) return matrix_vector(self, other);
  if (da == 1 && db == 2) return mt::mm(self.unsqueeze(0), other).squeeze(0);
  if (da == 2 && db == 2) return mt::mm(self, other);
  // One mm instead of a bmm when the batch folds into the rows without a copy. A matrix times a batch
  // would fold only through a transposed result that then needs a copy, so it stays a bmm.
  if (da >= 3 && db <= 2 && leading_dims_merge(self)) return folded(self, other);
  if (da == 1 && db >= 3) {
    const Tensor other_t = other.transpose(-2, -1);  // v @ B is B^T @ v
    if (leading_dims_merge(other_t)) return folded(other_t, self);
  }
  return batched(self, other);
}

// mv is matmul's matrix-times-vector case, with PyTorch's check of the ranks first.
Tensor mv(const Tensor& self, const Tensor& vec) {
  MT_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, ", self.dim(), ", ",
           vec.dim());
  return matrix_vector(self, vec);
}

// The result's shape and dtype are known only once the rank case has run: compute it, then copy.
Tensor& matmul_out(const Tensor& self, const Tensor& other, Tensor& out) {
  const Tensor result = mt::matmul(self, other);
  MT_CHECK(out.device() == result.device(), "Expected all tensors to be on the same device, but found at least two "
                                            "devices, ", result.device(), " and ", out.device(), "!");
  check_linalg_out(out, result.sizes(), result.dtype(), "matmul");
  resize_linalg_out(out, result.sizes());
  out.copy_(result);
  return out;
}

// Registered from inside this namespace, where the names above hide the generated mt:: functions.
void register_kernels(Library& m) {
  m.impl("matmul", MT_FN(matmul));
  m.impl("matmul.out", MT_FN(matmul_out));
  m.impl("mv", MT_FN(mv));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_kernels(m); }

}  // namespace mt
