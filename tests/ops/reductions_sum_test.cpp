// sum, mean and prod beyond their OpInfo rows (tests/opinfo/reduction_table.cpp: values for every dim list,
// layout and dtype, empty slices, gradients, vmap, Meta): the dtype argument, 0-dim inputs and empty dim
// lists, large inputs that take the parallel paths, accuracy over many elements, the C++ call forms of
// `int[1]? dim`, and every error's wording.
#include <cmath>
#include <type_traits>

#include "ops/infra/Parallel.h"
#include "reductions_reference.h"
#include "ops/api/all.h"
#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/mean.h"
#include "ops/api/ones.h"
#include "ops/api/prod.h"
#include "ops/api/sum.h"

namespace {

using namespace mt;
using namespace mt::testing;
using namespace mt::testing::reductions;

TEST(ReductionsSum, DtypeArgumentConvertsTheInputFirst) {
  const Tensor i = mt::tensor({{1, 2, 3}, {4, 5, 6}});
  const Tensor s = mt::sum(i, {1}, false, kFloat64);
  EXPECT_EQ(s.dtype(), kFloat64);
  expect_close(s, {6, 15}, 0);
  EXPECT_EQ(mt::sum(i, kFloat32).dtype(), kFloat32);
  const Tensor m = mt::mean(i, {0}, true, kFloat32);
  EXPECT_EQ(m.dtype(), kFloat32);
  EXPECT_EQ(m.sizes(), IntArrayRef({1, 3}));
  expect_close(m, {2.5, 3.5, 4.5}, 1e-7);
  expect_close(mt::mean(i, kFloat64), {3.5}, 0);
  // float -> int64 truncates each element before summing, as PyTorch's sum(x.to(dtype)).
  expect_close(mt::sum(mt::tensor({0.5, 1.5, 2.5}), kInt64), {3}, 0);
  const Tensor b = mt::sum(mt::tensor({true, false, true}), kBool);
  EXPECT_EQ(b.dtype(), kBool);
  EXPECT_EQ(b.item<bool>(), true);
  EXPECT_EQ(mt::prod(i, 1, false, kFloat32).dtype(), kFloat32);
  expect_close(mt::prod(i, 1, false, kFloat32), {6, 120}, 0);
  EXPECT_EQ(mt::prod(mt::tensor({true, false}), kBool).item<bool>(), false);
  EXPECT_EQ(mt::sum(mt::tensor({true, true, false})).item<int64_t>(), 2) << "bool sums count";
  const int64_t big = int64_t(1) << 62;
  EXPECT_EQ(mt::sum(mt::tensor({big, big, big})).item<int64_t>(), -big) << "int64 overflow wraps, as in PyTorch";
  EXPECT_EQ(mt::prod(mt::tensor({big, int64_t(4)})).item<int64_t>(), 0);
}

TEST(ReductionsSum, ZeroDimAndEmptyInputs) {
  const Tensor s = mt::tensor(2.5);
  for (const Dims& dims : {Dims{}, Dims{0}, Dims{-1}}) {
    for (bool keepdim : {false, true}) {
      EXPECT_EQ(mt::sum(s, dims, keepdim).dim(), 0);
      expect_close(mt::sum(s, dims, keepdim), {2.5}, 0);
      expect_close(mt::mean(s, dims, keepdim), {2.5}, 0);
    }
  }
  expect_close(mt::prod(s, 0), {2.5}, 0);
  const Tensor e = mt::ones({0, 3});
  expect_close(mt::sum(e), {0}, 0);
  expect_close(mt::sum(e, {0}), {0, 0, 0}, 0);
  EXPECT_EQ(mt::sum(e, {1}).sizes(), IntArrayRef({0}));
  EXPECT_EQ(mt::sum(e, {}, true).sizes(), IntArrayRef({1, 1}));
  expect_close(mt::prod(e), {1}, 0);
  expect_close(mt::prod(e, 0), {1, 1, 1}, 0);
  expect_close(mt::prod(mt::ones({0}, TensorOptions(kInt64))), {1}, 0);
  expect_close(mt::mean(e), {NAN}, 0);
  expect_close(mt::mean(e, {0}), {NAN, NAN, NAN}, 0);
  EXPECT_EQ(mt::mean(e, {1}).sizes(), IntArrayRef({0}));
  EXPECT_EQ(mt::sum(mt::ones({0}, TensorOptions(kBool))).dtype(), kInt64);
}

// `true` is not a dim list (std::optional<IntArrayRef> would take it as dim 1).
static_assert(!std::is_convertible_v<bool, OptionalIntArrayRef>);
static_assert(std::is_convertible_v<int, OptionalIntArrayRef>);

TEST(ReductionsSum, CallFormsOfAnIntListDim) {
  const Tensor t = strided_view(mt::arange(24, TensorOptions(kFloat64)), {2, 3, 4}, {12, 4, 1});
  const std::vector<double> over1 = naive_reduce(t, {1}, ref_sum);
  expect_close(mt::sum(t, {1}), over1, 0);
  expect_close(mt::sum(t, 1), over1, 0);
  expect_close(t.sum({1}), over1, 0);
  expect_close(t.sum(1, true), over1, 0);
  const int64_t d = -2;
  expect_close(mt::sum(t, d), over1, 0);
  const std::vector<int64_t> list = {0, 1};
  expect_close(mt::sum(t, list), naive_reduce(t, {0, 1}, ref_sum), 0);
  EXPECT_EQ(mt::sum(t, {0, 1}, true).sizes(), IntArrayRef({1, 1, 4}));
  expect_close(mt::sum(t, {0, 1}, true), naive_reduce(t, {0, 1}, ref_sum), 0);
  expect_close(mt::sum(t, IntArrayRef(list)), naive_reduce(t, {0, 1}, ref_sum), 0);
  expect_close(mt::sum(t, std::optional<IntArrayRef>()), {276}, 0);
  expect_close(t.mean({-1}), naive_reduce(t, {2}, [](const auto& v) { return ref_sum(v) / 4; }), 0);
  EXPECT_EQ(mt::sum(t, kFloat32).dtype(), kFloat32);
}

TEST(ReductionsSum, LargeInputsTakeEveryParallelPathAndMatchTheReference) {
  ASSERT_GT(get_num_threads(), 0);
  // Whole-tensor sum (the reduction is split across threads), one output per row (rows split), few
  // long rows, column sums of a tall matrix (vertical, split) and of a wide one (vertical blocks).
  const std::vector<std::pair<Dims, Dims>> cases = {
      {{1 << 20}, {0}}, {{3, 200000}, {1}}, {{5000, 37}, {1}}, {{100000, 3}, {0}}, {{300, 1000}, {0}},
      {{64, 70, 40}, {0, 2}}, {{40, 70, 64}, {1}},
  };
  uint64_t seed = 40;
  for (const auto& [shape, dims] : cases) {
    const Tensor t = random_tensor(shape, kFloat32, seed++);
    SCOPED_TRACE(describe(t, dims, false));
    expect_close(mt::sum(t, dims), naive_reduce(t, dims, ref_sum), 1e-6);
    const Tensor i = random_tensor(shape, kInt64, seed++);
    expect_close(mt::sum(i, dims), naive_reduce(i, dims, ref_sum), 0);
  }
}

TEST(ReductionsSum, FloatSumsAreAccurateOverManyElements) {
  const int64_t n = int64_t(1) << 24;
  const Tensor tenth = mt::full({n}, 0.1f);
  // A float accumulator adding 0.1 one at a time drifts far from n / 10 long before 16M elements.
  expect_close(mt::mean(tenth), {static_cast<double>(0.1f)}, 1e-6);
  expect_close(mt::sum(mt::ones({n + 3})), {static_cast<double>(n + 3)}, 1e-7);
  const Tensor h = mt::full({100000}, 0.5, TensorOptions(kFloat16));
  expect_close(mt::mean(h), {0.5}, 0);
}

TEST(ReductionsSum, MetaTensorsGetShapesAndDtypesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor t = mt::empty({3, 4, 5}, meta.dtype(kInt64));
  const Tensor s = mt::sum(t, {0, -1}, true);
  EXPECT_TRUE(s.is_meta());
  EXPECT_EQ(s.sizes(), IntArrayRef({1, 4, 1}));
  EXPECT_EQ(s.dtype(), kInt64);
  EXPECT_EQ(mt::sum(mt::empty({2}, meta.dtype(kBool))).dtype(), kInt64);
  EXPECT_EQ(mt::mean(t, {1}, false, kFloat64).sizes(), IntArrayRef({3, 5}));
  EXPECT_EQ(mt::mean(t, {1}, false, kFloat64).dtype(), kFloat64);
  EXPECT_EQ(mt::prod(t, 2).sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(mt::sum(mt::empty({3, 4}, meta.dtype(kFloat16))).dim(), 0);
  expect_error<IndexError>([&] { mt::sum(t, {3}); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<RuntimeError>([&] { mt::mean(t); }, "mean(): could not infer output dtype.");
}

TEST(ReductionsSum, ErrorsNameTheProblem) {
  const Tensor t = mt::ones({2, 3, 4});
  expect_error<IndexError>([&] { mt::sum(t, {3}); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<IndexError>([&] { mt::sum(t, -4); }, "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
  expect_error<IndexError>([&] { mt::prod(t, 3); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<IndexError>([&] { mt::sum(mt::tensor(1.0), 1); },
                           "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  expect_error<RuntimeError>([&] { mt::sum(t, {0, 0}); }, "dim 0 appears multiple times in the list of dims");
  expect_error<RuntimeError>([&] { mt::mean(t, {1, -2}); }, "dim 1 appears multiple times in the list of dims");
  expect_error<RuntimeError>([&] { mt::sum(mt::tensor(1.0), {-1, 0}); }, "dim 0 appears multiple times in the list of dims");
  expect_error<RuntimeError>([] { mt::mean(mt::tensor({1, 2})); },
                             "mean(): could not infer output dtype. Input dtype must be either a floating point or "
                             "complex dtype. Got: mt.int64");
  expect_error<RuntimeError>([] { mt::mean(mt::tensor({true})); }, "Input dtype must be either a floating point or complex dtype. Got: mt.bool");
  expect_error<RuntimeError>([] { mt::mean(mt::ones({2}), kInt64); },
                             "mean(): could not infer output dtype. Optional dtype must be either a floating point or "
                             "complex dtype. Got: mt.int64");
}

}  // namespace
