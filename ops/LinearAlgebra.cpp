#include "ops/LinearAlgebra.h"

#include <initializer_list>

#include "dispatch/Library.h"
#include "ops/infra/TensorIterator.h"
#include "ops/api/addmm.h"
#include "ops/api/bmm.h"
#include "ops/api/dot.h"
#include "ops/api/mm.h"
#include "ops/Views.h"

namespace mt {

MT_DEFINE_STUB(gemm_stub, void(const TensorBase&, const TensorBase&, const TensorBase&, const TensorBase&, const Scalar&,
                               const Scalar&));
MT_DEFINE_STUB(dot_stub, void(const TensorBase&, const TensorBase&, const TensorBase&));

void check_linalg_out(const TensorBase& out, IntArrayRef sizes, ScalarType dtype, const char* op) {
  MT_CHECK_TYPE(out.dtype() == dtype, "Expected out tensor to have dtype ", dtype, ", but got ", out.dtype(),
                " instead");
  MT_CHECK(out.sizes() == sizes || out.numel() == 0, op, ": output with shape ", out.sizes(),
           " doesn't match the result shape ", sizes);
}

void resize_linalg_out(const TensorBase& out, IntArrayRef sizes) {
  if (!(out.sizes() == sizes)) out.unsafeGetTensorImpl()->resize_(sizes);
}

namespace {

void check_same_dtype(const Tensor& a, const Tensor& b) {
  MT_CHECK_TYPE(a.dtype() == b.dtype(), "expected scalar type ", a.dtype(), " but found ", b.dtype());
}

void check_multipliable(const Tensor& mat1, const Tensor& mat2) {
  MT_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", mat1.size(0), "x",
           mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

void check_mm(const Tensor& self, const Tensor& mat2) {
  MT_CHECK(self.dim() == 2, "self must be a matrix");
  MT_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  check_multipliable(self, mat2);
  MT_CHECK_TYPE(self.dtype() == mat2.dtype(), "expected m1 and m2 to have the same dtype, but got: ",
                self.dtype(), " != ", mat2.dtype());
}

void check_bmm(const Tensor& self, const Tensor& mat2) {
  MT_CHECK(self.dim() == 3, "batch1 must be a 3D tensor");
  MT_CHECK(mat2.dim() == 3, "batch2 must be a 3D tensor");
  MT_CHECK(mat2.size(0) == self.size(0) && mat2.size(1) == self.size(2),
           "Expected size for first two dimensions of batch2 tensor to be: [", self.size(0), ", ", self.size(2),
           "] but got: [", mat2.size(0), ", ", mat2.size(1), "].");
  check_same_dtype(self, mat2);
}

// addmm checks dtypes before shapes, in this order, as PyTorch does.
void check_addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  MT_CHECK_TYPE(self.dtype() == mat2.dtype(), "self and mat2 must have the same dtype, but got ", self.dtype(), " and ",
                mat2.dtype());
  MT_CHECK_TYPE(mat1.dtype() == mat2.dtype(), "mat1 and mat2 must have the same dtype, but got ", mat1.dtype(), " and ",
                mat2.dtype());
  MT_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  MT_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  check_multipliable(mat1, mat2);
}

bool shares_storage(const Tensor& a, const Tensor& b) {
  return a.unsafeGetTensorImpl()->storage().get() == b.unsafeGetTensorImpl()->storage().get();
}

// Runs the loop once every argument is checked. `out` has the result's dtype and either its shape
// (`sizes`) or no elements.
void run_gemm(const Tensor& out, IntArrayRef sizes, const Tensor& self, const Tensor& a, const Tensor& b,
              const Scalar& beta, const Scalar& alpha) {
  // Before the loop, so that Meta refuses what the backends refuse (with the CPU loops' names).
  MT_CHECK_NOT_IMPLEMENTED(out.dtype() != kBool, '"', out.dim() == 3 ? "bmm" : "addmm_impl_cpu_", "\" not implemented for '",
                           out.dtype(), "'");
  // Writing out while a or b is still being read would read partial results, and an out that must be
  // resized may change only once the loop has succeeded: both compute aside, then copy.
  if (!(out.sizes() == sizes) || shares_storage(out, a) || shares_storage(out, b)) {
    Tensor result(TensorImpl::empty(sizes, out.dtype(), out.device()));
    gemm_stub(out.device().type(), result, self, a, b, beta, alpha);
    resize_linalg_out(out, sizes);
    out.copy_(result);
    return;
  }
  gemm_stub(out.device().type(), out, self, a, b, beta, alpha);
}

Tensor new_result(IntArrayRef sizes, const Tensor& like) {
  return Tensor(TensorImpl::empty(sizes, like.dtype(), like.device()));
}

// --- the registered kernels, one per overload ------------------------------------------------------------

Tensor mm(const Tensor& self, const Tensor& mat2) {
  check_same_device({&self, &mat2});
  check_mm(self, mat2);
  const int64_t sizes[] = {self.size(0), mat2.size(1)};
  Tensor out = new_result(sizes, self);
  run_gemm(out, sizes, Tensor(), self, mat2, 0, 1);
  return out;
}

Tensor& mm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  check_same_device({&self, &mat2, &out});
  check_mm(self, mat2);
  const int64_t sizes[] = {self.size(0), mat2.size(1)};
  check_linalg_out(out, sizes, self.dtype(), "mm");
  run_gemm(out, sizes, Tensor(), self, mat2, 0, 1);
  return out;
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  check_same_device({&self, &mat2});
  check_bmm(self, mat2);
  const int64_t sizes[] = {self.size(0), self.size(1), mat2.size(2)};
  Tensor out = new_result(sizes, self);
  run_gemm(out, sizes, Tensor(), self, mat2, 0, 1);
  return out;
}

Tensor& bmm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  check_same_device({&self, &mat2, &out});
  check_bmm(self, mat2);
  const int64_t sizes[] = {self.size(0), self.size(1), mat2.size(2)};
  check_linalg_out(out, sizes, self.dtype(), "bmm");
  run_gemm(out, sizes, Tensor(), self, mat2, 0, 1);
  return out;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  check_same_device({&self, &mat1, &mat2});
  check_addmm(self, mat1, mat2);
  const int64_t sizes[] = {mat1.size(0), mat2.size(1)};
  const Tensor expanded = expand_view(self, sizes);
  Tensor out = new_result(sizes, self);
  run_gemm(out, sizes, expanded, mat1, mat2, beta, alpha);
  return out;
}

Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  check_same_device({&self, &mat1, &mat2});
  check_addmm(self, mat1, mat2);
  const int64_t sizes[] = {mat1.size(0), mat2.size(1)};
  MT_CHECK(self.sizes() == IntArrayRef(sizes), "Bad in-place call: input tensor size ", self.sizes(),
           " and output tensor size ", IntArrayRef(sizes), " should match");
  run_gemm(self, sizes, self, mat1, mat2, beta, alpha);
  return self;
}

