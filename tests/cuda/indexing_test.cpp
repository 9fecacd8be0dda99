// The CUDA indexing and triangular kernels against the CPU ones: index_select, gather, scatter (src,
// value, add), one_hot, take, put, embedding, tril and triu on the same inputs on both devices, for every
// dtype, with transposed and sliced operands, duplicate targets for the accumulating ops (integer values,
// so any order of additions gives the same sums), sizes that span many blocks, and out-of-range indices,
// which must raise the CPU's error and leave self unchanged. Also bernoulli_ and dropout, which must
// draw the CPU's values for a seed.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cuda_test_helpers.h"
#include "ops/api/arange.h"
#include "ops/api/bernoulli.h"
#include "ops/api/dropout.h"
#include "ops/api/embedding.h"
#include "ops/api/gather.h"
#include "ops/api/index_select.h"
#include "ops/api/one_hot.h"
#include "ops/api/ones.h"
#include "ops/api/put.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/scatter.h"
#include "ops/api/take.h"
#include "ops/api/tril.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::error_of;
using mt_test::expect_close_to_cpu;

const std::vector<mt::ScalarType> kEveryDtype =
    mt_test::with_narrow_integers({mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16, mt::kInt64, mt::kBool});

Tensor cuda(const Tensor& t) { return t.to(mt::kCUDA); }

Tensor longs(const std::vector<int64_t>& v, std::vector<int64_t> shape) {
  return mt::tensor(v, shape, mt::TensorOptions(mt::kInt64));
}

// Random values of dtype dt: normal for the floating types, integers in [-20, 20) for the integer
// types (wrapped in uint8), and for bool the signs of normal draws.
Tensor sample(std::vector<int64_t> sizes, mt::ScalarType dt, uint64_t seed) {
  mt::Generator gen(seed);
  if (mt::is_integral(dt, false)) return mt::randint(-20, 20, sizes, &gen).to(dt);
  const Tensor normal = mt::randn(sizes, &gen);
  return dt == mt::kBool ? normal.gt(0) : normal.to(dt);
}

// Small integers in dtype dt: sums of a few of them are exact in every dtype, in any order.
Tensor small_integers(std::vector<int64_t> sizes, mt::ScalarType dt, uint64_t seed) {
  mt::Generator gen(seed);
  return mt::randint(-8, 8, sizes, &gen).to(dt);
}

TEST(CudaIndexing, IndexSelectMatchesCpuOnStridedInputsForEveryDtype) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor rows = longs({4, 0, 2, 2, 1}, {5});
  const Tensor cols = longs({5, 9, 0, 9, 3, 9, 3, 9}, {8}).slice(0, 0, std::nullopt, 2);  // {5, 0, 3, 3}
  for (mt::ScalarType dt : kEveryDtype) {
    const Tensor base = sample({6, 5}, dt, 1);
    const Tensor self = base.t(), self_cuda = cuda(base).t();  // (5, 6), transposed
    expect_close_to_cpu(mt::index_select(self_cuda, 0, cuda(rows)), mt::index_select(self, 0, rows));
    expect_close_to_cpu(self_cuda.index_select(1, cuda(cols)), self.index_select(1, cols));
    expect_close_to_cpu(self_cuda.index_select(-1, cuda(cols)), self.index_select(-1, cols));
    expect_close_to_cpu(self_cuda.index_select(1, cuda(cols.to(mt::kInt32))), self.index_select(1, cols));
  }
  // A 0-dim self takes one index.
  const Tensor scalar = mt::tensor(2.5);
  expect_close_to_cpu(cuda(scalar).index_select(0, cuda(longs({0}, {1}))), scalar.index_select(0, longs({0}, {1})));
}

