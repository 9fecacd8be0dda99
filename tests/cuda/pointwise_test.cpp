// Every pointwise op on CUDA against the same op on the CPU: unary math, arithmetic, comparisons,
// pow/clamp/maximum, activations, where and fill, in every dtype the op takes, with broadcasting,
// strided views, wrapped-number scalars, sizes that leave a tail after the vectorised loop, and
// misaligned (offset) inputs that take the unvectorised one. Skips without a GPU.
#include <functional>
#include <string>
#include <vector>

#include "cuda/cuda_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/arange.h"
#include "ops/api/atan2.h"
#include "ops/api/clamp.h"
#include "ops/api/copysign.h"
#include "ops/api/div.h"
#include "ops/api/elu.h"
#include "ops/api/empty.h"
#include "ops/api/eq.h"
#include "ops/api/equal.h"
#include "ops/api/fmod.h"
#include "ops/api/full.h"
#include "ops/api/full_like.h"
#include "ops/api/gelu.h"
#include "ops/api/glu.h"
#include "ops/api/hardsigmoid.h"
#include "ops/api/hardswish.h"
#include "ops/api/hardtanh.h"
#include "ops/api/hypot.h"
#include "ops/api/isclose.h"
#include "ops/api/isfinite.h"
#include "ops/api/isinf.h"
#include "ops/api/isnan.h"
#include "ops/api/isneginf.h"
#include "ops/api/leaky_relu.h"
#include "ops/api/lerp.h"
#include "ops/api/log_sigmoid.h"
#include "ops/api/logaddexp.h"
#include "ops/api/logaddexp2.h"
#include "ops/api/logical_and.h"
#include "ops/api/logical_not.h"
#include "ops/api/logical_or.h"
#include "ops/api/maximum.h"
#include "ops/api/minimum.h"
#include "ops/api/mish.h"
#include "ops/api/mul.h"
#include "ops/api/nan_to_num.h"
#include "ops/api/ones_like.h"
#include "ops/api/pow.h"
#include "ops/api/rand.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/relu.h"
#include "ops/api/remainder.h"
#include "ops/api/selu.h"
#include "ops/api/silu.h"
#include "ops/api/softplus.h"
#include "ops/api/square.h"
#include "ops/api/sub.h"
#include "ops/api/where.h"
#include "ops/api/xlogy.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::expect_close_to_cpu;

const std::vector<mt::ScalarType> kFloatTypes = {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16};

// Values of `dtype` with zeros, negatives and, for floats, NaN and infinities among them; 1031
// elements leave a tail after every vector width.
Tensor sample(mt::ScalarType dtype, std::vector<int64_t> shape = {1031}, uint64_t seed = 7) {
  mt::manual_seed(seed);
  if (dtype == mt::kBool) return mt::randn(shape) > 0;
  // Negative values wrap in the unsigned type: uint8 samples hold 250..255 too.
  if (mt::is_integral(dtype, false)) return mt::randint(-6, 7, shape).to(dtype);
  Tensor x = (mt::randn(shape) * 3).to(dtype);
  if (x.numel() >= 8) {
    Tensor flat = x.reshape({-1});
    flat.select(0, 1).fill_(std::nan(""));
    flat.select(0, 2).fill_(INFINITY);
    flat.select(0, 3).fill_(-INFINITY);
    flat.select(0, 4).fill_(0.0);
  }
  return x;
}

// The floating and integer types, and those with bool.
std::vector<mt::ScalarType> with_everything_but_bool() {
  std::vector<mt::ScalarType> all = mt_test::with_narrow_integers(kFloatTypes);
  all.push_back(mt::kInt64);
  return all;
}
std::vector<mt::ScalarType> with_everything() {
  std::vector<mt::ScalarType> all = with_everything_but_bool();
  all.push_back(mt::kBool);
  return all;
}

using Unary = std::function<Tensor(const Tensor&)>;
using Binary = std::function<Tensor(const Tensor&, const Tensor&)>;

