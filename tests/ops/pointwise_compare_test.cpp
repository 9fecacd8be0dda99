// What the comparison rows of the OpInfo table (tests/opinfo/comparison_*.cpp) do not cover: logical_not
// against a naive reference in every dtype, the in-place and out= forms of the Scalar overloads, and the C++
// operators (<, ==, ~, &, |) as PyTorch's C++ API spells them.
#include <cmath>
#include <limits>

#include "pointwise_reference.h"
#include "ops/api/empty.h"
#include "ops/api/eq.h"
#include "ops/api/logical_not.h"
#include "ops/api/ones.h"

namespace {

using namespace mt;
using namespace mt::testing;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(PointwiseCompare, LogicalNotTreatsNonZeroAsTrue) {
  uint64_t seed = 100;
  auto negation = [](double v) { return v != 0 ? 0.0 : 1.0; };  // NaN is true
  for (ScalarType x : kAllDtypes) {
    const Tensor a = random_tensor({3, 4}, x, seed++);
    const Tensor n = mt::logical_not(a);
    EXPECT_EQ(n.dtype(), kBool);
    EXPECT_EQ(values(n), naive_unary(a, negation)) << x;
  }
  EXPECT_EQ(values(mt::logical_not(mt::tensor({kNaN, 0.0, -0.0}))), (std::vector<double>{0, 1, 1}));
  const Tensor t = transposed_random(3, 2, kFloat64, 9);
  EXPECT_EQ(values(mt::logical_not(t)), naive_unary(t, negation));
}

TEST(PointwiseCompare, LogicalNotInPlaceKeepsSelfsDtypeAndOutCasts) {
  Tensor i = mt::tensor({2, 0});
  EXPECT_TRUE(i.logical_not_().is_same(i));
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_EQ(values(i), (std::vector<double>{0, 1}));
  Tensor out = mt::empty({0});
  mt::logical_not_out(out, mt::tensor({1.0, 0.0}));
  EXPECT_EQ(out.dtype(), kFloat32);
  EXPECT_EQ(values(out), (std::vector<double>{0, 1}));
  Tensor wrong = mt::empty({3}, TensorOptions(kBool));
  expect_error<RuntimeError>([&] { mt::logical_not_out(wrong, mt::ones({2})); },
                             "output with shape [3] doesn't match the broadcast shape [2]");
  const Tensor meta = mt::logical_not(mt::empty({4, 1}, TensorOptions(Device("meta")).dtype(kInt64)));
  EXPECT_TRUE(meta.is_meta());
  EXPECT_EQ(meta.dtype(), kBool);
  EXPECT_EQ(meta.sizes(), IntArrayRef({4, 1}));
}

TEST(PointwiseCompare, ScalarInPlaceAndOutForms) {
  Tensor i = mt::tensor({2, -3});
  i.eq_(2);
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_EQ(values(i), (std::vector<double>{1, 0}));
  Tensor f = mt::empty({2});
  mt::eq_out(f, mt::tensor({2, -3}), 2);
  EXPECT_EQ(values(f), (std::vector<double>{1, 0}));
  Tensor g = mt::tensor({1.0, 5.0});
  g.ge_(2);
  EXPECT_EQ(values(g), (std::vector<double>{0, 1}));
}

TEST(PointwiseCompare, OperatorsFollowPyTorchsCpp) {
  const Tensor a = mt::tensor({1.0, 2.0, 3.0}), b = mt::tensor({3.0, 2.0, 1.0});
  EXPECT_EQ(values(a < b), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(values(a <= b), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(values(a > b), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(values(a >= b), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(values(a == b), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(values(a != b), (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(values(a < 2), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(values(2 < a), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(values(2 <= a), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(values(2 > a), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(values(2 >= a), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(values(2 == a), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(values(2 != a), (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(values(a == 2.0), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ((a > 1).dtype(), kBool);
  const Tensor m = a > 1, n = a < 3;
  EXPECT_EQ(values(~m), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(values(m & n), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(values(m | n), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(values(-a), (std::vector<double>{-1, -2, -3}));
  // ~, & and | are bitwise: on floats they are refused, with integers the bool promotes.
  expect_error<NotImplementedError>([&] { (void)~a; }, "\"bitwise_not\" not implemented for 'mt.float32'");
  EXPECT_EQ((m & mt::tensor({1, 2, 3})).dtype(), kInt64);
  EXPECT_EQ(values(m & mt::tensor({1, 2, 3})), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(values(mt::tensor({1, 0, 1}) | m), (std::vector<double>{1, 1, 1}));
}

}  // namespace
