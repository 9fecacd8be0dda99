// take, put (assign and accumulate) and copy: hand-worked values, every dtype against a naive flat-index
// reference, non-contiguous and 0-dim operands, negative positions, empty indices, Meta shapes, threads,
// and every error with its message.
#include "ops/infra/Parallel.h"
#include "views_test_util.h"
#include "ops/api/copy.h"
#include "ops/api/empty.h"
#include "ops/api/logical_or.h"
#include "ops/api/ones.h"
#include "ops/api/put.h"
#include "ops/api/take.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

Tensor longs(const std::vector<int64_t>& v, std::vector<int64_t> shape) {
  return mt::tensor(v, shape, TensorOptions(kInt64));
}

// A flat position p in [-numel, numel) as a row-major position in [0, numel).
int64_t wrapped(double p, int64_t numel) { return p < 0 ? static_cast<int64_t>(p) + numel : static_cast<int64_t>(p); }

// put written out: source's elements in row-major order, each assigned to (or combined with) the
// element of self at the matching index element's position.
std::vector<double> naive_put(const Tensor& self, const Tensor& index, const Tensor& source,
                              const std::function<double(double, double)>& combine) {
  std::vector<double> out = values(self);
  const std::vector<double> idx = values(index), src = values(source);
  for (size_t k = 0; k < idx.size(); ++k) {
    double& dst = out[wrapped(idx[k], self.numel())];
    dst = combine(dst, src[k]);
  }
  return out;
}

double assign(double, double v) { return v; }
double plus(double a, double b) { return a + b; }
double logical_or(double a, double b) { return (a != 0 || b != 0) ? 1 : 0; }

TEST(IndexingTakePut, TakeMatchesHandWorkedExamples) {
  const Tensor x = iota({2, 3});  // [[0, 1, 2], [3, 4, 5]]
  EXPECT_EQ(values(x.take(longs({0, 5, -1, -6, 4}, {5}))), (std::vector<double>{0, 5, 5, 0, 4}));
  const Tensor r = mt::take(x, longs({1, 3, 3, -2}, {2, 2}));
  expect_geometry(r, {2, 2}, {2, 1}, 0);
  EXPECT_EQ(values(r), (std::vector<double>{1, 3, 3, 4}));
  // Positions count in self's logical row-major order, not in memory: x.t() is [[0, 3], [1, 4], [2, 5]].
  EXPECT_EQ(values(x.t().take(longs({1, 2, -1}, {3}))), (std::vector<double>{3, 1, 5}));
}

TEST(IndexingTakePut, TakeMatchesReferenceForEveryDtypeAndLayout) {
  const Tensor base = longs({4, -3, 0, 11, -12, 7, 2, 9, 1, -1, 5, 9}, {12});
  const Tensor idx = base.view({3, 4}).t().slice(0, 0, std::nullopt, 2);  // (2, 3), non-contiguous
  for (ScalarType dt : kEveryDtype) {
    const Tensor self = iota({4, 3}, dt).t();  // (3, 4), non-contiguous
    const Tensor r = self.take(idx);
    ASSERT_EQ(r.sizes(), idx.sizes());
    EXPECT_EQ(r.dtype(), dt);
    EXPECT_TRUE(r.is_contiguous());
    std::vector<double> expected;
    for (double p : values(idx)) expected.push_back(element(self, wrapped(p, 12)));
    EXPECT_EQ(values(r), expected);
  }
}

TEST(IndexingTakePut, TakeZeroDimEmptyMetaAndThreads) {
  const Tensor s = mt::tensor(3.f);
  EXPECT_EQ(s.take(mt::tensor(int64_t(-1))).dim(), 0);
  EXPECT_EQ(s.take(mt::tensor(int64_t(0))).item<float>(), 3.f);
  EXPECT_EQ(values(s.take(longs({0, -1}, {2}))), (std::vector<double>{3, 3}));
  EXPECT_EQ(iota({2, 3}).take(mt::tensor(int64_t(4))).item<float>(), 4.f);
  expect_geometry(iota({2, 3}).take(longs({}, {0, 2})), {0, 2}, {2, 1}, 0);
  expect_geometry(mt::zeros({0}).take(longs({}, {0})), {0}, {1}, 0);
  const Tensor m = mt::take(mt::empty({3, 4}, meta_options(kFloat16)), mt::empty({2, 5}, meta_options(kInt64)));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dtype(), kFloat16);
  expect_geometry(m, {2, 5}, {5, 1}, 0);
  // Enough elements to split across threads.
  const Tensor big = iota({300, 200}, kFloat64).t();
  Tensor idx = mt::empty({4 * kParallelGrain}, TensorOptions(kInt64));
  for (int64_t i = 0; i < idx.numel(); ++i) idx.data_ptr<int64_t>()[i] = (i * 7919) % 60000 - 30000;
  std::vector<double> expected;
  for (double p : values(idx)) expected.push_back(element(big, wrapped(p, 60000)));
  EXPECT_EQ(values(big.take(idx)), expected);
}