void expect_unary_matches(const std::string& name, const Unary& f, const std::vector<mt::ScalarType>& dtypes) {
  for (mt::ScalarType dtype : dtypes) {
    SCOPED_TRACE(name + " on " + std::string(mt::scalar_type_name(dtype)));
    const Tensor x = sample(dtype);
    expect_close_to_cpu(f(x.to(mt::kCUDA)), f(x));
    // A transposed view goes through the strided loop.
    const Tensor m = sample(dtype, {33, 17}).t();
    expect_close_to_cpu(f(m.to(mt::kCUDA)), f(m));
  }
}

void expect_binary_matches(const std::string& name, const Binary& f, const std::vector<mt::ScalarType>& dtypes) {
  for (mt::ScalarType dtype : dtypes) {
    SCOPED_TRACE(name + " on " + std::string(mt::scalar_type_name(dtype)));
    const Tensor a = sample(dtype, {1031}), b = sample(dtype, {1031}, 11);
    expect_close_to_cpu(f(a.to(mt::kCUDA), b.to(mt::kCUDA)), f(a, b));
    // Broadcasting a row against a column.
    const Tensor row = sample(dtype, {1, 40}), col = sample(dtype, {37, 1}, 11);
    expect_close_to_cpu(f(row.to(mt::kCUDA), col.to(mt::kCUDA)), f(row, col));
  }
}

TEST(CudaPointwise, UnaryMathMatchesCpu) {
  MT_SKIP_WITHOUT_GPU();
  const std::vector<mt::ScalarType> numeric =
      mt_test::with_narrow_integers({mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16, mt::kInt64});
  expect_unary_matches(
      "neg", [](const Tensor& x) { return x.neg(); }, numeric);
  expect_unary_matches(
      "abs", [](const Tensor& x) { return x.abs(); }, numeric);
  expect_unary_matches(
      "sign", [](const Tensor& x) { return x.sign(); }, numeric);
  expect_unary_matches(
      "exp", [](const Tensor& x) { return x.exp(); }, kFloatTypes);
  expect_unary_matches(
      "log", [](const Tensor& x) { return x.log(); }, kFloatTypes);
  expect_unary_matches(
      "log1p", [](const Tensor& x) { return x.log1p(); }, kFloatTypes);
  expect_unary_matches(
      "sqrt", [](const Tensor& x) { return x.sqrt(); }, kFloatTypes);
  expect_unary_matches(
      "rsqrt", [](const Tensor& x) { return x.rsqrt(); }, kFloatTypes);
  expect_unary_matches(
      "sin", [](const Tensor& x) { return x.sin(); }, kFloatTypes);
  expect_unary_matches(
      "cos", [](const Tensor& x) { return x.cos(); }, kFloatTypes);
  expect_unary_matches(
      "tanh", [](const Tensor& x) { return x.tanh(); }, kFloatTypes);
  expect_unary_matches(
      "sigmoid", [](const Tensor& x) { return x.sigmoid(); }, kFloatTypes);
  // Integers go to the default float, as on the CPU.
  expect_unary_matches(
      "exp of integers", [](const Tensor& x) { return x.exp(); }, mt_test::with_narrow_integers({mt::kInt64}));
}

TEST(CudaPointwise, ActivationsMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  expect_unary_matches("relu", [](const Tensor& x) { return mt::relu(x); },
                       {mt::kFloat32, mt::kBFloat16, mt::kInt64, mt::kUInt8, mt::kInt8});
  expect_unary_matches(
      "gelu", [](const Tensor& x) { return mt::gelu(x); }, kFloatTypes);
  expect_unary_matches(
      "gelu tanh", [](const Tensor& x) { return mt::gelu(x, "tanh"); }, kFloatTypes);
  expect_unary_matches(
      "silu", [](const Tensor& x) { return mt::silu(x); }, kFloatTypes);
  expect_unary_matches("leaky_relu", [](const Tensor& x) { return mt::leaky_relu(x, 0.2); }, kFloatTypes);
  expect_unary_matches("elu", [](const Tensor& x) { return mt::elu(x, 1.5, 2.0, 0.5); }, kFloatTypes);
  expect_unary_matches("selu", [](const Tensor& x) { return mt::selu(x); }, kFloatTypes);
  expect_unary_matches("softplus", [](const Tensor& x) { return mt::softplus(x, 2.0, 3.0); }, kFloatTypes);
  expect_unary_matches("hardtanh", [](const Tensor& x) { return mt::hardtanh(x, -2, 3); }, with_everything_but_bool());
  expect_unary_matches("hardsigmoid", [](const Tensor& x) { return mt::hardsigmoid(x); }, kFloatTypes);
  expect_unary_matches("hardswish", [](const Tensor& x) { return mt::hardswish(x); }, kFloatTypes);
  expect_unary_matches("mish", [](const Tensor& x) { return mt::mish(x); }, kFloatTypes);
  expect_unary_matches("log_sigmoid", [](const Tensor& x) { return mt::log_sigmoid(x); }, kFloatTypes);
  for (mt::ScalarType dt : kFloatTypes) {
    const Tensor x = sample(dt, {6, 40});
    expect_close_to_cpu(mt::glu(x.to(mt::kCUDA), 0), mt::glu(x, 0));
  }
}

