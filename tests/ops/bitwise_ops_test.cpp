// Bitwise not, and, or, xor and the shifts on every integer dtype and bool, against references computed
// in int64 from the arithmetic meaning of each op (a shift is a multiplication or a floor division by a
// power of two), at the types' limits and past their widths; promotion, Scalar forms, in-place and out=,
// operators, refused dtypes, Meta and large strided inputs.
#include <cstdint>
#include <limits>

#include "ops/infra/Parallel.h"
#include "ops/TensorOperators.h"
#include "reference.h"
#include "ops/api/bitwise_and.h"
#include "ops/api/bitwise_left_shift.h"
#include "ops/api/bitwise_not.h"
#include "ops/api/bitwise_or.h"
#include "ops/api/bitwise_right_shift.h"
#include "ops/api/bitwise_xor.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/max.h"
#include "ops/api/min.h"
#include "ops/api/randint.h"

namespace {

using namespace mt;
using namespace mt::testing;

const ScalarType kIntegers[] = {kUInt8, kInt8, kInt16, kInt32, kInt64};

int bits_of(ScalarType dt) { return static_cast<int>(element_size(dt)) * 8; }

std::vector<int64_t> edge_values(ScalarType dt) {
  const int bits = bits_of(dt);
  const bool is_unsigned = dt == kUInt8;
  const int64_t hi = bits == 64 ? std::numeric_limits<int64_t>::max()
                                : (int64_t{1} << (bits - (is_unsigned ? 0 : 1))) - 1;
  const int64_t lo = is_unsigned ? 0 : -hi - 1;
  std::vector<int64_t> v = {lo, lo + 1, hi - 1, hi, 0, 1, 2, 3, 5, 0x55, hi / 2 + 1};
  if (!is_unsigned) v.insert(v.end(), {-1, -2, -3, -0x55, lo / 2});
  return v;
}

// Shift amounts: every one inside the width, and negatives and widths past it.
std::vector<int64_t> shift_amounts(ScalarType dt) {
  std::vector<int64_t> v;
  const int bits = bits_of(dt);
  for (int64_t s = 0; s <= bits + 1; ++s) v.push_back(s);
  if (dt != kUInt8) v.insert(v.end(), {-1, -2, -64});
  if (bits < 64) v.push_back(100);
  return v;
}

std::vector<int64_t> ints(const Tensor& t) {
  const Tensor c = t.to(kInt64).contiguous();
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

struct Pairs {
  Tensor a, b;
  std::vector<int64_t> x, y;
};
Pairs all_pairs(const std::vector<int64_t>& xs, const std::vector<int64_t>& ys, ScalarType dt) {
  Pairs p;
  for (int64_t x : xs) {
    for (int64_t y : ys) {
      p.x.push_back(x);
      p.y.push_back(y);
    }
  }
  p.a = mt::tensor(p.x, TensorOptions(dt));
  p.b = mt::tensor(p.y, TensorOptions(dt));
  return p;
}

template <typename F>
std::vector<int64_t> reference(const Pairs& p, ScalarType dt, F f) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < p.x.size(); ++i) out.push_back(wrap_to(f(p.x[i], p.y[i]), dt));
  return out;
}

// a * 2^s modulo 2^64 (then wrapped to the type), or 0 for a negative amount or one of the width or more.
int64_t left_shift_reference(int64_t a, int64_t s, int bits) {
  if (s < 0 || s >= bits) return 0;
  uint64_t r = static_cast<uint64_t>(a);
  for (int64_t i = 0; i < s; ++i) r *= 2;
  return static_cast<int64_t>(r);
}
// floor(a / 2^s); past the width, the sign alone survives: 0 or -1.
int64_t right_shift_reference(int64_t a, int64_t s, int bits, bool is_unsigned) {
  if (s < 0 || s >= bits - (is_unsigned ? 0 : 1)) return a < 0 ? -1 : 0;
  int64_t r = a;
  for (int64_t i = 0; i < s; ++i) r = r >= 0 ? r / 2 : -((-(r + 1)) / 2) - 1;  // floor(r / 2), no overflow
  return r;
}