TEST(CudaIndexing, GatherMatchesCpuOnStridedInputs) {
  MT_SKIP_WITHOUT_GPU();
  mt::Generator gen(2);
  const Tensor along_rows = mt::randint(0, 5, {3, 4}, &gen);  // used transposed: (4, 3)
  const Tensor along_cols = mt::randint(0, 7, {3, 4}, &gen);
  const Tensor deep = mt::randint(0, 5, {2, 4, 3}, &gen);
  for (mt::ScalarType dt : kEveryDtype) {
    const Tensor base = sample({7, 5}, dt, 3);
    const Tensor self = base.t(), self_cuda = cuda(base).t();  // (5, 7)
    expect_close_to_cpu(self_cuda.gather(0, cuda(along_rows).t()), self.gather(0, along_rows.t()));
    expect_close_to_cpu(mt::gather(self_cuda, 1, cuda(along_cols).t()), mt::gather(self, 1, along_cols.t()));
    // 3-D, with self sliced along the gathered dim.
    const Tensor wide = sample({3, 4, 10}, dt, 4);
    const Tensor sliced = wide.slice(2, 0, std::nullopt, 2), sliced_cuda = cuda(wide).slice(2, 0, std::nullopt, 2);
    expect_close_to_cpu(sliced_cuda.gather(2, cuda(deep)), sliced.gather(2, deep));
  }
}

TEST(CudaIndexing, ScatterMatchesCpuWithDistinctTargets) {
  MT_SKIP_WITHOUT_GPU();
  // Along dim 0 each column names distinct rows, along dim 1 each row distinct columns: assignment
  // order cannot matter.
  std::vector<int64_t> down, across;
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 5; ++j) down.push_back((i + j) % 4);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j) across.push_back((2 * i + j) % 5);
  const Tensor idx0 = longs(down, {3, 5}), idx1 = longs(across, {4, 3});
  for (mt::ScalarType dt : kEveryDtype) {
    const Tensor self = sample({4, 5}, dt, 5);
    const Tensor src_base = sample({5, 4}, dt, 6);
    const Tensor src = src_base.t(), src_cuda = cuda(src_base).t();  // (4, 5), transposed
    expect_close_to_cpu(cuda(self).scatter(0, cuda(idx0), src_cuda), self.scatter(0, idx0, src));
    expect_close_to_cpu(mt::scatter(cuda(self), 1, cuda(idx1), src_cuda), mt::scatter(self, 1, idx1, src));
    expect_close_to_cpu(mt::scatter(cuda(self), 1, cuda(idx1), 2.5), mt::scatter(self, 1, idx1, 2.5));
    // In place, into a transposed view: the base sees the writes.
    const Tensor target = sample({5, 4}, dt, 7), target_cuda = cuda(target);
    target.t().scatter_(0, idx0, src);
    target_cuda.t().scatter_(0, cuda(idx0), src_cuda);
    expect_close_to_cpu(target_cuda, target);
    target.t().scatter_(1, idx1, mt::Scalar(true));
    target_cuda.t().scatter_(1, cuda(idx1), mt::Scalar(true));
    expect_close_to_cpu(target_cuda, target);
  }
}

TEST(CudaIndexing, ScatterAddAccumulatesDuplicateTargetsAsCpu) {
  MT_SKIP_WITHOUT_GPU();
  mt::Generator gen(8);
  const Tensor idx = mt::randint(0, 2, {5, 6}, &gen);  // many index elements per target
  for (mt::ScalarType dt : kEveryDtype) {
    const Tensor self = dt == mt::kBool ? sample({2, 6}, dt, 9) : small_integers({2, 6}, dt, 9);
    const Tensor src_base = dt == mt::kBool ? sample({6, 5}, dt, 10) : small_integers({6, 5}, dt, 10);
    const Tensor src = src_base.t(), src_cuda = cuda(src_base).t();
    expect_close_to_cpu(cuda(self).scatter_add(0, cuda(idx), src_cuda), self.scatter_add(0, idx, src));
    const Tensor in_place = self.t().contiguous().t(), in_place_cuda = cuda(self.t().contiguous()).t();
    in_place.scatter_add_(1, idx.slice(0, 0, 2), src.slice(0, 0, 2));
    in_place_cuda.scatter_add_(1, cuda(idx).slice(0, 0, 2), src_cuda.slice(0, 0, 2));
    expect_close_to_cpu(in_place_cuda, in_place);
  }
  // Random floats: the GPU adds in another order, within the dtype's tolerance.
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64}) {
    const Tensor src = sample({5, 6}, dt, 11);
    expect_close_to_cpu(mt::zeros({2, 6}, dt).to(mt::kCUDA).scatter_add(0, cuda(idx), cuda(src)),
                        mt::zeros({2, 6}, dt).scatter_add(0, idx, src));
  }
}