TEST(IndexingTakePut, PutMatchesHandWorkedExamples) {
  const Tensor z = mt::zeros({2, 3});
  const Tensor r = z.put(longs({1, -1, 3}, {3}), mt::tensor({10.f, 20.f, 30.f}));
  expect_geometry(r, {2, 3}, {3, 1}, 0);
  EXPECT_EQ(values(r), (std::vector<double>{0, 10, 0, 30, 0, 20}));
  EXPECT_EQ(values(z), std::vector<double>(6, 0)) << "put leaves self alone";
  // Accumulating sums duplicates (1 + 1 + 2 + 4 at position 0).
  EXPECT_EQ(values(mt::put(mt::ones({4}), longs({0, 0, -1, -4}, {4}), mt::tensor({1.f, 2.f, 3.f, 4.f}), true)),
            (std::vector<double>{8, 1, 1, 4}));
  // Positions count in self's logical order: x.t() is [[0, 3], [1, 4], [2, 5]], written at (0, 1) and (2, 0).
  const Tensor x = iota({2, 3}).t();
  const Tensor w = x.put(longs({1, 4}, {2}), mt::tensor({-1.f, -2.f}));
  ASSERT_EQ(w.sizes(), x.sizes());
  EXPECT_EQ(values(w), (std::vector<double>{0, -1, 1, 4, -2, 5}));
}

TEST(IndexingTakePut, PutMatchesReferenceForEveryDtypeAndLayout) {
  // [[2, 5], [9, 5], [-10, 7]]: repeats (2 and -10 name one element, 5 is there twice), non-contiguous.
  const Tensor idx = longs({2, 9, -10, 11, -1, 0, 5, 5, 7, 3, 4, 6}, {4, 3}).t().slice(1, 0, std::nullopt, 2);
  ASSERT_EQ(values(idx), (std::vector<double>{2, 5, 9, 5, -10, 7}));
  for (ScalarType dt : kEveryDtype) {
    const Tensor self = iota({4, 3}, dt).t();  // (3, 4), non-contiguous
    const Tensor source = random_tensor({2, 3}, dt, 7).t();  // (3, 2) like idx, non-contiguous
    const Tensor added = self.put(idx, source, /*accumulate=*/true);
    ASSERT_EQ(added.sizes(), self.sizes());
    EXPECT_EQ(added.dtype(), dt);
    EXPECT_EQ(values(added), naive_put(self, idx, source, dt == kBool ? logical_or : plus));
    // Without accumulate only distinct positions are compared: which duplicate wins is unspecified.
    const Tensor distinct = longs({3, -1, 0, 6, -7, 1}, {2, 3});
    EXPECT_EQ(values(self.put(distinct, source)), naive_put(self, distinct, source, assign));
  }
}

TEST(IndexingTakePut, PutZeroDimEmptyAndMeta) {
  EXPECT_EQ(mt::tensor(3.f).put(mt::tensor(int64_t(-1)), mt::tensor(5.f)).item<float>(), 5.f);
  EXPECT_EQ(mt::tensor(3.f).put(longs({0, 0}, {2}), mt::tensor({1.f, 2.f}), true).item<float>(), 6.f);
  EXPECT_EQ(values(iota({2, 2}).put(longs({}, {0}), mt::zeros({0}))), (std::vector<double>{0, 1, 2, 3}));
  expect_geometry(mt::zeros({0, 2}).put(longs({}, {0}), mt::zeros({0})), {0, 2}, {2, 1}, 0);
  const Tensor m = mt::put(mt::empty({3, 4}, meta_options(kBFloat16)), mt::empty({5}, meta_options(kInt64)),
                           mt::empty({5}, meta_options(kBFloat16)));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dtype(), kBFloat16);
  expect_geometry(m, {3, 4}, {4, 1}, 0);
}

