// The ops whose outputs autograd never tracks (PyTorch's list of ops that don't require a derivative):
// comparisons, logical and bitwise ops (bool and integer results), argmax/argmin, all/any, one_hot, the *_like factories,
// detach. Their Autograd kernel is a fallthrough, so calls skip the layer at no cost (the boxed fallback
// in autograd/Fallbacks.cpp would record a not-implemented node). The in-place forms that overwrite a
// float tensor (eq_, logical_and_, bernoulli_...) record a node with zero gradient, as PyTorch does.
#include "autograd/derivatives/Formulas.h"
#include "ops/api/bernoulli_ops.h"
#include "ops/api/eq_ops.h"
#include "ops/api/ge_ops.h"
#include "ops/api/gt_ops.h"
#include "ops/api/le_ops.h"
#include "ops/api/logical_and_ops.h"
#include "ops/api/logical_not_ops.h"
#include "ops/api/logical_or_ops.h"
#include "ops/api/lt_ops.h"
#include "ops/api/ne_ops.h"
#include "ops/api/zeros_like.h"

namespace mt::autograd {

namespace {

template <typename Op, typename... Args>
Tensor& zero_grad_inplace(DispatchKeySet ks, Tensor& self, Args... args) {
  check_inplace(self);
  const bool rg = compute_requires_grad({self});
  below_autograd([&]() -> Tensor& { return Op::redispatch(ks & after_autograd_keyset, self, args...); });
  if (rg) record("ZeroGradBackward0", {self}, {self}, [](const variable_list& g) { return variable_list{mt::zeros_like(g[0])}; });
  return self;
}

// PyTorch's logical_*_ write through their out= forms, which autograd does not see: a leaf that requires
// grad (or a view of one) may be written and stays as it was. On other tensors they record a node
// like the comparisons'.
template <typename Op, typename... Args>
Tensor& logical_inplace(DispatchKeySet ks, Tensor& self, Args... args) {
  const AutogradMeta* meta = get_autograd_meta(self);
  const Tensor& root = meta && meta->view ? meta->view->base : self;
  if (root.is_leaf() && requires_grad(root))
    return below_autograd([&]() -> Tensor& { return Op::redispatch(ks & after_autograd_keyset, self, args...); });
  return zero_grad_inplace<Op>(ks, self, args...);
}

// (tests/autograd/formulas_coverage_test.cpp keeps its own copy of this list, to notice changes to it.)
const std::vector<std::string>& non_differentiable_ops() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> v;
    for (const char* cmp : {"eq", "ne", "lt", "le", "gt", "ge"}) {
      v.push_back(std::string(cmp) + ".Tensor");
      v.push_back(std::string(cmp) + ".Tensor_out");
    }
    for (const char* op : {"logical_not", "logical_and", "logical_or"}) {
      v.push_back(op);
      v.push_back(std::string(op) + ".out");
    }
    // Integer and bool results; the Scalar forms are compositions of these.
    for (const char* op : {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"}) {
      for (const char* overload : {".Tensor", "_.Tensor", ".Tensor_out"}) v.push_back(std::string(op) + overload);
    }
    for (const char* op : {"bitwise_not", "bitwise_not_", "bitwise_not.out", "argmax", "argmin", "all", "all.dim", "all.dims", "any", "any.dim", "any.dims", "one_hot",
                           "empty_like", "new_empty_strided", "zeros_like", "ones_like", "full_like", "rand_like",
                           "randn_like", "detach", "_nll_loss_check_target"}) {
      v.push_back(op);
    }
    return v;
  }();
  return ops;
}

}  // namespace

MT_LIBRARY_IMPL(mt, Autograd, m) {
  for (const std::string& op : non_differentiable_ops()) m.impl(op, CppFunction::makeFallthrough());
  m.impl("eq_.Tensor", MT_FN((zero_grad_inplace<ops::eq__Tensor, const Tensor&>)));
  m.impl("ne_.Tensor", MT_FN((zero_grad_inplace<ops::ne__Tensor, const Tensor&>)));
  m.impl("lt_.Tensor", MT_FN((zero_grad_inplace<ops::lt__Tensor, const Tensor&>)));
  m.impl("le_.Tensor", MT_FN((zero_grad_inplace<ops::le__Tensor, const Tensor&>)));
  m.impl("gt_.Tensor", MT_FN((zero_grad_inplace<ops::gt__Tensor, const Tensor&>)));
  m.impl("ge_.Tensor", MT_FN((zero_grad_inplace<ops::ge__Tensor, const Tensor&>)));
  m.impl("logical_not_", MT_FN((logical_inplace<ops::logical_not_>)));
  m.impl("logical_and_", MT_FN((logical_inplace<ops::logical_and_, const Tensor&>)));
  m.impl("logical_or_", MT_FN((logical_inplace<ops::logical_or_, const Tensor&>)));
  m.impl("bernoulli_.float", MT_FN((zero_grad_inplace<ops::bernoulli__float, double, Generator*>)));
}

}  // namespace mt::autograd
