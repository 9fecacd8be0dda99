// Every operator the library declares has an OpInfo row, or is named below with the suites that test it
// instead: an op added without a row fails here until it gets one (or an exemption that says where it is
// tested), and the table cannot lose an op silently. An op is named without its overload or in-place
// underscore: exp's row covers exp, exp_ and exp.out.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "dispatch/Dispatcher.h"
#include "opinfo/OpInfo.h"

namespace mt_test {
namespace {

struct Exemption {
  const char* tested_in;
  std::vector<std::string> ops;
};

// The ops that fit no kind of row (yet), with where they are tested now. A row removes its op from here.
const std::vector<Exemption>& exemptions() {
  static const std::vector<Exemption> table{
      {"tests/ops/binary_remainder_test.cpp, lerp_test.cpp (a Scalar-first and a ternary op: no kind yet)",
       {"rsub", "lerp"}},
      {"tests/ops/bitwise_ops_test.cpp (binary kind; integer and bool only)",
       {"bitwise_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"}},
      {"tests/ops/pointwise_compare_test.cpp, closeness_test.cpp (a unary logical op; closeness takes tolerances, "
       "equal gives one bool)",
       {"logical_not", "isclose", "allclose", "equal"}},
      {"tests/ops/pointwise_unary_test.cpp (unary, but their integer results are not the kind's to_float or "
       "unchanged: neg and abs keep the dtype with their own loops, sign of bool)",
       {"neg", "abs", "sign"}},
      {"tests/ops/pointwise_activation_test.cpp, pointwise_parametric_activation_test.cpp (kinks and parameters "
       "the unary kind cannot sample)",
       {"relu", "threshold_backward", "gelu", "silu", "celu", "hardtanh", "relu6", "glu"}},
      {"tests/ops/pointwise_clamp_test.cpp, pointwise_where_fill_test.cpp, pointwise_special_values_test.cpp",
       {"clamp", "clamp_min", "clamp_max", "where", "masked_fill", "fill", "zero_", "isnan", "isinf", "isposinf",
        "isneginf", "isfinite", "nan_to_num"}},
      {"tests/ops/reductions_minmax_test.cpp (reductions giving values with indices, or indices: no kind yet)",
       {"max", "min", "argmax", "argmin"}},
      {"tests/ops/reductions_nan_test.cpp (count_nonzero's result is int64 for every dtype; trace reduces a "
       "matrix's diagonal, not dims)",
       {"count_nonzero", "trace"}},
      {"tests/ops/reductions_pairs_test.cpp (two results: no kind yet)", {"var_mean", "std_mean", "aminmax"}},
      {"tests/ops/shape_movement_test.cpp (lists of tensors in and out: no kind yet)", {"broadcast_tensors", "meshgrid"}},
      {"tests/ops/sorting_test.cpp", {"sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian"}},
      {"tests/ops/indexing_scatter_test.cpp (its result is not made of its input's elements)", {"one_hot"}},
      {"tests/ops/linalg_*_test.cpp",
       {"mm", "bmm", "addmm", "dot", "mv", "matmul", "outer", "linear", "addmv", "addbmm", "baddbmm", "kron",
        "tensordot"}},
      {"tests/ops/convolution_test.cpp (compositions of im2col, which has rows, and matmul)", {"conv1d", "conv2d"}},
      {"tests/ops/conv_transpose_test.cpp (compositions of matmul and col2im, which has rows)",
       {"conv_transpose1d", "conv_transpose2d"}},
      {"tests/ops/upsample_test.cpp (compositions of index_select and matmul, which have rows)",
       {"upsample_nearest2d", "upsample_bilinear2d"}},
      {"tests/ops/pooling_test.cpp (a max pool's result is an input element, which one depends on the values; "
       "an average's divisor on the window)",
       {"max_pool2d", "max_pool2d_with_indices", "avg_pool2d", "adaptive_avg_pool2d"}},
      {"tests/ops/nn_*_test.cpp",
       {"_softmax", "_log_softmax", "softmax", "log_softmax", "nll_loss", "nll_loss_forward", "nll_loss_backward",
        "_nll_loss_check_target", "cross_entropy_loss", "mse_loss", "l1_loss", "binary_cross_entropy",
        "binary_cross_entropy_backward", "binary_cross_entropy_with_logits", "layer_norm", "batch_norm", "group_norm",
        "embedding", "bernoulli", "dropout", "feature_dropout", "cosine_similarity", "pairwise_distance",
        "cdist"}},
      {"tests/ops/factories_conversions_test.cpp (conversions: their values are the input's in another dtype or "
       "device)",
       {"_to_copy", "to", "type_as", "copy"}},
      {"tests/autograd (detach is autograd's)", {"detach"}},
  };
  return table;
}

// The declared ops (namespace mt), by name: an overload's and an in-place form's name is its op's.
std::set<std::string> declared_ops() {
  std::set<std::string> names;
  auto& d = mt::Dispatcher::singleton();
  for (const mt::OperatorName& op : d.getAllOpNames())
    if (op.ns == "mt" && d.findSchema(op)) names.insert(op.name);
  std::set<std::string> ops;
  for (const std::string& n : names) {
    const bool inplace = n.size() > 1 && n.back() == '_' && names.count(n.substr(0, n.size() - 1));
    ops.insert(inplace ? n.substr(0, n.size() - 1) : n);
  }
  return ops;
}

std::set<std::string> ops_with_rows() {
  std::set<std::string> ops;
  for (const UnaryOpInfo& row : unary_ops()) ops.insert(row.name.substr(0, row.name.find('.')));
  for (const BinaryOpInfo& row : binary_ops()) ops.insert(row.name.substr(0, row.name.find('.')));
  for (const ReductionOpInfo& row : reduction_ops()) ops.insert(row.name.substr(0, row.name.find('.')));
  for (const ScanOpInfo& row : scan_ops()) ops.insert(row.name.substr(0, row.name.find('.')));
  for (const ComparisonOpInfo& row : comparison_ops()) ops.insert(row.name.substr(0, row.name.find('.')));
  for (const ShapeOpInfo& row : shape_ops()) ops.insert(row.name.substr(0, row.name.find('.')));
  for (const IndexingOpInfo& row : indexing_ops()) ops.insert(row.name.substr(0, row.name.find('.')));
  for (const FactoryOpInfo& row : factory_ops()) ops.insert(row.name.substr(0, row.name.find('.')));
  return ops;
}

TEST(OpInfoCoverage, EveryDeclaredOpHasARowOrAnExemptionSayingWhereItIsTested) {
  const std::set<std::string> rows = ops_with_rows();
  std::set<std::string> exempt;
  for (const Exemption& e : exemptions()) exempt.insert(e.ops.begin(), e.ops.end());
  std::vector<std::string> missing;
  for (const std::string& op : declared_ops())
    if (!rows.count(op) && !exempt.count(op)) missing.push_back(op);
  EXPECT_TRUE(missing.empty()) << "declared ops with neither an OpInfo row nor an exemption: "
                               << ::testing::PrintToString(missing);
}

TEST(OpInfoCoverage, ExemptionsNameOnlyDeclaredOpsWithoutRowsOnce) {
  const std::set<std::string> declared = declared_ops(), rows = ops_with_rows();
  std::set<std::string> seen;
  for (const Exemption& e : exemptions()) {
    for (const std::string& op : e.ops) {
      EXPECT_TRUE(declared.count(op)) << op << " is exempt but not declared";
      EXPECT_FALSE(rows.count(op)) << op << " has a row: take it out of the exemptions";
      EXPECT_TRUE(seen.insert(op).second) << op << " is exempt twice";
    }
  }
}

TEST(OpInfoCoverage, RowsNameDeclaredOps) {
  const std::set<std::string> declared = declared_ops();
  for (const std::string& op : ops_with_rows())
    EXPECT_TRUE(declared.count(op)) << op << " has a row but is not declared";
}

}  // namespace
}  // namespace mt_test
