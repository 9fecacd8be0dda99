// softmax and log_softmax (and the _softmax/_log_softmax kernels) against a naive double-precision
// reference: every dim of several shapes, each floating dtype, transposed and strided inputs, inputs
// large enough for the parallel and blocked paths, 0-dim and empty tensors, extreme values, the dtype
// argument, half_to_float, Meta shapes and every error.
#include "nn_reference.h"
#include "ops/api/_log_softmax.h"
#include "ops/api/_softmax.h"
#include "ops/api/empty.h"
#include "ops/api/log_softmax.h"
#include "ops/api/ones.h"
#include "ops/api/softmax.h"
#include "ops/api/t.h"

namespace {

using namespace mt;
using namespace mt::testing;
using namespace mt::testing::nn;

void expect_softmax(const Tensor& x, int64_t dim, double tol) {
  SCOPED_TRACE(x.toString() + " dim " + std::to_string(dim));
  const Tensor s = mt::softmax(x, dim), l = mt::log_softmax(x, dim);
  EXPECT_EQ(s.dtype(), x.dtype());
  EXPECT_EQ(s.sizes(), x.sizes());
  EXPECT_TRUE(s.is_contiguous());
  expect_close(s, naive_softmax(x, dim, false), tol);
  expect_close(l, naive_softmax(x, dim, true), tol);
}

TEST(NNSoftmax, MatchesReferenceAlongEveryDimForEveryFloatDtype) {
  const std::vector<std::vector<int64_t>> shapes = {{7}, {5, 7}, {2, 3, 4}, {4, 1, 3}, {3, 2, 1}};
  uint64_t seed = 1;
  for (ScalarType dt : kFloatTypes) {
    for (const auto& shape : shapes) {
      const Tensor x = random_tensor(shape, dt, seed++);
      for (int64_t d = -x.dim(); d < x.dim(); ++d) expect_softmax(x, d, tolerance(dt));
    }
  }
}

TEST(NNSoftmax, TransposedAndSteppedInputsAreRead) {
  uint64_t seed = 50;
  for (ScalarType dt : kFloatTypes) {
    const Tensor t = transposed_copy(random_tensor({2, 5, 6}, dt, seed++));
    ASSERT_FALSE(t.is_contiguous());
    for (int64_t d = 0; d < 3; ++d) expect_softmax(t, d, tolerance(dt));
    // Every other element of a row: the dim is innermost but not unit-stride.
    const Tensor base = random_tensor({4, 10}, dt, seed++);
    const Tensor stepped = strided_view(base, {4, 5}, {10, 2}, 1);
    expect_softmax(stepped, 1, tolerance(dt));
    expect_softmax(stepped, 0, tolerance(dt));
    // A broadcast view: stride 0 along the dim.
    expect_softmax(strided_view(base, {3, 6}, {0, 1}), 0, tolerance(dt));
  }
}

TEST(NNSoftmax, LargeInputsTakeTheParallelAndBlockedPaths) {
  uint64_t seed = 80;
  for (ScalarType dt : {kFloat32, kBFloat16}) {
    const Tensor rows = random_tensor({300, 257}, dt, seed++);
    expect_softmax(rows, 1, tolerance(dt));
    expect_softmax(rows, 0, tolerance(dt));
    // An inner size over one block of the column path, and an outer dim.
    const Tensor cols = random_tensor({3, 40, 1030}, dt, seed++);
    expect_softmax(cols, 1, tolerance(dt));
    expect_softmax(cols, 0, tolerance(dt));
    expect_softmax(transposed_copy(cols), 2, tolerance(dt));
  }
}

TEST(NNSoftmax, LargeValuesDoNotOverflow) {
  for (ScalarType dt : {kFloat32, kFloat64}) {
    const Tensor x = make({1000, 1001, 1002, -1000, 0, 1000}, {2, 3}, dt);
    expect_softmax(x, 1, tolerance(dt));
    expect_softmax(x, 0, tolerance(dt));
  }
  expect_close(mt::softmax(make({1000, 1001, 1002}, {3}), 0), {0.09003057, 0.24472847, 0.66524096}, 1e-6);
}

TEST(NNSoftmax, InfinitiesAndNaNFollowPyTorch) {
  // Rows along the innermost dim, and the same values as columns (the blocked path).
  const std::vector<std::vector<double>> rows = {{-kInf, 1}, {kInf, 1}, {kNaN, 1}, {-kInf, -kInf}, {kInf, kInf}};
  for (ScalarType dt : kFloatTypes) {
    for (const auto& r : rows) {
      const Tensor x = make(r, {1, 2}, dt);
      for (bool log : {false, true}) {
        expect_close(log ? mt::log_softmax(x, 1) : mt::softmax(x, 1), naive_softmax(x, 1, log), tolerance(dt));
        const Tensor cols = make({r[0], r[0], r[1], r[1]}, {2, 2}, dt);
        expect_close(log ? mt::log_softmax(cols, 0) : mt::softmax(cols, 0), naive_softmax(cols, 0, log), tolerance(dt));
      }
    }
  }
  expect_close(mt::log_softmax(make({-kInf, 1}, {2}), 0), {-kInf, 0}, 0);
  expect_close(mt::softmax(make({-kInf, 1}, {2}), 0), {0, 1}, 0);
  expect_close(mt::softmax(make({kInf, 1}, {2}), 0), {kNaN, kNaN}, 0);
}

TEST(NNSoftmax, ZeroDimAndEmptyInputs) {
  for (ScalarType dt : kFloatTypes) {
    const Tensor s = make({2.5}, {}, dt);
    EXPECT_EQ(mt::softmax(s, 0).dim(), 0);
    expect_close(mt::softmax(s, 0), {1}, 0);
    expect_close(mt::log_softmax(s, -1), {0}, 0);
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{0, 3}, {3, 0}, {2, 0, 4}}) {
      const Tensor e = mt::empty(shape, TensorOptions(dt));
      for (int64_t d = 0; d < e.dim(); ++d) {
        EXPECT_EQ(mt::softmax(e, d).sizes(), e.sizes());
        EXPECT_EQ(mt::log_softmax(e, d).dtype(), dt);
      }
    }
  }
}