TEST(CudaIndexing, ScatterAddOfManyElementsOntoFewTargetsCountsEveryOne) {
  MT_SKIP_WITHOUT_GPU();
  mt::Generator gen(12);
  const Tensor idx = mt::randint(0, 100, {1 << 20}, &gen);
  // The 1- and 2-byte integers add by compare-and-swap on the enclosing word, so neighbours contend too;
  // counts of about 10486 wrap in them as on the CPU.
  for (mt::ScalarType dt : mt_test::with_narrow_integers({mt::kFloat32, mt::kFloat64, mt::kInt64})) {
    SCOPED_TRACE(mt::scalar_type_name(dt));
    const Tensor ones = mt::ones({1 << 20}, dt);
    expect_close_to_cpu(mt::zeros({100}, dt).to(mt::kCUDA).scatter_add(0, cuda(idx), cuda(ones)),
                        mt::zeros({100}, dt).scatter_add(0, idx, ones));
  }
}

TEST(CudaIndexing, OneHotMatchesCpu) {
  MT_SKIP_WITHOUT_GPU();
  mt::Generator gen(13);
  const Tensor classes = mt::randint(0, 6, {5, 4}, &gen).t();  // (4, 5), transposed
  const Tensor classes_cuda = cuda(classes.t()).t();
  expect_close_to_cpu(mt::one_hot(classes_cuda), mt::one_hot(classes));
  expect_close_to_cpu(mt::one_hot(classes_cuda, 9), mt::one_hot(classes, 9));
  const Tensor scalar = mt::tensor(int64_t(3));
  expect_close_to_cpu(mt::one_hot(cuda(scalar), 5), mt::one_hot(scalar, 5));
  // Many elements: the largest class is found across blocks.
  const Tensor many = mt::randint(0, 40, {1 << 16}, &gen);
  many.data_ptr<int64_t>()[(1 << 16) - 3] = 57;
  const Tensor hot = mt::one_hot(cuda(many));
  EXPECT_EQ(hot.size(1), 58);
  expect_close_to_cpu(hot, mt::one_hot(many));
}

TEST(CudaIndexing, TakeMatchesCpuWithNegativePositionsAndStridedSelf) {
  MT_SKIP_WITHOUT_GPU();
  mt::Generator gen(14);
  const Tensor positions = mt::randint(-24, 24, {5, 3}, &gen);
  for (mt::ScalarType dt : kEveryDtype) {
    const Tensor base = sample({4, 6}, dt, 15);
    const Tensor self = base.t(), self_cuda = cuda(base).t();  // (6, 4): flat positions follow the logical order
    const Tensor got = mt::take(self_cuda, cuda(positions).t());
    EXPECT_TRUE(got.is_contiguous());
    expect_close_to_cpu(got, mt::take(self, positions.t()));
    expect_close_to_cpu(cuda(base).take(cuda(positions)), base.take(positions));
  }
  const Tensor scalar = mt::tensor(4.0);
  expect_close_to_cpu(cuda(scalar).take(cuda(longs({0, -1}, {2}))), scalar.take(longs({0, -1}, {2})));
}

