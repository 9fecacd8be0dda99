#pragma once
// The OpInfo table: one row per operator variant with what every test suite needs to know about it (how
// to call it, its input domain, a double-precision reference, which layers it goes through), so that the
// ops, autograd, functorch, Meta, autocast and CUDA suites in this folder iterate over rows instead of
// each spelling the op's facts again. Adding an op: its declaration, its kernels, one row.
#include <cctype>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include "functorch/autocast/AutocastMode.h"

namespace mt_test {

using mt::Tensor;

// What an integer input gives: the default float (the math functions), itself (rounding), f computed in
// its own dtype (square, add; a unary op's bool then gives int64, as PyTorch's pow), f computed in int64
// (sum and prod, for every integer dtype and bool), or an error.
enum class Integers { to_float, unchanged, kept, to_int64, refused };

// A unary pointwise op y = f(x) and its forms.
struct UnaryOpInfo {
  std::string name;  // the operator's name, as registered ("expm1")
  std::function<Tensor(const Tensor&)> op;
  std::function<Tensor&(Tensor&)> inplace = {};  // empty where PyTorch has no in-place form (softplus)
  std::function<Tensor&(const Tensor&, Tensor&)> out = {};  // empty where it has no out= form (selu)
  double (*reference)(double);  // f in double precision, the value every dtype is compared with
  // Sample inputs are drawn from (lo, hi); gradients are checked on (grad_lo, grad_hi), which keeps away
  // from where f' blows up (asin's +-1).
  double lo, hi, grad_lo, grad_hi;
  // Every dtype's result may be `ulps` of its own epsilon off the reference, relative to the reference or,
  // where that is smaller, to `floor` (Eigen's vectorised sin has an absolute error bound near its zeros).
  double ulps = 4;
  double floor = 1e-3;
  bool mirrored = false;  // samples from both (lo, hi) and (-hi, -lo): reciprocal's domain has a hole at 0
  // The policy PyTorch's autocast gives it on CUDA (none on the CPU: PyTorch's CPU list has no unary math).
  std::optional<mt::autocast::CastPolicy> cuda_autocast = std::nullopt;
  Integers integers = Integers::to_float;
  bool bools = true;  // bool inputs are accepted (as integers)
  bool zero_gradient = false;  // piecewise constant (the rounding functions): its gradient is 0
};

const std::vector<UnaryOpInfo>& unary_ops();

// A binary pointwise op z = f(x, y) of two tensors, and its forms.
struct BinaryOpInfo {
  std::string name;  // the functional overload, as registered ("add.Tensor", "atan2")
  std::function<Tensor(const Tensor&, const Tensor&)> op;
  std::function<Tensor&(Tensor&, const Tensor&)> inplace = {};  // empty where PyTorch has none (maximum)
  std::function<Tensor&(const Tensor&, const Tensor&, Tensor&)> out = {};
  double (*reference)(double, double);  // f in double precision
  // Samples: x from (lo, hi), y from (other_lo, other_hi), and y also from (-other_hi, -other_lo) where
  // `mirrored` (a divisor kept away from 0 on both sides). Gradients are checked on the same domain.
  double lo = -10, hi = 10, other_lo = -10, other_hi = 10;
  bool mirrored = false;
  // Each dtype's result may be `ulps` of its epsilon off the reference, relative to it or to `floor`.
  double ulps = 4;
  double floor = 1e-3;
  // Special values (NaN, infinities, zeros of both signs) in both operands against the reference, a zero's
  // sign included where `signed_zeros`.
  bool specials = true;
  bool signed_zeros = true;
  // Integer operands: computed in the default float (to_float), in their promoted integer dtype (kept), or
  // refused. Two bool operands give `bools` (a bool for add and mul, which are logical on them), or an
  // error where it is empty.
  Integers integers = Integers::to_float;
  std::optional<mt::ScalarType> bools = mt::kFloat32;
  std::optional<mt::autocast::CastPolicy> cuda_autocast = std::nullopt;
};

const std::vector<BinaryOpInfo>& binary_ops();

// A reduction y = f(the elements of x along some dims), and its form without dims.
struct ReductionOpInfo {
  std::string name;  // the overload that takes dims, as registered ("sum.dim_IntList")
  // f over `dims` (never empty; one dim where the op takes a single one), keeping them as size 1 or not.
  std::function<Tensor(const Tensor&, const std::vector<int64_t>&, bool)> op;
  std::function<Tensor(const Tensor&)> full = {};  // over every dim; empty where PyTorch has no such form
  double (*reference)(const std::vector<double>&);  // f of the reduced elements, in double
  bool dim_list = true;  // takes several dims at once (prod takes one)
  double lo = -2, hi = 2;  // samples are drawn from (lo, hi)
  // What an empty slice reduces to (sum's 0, mean's NaN), or nullopt where that is an error (amax's).
  std::optional<double> empty = std::nullopt;
  // Integer and bool inputs: widened to int64 (sum, prod), kept (amax), to the default float
  // (logsumexp), or refused (mean, var). A bool result (all, any) is the `bool_result` rows' for every
  // dtype but uint8, which keeps uint8.
  Integers integers = Integers::refused;
  bool bool_result = false;
  bool differentiable = true;
  std::optional<mt::autocast::CastPolicy> cpu_autocast = std::nullopt, cuda_autocast = std::nullopt;
};

const std::vector<ReductionOpInfo>& reduction_ops();

// A scan along one dim, y[i] = step(y[i - 1], x[i]) from y[0] = x[0] (cumsum, cummax), and its forms.
struct ScanOpInfo {
  std::string name;  // the operator's name, as registered ("cumsum")
  std::function<Tensor(const Tensor&, int64_t)> op;  // the values (cummax's first result)
  std::function<Tensor&(Tensor&, int64_t)> inplace = {};  // empty where PyTorch has no in-place form
  double (*step)(double, double);  // the reference's running combination, in double
  double lo = -2, hi = 2;  // samples are drawn from (lo, hi)
  // Integer and bool inputs: scanned in int64 (cumsum, cumprod), kept (cummax), or refused
  // (logcumsumexp).
  Integers integers = Integers::refused;
  std::optional<mt::autocast::CastPolicy> cuda_autocast = std::nullopt;
};

const std::vector<ScanOpInfo>& scan_ops();

// A comparison or logical op z = f(x, y) of two tensors with a bool result (eq, logical_and), and its forms.
// It compares in the operands' promoted dtype; the in-place form keeps self's dtype and out= casts into out's.
struct ComparisonOpInfo {
  std::string name;  // the overload of two tensors, as registered ("eq.Tensor", "logical_and")
  std::function<Tensor(const Tensor&, const Tensor&)> op;
  std::function<Tensor(const Tensor&, const mt::Scalar&)> scalar = {};  // empty where PyTorch has none
  std::function<Tensor&(Tensor&, const Tensor&)> inplace;
  std::function<Tensor&(const Tensor&, const Tensor&, Tensor&)> out;
  bool (*reference)(double, double);  // f of the operands' values in double (IEEE: NaN compares unequal)
};

const std::vector<ComparisonOpInfo>& comparison_ops();

// A shape op: each element of the result is an element of the input, picked by the op's arguments
// (transpose, select, expand, flip). A row samples the op with fixed arguments on an input of fixed shape;
// several rows may sample one op.
struct ShapeOpInfo {
  std::string name;    // the operator, as registered ("transpose.int")
  std::string sample = {};  // the arguments, for the test's name ("0_2")
  std::vector<int64_t> input;  // the sample's shape
  std::function<Tensor(const Tensor&)> op;  // the op with its arguments, on a tensor of that shape
  std::vector<int64_t> sizes;  // the result's shape
  // The input index each result index reads: the reference, worked out from the op's definition.
  std::function<std::vector<int64_t>(const std::vector<int64_t>&)> source;
  bool view = true;  // the result aliases a contiguous input (false where it copies: clone, flip)
  // It refuses an input whose strides it cannot view without a copy (view: a permuted input raises, and so
  // does vmap with the batch dim after the first).
  bool viewable_only = false;
  // The op reads the input's storage by its own strides (as_strided), so a non-contiguous input reads other
  // elements than a contiguous one with the same values.
  bool reads_storage = false;
};

const std::vector<ShapeOpInfo>& shape_ops();

// An indexing or joining op: each element of the result is the sum of the input elements that its index
// picks (one for gather, cat or tril; self's and src's for scatter_add; none, a zero, above tril's
// diagonal). A row samples the op with fixed indices; several rows may sample one op.
struct IndexingOpInfo {
  using Source = std::pair<size_t, std::vector<int64_t>>;  // (which input, the index into it)
  std::string name;    // the operator, as registered ("scatter_add")
  std::string sample = {};  // the arguments, for the test's name ("dim1")
  std::vector<std::vector<int64_t>> inputs;  // the shapes of the tensors of values (self and src; cat's list)
  // The op with its indices fixed; an index is made on the device of the first input.
  std::function<Tensor(const std::vector<Tensor>&)> op;
  // The in-place form, on the first input with the others as arguments; empty where PyTorch has none.
  std::function<Tensor&(Tensor&, const std::vector<Tensor>&)> inplace = {};
  std::vector<int64_t> sizes;  // the result's shape
  std::function<std::vector<Source>(const std::vector<int64_t>&)> sources;  // the reference
  std::optional<mt::autocast::CastPolicy> cpu_autocast = std::nullopt, cuda_autocast = std::nullopt;
};

const std::vector<IndexingOpInfo>& indexing_ops();

// A factory: a new tensor made from its arguments and options (zeros, arange, eye, randn, ones_like), not
// from an input's elements. A row samples it with fixed arguments.
struct FactoryOpInfo {
  std::string name;         // the operator, as registered ("arange.start_step")
  std::string sample = {};  // the arguments, for the test's name
  std::function<Tensor(const mt::TensorOptions&)> op;  // the op with its arguments fixed, given the options
  std::vector<int64_t> sizes;  // the result's shape
  mt::ScalarType default_dtype = mt::kFloat32;  // with no dtype in the options
  std::vector<mt::ScalarType> dtypes;  // the dtypes the options may ask for
  // Each element's value, by its index; empty where the values are not defined (empty) or random.
  std::function<double(const std::vector<int64_t>&)> value = {};
  // Random values, drawn from [lo, hi) (randn: lo = hi, unbounded), the same again after the same seed.
  bool random = false;
  double lo = 0, hi = 0;
};

const std::vector<FactoryOpInfo>& factory_ops();

// gtest prints a parameter that fails by its name, not its bytes.
inline void PrintTo(const UnaryOpInfo& row, std::ostream* os) { *os << row.name; }
inline void PrintTo(const BinaryOpInfo& row, std::ostream* os) { *os << row.name; }
inline void PrintTo(const ReductionOpInfo& row, std::ostream* os) { *os << row.name; }
inline void PrintTo(const ScanOpInfo& row, std::ostream* os) { *os << row.name; }
inline void PrintTo(const ComparisonOpInfo& row, std::ostream* os) { *os << row.name; }
inline void PrintTo(const ShapeOpInfo& row, std::ostream* os) { *os << row.name << "(" << row.sample << ")"; }
inline void PrintTo(const IndexingOpInfo& row, std::ostream* os) { *os << row.name << "(" << row.sample << ")"; }
inline void PrintTo(const FactoryOpInfo& row, std::ostream* os) { *os << row.name << "(" << row.sample << ")"; }

// Test names: gtest allows letters, digits and underscores.
inline std::string row_name(const std::string& name) {
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

// The test name of a row that samples its op with fixed arguments: "transpose_int_0_2".
template <typename Row>
std::string sampled_row_name(const ::testing::TestParamInfo<Row>& info) {
  return row_name(info.param.name + (info.param.sample.empty() ? "" : "_" + info.param.sample));
}

}  // namespace mt_test
