// The per-device policy tables: the dtype of every CPU-table op's result under CPU bf16 autocast (from
// float32 inputs for lower_precision_fp, from bfloat16 inputs for fp32, from mixed ones for promote),
// ops outside the table running unchanged, and the CUDA table's contents (no GPU is needed for those).
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <functional>
#include <map>
#include <set>
#include <string>

#include "functorch/autocast/AutocastMode.h"
#include "ops/api/add.h"
#include "ops/api/addbmm.h"
#include "ops/api/addmm.h"
#include "ops/api/baddbmm.h"
#include "ops/api/binary_cross_entropy.h"
#include "ops/api/binary_cross_entropy_with_logits.h"
#include "ops/api/bmm.h"
#include "ops/api/cat.h"
#include "ops/api/cdist.h"
#include "ops/api/conv1d.h"
#include "ops/api/conv2d.h"
#include "ops/api/conv_transpose1d.h"
#include "ops/api/conv_transpose2d.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/exp.h"
#include "ops/api/l1_loss.h"
#include "ops/api/linear.h"
#include "ops/api/log_softmax.h"
#include "ops/api/matmul.h"
#include "ops/api/mm.h"
#include "ops/api/mse_loss.h"
#include "ops/api/nll_loss.h"
#include "ops/api/ones.h"
#include "ops/api/prod.h"
#include "ops/api/rand.h"
#include "ops/api/relu.h"
#include "ops/api/sigmoid.h"
#include "ops/api/stack.h"
#include "ops/api/sum.h"