TEST(CudaPointwise, ArithmeticMatchesCpu) {
  MT_SKIP_WITHOUT_GPU();
  const std::vector<mt::ScalarType> all =
      mt_test::with_narrow_integers({mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16, mt::kInt64});
  expect_binary_matches(
      "add", [](const Tensor& a, const Tensor& b) { return mt::add(a, b); }, all);
  expect_binary_matches(
      "add alpha", [](const Tensor& a, const Tensor& b) { return mt::add(a, b, 3); }, all);
  expect_binary_matches(
      "sub", [](const Tensor& a, const Tensor& b) { return mt::sub(a, b); }, all);
  expect_binary_matches(
      "mul", [](const Tensor& a, const Tensor& b) { return mt::mul(a, b); }, all);
  expect_binary_matches(
      "div", [](const Tensor& a, const Tensor& b) { return mt::div(a, b); }, kFloatTypes);
  expect_binary_matches(
      "div trunc", [](const Tensor& a, const Tensor& b) { return mt::div(a, b, "trunc"); }, kFloatTypes);
  expect_binary_matches(
      "div floor", [](const Tensor& a, const Tensor& b) { return mt::div(a, b, "floor"); }, kFloatTypes);
  // The float samples hold 0, NaN and +-inf; integer divisors are kept nonzero, in both signs.
  expect_binary_matches(
      "remainder", [](const Tensor& a, const Tensor& b) { return mt::remainder(a, b); }, kFloatTypes);
  expect_binary_matches(
      "remainder int",
      [](const Tensor& a, const Tensor& b) { return mt::remainder(a, mt::where(mt::eq(b, 0), mt::ones_like(b), b)); },
      mt_test::with_narrow_integers({mt::kInt64}));
  expect_binary_matches("add bool", [](const Tensor& a, const Tensor& b) { return mt::add(a, b); }, {mt::kBool});
  expect_binary_matches("mul bool", [](const Tensor& a, const Tensor& b) { return mt::mul(a, b); }, {mt::kBool});
  // Mixed dtypes promote as on the CPU.
  const Tensor i = sample(mt::kInt64), f = sample(mt::kFloat16);
  expect_close_to_cpu(mt::add(i.to(mt::kCUDA), f.to(mt::kCUDA)), mt::add(i, f));
  const Tensor u8 = sample(mt::kUInt8), i8 = sample(mt::kInt8, {1031}, 11);  // int16
  expect_close_to_cpu(mt::mul(u8.to(mt::kCUDA), i8.to(mt::kCUDA)), mt::mul(u8, i8));
  expect_close_to_cpu(mt::div(i.to(mt::kCUDA), i.to(mt::kCUDA).abs() + 1), mt::div(i, i.abs() + 1));
  expect_close_to_cpu(mt::remainder(i.to(mt::kCUDA), 2.5), mt::remainder(i, 2.5));
  Tensor self = i.to(mt::kCUDA);
  const Tensor before = self.to(mt::kCPU);
  EXPECT_THROW(self.remainder_(mt::zeros({1031}, mt::kInt64).to(mt::kCUDA)), mt::RuntimeError);
  expect_close_to_cpu(self, before);
}