TEST(IndexingTakePut, Errors) {
  const Tensor x = iota({2, 3});
  expect_error<RuntimeError>([&] { x.take(mt::tensor({0.f})); },
                             "take(): Expected a long tensor for index, but got mt.float32");
  expect_error<IndexError>([&] { x.take(longs({0, 10, 7}, {3})); },
                           "out of range: tried to access index 10 on a tensor of 6 elements.");
  expect_error<IndexError>([&] { x.take(longs({-7}, {1})); },
                           "out of range: tried to access index -7 on a tensor of 6 elements.");
  expect_error<IndexError>([] { mt::zeros({0}).take(longs({0}, {1})); }, "take(): tried to take from an empty tensor");
  expect_error<RuntimeError>([&] { x.take(mt::empty({1}, meta_options(kInt64))); },
                             "take(): self, index and out expected to be in the same device, but got self.device = "
                             "cpu, index.device = meta, and out.device = cpu");
  const Tensor src = mt::tensor({1.f, 2.f});
  expect_error<RuntimeError>([&] { x.put(mt::tensor({0.f, 1.f}), src); },
                             "put_(): Expected a long tensor for index, but got mt.float32");
  expect_error<RuntimeError>([&] { x.put(longs({0, 1}, {2}), mt::ones({2}, TensorOptions(kFloat64))); },
                             "put_(): self and source expected to have the same dtype, but got self.dtype = "
                             "mt.float32 and source.dtype = mt.float64");
  expect_error<IndexError>([&] { x.put(longs({0, 1}, {2}), mt::tensor({1.f, 2.f, 3.f})); },
                           "put_(): Expected source and index to have the same number of elements, but got "
                           "source.numel() = 3, index.numel() = 2");
  expect_error<IndexError>([&] { x.put(longs({1, 6}, {2}), src, true); },
                           "out of range: tried to access index 6 on a tensor of 6 elements.");
  expect_error<IndexError>([&] { x.put(longs({-9, 0}, {2}), src); },
                           "out of range: tried to access index -9 on a tensor of 6 elements.");
  expect_error<IndexError>([] { mt::zeros({2, 0}).put(longs({0}, {1}), mt::ones({1})); },
                           "put_(): Tried to put elements into an empty tensor");
  expect_error<RuntimeError>([&] { x.put(longs({0}, {1}), mt::empty({1}, meta_options())); },
                             "put_(): self, index and source expected to be in the same device, but got self.device = "
                             "cpu, index.device = cpu, and source.device = meta");
  // Meta runs every check that reads no data.
  expect_error<IndexError>([] { mt::empty({3}, meta_options()).put(mt::empty({2}, meta_options(kInt64)),
                                                                   mt::empty({1}, meta_options())); },
                           "put_(): Expected source and index to have the same number of elements");
}

TEST(IndexingTakePut, CopyBroadcastsAndConvertsSrcToSelf) {
  const Tensor self = mt::zeros({2, 3}, TensorOptions(kInt64));
  const Tensor r = mt::copy(self, mt::tensor({1.5f, -2.5f, 3.f}));
  expect_geometry(r, {2, 3}, {3, 1}, 0);
  EXPECT_EQ(r.dtype(), kInt64);
  EXPECT_EQ(values(r), (std::vector<double>{1, -2, 3, 1, -2, 3}));
  EXPECT_EQ(values(self), std::vector<double>(6, 0)) << "copy leaves self alone";
  EXPECT_EQ(values(mt::copy(mt::ones({3}), mt::tensor(true))), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(values(mt::copy(mt::ones({2, 2}, TensorOptions(kBool)), mt::tensor({0.f, 2.f}).view({2, 1}))),
            (std::vector<double>{0, 0, 1, 1}));
  // Every dtype pair, with a transposed self and a strided src broadcast over its rows; the values
  // (small integers and halves) convert exactly, integers truncating.
  for (ScalarType to : kEveryDtype) {
    for (ScalarType from : kEveryDtype) {
      const Tensor s = iota({4, 3}, to).t();
      const Tensor src = random_tensor({8}, from, 3).slice(0, 0, std::nullopt, 2);
      const Tensor c = mt::copy(s, src);
      expect_geometry(c, {3, 4}, {1, 3}, 0);  // laid out as clone(s)
      EXPECT_EQ(c.dtype(), to);
      EXPECT_EQ(values(c), reference({3, 4}, [&](const Coords& c) {
                  const double v = element(src, c[1]);
                  return to == kBool ? double(v != 0) : to == kInt64 ? std::trunc(v) : v;
                }));
    }
  }
  const Tensor m = mt::copy(mt::empty({2, 3}, meta_options(kFloat16)), mt::empty({3}, meta_options(kFloat64)));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dtype(), kFloat16);
  expect_geometry(m, {2, 3}, {3, 1}, 0);
}

TEST(IndexingTakePut, CopyErrorsAsCopy_) {
  const Tensor x = mt::zeros({2, 3});
  expect_error<RuntimeError>(
      [&] { mt::copy(x, mt::ones({2})); },
      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1");
  expect_error<RuntimeError>([&] { mt::copy(x, mt::ones({1, 2, 3})); },
                             "copy_: output with shape [2, 3] doesn't match the broadcast shape [1, 2, 3]");
  expect_error<RuntimeError>([] { mt::copy(mt::empty({2, 3}, meta_options()), mt::empty({3, 1, 3}, meta_options())); },
                             "copy_: output with shape [2, 3] doesn't match the broadcast shape [3, 2, 3]");
}

}  // namespace