namespace {

using mt::Tensor;
using P = mt::autocast::CastPolicy;

Tensor f32(std::vector<int64_t> sizes) { return mt::rand(sizes).add(0.5); }
Tensor bf16(std::vector<int64_t> sizes) { return f32(std::move(sizes)).to(mt::kBFloat16); }

// One call per CPU-table op with inputs the policy must change, and the dtype it must produce.
const std::map<std::string, std::pair<std::function<Tensor()>, mt::ScalarType>>& cpu_cases() {
  static const std::map<std::string, std::pair<std::function<Tensor()>, mt::ScalarType>> cases{
      {"mm",
       {[] {
          return mt::mm(f32({3, 4}), f32({4, 5}));
        },
        mt::kBFloat16}},
      {"bmm",
       {[] {
          return mt::bmm(f32({2, 3, 4}), f32({2, 4, 5}));
        },
        mt::kBFloat16}},
      {"matmul",
       {[] {
          return mt::matmul(f32({3, 4}), f32({4}));
        },
        mt::kBFloat16}},
      {"addmm",
       {[] {
          return mt::addmm(f32({3, 5}), f32({3, 4}), f32({4, 5}));
        },
        mt::kBFloat16}},
      {"linear",
       {[] {
          return mt::linear(f32({3, 4}), f32({5, 4}), f32({5}));
        },
        mt::kBFloat16}},
      {"addbmm",
       {[] {
          return mt::addbmm(f32({3, 5}), f32({2, 3, 4}), f32({2, 4, 5}));
        },
        mt::kBFloat16}},
      {"baddbmm",
       {[] {
          return mt::baddbmm(f32({3, 5}), f32({2, 3, 4}), f32({2, 4, 5}));
        },
        mt::kBFloat16}},
      {"conv1d",
       {[] {
          return mt::conv1d(f32({1, 2, 5}), f32({3, 2, 3}));
        },
        mt::kBFloat16}},
      {"conv1d.padding",
       {[] {
          return mt::conv1d(f32({1, 2, 5}), f32({3, 2, 3}), std::nullopt, 1, "same");
        },
        mt::kBFloat16}},
      {"conv2d",
       {[] {
          return mt::conv2d(f32({1, 2, 5, 5}), f32({3, 2, 3, 3}), f32({3}));
        },
        mt::kBFloat16}},
      {"conv2d.padding",
       {[] {
          return mt::conv2d(f32({1, 2, 5, 5}), f32({3, 2, 3, 3}), f32({3}), 1, "same");
        },
        mt::kBFloat16}},
      {"conv_transpose1d",
       {[] {
          return mt::conv_transpose1d(f32({1, 2, 5}), f32({2, 3, 3}));
        },
        mt::kBFloat16}},
      {"conv_transpose2d.input",
       {[] {
          return mt::conv_transpose2d(f32({1, 2, 5, 5}), f32({2, 3, 3, 3}), f32({3}));
        },
        mt::kBFloat16}},
      {"prod", {[] { return mt::prod(bf16({4})); }, mt::kFloat32}},
      {"prod.dim_int",
       {[] {
          return mt::prod(bf16({2, 3}), 1);
        },
        mt::kFloat32}},
      {"cdist", {[] { return mt::cdist(bf16({2, 3}), bf16({4, 3})); }, mt::kFloat32}},
      {"mse_loss", {[] { return mt::mse_loss(bf16({4}), bf16({4})); }, mt::kFloat32}},
      {"l1_loss", {[] { return mt::l1_loss(bf16({4}), bf16({4})); }, mt::kFloat32}},
      {"nll_loss",
       {[] {
          return mt::nll_loss(mt::log_softmax(bf16({4, 3}), 1), mt::tensor<int64_t>({0, 1, 2, 1}));
        },
        mt::kFloat32}},
      {"cross_entropy_loss",
       {[] {
          return mt::cross_entropy_loss(bf16({4, 3}), mt::tensor<int64_t>({0, 1, 2, 1}));
        },
        mt::kFloat32}},
      {"binary_cross_entropy",
       {[] { return mt::binary_cross_entropy(mt::sigmoid(bf16({4})), bf16({4}).mul(0.5)); }, mt::kFloat32}},
      {"binary_cross_entropy_with_logits",
       {[] { return mt::binary_cross_entropy_with_logits(bf16({4}), bf16({4}).mul(0.5)); }, mt::kFloat32}},
      {"cat",
       {[] {
          return mt::cat({bf16({2}), f32({3})});
        },
        mt::kFloat32}},
      {"stack",
       {[] {
          return mt::stack({f32({2}), bf16({2})});
        },
        mt::kFloat32}},
  };
  return cases;
}

TEST(AutocastCPUPolicies, EveryTableOpGivesItsPolicysDtype) {
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  std::set<std::string> tested;
  for (const auto& [name, policy] : mt::autocast::policies(mt::kCPU)) {
    const auto found = cpu_cases().find(std::string(name));
    ASSERT_NE(found, cpu_cases().end()) << "no test case for CPU autocast op " << name;
    EXPECT_EQ(found->second.first().dtype(), found->second.second) << name << " (" << toString(policy) << ")";
    tested.insert(found->first);
  }
  EXPECT_EQ(tested.size(), cpu_cases().size());  // and no case for an op the table lacks
}

TEST(AutocastCPUPolicies, LowerPrecisionOpsCastEveryFloatingArgument) {
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  const Tensor a = f32({3, 4}), b = f32({4, 5});
  const Tensor out = mt::mm(a, b);
  // Both inputs were rounded to bf16 and the product computed in bf16: compare with that reference.
  mt::AutocastGuard off(mt::kCPU, mt::kBFloat16, false);
  const Tensor expected = mt::mm(a.to(mt::kBFloat16).to(mt::kFloat32), b.to(mt::kBFloat16).to(mt::kFloat32));
  EXPECT_LT((out.to(mt::kFloat32) - expected).abs().max().item<double>(), 5e-2);
}

TEST(AutocastCPUPolicies, PromoteKeepsLowerPrecisionWhenAllArgumentsAreLowerPrecision) {
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  EXPECT_EQ(mt::cat({bf16({2}), bf16({2})}).dtype(), mt::kBFloat16);
  EXPECT_EQ(mt::stack({f32({2}), f32({2})}).dtype(), mt::kFloat32);
}

TEST(AutocastCPUPolicies, OpsOutsideTheTableRunUnchanged) {
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  EXPECT_EQ(mt::exp(f32({3})).dtype(), mt::kFloat32);  // fp32 on CUDA only
  EXPECT_EQ(mt::log_softmax(bf16({2, 3}), 1).dtype(), mt::kBFloat16);
  EXPECT_EQ(mt::sum(bf16({3})).dtype(), mt::kBFloat16);
  EXPECT_EQ(mt::relu(f32({3})).dtype(), mt::kFloat32);
  // Binary ops already promote to the widest dtype without a rule.
  EXPECT_EQ(mt::add(mt::mm(f32({2, 2}), f32({2, 2})), f32({2, 2})).dtype(), mt::kFloat32);
}

TEST(AutocastCPUPolicies, IneligibleArgumentsAreNotCast) {
  mt::AutocastGuard guard(mt::kCPU, mt::kBFloat16);
  EXPECT_EQ(mt::mm(mt::ones({2, 2}, mt::kFloat64), mt::ones({2, 2}, mt::kFloat64)).dtype(), mt::kFloat64);
  EXPECT_EQ(mt::mm(mt::ones({2, 2}, mt::kInt64), mt::ones({2, 2}, mt::kInt64)).dtype(), mt::kInt64);
}

TEST(AutocastCPUPolicies, CUDAAutocastLeavesCPUTensorsAlone) {
  mt::AutocastGuard guard(mt::kCUDA, mt::kFloat16);
  EXPECT_EQ(mt::mm(f32({2, 2}), f32({2, 2})).dtype(), mt::kFloat32);
  EXPECT_EQ(mt::exp(f32({2})).dtype(), mt::kFloat32);
}

TEST(AutocastCUDAPolicies, TableFollowsPyTorchsCUDALists) {
  const std::map<std::string, P> expected{
      {"mm", P::lower_precision_fp},
      {"bmm", P::lower_precision_fp},
      {"matmul", P::lower_precision_fp},
      {"mv", P::lower_precision_fp},
      {"addmm", P::lower_precision_fp},
      {"addmv", P::lower_precision_fp},
      {"addbmm", P::lower_precision_fp},
      {"baddbmm", P::lower_precision_fp},
      {"linear", P::lower_precision_fp},
      {"conv1d", P::lower_precision_fp},
      {"conv1d.padding", P::lower_precision_fp},
      {"conv2d", P::lower_precision_fp},
      {"conv2d.padding", P::lower_precision_fp},
      {"conv_transpose1d", P::lower_precision_fp},
      {"conv_transpose2d.input", P::lower_precision_fp},
      {"exp", P::fp32},
      {"log", P::fp32},
      {"log1p", P::fp32},
      {"rsqrt", P::fp32},
      {"acos", P::fp32},
      {"asin", P::fp32},
      {"cosh", P::fp32},
      {"erfinv", P::fp32},
      {"expm1", P::fp32},
      {"log10", P::fp32},
      {"log2", P::fp32},
      {"reciprocal", P::fp32},
      {"sinh", P::fp32},
      {"tan", P::fp32},
      {"pow.Tensor_Tensor", P::fp32},
      {"pow.Tensor_Scalar", P::fp32},
      {"pow.Scalar", P::fp32},
      {"softplus", P::fp32},
      {"cosine_similarity", P::fp32},
      {"cdist", P::fp32},
      {"layer_norm", P::fp32},
      {"group_norm", P::fp32},
      {"logsumexp", P::fp32},
      {"norm.Scalar", P::fp32},
      {"norm.ScalarOpt_dim", P::fp32},
      {"mse_loss", P::fp32},
      {"nll_loss", P::fp32},
      {"cross_entropy_loss", P::fp32},
      {"l1_loss", P::fp32},
      {"binary_cross_entropy_with_logits", P::fp32},
      {"upsample_nearest2d", P::fp32},
      {"upsample_bilinear2d", P::fp32},
      {"softmax.int", P::fp32_set_opt_dtype},
      {"log_softmax.int", P::fp32_set_opt_dtype},
      {"sum", P::fp32_set_opt_dtype},
      {"sum.dim_IntList", P::fp32_set_opt_dtype},
      {"prod", P::fp32_set_opt_dtype},
      {"prod.dim_int", P::fp32_set_opt_dtype},
      {"cumsum", P::fp32_set_opt_dtype},
      {"cumprod", P::fp32_set_opt_dtype},
      {"atan2", P::promote},
      {"dot", P::promote},
      {"scatter_add", P::promote},
      {"cat", P::promote},
      {"stack", P::promote},
      {"binary_cross_entropy", P::banned},
  };
  std::map<std::string, P> table;
  for (const auto& [name, policy] : mt::autocast::policies(mt::kCUDA)) table.emplace(std::string(name), policy);
  EXPECT_EQ(table, expected);
  for (const auto& [name, policy] : expected) EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, name), policy) << name;
  EXPECT_EQ(mt::autocast::policy_for(mt::kCUDA, "relu"), std::nullopt);
  // CPU differs: softmax is not in its table, binary_cross_entropy is fp32 rather than banned.
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, "log_softmax.int"), std::nullopt);
  EXPECT_EQ(mt::autocast::policy_for(mt::kCPU, "binary_cross_entropy"), P::fp32);
  EXPECT_THROW(mt::autocast::policies(mt::kMeta), mt::ValueError);
}

}  // namespace