TEST(CudaPointwise, BitwiseOpsMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  const std::vector<mt::ScalarType> integers = mt_test::with_narrow_integers({mt::kInt64});
  const std::vector<mt::ScalarType> with_bool = mt_test::with_narrow_integers({mt::kInt64, mt::kBool});
  expect_unary_matches("bitwise_not", [](const Tensor& x) { return ~x; }, with_bool);
  expect_binary_matches("bitwise_and", [](const Tensor& a, const Tensor& b) { return a & b; }, with_bool);
  expect_binary_matches("bitwise_or", [](const Tensor& a, const Tensor& b) { return a | b; }, with_bool);
  expect_binary_matches("bitwise_xor", [](const Tensor& a, const Tensor& b) { return a ^ b; }, with_bool);
  expect_unary_matches("xor with a scalar", [](const Tensor& x) { return x ^ 5; }, integers);
  // Shift amounts inside the width, negative and past it.
  for (mt::ScalarType dt : integers) {
    SCOPED_TRACE(mt::scalar_type_name(dt));
    const Tensor a = sample(dt);
    mt::manual_seed(5);
    const Tensor s = mt::randint(dt == mt::kUInt8 ? 0 : -3, 70, {1031}).to(dt);
    expect_close_to_cpu(a.to(mt::kCUDA) << s.to(mt::kCUDA), a << s);
    expect_close_to_cpu(a.to(mt::kCUDA) >> s.to(mt::kCUDA), a >> s);
    expect_close_to_cpu(a.to(mt::kCUDA) << 3, a << 3);
  }
  const Tensor f = sample(mt::kFloat32).to(mt::kCUDA);
  EXPECT_THROW((void)(f & f), mt::NotImplementedError);
}

TEST(CudaPointwise, SpecialValueTestsAndNanToNumMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  expect_unary_matches("isnan", [](const Tensor& x) { return mt::isnan(x); }, with_everything());
  expect_unary_matches("isinf", [](const Tensor& x) { return mt::isinf(x); }, with_everything());
  expect_unary_matches("isfinite", [](const Tensor& x) { return mt::isfinite(x); }, with_everything());
  expect_unary_matches("isneginf", [](const Tensor& x) { return mt::isneginf(x); }, kFloatTypes);
  expect_unary_matches("nan_to_num", [](const Tensor& x) { return mt::nan_to_num(x); }, with_everything());
  expect_unary_matches("nan_to_num given", [](const Tensor& x) { return mt::nan_to_num(x, 1.0, 2.0, -3.0); },
                       kFloatTypes);
  expect_unary_matches("square", [](const Tensor& x) { return mt::square(x); }, with_everything());
}

TEST(CudaPointwise, BinaryMathAndFmodMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  // The samples hold 0, NaN and +-inf in every pairing across the two seeds.
  expect_binary_matches("atan2", [](const Tensor& a, const Tensor& b) { return mt::atan2(a, b); }, kFloatTypes);
  expect_binary_matches("hypot", [](const Tensor& a, const Tensor& b) { return mt::hypot(a, b); }, kFloatTypes);
  expect_binary_matches("copysign", [](const Tensor& a, const Tensor& b) { return mt::copysign(a, b); }, kFloatTypes);
  expect_binary_matches("logaddexp", [](const Tensor& a, const Tensor& b) { return mt::logaddexp(a, b); }, kFloatTypes);
  expect_binary_matches("logaddexp2", [](const Tensor& a, const Tensor& b) { return mt::logaddexp2(a, b); },
                        kFloatTypes);
  expect_binary_matches("xlogy", [](const Tensor& a, const Tensor& b) { return mt::xlogy(a, b); }, kFloatTypes);
  expect_binary_matches("fmod", [](const Tensor& a, const Tensor& b) { return mt::fmod(a, b); }, kFloatTypes);
  expect_binary_matches(
      "fmod int",
      [](const Tensor& a, const Tensor& b) { return mt::fmod(a, mt::where(mt::eq(b, 0), mt::ones_like(b), b)); },
      mt_test::with_narrow_integers({mt::kInt64}));
  // Integers compute in the default float.
  expect_binary_matches("atan2 of integers", [](const Tensor& a, const Tensor& b) { return mt::atan2(a, b); },
                        mt_test::with_narrow_integers({mt::kInt64}));
}