TEST(BitwiseOps, AndOrXorNotMatchInt64AtTheLimits) {
  for (ScalarType dt : kIntegers) {
    SCOPED_TRACE(scalar_type_name(dt));
    const std::vector<int64_t> v = edge_values(dt);
    const Pairs p = all_pairs(v, v, dt);
    EXPECT_EQ(mt::bitwise_and(p.a, p.b).dtype(), dt);
    EXPECT_EQ(ints(mt::bitwise_and(p.a, p.b)), reference(p, dt, [](int64_t x, int64_t y) { return x & y; }));
    EXPECT_EQ(ints(mt::bitwise_or(p.a, p.b)), reference(p, dt, [](int64_t x, int64_t y) { return x | y; }));
    EXPECT_EQ(ints(mt::bitwise_xor(p.a, p.b)), reference(p, dt, [](int64_t x, int64_t y) { return x ^ y; }));
    EXPECT_EQ(ints(mt::bitwise_not(p.a)), reference(p, dt, [](int64_t x, int64_t) { return ~x; }));
  }
  // Spelled out.
  EXPECT_EQ(ints(~mt::tensor({0, 255, 0x0F}, TensorOptions(kUInt8))), (std::vector<int64_t>{255, 0, 0xF0}));
  EXPECT_EQ(ints(~mt::tensor({0, -1, 127}, TensorOptions(kInt8))), (std::vector<int64_t>{-1, 0, -128}));
  EXPECT_EQ(ints(mt::tensor({12}, TensorOptions(kInt32)) & 10), std::vector<int64_t>{8});
  EXPECT_EQ(ints(mt::tensor({12}, TensorOptions(kInt32)) | 10), std::vector<int64_t>{14});
  EXPECT_EQ(ints(mt::tensor({12}, TensorOptions(kInt32)) ^ 10), std::vector<int64_t>{6});
}