TEST(NNSoftmax, DtypeArgumentConvertsTheInputFirst) {
  const Tensor i = make({1, 2, 3, 4}, {2, 2}, kInt64);
  const Tensor s = mt::softmax(i, 1, kFloat64);
  EXPECT_EQ(s.dtype(), kFloat64);
  expect_close(s, naive_softmax(make({1, 2, 3, 4}, {2, 2}, kFloat64), 1, false), 1e-12);
  const Tensor h = random_tensor({3, 4}, kFloat16, 7);
  const Tensor l = mt::log_softmax(h, 0, kFloat32);
  EXPECT_EQ(l.dtype(), kFloat32);
  expect_close(l, naive_softmax(h, 0, true), 1e-5);
  EXPECT_EQ(h.softmax(1, kBFloat16).dtype(), kBFloat16);
  // The methods are the same ops.
  expect_close(h.softmax(-1), naive_softmax(h, 1, false), tolerance(kFloat16));
  expect_close(h.log_softmax(0), naive_softmax(h, 0, true), tolerance(kFloat16));
}

TEST(NNSoftmax, HalfToFloatComputesAFloatResultFromHalfInput) {
  const Tensor h = random_tensor({4, 6}, kFloat16, 9);
  for (int64_t d : {0, 1}) {
    const Tensor s = mt::_softmax(h, d, true), l = mt::_log_softmax(h, d, true);
    EXPECT_EQ(s.dtype(), kFloat32);
    EXPECT_EQ(l.dtype(), kFloat32);
    expect_close(s, naive_softmax(h, d, false), 1e-6);
    expect_close(l, naive_softmax(h, d, true), 1e-6);
  }
  expect_close(mt::_softmax(transposed_copy(h), 1, true), naive_softmax(transposed_copy(h), 1, false), 1e-6);
}

TEST(NNSoftmax, MetaTensorsGetContiguousOutputs) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor x = strided_view(mt::empty({12}, meta), {4, 3}, {1, 4});
  const Tensor s = mt::softmax(x, 0);
  EXPECT_TRUE(s.is_meta());
  EXPECT_EQ(s.sizes(), IntArrayRef({4, 3}));
  EXPECT_EQ(s.strides(), IntArrayRef({3, 1}));
  EXPECT_EQ(mt::log_softmax(mt::empty({2, 5}, meta.dtype(kBFloat16)), 1).dtype(), kBFloat16);
  EXPECT_EQ(mt::_softmax(mt::empty({2, 5}, meta.dtype(kFloat16)), 1, true).dtype(), kFloat32);
  EXPECT_EQ(mt::softmax(mt::empty({2, 5}, meta.dtype(kInt64)), 1, kFloat64).dtype(), kFloat64);
  expect_error<IndexError>([&] { mt::softmax(x, 2); }, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(NNSoftmax, ErrorsNameTheProblem) {
  const Tensor x = mt::ones({2, 3});
  expect_error<IndexError>([&] { mt::softmax(x, 2); }, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  expect_error<IndexError>([&] { mt::log_softmax(x, -3); },
                           "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  expect_error<IndexError>([] { mt::softmax(mt::tensor(1.0), 1); },
                           "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  expect_error<NotImplementedError>([] { mt::softmax(mt::tensor({1, 2}), 0); }, "\"softmax\" not implemented for 'mt.int64'");
  expect_error<NotImplementedError>([] { mt::log_softmax(mt::tensor({true}), 0); },
                                    "\"log_softmax\" not implemented for 'mt.bool'");
  expect_error<NotImplementedError>([&] { mt::softmax(x, 1, kInt64); }, "\"softmax\" not implemented for 'mt.int64'");
  expect_error<RuntimeError>([&] { mt::_softmax(x, 1, true); }, "conversion is supported for Half type only");
  expect_error<RuntimeError>([&] { mt::_log_softmax(x.to(kBFloat16), 1, true); }, "conversion is supported for Half type only");
}

}  // namespace