TEST(CudaPointwise, LerpAndIscloseMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kFloatTypes) {
    SCOPED_TRACE(mt::scalar_type_name(dt));
    const Tensor a = sample(dt, {40, 1}), b = sample(dt, {1, 30}, 11), w = mt::rand({40, 30}).to(dt);
    expect_close_to_cpu(mt::lerp(a.to(mt::kCUDA), b.to(mt::kCUDA), w.to(mt::kCUDA)), mt::lerp(a, b, w));
    expect_close_to_cpu(mt::lerp(a.to(mt::kCUDA), b.to(mt::kCUDA), 0.7), mt::lerp(a, b, 0.7));
    const Tensor c = sample(dt, {1031}), d = sample(dt, {1031}, 11);
    expect_close_to_cpu(mt::isclose(c.to(mt::kCUDA), d.to(mt::kCUDA), 0.1, 0.5, true),
                        mt::isclose(c, d, 0.1, 0.5, true));
    EXPECT_EQ(mt::equal(c.to(mt::kCUDA), c.to(mt::kCUDA)), mt::equal(c, c));
  }
}

TEST(CudaPointwise, IntegerDivisionMatchesCpuAndRefusesZeroDivisors) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor a = mt::arange(-20, 20);
  const Tensor b = mt::where(a.abs() < 3, 3, mt::div(a, mt::full_like(a, 3), "trunc"));  // no zeros
  for (const char* mode : {"trunc", "floor"}) {
    SCOPED_TRACE(mode);
    expect_close_to_cpu(mt::div(a.to(mt::kCUDA), b.to(mt::kCUDA), mode), mt::div(a, b, mode));
    Tensor out = a.to(mt::kCUDA);
    EXPECT_THROW(out.div_(mt::zeros({40}, mt::TensorOptions().dtype(mt::kInt64).device(mt::kCUDA)), mode), mt::Error);
    expect_close_to_cpu(out, a);  // unchanged
  }
}

TEST(CudaPointwise, WrappedNumbersStayOnTheHostAndBroadcast) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat16, mt::kInt64}) {
    SCOPED_TRACE(mt::scalar_type_name(dtype));
    const Tensor x = sample(dtype), xc = x.to(mt::kCUDA);
    expect_close_to_cpu(xc * 3, x * 3);
    expect_close_to_cpu(xc + 2.5, x + 2.5);
    expect_close_to_cpu(xc - 1, x - 1);
    expect_close_to_cpu(xc / 4, x / 4);
    expect_close_to_cpu(mt::pow(2, xc.abs().clamp(std::nullopt, 10)), mt::pow(2, x.abs().clamp(std::nullopt, 10)));
    expect_close_to_cpu(xc > 0, x > 0);
    // A 0-dim CPU tensor joins a CUDA op too, as in PyTorch.
    const Tensor two = mt::full({}, 2, mt::TensorOptions().dtype(dtype));
    expect_close_to_cpu(xc * two, x * two);
  }
}

TEST(CudaPointwise, ComparisonsAndLogicalOpsMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  const std::vector<mt::ScalarType> all = {mt::kFloat32,  mt::kFloat64, mt::kFloat16,
                                           mt::kBFloat16, mt::kInt64,   mt::kBool};
  expect_binary_matches(
      "eq", [](const Tensor& a, const Tensor& b) { return a == b; }, all);
  expect_binary_matches(
      "ne", [](const Tensor& a, const Tensor& b) { return a != b; }, all);
  expect_binary_matches(
      "lt", [](const Tensor& a, const Tensor& b) { return a < b; }, all);
  expect_binary_matches(
      "le", [](const Tensor& a, const Tensor& b) { return a <= b; }, all);
  expect_binary_matches(
      "gt", [](const Tensor& a, const Tensor& b) { return a > b; }, all);
  expect_binary_matches(
      "ge", [](const Tensor& a, const Tensor& b) { return a >= b; }, all);
  expect_binary_matches(
      "logical_and", [](const Tensor& a, const Tensor& b) { return mt::logical_and(a, b); }, all);
  expect_binary_matches(
      "logical_or", [](const Tensor& a, const Tensor& b) { return mt::logical_or(a, b); }, all);
  expect_unary_matches(
      "logical_not", [](const Tensor& x) { return mt::logical_not(x); }, all);
}