TEST(BitwiseOps, ShiftsAreMultiplicationAndFloorDivisionByPowersOfTwo) {
  for (ScalarType dt : kIntegers) {
    SCOPED_TRACE(scalar_type_name(dt));
    const int bits = bits_of(dt);
    const bool is_unsigned = dt == kUInt8;
    const Pairs p = all_pairs(edge_values(dt), shift_amounts(dt), dt);
    EXPECT_EQ(ints(mt::bitwise_left_shift(p.a, p.b)),
              reference(p, dt, [&](int64_t x, int64_t s) { return left_shift_reference(x, s, bits); }));
    EXPECT_EQ(ints(mt::bitwise_right_shift(p.a, p.b)),
              reference(p, dt, [&](int64_t x, int64_t s) { return right_shift_reference(x, s, bits, is_unsigned); }));
  }
  // Spelled out, as PyTorch prints them.
  const Tensor i8 = mt::tensor({1, -1, 64, -128}, TensorOptions(kInt8));
  EXPECT_EQ(ints(i8 << 1), (std::vector<int64_t>{2, -2, -128, 0}));
  EXPECT_EQ(ints(i8 >> 1), (std::vector<int64_t>{0, -1, 32, -64}));
  EXPECT_EQ(ints(i8 >> 7), (std::vector<int64_t>{0, -1, 0, -1}));
  EXPECT_EQ(ints(mt::tensor({255}, TensorOptions(kUInt8)) << 1), std::vector<int64_t>{254});
  EXPECT_EQ(ints(mt::tensor({255}, TensorOptions(kUInt8)) >> 7), std::vector<int64_t>{1});
  EXPECT_EQ(ints(mt::tensor({int64_t{1}}) << 63), std::vector<int64_t>{std::numeric_limits<int64_t>::min()});
  EXPECT_EQ(ints(mt::tensor({int64_t{-5}}) >> 100), std::vector<int64_t>{-1});
  // A Scalar on the left: 1 << [0, 1, 2] (an int64 tensor, as the Python number).
  const Tensor powers = mt::bitwise_left_shift(1, mt::tensor({0, 1, 2}, TensorOptions(kInt16)));
  EXPECT_EQ(powers.dtype(), kInt16);
  EXPECT_EQ(ints(powers), (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(ints(mt::bitwise_right_shift(-8, mt::tensor({1, 2}, TensorOptions(kInt32)))),
            (std::vector<int64_t>{-4, -2}));
}

TEST(BitwiseOps, DtypesPromoteAsArithmetic) {
  const Tensor u8 = mt::tensor({0xF0}, TensorOptions(kUInt8)), i8 = mt::tensor({-1}, TensorOptions(kInt8));
  const Tensor both = u8 & i8;  // uint8 with int8 is int16: 0x00F0 & 0xFFFF
  EXPECT_EQ(both.dtype(), kInt16);
  EXPECT_EQ(ints(both), std::vector<int64_t>{0xF0});
  EXPECT_EQ((u8 | mt::tensor({int64_t{256}})).dtype(), kInt64);
  EXPECT_EQ((u8 << 4).dtype(), kUInt8);  // a Python int keeps the tensor's dtype
  EXPECT_EQ(ints(u8 << 4), std::vector<int64_t>{0});
  const Tensor mask = mt::tensor({true, false});
  EXPECT_EQ((mask & mt::tensor({3, 3}, TensorOptions(kInt32))).dtype(), kInt32);
  EXPECT_EQ((mask << 1).dtype(), kInt64);  // bool with a Python int is int64
  EXPECT_EQ(ints(mask << 1), (std::vector<int64_t>{2, 0}));
}

TEST(BitwiseOps, OnBoolTheyAreLogical) {
  const Tensor a = mt::tensor({true, true, false, false}), b = mt::tensor({true, false, true, false});
  for (const Tensor& r : {a & b, a | b, a ^ b, ~a}) EXPECT_EQ(r.dtype(), kBool);
  EXPECT_EQ(values(a & b), (std::vector<double>{1, 0, 0, 0}));
  EXPECT_EQ(values(a | b), (std::vector<double>{1, 1, 1, 0}));
  EXPECT_EQ(values(a ^ b), (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(values(~a), (std::vector<double>{0, 0, 1, 1}));
  EXPECT_EQ(values(a & true), (std::vector<double>{1, 1, 0, 0}));
  expect_error<NotImplementedError>([&] { (void)mt::bitwise_left_shift(a, b); },
                                    "\"lshift\" not implemented for 'mt.bool'");
  expect_error<NotImplementedError>([&] { (void)(a >> b); }, "\"rshift\" not implemented for 'mt.bool'");
}

TEST(BitwiseOps, FloatingTypesAreRefused) {
  const Tensor f = mt::tensor({1.0, 2.0}), i = mt::tensor({1, 2}, TensorOptions(kInt32));
  expect_error<NotImplementedError>([&] { (void)~f; }, "\"bitwise_not\" not implemented for 'mt.float32'");
  expect_error<NotImplementedError>([&] { (void)(f & f); }, "\"bitwise_and\" not implemented for 'mt.float32'");
  expect_error<NotImplementedError>([&] { (void)(i | f); }, "\"bitwise_or\" not implemented for 'mt.float32'");
  expect_error<NotImplementedError>([&] { (void)(i ^ 1.5); }, "\"bitwise_xor\" not implemented for 'mt.float32'");
  expect_error<NotImplementedError>([&] { (void)(i << f.to(kFloat64)); },
                                    "\"lshift\" not implemented for 'mt.float64'");
  expect_error<NotImplementedError>([&] { (void)(f.to(kFloat16) >> 1); },
                                    "\"rshift\" not implemented for 'mt.float16'");
}

TEST(BitwiseOps, InPlaceAndOutFormsWriteTheirTarget) {
  Tensor x = mt::tensor({0b1100, 0b1010}, TensorOptions(kInt16));
  Tensor& same = x.bitwise_and_(mt::tensor({0b0110, 0b0110}, TensorOptions(kInt16)));
  EXPECT_TRUE(same.is_same(x));
  EXPECT_EQ(ints(x), (std::vector<int64_t>{0b0100, 0b0010}));
  x |= 1;
  EXPECT_EQ(ints(x), (std::vector<int64_t>{0b0101, 0b0011}));
  x ^= mt::tensor({0b0101, 0}, TensorOptions(kInt16));
  EXPECT_EQ(ints(x), (std::vector<int64_t>{0, 0b0011}));
  x <<= 2;
  EXPECT_EQ(ints(x), (std::vector<int64_t>{0, 0b1100}));
  x >>= mt::tensor({1, 3}, TensorOptions(kInt16));
  EXPECT_EQ(ints(x), (std::vector<int64_t>{0, 1}));
  x.bitwise_not_();
  EXPECT_EQ(ints(x), (std::vector<int64_t>{-1, -2}));
  EXPECT_EQ(x.dtype(), kInt16);
  // Broadcast in-place: a row applied to every row of a view.
  Tensor m = mt::full({3, 4}, 0xFF, TensorOptions(kUInt8));
  m.slice(0, 1, 3).bitwise_right_shift_(mt::tensor({0, 1, 2, 3}, TensorOptions(kUInt8)));
  EXPECT_EQ(ints(m), (std::vector<int64_t>{255, 255, 255, 255, 255, 127, 63, 31, 255, 127, 63, 31}));

  Tensor out = mt::empty({0}, TensorOptions(kInt32));
  Tensor& written = mt::bitwise_xor_out(out, mt::tensor({5, 6}, TensorOptions(kInt32)), mt::tensor({int64_t{3}}));
  EXPECT_TRUE(written.is_same(out));
  EXPECT_EQ(ints(out), (std::vector<int64_t>{6, 5}));
  mt::bitwise_not_out(out, mt::tensor({0, 7}, TensorOptions(kInt32)));
  EXPECT_EQ(ints(out), (std::vector<int64_t>{-1, -8}));
  mt::bitwise_left_shift_out(out, mt::tensor({3, 3}, TensorOptions(kInt32)), 4);
  EXPECT_EQ(ints(out), (std::vector<int64_t>{48, 48}));
}

TEST(BitwiseOps, InPlaceCastsWithinIntegersAndRefusesTheRestUnchanged) {
  Tensor x = mt::tensor({1, 2}, TensorOptions(kInt8));
  x &= mt::tensor({int64_t{3}, int64_t{6}});  // computed in int64, written back as int8, as PyTorch
  EXPECT_EQ(x.dtype(), kInt8);
  EXPECT_EQ(ints(x), (std::vector<int64_t>{1, 2}));
  Tensor mask = mt::tensor({true, false});
  expect_error<Error>([&] { mask |= mt::tensor({2, 2}, TensorOptions(kInt32)); },
                      "result type mt.int32 can't be cast to the desired output type mt.bool");
  expect_error<Error>([&] { x ^= 0.5; }, "result type mt.float32 can't be cast to the desired output type mt.int8");
  EXPECT_EQ(ints(x), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values(mask), (std::vector<double>{1, 0}));
}

TEST(BitwiseOps, MetaTensorsGetTheShapeAndDtype) {
  const Tensor a = mt::empty({3, 1}, TensorOptions(kUInt8).device(kMeta));
  const Tensor b = mt::empty({4}, TensorOptions(kInt8).device(kMeta));
  for (const Tensor& r : {a & b, a | b, a ^ b, a << b, a >> b}) {
    EXPECT_TRUE(r.is_meta());
    EXPECT_EQ(r.sizes(), (std::vector<int64_t>{3, 4}));
    EXPECT_EQ(r.dtype(), kInt16);
  }
  EXPECT_EQ((~a).dtype(), kUInt8);
  expect_error<NotImplementedError>([&] { (void)(a.to(kFloat32) & a); }, "not implemented for 'mt.float32'");
}

TEST(BitwiseOps, LargeStridedInputsSplitAcrossThreads) {
  const int64_t n = 3 * kParallelGrain + 5;
  const Tensor a = strided_view(mt::randint(-1000, 1000, {2 * n}), {n}, {2});
  const Tensor s = mt::randint(0, 12, {n});
  const std::vector<int64_t> x = ints(a), y = ints(s);
  std::vector<int64_t> want_xor, want_shift;
  for (int64_t i = 0; i < n; ++i) {
    want_xor.push_back(x[i] ^ y[i]);
    want_shift.push_back(left_shift_reference(x[i], y[i], 64));
  }
  EXPECT_EQ(ints(a ^ s), want_xor);
  EXPECT_EQ(ints(a << s), want_shift);
}

}  // namespace