TEST(CudaIndexing, PutMatchesCpuWithAndWithoutAccumulate) {
  MT_SKIP_WITHOUT_GPU();
  // Distinct positions modulo 24 (3, 23, 7, 0, 12, 15, 20, 5), read transposed.
  const Tensor distinct = longs({3, -1, 7, 0, 12, -9, 20, 5}, {4, 2});
  mt::Generator gen(16);
  const Tensor repeated = mt::randint(-24, 24, {40}, &gen).view({8, 5});
  for (mt::ScalarType dt : kEveryDtype) {
    const Tensor base = sample({4, 6}, dt, 17);
    const Tensor self = base.t(), self_cuda = cuda(base).t();  // (6, 4)
    const Tensor source_base = sample({4, 2}, dt, 18);
    const Tensor source = source_base.t(), source_cuda = cuda(source_base).t();  // (2, 4)
    expect_close_to_cpu(mt::put(self_cuda, cuda(distinct).t(), source_cuda), mt::put(self, distinct.t(), source));
    expect_close_to_cpu(self_cuda.put(cuda(distinct).t(), source_cuda, true), self.put(distinct.t(), source, true));
    // Duplicates: every contribution is added.
    const Tensor ints = dt == mt::kBool ? base : small_integers({6, 4}, dt, 19);
    const Tensor values = dt == mt::kBool ? sample({5, 8}, dt, 20) : small_integers({5, 8}, dt, 20);
    expect_close_to_cpu(cuda(ints).put(cuda(repeated), cuda(values).t(), true), ints.put(repeated, values.t(), true));
  }
}

TEST(CudaIndexing, EmbeddingMatchesCpu) {
  MT_SKIP_WITHOUT_GPU();
  mt::Generator gen(21);
  const Tensor indices = mt::randint(0, 10, {3, 5}, &gen);
  for (mt::ScalarType dt : {mt::kFloat32, mt::kFloat64, mt::kFloat16, mt::kBFloat16}) {
    const Tensor weight = sample({10, 4}, dt, 22);
    expect_close_to_cpu(mt::embedding(cuda(weight), cuda(indices)), mt::embedding(weight, indices));
  }
  // Many lookups.
  const Tensor weight = sample({1000, 16}, mt::kFloat32, 23);
  const Tensor lookups = mt::randint(0, 1000, {200000}, &gen);
  expect_close_to_cpu(mt::embedding(cuda(weight), cuda(lookups)), mt::embedding(weight, lookups));
}

TEST(CudaIndexing, TrilAndTriuMatchCpuForEveryDiagonalAndLayout) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kEveryDtype) {
    const Tensor base = sample({3, 5, 4}, dt, 24);
    const Tensor self = base.transpose(1, 2), self_cuda = cuda(base).transpose(1, 2);  // (3, 4, 5)
    for (int64_t diagonal : {-5, -1, 0, 2, 6}) {
      expect_close_to_cpu(mt::tril(self_cuda, diagonal), mt::tril(self, diagonal));
      expect_close_to_cpu(self_cuda.triu(diagonal), self.triu(diagonal));
    }
    // In place, on a transposed view: only the view's elements change.
    const Tensor in_place = base.clone(), in_place_cuda = cuda(base);
    in_place.transpose(1, 2).tril_(1);
    in_place_cuda.transpose(1, 2).tril_(1);
    expect_close_to_cpu(in_place_cuda, in_place);
    in_place.triu_(-1);
    in_place_cuda.triu_(-1);
    expect_close_to_cpu(in_place_cuda, in_place);
  }
}