TEST(CudaPointwise, PowMaximumMinimumAndClampMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  const std::vector<mt::ScalarType> numeric =
      mt_test::with_narrow_integers({mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16, mt::kInt64});
  for (double e : {2.0, 3.0, 0.5, -0.5, -1.0, 1.7}) {
    expect_unary_matches(
        "pow " + std::to_string(e), [e](const Tensor& x) { return mt::pow(x, e); }, kFloatTypes);
  }
  expect_unary_matches("pow int", [](const Tensor& x) { return mt::pow(x, 3); }, {mt::kInt64});
  expect_binary_matches(
      "pow tensor", [](const Tensor& a, const Tensor& b) { return mt::pow(a.abs(), b); }, kFloatTypes);
  expect_binary_matches(
      "maximum", [](const Tensor& a, const Tensor& b) { return mt::maximum(a, b); }, numeric);
  expect_binary_matches(
      "minimum", [](const Tensor& a, const Tensor& b) { return mt::minimum(a, b); }, numeric);
  expect_unary_matches(
      "clamp", [](const Tensor& x) { return mt::clamp(x, -1.5, 2); }, numeric);
  expect_unary_matches(
      "clamp min", [](const Tensor& x) { return mt::clamp(x, 0.5, std::nullopt); }, numeric);
  expect_unary_matches(
      "clamp nan", [](const Tensor& x) { return mt::clamp(x, NAN, 1); }, kFloatTypes);
  expect_binary_matches(
      "clamp tensors", [](const Tensor& a, const Tensor& b) { return mt::clamp(a, b, b + 1); }, numeric);
}

TEST(CudaPointwise, WhereMaskedFillAndFillMatchCpu) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dtype : {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16, mt::kInt64, mt::kBool}) {
    SCOPED_TRACE(mt::scalar_type_name(dtype));
    const Tensor a = sample(dtype, {37, 40}), b = sample(dtype, {40}, 11);
    const Tensor cond = mt::randn({37, 1}) > 0;
    expect_close_to_cpu(mt::where(cond.to(mt::kCUDA), a.to(mt::kCUDA), b.to(mt::kCUDA)), mt::where(cond, a, b));
    expect_close_to_cpu(mt::where(cond.to(mt::kCUDA), a.to(mt::kCUDA), 1), mt::where(cond, a, 1));
    expect_close_to_cpu(a.to(mt::kCUDA).masked_fill(cond.to(mt::kCUDA), 0), a.masked_fill(cond, 0));
    Tensor filled = a.to(mt::kCUDA);
    filled.t().fill_(1);
    expect_close_to_cpu(filled, mt::ones_like(a));
  }
}

TEST(CudaPointwise, MisalignedAndOddSizedInputsTakeTheScalarLoops) {
  MT_SKIP_WITHOUT_GPU();
  for (int64_t n : {1, 3, 4, 5, 1023, 4097}) {
    const Tensor x = sample(mt::kFloat32, {n + 1});
    const Tensor xc = x.to(mt::kCUDA);
    // Slicing off the first element shifts the data by 4 bytes: no longer 16-byte aligned.
    expect_close_to_cpu(xc.slice(0, 1) + xc.slice(0, 0, n), x.slice(0, 1) + x.slice(0, 0, n));
    expect_close_to_cpu(xc.slice(0, 0, n) * 2, x.slice(0, 0, n) * 2);
  }
}

TEST(CudaPointwise, InPlaceAndOutVariantsWriteTheGivenTensor) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor a = sample(mt::kFloat32, {64, 16}), b = sample(mt::kFloat32, {16}, 11);
  Tensor ac = a.to(mt::kCUDA);
  ac.add_(b.to(mt::kCUDA), 2);
  expect_close_to_cpu(ac, a + 2 * b);
  // A half output of a float computation is cast after the loop, as on the CPU.
  Tensor out = mt::empty({64, 16}, mt::TensorOptions().dtype(mt::kFloat16).device(mt::kCUDA));
  mt::mul_out(out, a.to(mt::kCUDA), b.to(mt::kCUDA));
  expect_close_to_cpu(out, (a * b).to(mt::kFloat16));
}

}  // namespace
