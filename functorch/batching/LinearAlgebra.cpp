// Batching rules of the matrix products. With the batch dims moved to the front, mm and bmm become a
// broadcasting matmul of the values; an unbatched argument is not expanded to the batch (matmul
// broadcasts it), so a batch of vectors times a shared matrix stays one product. addmm decomposes into
// ops that have rules, and addmm_ into in-place ones. matmul, linear and outer are composite and need no rule.
#include "dispatch/Library.h"
#include "functorch/VmapInterpreter.h"
#include "functorch/batching/BatchingHelpers.h"
#include "ops/api/add.h"
#include "ops/api/matmul.h"
#include "ops/api/mm.h"
#include "ops/api/mul.h"
#include "ops/api/sum.h"

namespace mt::functorch {

namespace {

// `self` and `other` of logical ranks `rank`, batched or not at this level, as matmul arguments.
template <int64_t Rank>
void matrix_product_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const int64_t level = current_vmap_interpreter().level();
  IValue* args = arguments_of(op, stack);
  const Tensor& self = args[0].toTensorRef();
  const Tensor& other = args[1].toTensorRef();
  if (!is_batched_at_level(self, level) && !is_batched_at_level(other, level)) return call_unbatched(op, stack);
  MT_CHECK(self.dim() == Rank && other.dim() == Rank, "Shape mismatch: Got incorrect dims for ", op.schema().op.name,
           "(a, b). a has dim ", self.dim(), " and b has dim ", other.dim(), "; but expected them to have dim ", Rank,
           " and ", Rank);
  auto [a, a_bdim] = unwrap_at_level(self, level);
  auto [b, b_bdim] = unwrap_at_level(other, level);
  Tensor result;
  {
    ExcludeDispatchKeyGuard guard(DispatchKey::FuncTorchBatched);
    const Tensor a_ = move_bdim_to_front(a, a_bdim), b_ = move_bdim_to_front(b, b_bdim);
    if (Rank == 1) {
      // dot: a batch of vectors against a vector is a matrix-vector product; two batches, a row-wise sum.
      result = a_bdim && b_bdim ? mt::sum(mt::mul(a_, b_), {1}) : a_bdim ? mt::matmul(a_, b_) : mt::matmul(b_, a_);
    } else {
      result = mt::matmul(a_, b_);
    }
  }
  return_one(op, stack, make_batched(std::move(result), 0, level));
}

// addmm(self, m1, m2, beta, alpha) = beta * self + alpha * (m1 @ m2), from ops that have rules; the
// batch stays live, so mm and add meet their own rules.
void addmm_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  IValue* args = arguments_of(op, stack);
  const Tensor& self = args[0].toTensorRef();
  const Scalar beta = args[3].toScalar(), alpha = args[4].toScalar();
  const Tensor product = mt::mm(args[1].toTensorRef(), args[2].toTensorRef());
  Tensor result = beta.to<double>() == 0.0 ? mt::mul(product, alpha) : mt::add(mt::mul(self, beta), product, alpha);
  return_one(op, stack, std::move(result));
}

// addmm_: the same decomposition written into self, which must be batched if the product is.
void addmm_inplace_rule(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const int64_t level = current_vmap_interpreter().level();
  IValue* args = arguments_of(op, stack);
  check_inplace_self_batched(op.schema(), args, op.schema().arguments.size(), level);
  const Tensor& self = args[0].toTensorRef();
  const Scalar beta = args[3].toScalar(), alpha = args[4].toScalar();
  const Tensor product = mt::mm(args[1].toTensorRef(), args[2].toTensorRef());
  if (beta.to<double>() == 0.0) {
    self.copy_(mt::mul(product, alpha));
  } else {
    self.mul_(beta).add_(product, alpha);
  }
  return_one(op, stack, self);
}

}  // namespace

MT_LIBRARY_IMPL(mt, FuncTorchBatched, m) {
  m.impl("addmm_", CppFunction::makeFromBoxedFunction<&addmm_inplace_rule>());
  m.impl("mm", CppFunction::makeFromBoxedFunction<&matrix_product_rule<2>>());
  m.impl("bmm", CppFunction::makeFromBoxedFunction<&matrix_product_rule<3>>());
  m.impl("dot", CppFunction::makeFromBoxedFunction<&matrix_product_rule<1>>());
  m.impl("addmm", CppFunction::makeFromBoxedFunction<&addmm_rule>());
}

}  // namespace mt::functorch
