// uint8, int8, int16 and int32 against references computed in int64 and wrapped to the type: arithmetic at
// the type's limits (wrapping as PyTorch's), division and modulo rules, powers, promotion between them,
// conversions, checked Scalar conversions, reductions, products, randint's range, printing and Meta.
#include <cstdint>
#include <limits>
#include <sstream>

#include "reference.h"
#include "ops/api/abs.h"
#include "ops/api/add.h"
#include "ops/api/arange.h"
#include "ops/api/cat.h"
#include "ops/api/clamp.h"
#include "ops/api/div.h"
#include "ops/api/dot.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/full_like.h"
#include "ops/api/index_select.h"
#include "ops/api/matmul.h"
#include "ops/api/max.h"
#include "ops/api/min.h"
#include "ops/api/mm.h"
#include "ops/api/pow.h"
#include "ops/api/randint.h"
#include "ops/api/remainder.h"
#include "ops/api/sign.h"
#include "ops/api/sqrt.h"
#include "ops/api/t.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

namespace {

using namespace mt;
using namespace mt::testing;

const ScalarType kNarrowIntegers[] = {kUInt8, kInt8, kInt16, kInt32};

struct Range {
  int64_t lo, hi;
};
Range range_of(ScalarType dtype) {
  switch (dtype) {
    case kUInt8: return {0, 255};
    case kInt8: return {-128, 127};
    case kInt16: return {-32768, 32767};
    default: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  }
}

// The limits, their neighbours and small values, which every binary test pairs all with all.
std::vector<int64_t> edge_values(ScalarType dtype) {
  const Range r = range_of(dtype);
  std::vector<int64_t> v = {r.lo, r.lo + 1, r.hi - 1, r.hi, 0, 1, 2, 3, 7, r.hi / 2, r.hi / 2 + 1};
  if (r.lo < 0) v.insert(v.end(), {-1, -2, -7, r.lo / 2});
  return v;
}

// Every pair (a, b) of values as two 1-D tensors.
std::pair<Tensor, Tensor> all_pairs(const std::vector<int64_t>& a, const std::vector<int64_t>& b, ScalarType dtype) {
  std::vector<int64_t> left, right;
  for (int64_t x : a) {
    for (int64_t y : b) {
      left.push_back(x);
      right.push_back(y);
    }
  }
  return {mt::tensor(left, TensorOptions(dtype)), mt::tensor(right, TensorOptions(dtype))};
}

std::vector<double> expected_from(const Tensor& a, const Tensor& b, ScalarType dtype,
                                  const std::function<int64_t(int64_t, int64_t)>& f) {
  std::vector<double> out;
  for (int64_t i = 0; i < a.numel(); ++i) {
    out.push_back(static_cast<double>(
        wrap_to(f(static_cast<int64_t>(element(a, i)), static_cast<int64_t>(element(b, i))), dtype)));
  }
  return out;
}

int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t python_mod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

TEST(IntegerDtypes, ArithmeticWrapsAtTheLimits) {
  for (ScalarType dt : kNarrowIntegers) {
    const std::vector<int64_t> v = edge_values(dt);
    const auto [a, b] = all_pairs(v, v, dt);
    EXPECT_EQ((a + b).dtype(), dt);
    EXPECT_EQ(values(a + b), expected_from(a, b, dt, [](int64_t x, int64_t y) { return x + y; })) << dt;
    EXPECT_EQ(values(a - b), expected_from(a, b, dt, [](int64_t x, int64_t y) { return x - y; })) << dt;
    EXPECT_EQ(values(a * b), expected_from(a, b, dt, [](int64_t x, int64_t y) { return x * y; })) << dt;
    EXPECT_EQ(values(mt::add(a, b, 3)), expected_from(a, b, dt, [](int64_t x, int64_t y) { return x + 3 * y; }))
        << dt;
    EXPECT_EQ(values(-a), expected_from(a, b, dt, [](int64_t x, int64_t) { return -x; })) << dt;
    Tensor inplace = a.clone();
    inplace.mul_(b);
    EXPECT_EQ(values(inplace), values(a * b)) << dt;
  }
  // Spelled out: the wrapped values PyTorch prints.
  EXPECT_EQ(values(mt::tensor({255}, TensorOptions(kUInt8)) + 1), std::vector<double>{0});
  EXPECT_EQ(values(mt::tensor({0}, TensorOptions(kUInt8)) - 1), std::vector<double>{255});
  EXPECT_EQ(values(mt::tensor({127}, TensorOptions(kInt8)) + 1), std::vector<double>{-128});
  EXPECT_EQ(values(-mt::tensor({-128}, TensorOptions(kInt8))), std::vector<double>{-128});
  EXPECT_EQ(values(mt::tensor({200}, TensorOptions(kInt16)) * 200), std::vector<double>{-25536});
  EXPECT_EQ(values(mt::tensor({65536}, TensorOptions(kInt32)) * 65536), std::vector<double>{0});
}

TEST(IntegerDtypes, DivisionAndModuloFollowPython) {
  for (ScalarType dt : kNarrowIntegers) {
    std::vector<int64_t> divisors;
    for (int64_t d : edge_values(dt)) {
      if (d != 0) divisors.push_back(d);
    }
    const auto [a, b] = all_pairs(edge_values(dt), divisors, dt);
    // MIN / -1 wraps to MIN instead of trapping.
    EXPECT_EQ(values(mt::div(a, b, "trunc")), expected_from(a, b, dt, [](int64_t x, int64_t y) { return x / y; }))
        << dt;
    EXPECT_EQ(values(mt::div(a, b, "floor")), expected_from(a, b, dt, floor_div)) << dt;
    EXPECT_EQ(values(mt::remainder(a, b)), expected_from(a, b, dt, python_mod)) << dt;
    EXPECT_EQ(mt::div(a, b).dtype(), get_default_dtype()) << "true division gives floats";
    expect_error<RuntimeError>([&] { mt::remainder(a, mt::zeros_like(b)); }, "ZeroDivisionError");
    expect_error<RuntimeError>([&] { mt::div(a, mt::zeros_like(b), "floor"); }, "ZeroDivisionError");
  }
  const Tensor m = mt::tensor({-7, 7}, TensorOptions(kInt8));
  EXPECT_EQ(values(mt::div(m, mt::full_like(m, 2), "floor")), (std::vector<double>{-4, 3}));
  EXPECT_EQ(values(mt::remainder(m, -3)), (std::vector<double>{-1, -2}));
}

TEST(IntegerDtypes, PowersWrapAndRefuseNegativeExponents) {
  for (ScalarType dt : kNarrowIntegers) {
    const std::vector<int64_t> bases = dt == kUInt8 ? std::vector<int64_t>{0, 1, 2, 3, 7, 255}
                                                    : std::vector<int64_t>{-3, -2, -1, 0, 1, 2, 3, 7, 100};
    const auto [b, e] = all_pairs(bases, {0, 1, 2, 3, 5, 9, 17}, dt);
    const auto power = [](int64_t x, int64_t n) {
      uint64_t r = 1;
      for (int64_t i = 0; i < n; ++i) r *= static_cast<uint64_t>(x);
      return static_cast<int64_t>(r);
    };
    EXPECT_EQ(values(mt::pow(b, e)), expected_from(b, e, dt, power)) << dt;
    EXPECT_EQ(values(mt::pow(b, 5)), expected_from(b, mt::full_like(b, 5), dt, power)) << dt;
    expect_error<RuntimeError>([&] { mt::pow(b, -1); }, "Integers to negative integer powers are not allowed.");
  }
}

TEST(IntegerDtypes, UnaryOpsAtTheLimits) {
  const Tensor i8 = mt::tensor({-128, -5, 0, 5, 127}, TensorOptions(kInt8));
  EXPECT_EQ(values(mt::abs(i8)), (std::vector<double>{-128, 5, 0, 5, 127}));  // |MIN| wraps, as in PyTorch
  EXPECT_EQ(values(mt::sign(i8)), (std::vector<double>{-1, -1, 0, 1, 1}));
  EXPECT_EQ(values(mt::clamp(i8, -6, 6)), (std::vector<double>{-6, -5, 0, 5, 6}));
  const Tensor u8 = mt::tensor({0, 3, 255}, TensorOptions(kUInt8));
  EXPECT_EQ(values(mt::abs(u8)), (std::vector<double>{0, 3, 255}));
  EXPECT_EQ(values(mt::sign(u8)), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(mt::sqrt(u8).dtype(), get_default_dtype());
  EXPECT_NEAR(element(mt::sqrt(u8), 2), std::sqrt(255.0), 1e-5);
  expect_error<RuntimeError>([&] { mt::clamp(u8, 0, 300); }, "value cannot be converted to type mt.uint8");
}

TEST(IntegerDtypes, PromotionBetweenIntegersScalarsAndFloats) {
  const Tensor u8 = mt::tensor({200, 3}, TensorOptions(kUInt8));
  const Tensor i8 = mt::tensor({-100, 3}, TensorOptions(kInt8));
  const Tensor mixed = u8 + i8;
  EXPECT_EQ(mixed.dtype(), kInt16);
  EXPECT_EQ(values(mixed), (std::vector<double>{100, 6}));  // in int16: no wrap
  EXPECT_EQ((u8 + mt::tensor({1}, TensorOptions(kInt32))).dtype(), kInt32);
  EXPECT_EQ((u8 + 100).dtype(), kUInt8) << "an integer scalar does not promote";
  EXPECT_EQ(values(u8 + 100), (std::vector<double>{44, 103}));
  EXPECT_EQ((u8 * 1.5).dtype(), get_default_dtype()) << "a floating scalar does";
  EXPECT_EQ((u8 + mt::tensor(int64_t{1})).dtype(), kUInt8) << "so does not a 0-dim integer tensor";
  EXPECT_EQ((i8 + mt::tensor({true, false})).dtype(), kInt8);
  EXPECT_EQ((mt::tensor({1}, TensorOptions(kInt16)) + mt::tensor({1}, TensorOptions(kFloat16))).dtype(), kFloat16);
  EXPECT_EQ(mt::result_type(u8, i8), kInt16);
  // In place keeps self's dtype; a float result cannot go into an integer tensor.
  Tensor t = u8.clone();
  t.add_(i8);
  EXPECT_EQ(t.dtype(), kUInt8);
  EXPECT_EQ(values(t), (std::vector<double>{100, 6}));
  expect_error<TypeError>([&] { t.mul_(1.5); },
                          "result type mt.float32 can't be cast to the desired output type mt.uint8");
}

TEST(IntegerDtypes, ConversionsWrapAsPyTorch) {
  const Tensor f = mt::tensor({-1.0, 300.0, 2.9, -2.9});
  EXPECT_EQ(values(f.to(kUInt8)), (std::vector<double>{255, 44, 2, 254}));
  EXPECT_EQ(values(f.to(kInt8)), (std::vector<double>{-1, 44, 2, -2}));
  EXPECT_EQ(values(mt::tensor({200, -40000}).to(kInt16)), (std::vector<double>{200, 25536}));
  EXPECT_EQ(values(mt::tensor({-1}, TensorOptions(kInt8)).to(kInt64)), (std::vector<double>{-1}));
  EXPECT_EQ(values(mt::tensor({255}, TensorOptions(kUInt8)).to(kInt8)), (std::vector<double>{-1}));
  EXPECT_EQ(values(mt::tensor({7}, TensorOptions(kInt32)).to(kFloat16)), (std::vector<double>{7}));
  EXPECT_EQ(values(mt::tensor({0, 9}, TensorOptions(kInt16)).to(kBool)), (std::vector<double>{0, 1}));
  const Tensor strided = mt::arange(8, TensorOptions(kInt32)).view({2, 4}).t();
  EXPECT_EQ(values(strided.to(kUInt8)), values(strided));
  EXPECT_EQ(mt::zeros({2}, TensorOptions(kByte)).element_size(), 1u);
  EXPECT_EQ(mt::zeros({2}, TensorOptions(kShort)).element_size(), 2u);
}

TEST(IntegerDtypes, ScalarConversionsAreChecked) {
  EXPECT_EQ(Scalar(-1).to<uint8_t>(), 255);  // negatives down to -max wrap, as PyTorch's checked_convert
  EXPECT_EQ(Scalar(2.5).to<int16_t>(), 2);
  EXPECT_EQ(Scalar(int64_t{-2147483648}).to<int32_t>(), std::numeric_limits<int32_t>::min());
  expect_error<RuntimeError>([] { Scalar(300).to<uint8_t>(); },
                             "value cannot be converted to type uint8_t without overflow: 300");
  expect_error<RuntimeError>([] { Scalar(-129).to<int8_t>(); }, "value cannot be converted to type int8_t");
  expect_error<RuntimeError>([] { Scalar(-1.0).to<uint8_t>(); }, "value cannot be converted to type uint8_t");
  expect_error<RuntimeError>([] { Scalar(40000.0).to<int16_t>(); }, "value cannot be converted to type int16_t");
  expect_error<RuntimeError>([] { Scalar(int64_t{1} << 31).to<int32_t>(); },
                             "value cannot be converted to type int32_t");

  Tensor u8 = mt::zeros({2}, TensorOptions(kUInt8));
  u8.fill_(-1);
  EXPECT_EQ(values(u8), (std::vector<double>{255, 255}));
  expect_error<RuntimeError>([&] { u8.fill_(256); }, "value cannot be converted to type mt.uint8 without overflow");
  expect_error<RuntimeError>([&] { u8.fill_(1.0 / 0.0); }, "value cannot be converted to type mt.uint8");
  EXPECT_EQ(values(u8), (std::vector<double>{255, 255})) << "a refused fill leaves the tensor as it was";
  Tensor i32 = mt::zeros({1}, TensorOptions(kInt32));
  expect_error<RuntimeError>([&] { i32.fill_(int64_t{1} << 40); }, "mt.int32 without overflow");

  EXPECT_EQ(mt::tensor({250}, TensorOptions(kUInt8)).item<uint8_t>(), 250);
  EXPECT_EQ(mt::tensor({-1}, TensorOptions(kUInt8)).item<int64_t>(), 255);
  expect_error<RuntimeError>([] { mt::tensor({300}).item<uint8_t>(); }, "uint8_t without overflow");
  expect_error<RuntimeError>([] { mt::tensor({300}, TensorOptions(kUInt8)); }, "uint8_t without overflow");
  expect_error<RuntimeError>([] { mt::full({1}, 128, TensorOptions(kInt8)); }, "int8_t without overflow: 128");
}

TEST(IntegerDtypes, ReductionsAccumulateInInt64) {
  for (ScalarType dt : kNarrowIntegers) {
    const Range r = range_of(dt);
    const Tensor t = mt::full({100}, r.hi, TensorOptions(dt));
    EXPECT_EQ(t.sum().dtype(), kInt64);
    EXPECT_EQ(t.sum().item<int64_t>(), 100 * r.hi) << dt;
    EXPECT_EQ(t.sum({0}, false, dt).dtype(), dt) << "an explicit dtype sums in it";
    const Tensor small = mt::tensor({3, 4, 5}, TensorOptions(dt));
    EXPECT_EQ(small.prod().item<int64_t>(), 60) << dt;
    EXPECT_EQ(small.prod().dtype(), kInt64);
    EXPECT_EQ(small.max().dtype(), dt);
    EXPECT_EQ(small.max().item<int64_t>(), 5);
    EXPECT_EQ(small.min().item<int64_t>(), 3);
    EXPECT_EQ(small.argmax().item<int64_t>(), 2);
    expect_error<RuntimeError>([&] { small.mean(); }, "mean(): could not infer output dtype");
    EXPECT_EQ(small.to(kFloat64).mean().item<double>(), 4.0);
  }
  EXPECT_EQ(mt::tensor({-100, -100, -100}, TensorOptions(kInt8)).sum().item<int64_t>(), -300);
}

TEST(IntegerDtypes, MatrixProductsWrapAsTheirElementType) {
  Generator gen(7);
  for (ScalarType dt : kNarrowIntegers) {
    const Range r = range_of(dt);
    const int64_t lo = std::max<int64_t>(r.lo, -100000), hi = std::min<int64_t>(r.hi, 100000);
    const Tensor a = mt::randint(lo, hi + 1, {5, 7}, &gen, TensorOptions(dt));
    const Tensor b = mt::randint(lo, hi + 1, {7, 3}, &gen, TensorOptions(dt));
    std::vector<double> expected;
    for (int64_t i = 0; i < 5; ++i) {
      for (int64_t j = 0; j < 3; ++j) {
        uint64_t s = 0;
        for (int64_t k = 0; k < 7; ++k) {
          s += static_cast<uint64_t>(static_cast<int64_t>(element(a, i * 7 + k))) *
               static_cast<uint64_t>(static_cast<int64_t>(element(b, k * 3 + j)));
        }
        expected.push_back(static_cast<double>(wrap_to(static_cast<int64_t>(s), dt)));
      }
    }
    EXPECT_EQ(values(mt::mm(a, b)), expected) << dt;
    EXPECT_EQ(values(mt::matmul(a.t().contiguous().t(), b)), expected) << dt << " column-major";
    EXPECT_EQ(mt::mm(a, b).dtype(), dt);
    const Tensor row = a.select(0, 0), column = b.select(1, 0);
    EXPECT_EQ(mt::dot(row, column).item<int64_t>(), static_cast<int64_t>(expected[0])) << dt;
  }
}

TEST(IntegerDtypes, RandintStaysInTheTypesRange) {
  Generator gen(3);
  const Tensor u8 = mt::randint(0, 256, {1000}, &gen, TensorOptions(kUInt8));
  EXPECT_EQ(u8.dtype(), kUInt8);
  const std::vector<double> v = values(u8);
  EXPECT_EQ(*std::min_element(v.begin(), v.end()), 0);
  EXPECT_EQ(*std::max_element(v.begin(), v.end()), 255);
  const Tensor i8 = mt::randint(-128, 128, {1000}, &gen, TensorOptions(kInt8));
  EXPECT_GE(i8.min().item<int64_t>(), -128);
  EXPECT_LE(i8.max().item<int64_t>(), 127);
  expect_error<RuntimeError>([&] { mt::randint(0, 257, {1}, &gen, TensorOptions(kUInt8)); },
                             "to - 1 is out of bounds for mt.uint8");
  expect_error<RuntimeError>([&] { mt::randint(-1, 5, {1}, &gen, TensorOptions(kUInt8)); },
                             "from is out of bounds for mt.uint8");
  expect_error<RuntimeError>([&] { mt::randint(-40000, 0, {1}, &gen, TensorOptions(kInt16)); },
                             "from is out of bounds for mt.int16");
}

TEST(IntegerDtypes, PrintsWithTheirDtype) {
  std::ostringstream ss;
  ss << mt::tensor({1, 2}, TensorOptions(kUInt8)) << "\n"
     << mt::tensor({-128, 127}, TensorOptions(kInt8)) << "\n"
     << mt::tensor({7}, TensorOptions(kInt32));
  EXPECT_EQ(ss.str(), "tensor([1, 2], dtype=mt.uint8)\ntensor([-128,  127], dtype=mt.int8)\ntensor([7], dtype=mt.int32)");
}

TEST(IntegerDtypes, MetaPropagatesTheirDtypes) {
  const TensorOptions meta = TensorOptions(kUInt8).device(Device("meta"));
  const Tensor a = mt::empty({2, 3}, meta);
  const Tensor b = mt::empty({3}, TensorOptions(kInt8).device(Device("meta")));
  const Tensor c = a + b;
  EXPECT_TRUE(c.is_meta());
  EXPECT_EQ(c.dtype(), kInt16);
  EXPECT_EQ(c.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(a.sum().dtype(), kInt64);
}

TEST(IntegerDtypes, CannotRequireGradients) {
  expect_error<RuntimeError>([] { mt::zeros({2}, TensorOptions(kInt16)).requires_grad_(); },
                             "only Tensors of floating point dtype can require gradients");
}

TEST(IntegerDtypes, ScatterAndIndexingKeepTheirType) {
  const Tensor self = mt::tensor({250, 0, 1}, TensorOptions(kUInt8));
  const Tensor index = mt::tensor({0, 0, 2});
  const Tensor src = mt::tensor({3, 4, 5}, TensorOptions(kUInt8));
  EXPECT_EQ(values(self.scatter_add(0, index, src)), (std::vector<double>{1, 0, 6}));  // 250 + 7 wraps
  EXPECT_EQ(values(mt::index_select(self, 0, mt::tensor({2, 0}))), (std::vector<double>{1, 250}));
  EXPECT_EQ(values(mt::where(mt::tensor({true, false, true}), self, src)), (std::vector<double>{250, 4, 1}));
  EXPECT_EQ(values(self > 1), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(values(mt::cat({self, src.to(kInt8)})).size(), 6u);
  EXPECT_EQ(mt::cat({self, src.to(kInt8)}).dtype(), kInt16);
}

}  // namespace