Tensor& addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha,
                  Tensor& out) {
  check_same_device({&self, &mat1, &mat2, &out});
  check_addmm(self, mat1, mat2);
  const int64_t sizes[] = {mat1.size(0), mat2.size(1)};
  const Tensor expanded = expand_view(self, sizes);
  check_linalg_out(out, sizes, self.dtype(), "addmm");
  run_gemm(out, sizes, expanded, mat1, mat2, beta, alpha);
  return out;
}

Tensor dot(const Tensor& self, const Tensor& other) {
  check_same_device({&self, &other});
  MT_CHECK(self.dim() == 1 && other.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ", other.dim(),
           "D tensors");
  MT_CHECK_TYPE(self.dtype() == other.dtype(), "dot : expected both vectors to have same dtype, but found ",
                self.dtype(), " and ", other.dtype());
  MT_CHECK(self.numel() == other.numel(), "inconsistent tensor size, expected tensor [", self.numel(),
           "] and src [", other.numel(), "] to have the same number of elements, but got ", self.numel(), " and ",
           other.numel(), " elements respectively");
  MT_CHECK_NOT_IMPLEMENTED(self.dtype() != kBool, "\"dot\" not implemented for '", self.dtype(), "'");
  Tensor out = new_result({}, self);
  dot_stub(self.device().type(), out, self, other);
  return out;
}

// CPU, CUDA and Meta share these kernels: on Meta the stubs run no loop.
void register_kernels(Library& m) {
  m.impl("mm", MT_FN(mm));
  m.impl("mm.out", MT_FN(mm_out));
  m.impl("bmm", MT_FN(bmm));
  m.impl("bmm.out", MT_FN(bmm_out));
  m.impl("addmm", MT_FN(addmm));
  m.impl("addmm_", MT_FN(addmm_));
  m.impl("addmm.out", MT_FN(addmm_out));
  m.impl("dot", MT_FN(dot));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CPU, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, CUDA, m) { register_kernels(m); }
MT_LIBRARY_IMPL(mt, Meta, m) { register_kernels(m); }

}  // namespace mt
