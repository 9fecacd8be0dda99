// The rows of the comparisons and the binary logical ops. A logical op's reference reads a value as true
// where it is not zero (NaN included).
#include "opinfo/OpInfo.h"
#include "ops/api/eq.h"
#include "ops/api/ge.h"
#include "ops/api/gt.h"
#include "ops/api/le.h"
#include "ops/api/logical_and.h"
#include "ops/api/logical_or.h"
#include "ops/api/lt.h"
#include "ops/api/ne.h"

namespace mt_test {

// One row per comparison: its Tensor and Scalar overloads, Tensor.op_ and op_out.
#define MT_COMPARISON_ROW(fn, expr)                                                                  \
  ComparisonOpInfo {                                                                                 \
    .name = #fn ".Tensor", .op = [](const Tensor& x, const Tensor& y) { return mt::fn(x, y); },      \
    .scalar = [](const Tensor& x, const mt::Scalar& y) { return mt::fn(x, y); },                     \
    .inplace = [](Tensor& x, const Tensor& y) -> Tensor& { return x.fn##_(y); },                     \
    .out = [](const Tensor& x, const Tensor& y, Tensor& out) -> Tensor& { return mt::fn##_out(out, x, y); }, \
    .reference = [](double x, double y) { return expr; }                                             \
  }

const std::vector<ComparisonOpInfo>& comparison_ops() {
  static const std::vector<ComparisonOpInfo> rows{
      MT_COMPARISON_ROW(eq, x == y),
      MT_COMPARISON_ROW(ne, x != y),
      MT_COMPARISON_ROW(lt, x < y),
      MT_COMPARISON_ROW(le, x <= y),
      MT_COMPARISON_ROW(gt, x > y),
      MT_COMPARISON_ROW(ge, x >= y),
      ComparisonOpInfo{.name = "logical_and",
                       .op = [](const Tensor& x, const Tensor& y) { return mt::logical_and(x, y); },
                       .inplace = [](Tensor& x, const Tensor& y) -> Tensor& { return x.logical_and_(y); },
                       .out = [](const Tensor& x, const Tensor& y, Tensor& out) -> Tensor& {
                         return mt::logical_and_out(out, x, y);
                       },
                       .reference = [](double x, double y) { return x != 0 && y != 0; }},
      ComparisonOpInfo{
          .name = "logical_or",
          .op = [](const Tensor& x, const Tensor& y) { return mt::logical_or(x, y); },
          .inplace = [](Tensor& x, const Tensor& y) -> Tensor& { return x.logical_or_(y); },
          .out = [](const Tensor& x, const Tensor& y, Tensor& out) -> Tensor& { return mt::logical_or_out(out, x, y); },
          .reference = [](double x, double y) { return x != 0 || y != 0; }},
  };
  return rows;
}

#undef MT_COMPARISON_ROW

}  // namespace mt_test
