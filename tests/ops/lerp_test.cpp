// lerp with Scalar and Tensor weights: hand-worked values, the exact ends (weight 1 gives end, weight 0
// start, also where start + (end - start) would round), broadcasting, in-place and out= forms,
// gradients against finite differences, and every error.
#include "autograd/Gradcheck.h"
#include "reference.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/lerp.h"
#include "ops/api/ones.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

TEST(Lerp, InterpolatesAndHitsBothEndsExactly) {
  const Tensor start = mt::tensor({0.0, 10.0, 1e8}), end = mt::tensor({4.0, 20.0, 1.0});
  EXPECT_EQ(values(mt::lerp(start, end, 0.25)).at(1), 12.5);
  EXPECT_EQ(values(mt::lerp(start, end, 1.0)), values(end));  // 1e8 + (1 - 1e8) would round in float32
  EXPECT_EQ(values(mt::lerp(start, end, 0)), values(start));
  EXPECT_EQ(values(start.lerp(end, 2.0)).at(1), 30);  // weights past [0, 1] extrapolate
  EXPECT_EQ(values(start.lerp(end, -0.5)).at(0), -2);
  const Tensor w = mt::tensor({0.5, 0.0, 1.0});
  EXPECT_EQ(values(mt::lerp(start, end, w)), (std::vector<double>{2, 10, 1}));
  // Weights broadcast against start and end.
  const Tensor grid = mt::lerp(mt::zeros({3, 1}), mt::full({3, 1}, 8.0), mt::tensor({0.0, 0.25, 1.0}));
  EXPECT_EQ(grid.sizes(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(values(grid.select(0, 0)), (std::vector<double>{0, 2, 8}));
  EXPECT_EQ(mt::lerp(start.to(kFloat16), end.to(kFloat16), 0.5).dtype(), kFloat16);
}

TEST(Lerp, InPlaceAndOut) {
  Tensor x = mt::tensor({0.0, 4.0});
  EXPECT_TRUE(x.lerp_(mt::tensor({2.0, 8.0}), 0.5).is_same(x));
  EXPECT_EQ(values(x), (std::vector<double>{1, 6}));
  x.lerp_(mt::tensor({3.0}), mt::tensor({1.0, 0.0}));
  EXPECT_EQ(values(x), (std::vector<double>{3, 6}));
  Tensor out = mt::empty({0}, TensorOptions(kFloat64));
  const Tensor a = mt::tensor({1.0, 2.0}, TensorOptions(kFloat64));
  const Tensor b = mt::tensor({3.0, 6.0}, TensorOptions(kFloat64));
  EXPECT_TRUE(mt::lerp_out(out, a, b, 0.75).is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{2.5, 5}));
  mt::lerp_out(out, a, b, mt::tensor({0.0, 0.5}, TensorOptions(kFloat64)));
  EXPECT_EQ(values(out), (std::vector<double>{1, 4}));
}

TEST(Lerp, GradientsMatchFiniteDifferences) {
  const auto rnd = [](std::vector<int64_t> sizes, uint64_t seed) {
    mt::Generator g(seed);
    return mt::randn(sizes, &g, TensorOptions(kFloat64)).requires_grad_();
  };
  const auto f = [](const autograd::variable_list& v) { return mt::lerp(v[0], v[1], v[2]); };
  EXPECT_TRUE(autograd::gradcheck(f, {rnd({2, 3}, 1), rnd({3}, 2), rnd({2, 3}, 3)}));
  EXPECT_TRUE(autograd::gradgradcheck(f, {rnd({2, 3}, 4), rnd({3}, 5), rnd({2, 3}, 6)}));
  const auto g = [](const autograd::variable_list& v) { return mt::lerp(v[0], v[1], 0.7); };
  EXPECT_TRUE(autograd::gradcheck(g, {rnd({4}, 7), rnd({4}, 8)}));
}

TEST(Lerp, ErrorsNameTheProblemAndChangeNothing) {
  const Tensor f = mt::ones({2}), d = mt::ones({2}, TensorOptions(kFloat64));
  expect_error<TypeError>([&] { (void)mt::lerp(f, d, 0.5); },
                          "expected dtype mt.float32 for `end` but got dtype mt.float64");
  expect_error<TypeError>([&] { (void)mt::lerp(f, f, d); },
                          "expected dtype mt.float32 for `weight` but got dtype mt.float64");
  const Tensor i = mt::ones({2}, TensorOptions(kInt64));
  expect_error<NotImplementedError>([&] { (void)mt::lerp(i, i, 1); }, "\"lerp\" not implemented for 'mt.int64'");
  Tensor small = mt::zeros({2});
  expect_error<RuntimeError>([&] { small.lerp_(mt::ones({3, 2}), 0.5); }, "doesn't match the broadcast shape [3, 2]");
  EXPECT_EQ(values(small), (std::vector<double>{0, 0}));
}

}  // namespace