TEST(CudaIndexing, OutOfRangeIndicesRaiseTheCpuErrorsAndWriteNothing) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor self = sample({5, 7}, mt::kFloat32, 25), self_cuda = cuda(self);
  // Two offenders; the first in row-major order of the transposed index is 9, not the -1 before it
  // in memory.
  const Tensor bad = longs({1, -1, 4, 9, 0, 2}, {2, 3}).t();  // [[1, 9], [-1, 0], [4, 2]]
  const auto same_error = [](const std::function<void()>& on_cpu, const std::function<void()>& on_cuda) {
    const std::string want = error_of(on_cpu);
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(error_of(on_cuda), want);
  };
  same_error([&] { (void)self.gather(0, bad); }, [&] { (void)self_cuda.gather(0, cuda(bad.t()).t()); });
  EXPECT_THROW((void)self_cuda.gather(0, cuda(bad.t()).t()), mt::IndexError);
  same_error(
      [&] {
        (void)self.index_select(1, longs({0, 7}, {2}));
      },
      [&] {
        (void)self_cuda.index_select(1, cuda(longs({0, 7}, {2})));
      });
  same_error(
      [&] {
        (void)self.take(longs({3, 35, -36}, {3}));
      },
      [&] {
        (void)self_cuda.take(cuda(longs({3, 35, -36}, {3})));
      });
  same_error([&] { (void)self.put(longs({-40}, {1}), mt::ones({1})); },
             [&] { (void)self_cuda.put(cuda(longs({-40}, {1})), cuda(mt::ones({1}))); });
  same_error([&] { (void)mt::one_hot(longs({2, -1}, {2})); }, [&] { (void)mt::one_hot(cuda(longs({2, -1}, {2}))); });
  same_error(
      [&] {
        (void)mt::one_hot(longs({2, 6}, {2}), 4);
      },
      [&] {
        (void)mt::one_hot(cuda(longs({2, 6}, {2})), 4);
      });
  // A failed in-place scatter leaves self as it was.
  const Tensor target = cuda(self);
  same_error(
      [&] {
        (void)self.clone().scatter_add_(0, bad, mt::ones({3, 2}));
      },
      [&] {
        (void)target.scatter_add_(0, cuda(bad.t()).t(), cuda(mt::ones({3, 2})));
      });
  expect_close_to_cpu(target, self);
}

TEST(CudaIndexing, TheFirstOffenderAmongManyIsFoundInLogicalOrder) {
  MT_SKIP_WITHOUT_GPU();
  Tensor index = mt::zeros({1000, 1000}, mt::kInt64);
  int64_t* data = index.data_ptr<int64_t>();
  data[0 * 1000 + 999] = 77;  // first in memory, last in the transposed order
  data[500 * 1000 + 3] = -66;
  data[999 * 1000 + 0] = 55;  // first in the transposed order
  const Tensor self = mt::arange(10);
  const std::string want = error_of([&] { (void)self.take(index.t()); });
  EXPECT_NE(want.find("index 55 "), std::string::npos) << want;
  EXPECT_EQ(error_of([&] { (void)cuda(self).take(cuda(index).t()); }), want);
}

TEST(CudaBernoulli, ASeedDrawsTheCpuValuesForEveryDtypeAndLayout) {
  MT_SKIP_WITHOUT_GPU();
  for (mt::ScalarType dt : kEveryDtype) {
    for (double p : {0.0, 0.3, 1.0}) {
      mt::Generator on_cpu(42), on_cuda(42);
      const Tensor want = mt::zeros({37, 29}, dt);
      want.bernoulli_(p, &on_cpu);
      const Tensor got = mt::zeros({37, 29}, dt).to(mt::kCUDA);
      got.bernoulli_(p, &on_cuda);
      expect_close_to_cpu(got, want);
      // A transposed view draws in its logical order, as a contiguous tensor does.
      const Tensor transposed = mt::zeros({29, 37}, dt).to(mt::kCUDA).t();
      transposed.bernoulli_(p, &on_cuda);
      want.bernoulli_(p, &on_cpu);
      expect_close_to_cpu(transposed, want);
    }
  }
}

TEST(CudaBernoulli, SeededDropoutMatchesCpu) {
  MT_SKIP_WITHOUT_GPU();
  const Tensor x = sample({64, 48}, mt::kFloat32, 26);
  mt::Generator on_cpu(7), on_cuda(7);
  expect_close_to_cpu(mt::dropout(cuda(x), 0.4, true, &on_cuda), mt::dropout(x, 0.4, true, &on_cpu));
  expect_close_to_cpu(mt::bernoulli(cuda(x), 0.5, &on_cuda), mt::bernoulli(x, 0.5, &on_cpu));
}

}  // namespace
