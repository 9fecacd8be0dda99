// scatter (src and value, functional and in-place), scatter_add and one_hot: values against naive
// references for every dtype, strided and 0-dim operands, Meta shapes, bounds checked before
// anything is written, and every error.
#include "views_test_util.h"
#include "ops/api/arange.h"
#include "ops/api/div.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/logical_or.h"
#include "ops/api/one_hot.h"
#include "ops/api/ones.h"
#include "ops/api/scatter.h"
#include "ops/api/scatter_add.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

Tensor longs(const std::vector<int64_t>& v, std::vector<int64_t> shape) {
  return mt::tensor(v, shape, TensorOptions(kInt64));
}

// The scatter loop written out: for each index coordinate c in row-major order, the target is c with
// c[dim] replaced by index[c]; `combine(old, src)` gives the new value.
std::vector<double> naive_scatter(const Tensor& self, int64_t dim, const Tensor& index,
                                  const std::function<double(const Coords&)>& src,
                                  const std::function<double(double, double)>& combine) {
  std::vector<double> out = values(self);
  for_each_coord(index.sizes(), [&](const Coords& c) {
    Coords target = c;
    target[dim] = static_cast<int64_t>(at(index, c));
    int64_t flat = 0;
    for (int64_t d = 0; d < self.dim(); ++d) flat = flat * self.size(d) + target[d];
    out[flat] = combine(out[flat], src(c));
  });
  return out;
}

// An index whose rows along `dim` are distinct permutations, so assignment order cannot matter.
Tensor distinct_index(const Tensor& self, int64_t dim, std::vector<int64_t> shape) {
  Tensor idx = mt::empty(shape, TensorOptions(kInt64));
  int64_t k = 0;
  for_each_coord(shape, [&](const Coords& c) {
    int64_t line = 0;
    for (size_t d = 0; d < c.size(); ++d)
      if (static_cast<int64_t>(d) != dim) line += c[d];
    idx.data_ptr<int64_t>()[k++] = (c[dim] + line) % self.size(dim);
  });
  return idx;
}

double assign(double, double v) { return v; }
double plus(double a, double b) { return a + b; }
double logical_or(double a, double b) { return (a != 0 || b != 0) ? 1 : 0; }

TEST(IndexingScatter, ScatterMatchesHandWorkedExamples) {
  const Tensor z = mt::zeros({3, 4});
  const Tensor idx = longs({0, 3, 1, 1}, {2, 2});
  const Tensor src = mt::arange(1, 7, 1, TensorOptions(kFloat32)).view({2, 3});
  EXPECT_EQ(values(z.scatter(1, idx, src)), (std::vector<double>{1, 0, 0, 2, 0, 5, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(values(mt::scatter(z, 1, idx, 5.0)), (std::vector<double>{5, 0, 0, 5, 0, 5, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(values(z.scatter_add(1, idx, src)), (std::vector<double>{1, 0, 0, 2, 0, 9, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(values(mt::zeros({3, 4}, TensorOptions(kInt64)).scatter(1, idx, 5.5)),
            (std::vector<double>{5, 0, 0, 5, 0, 5, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(values(z), std::vector<double>(12, 0)) << "the functional forms leave self alone";
}

TEST(IndexingScatter, ScatterAndScatterAddMatchReferenceForEveryDtype) {
  for (ScalarType dt : kEveryDtype) {
    const Tensor self = iota({4, 3, 5}, dt).transpose(0, 2);  // (5, 3, 4), non-contiguous
    for (int64_t dim : {0, 1, 2}) {
      const Tensor src = iota({5, 4, 6}, dt).slice(1, 1);        // (5, 3, 6), non-contiguous
      std::vector<int64_t> shape = {4, 2, 3};
      shape[dim] = std::min<int64_t>(self.size(dim), src.size(dim));
      const Tensor idx = distinct_index(self, dim, shape);
      auto src_at = [&](const Coords& c) { return at(src, c); };
      const Tensor assigned = self.scatter(dim, idx, src);
      EXPECT_EQ(assigned.dtype(), dt);
      expect_geometry(assigned, {5, 3, 4}, {12, 4, 1}, 0);  // a contiguous result, like PyTorch's
      EXPECT_EQ(values(assigned), naive_scatter(self, dim, idx, src_at, assign));
      // scatter_add with repeated targets: every contribution counts.
      const Tensor repeated = mt::div(distinct_index(self, dim, shape), mt::full({}, 2, TensorOptions(kInt64)), "floor");
      const Tensor added = mt::scatter_add(self, dim - 3, repeated, src);
      expect_values_near(added, naive_scatter(self, dim, repeated, src_at, dt == kBool ? logical_or : plus),
                         tolerance(dt));
      const Tensor filled = self.scatter(dim, idx, Scalar(true));
      EXPECT_EQ(values(filled), naive_scatter(self, dim, idx, [](const Coords&) { return 1.0; }, assign));
    }
  }
}

TEST(IndexingScatter, InPlaceFormsWriteThroughSelfsStrides) {
  Tensor base = mt::zeros({4, 3});
  Tensor self = base.t();  // (3, 4) strides (1, 3)
  const Tensor idx = longs({0, 3, 1, 1}, {2, 2});
  const Tensor src = mt::arange(1, 7, 1, TensorOptions(kFloat32)).view({2, 3});
  Tensor& r = self.scatter_(1, idx, src);
  EXPECT_TRUE(r.is_same(self));
  expect_geometry(self, {3, 4}, {1, 3}, 0);
  EXPECT_EQ(values(self), (std::vector<double>{1, 0, 0, 2, 0, 5, 0, 0, 0, 0, 0, 0}));
  self.scatter_add_(1, idx, src);
  EXPECT_EQ(values(self), (std::vector<double>{2, 0, 0, 4, 0, 14, 0, 0, 0, 0, 0, 0}));
  self.scatter_(0, longs({2}, {1, 1}), -1);
  EXPECT_EQ(element(base, 2), -1) << "base (4, 3) holds self (3, 4) transposed";
  Tensor flags = mt::zeros({3}, TensorOptions(kBool));
  flags.scatter_add_(0, longs({1, 1}, {2}), mt::tensor({true, true}));
  EXPECT_EQ(values(flags), (std::vector<double>{0, 1, 0}));
  Tensor halves = mt::zeros({3}, TensorOptions(kFloat16));
  halves.scatter_add_(0, longs({1, 1}, {2}), mt::tensor({1.f, 2.f}, TensorOptions(kFloat16)));
  EXPECT_EQ(values(halves), (std::vector<double>{0, 3, 0}));
}

TEST(IndexingScatter, ZeroDimEmptyIndexAndMeta) {
  EXPECT_EQ(mt::tensor(3.f).scatter(0, mt::tensor(int64_t(0)), mt::tensor(5.f)).item<float>(), 5.f);
  EXPECT_EQ(mt::tensor(3.f).scatter(0, longs({0}, {1}), mt::tensor({5.f})).item<float>(), 5.f);
  EXPECT_EQ(values(mt::tensor({3.f, 4.f}).scatter(0, mt::tensor(int64_t(1)), mt::tensor(7.f))),
            (std::vector<double>{3, 7}));
  const Tensor x = iota({3, 4});
  // An empty index writes nothing and is not shape-checked.
  EXPECT_EQ(values(x.scatter(1, longs({}, {0, 7}), mt::ones({1, 1}))), values(x));
  EXPECT_EQ(values(x.scatter_add(1, longs({}, {0}), mt::ones({1, 1}))), values(x));
  const Tensor m = mt::empty({3, 4}, meta_options(kBFloat16));
  const Tensor r = m.scatter(0, mt::empty({2, 4}, meta_options(kInt64)), mt::empty({2, 5}, meta_options(kBFloat16)));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.dtype(), kBFloat16);
  expect_geometry(r, {3, 4}, {4, 1}, 0);
  expect_error<RuntimeError>([&] { m.scatter_add(1, mt::empty({4, 4}, meta_options(kInt64)), mt::empty({4, 4}, meta_options(kBFloat16))); },
                             "Expected index [4, 4] to be smaller than self [3, 4] apart from dimension 1");
}

TEST(IndexingScatter, ErrorsLeaveSelfUnchanged) {
  Tensor z = iota({3, 4});
  const std::vector<double> before = values(z);
  const Tensor src = iota({2, 3});
  // The bad index comes after good ones: nothing may have been written when the error is raised.
  expect_error<IndexError>([&] { z.scatter_(1, longs({0, 1, 2, 4}, {1, 4}), iota({1, 4})); },
                           "index 4 is out of bounds for dimension 1 with size 4");
  expect_error<IndexError>([&] { z.scatter_add_(1, longs({0, -1}, {1, 2}), src); },
                           "index -1 is out of bounds for dimension 1 with size 4");
  expect_error<IndexError>([&] { z.scatter_(0, longs({3}, {1, 1}), 1.0); }, "index 3 is out of bounds for dimension 0 with size 3");
  expect_error<IndexError>([&] { z.t().scatter(1, longs({0, 3}, {1, 2}), src); }, "index 3 is out of bounds for dimension 1 with size 3");
  expect_error<TypeError>([&] { z.scatter_(1, mt::tensor({{0.f}}), src); }, "scatter(): Expected dtype int64 for index");
  expect_error<TypeError>([&] { z.scatter_add(1, mt::tensor({{0.f}}), src); }, "scatter(): Expected dtype int64 for index");
  expect_error<TypeError>([&] { z.scatter(1, mt::tensor({{0.f}}), 1.0); }, "scatter(): Expected dtype int64 for index");
  expect_error<TypeError>([&] { z.scatter_(1, longs({0}, {1, 1}), iota({1, 1}, kFloat64)); },
                          "scatter(): Expected self.dtype to be equal to src.dtype");
  expect_error<TypeError>([&] { z.scatter_add_(1, longs({0}, {1, 1}), iota({1, 1}, kInt64)); },
                          "scatter(): Expected self.dtype to be equal to src.dtype");
  expect_error<RuntimeError>([&] { z.scatter_(1, longs({0, 1, 2, 3}, {1, 4}), src); },
                             "Expected index [1, 4] to be smaller than self [3, 4] apart from dimension 1 and to be "
                             "smaller size than src [2, 3]");
  expect_error<RuntimeError>([&] { z.scatter_(1, longs({0, 0, 0, 0}, {4, 1}), iota({4, 1})); },
                             "Expected index [4, 1] to be smaller than self [3, 4] apart from dimension 1 and to be "
                             "smaller size than src [4, 1]");
  expect_error<RuntimeError>([&] { z.scatter_(1, longs({0, 0, 0, 0}, {4, 1}), 2.0); },
                             "Expected index [4, 1] to be smaller than self [3, 4] apart from dimension 1");
  expect_error<RuntimeError>([&] { z.scatter_(1, longs({0, 1}, {2}), src); },
                             "Index tensor must have the same number of dimensions as self tensor");
  expect_error<RuntimeError>([&] { z.scatter_add_(0, longs({0}, {1, 1}), mt::ones({1})); },
                             "Index tensor must have the same number of dimensions as src tensor");
  expect_error<IndexError>([&] { z.scatter_(2, longs({0}, {1, 1}), src); },
                           "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  expect_error<RuntimeError>([&] { z.scatter_(0, mt::empty({1, 1}, meta_options(kInt64)), src); },
                             "Expected all tensors to be on the same device, but found at least two devices, cpu and meta!");
  EXPECT_EQ(values(z), before);
}

TEST(IndexingScatter, OneHotMarksEachClass) {
  const Tensor r = mt::one_hot(longs({0, 2, 1}, {3}));
  EXPECT_EQ(r.dtype(), kInt64);
  expect_geometry(r, {3, 3}, {3, 1}, 0);
  EXPECT_EQ(values(r), (std::vector<double>{1, 0, 0, 0, 0, 1, 0, 1, 0}));
  expect_geometry(mt::one_hot(longs({0, 2, 1}, {3}), 5), {3, 5}, {5, 1}, 0);
  EXPECT_EQ(values(mt::one_hot(mt::tensor(int64_t(2)))), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(values(mt::one_hot(mt::tensor(int64_t(2)), 4)), (std::vector<double>{0, 0, 1, 0}));
  expect_geometry(mt::one_hot(longs({}, {0}), 3), {0, 3}, {3, 1}, 0);
  expect_geometry(mt::one_hot(longs({}, {2, 0}), 3), {2, 0, 3}, {3, 3, 1}, 0);
  const Tensor labels = longs({0, 1, 2, 0}, {2, 2}).t();  // [[0, 2], [1, 0]]
  const Tensor h = mt::one_hot(labels, 3);
  ASSERT_EQ(h.sizes(), IntArrayRef({2, 2, 3}));
  EXPECT_EQ(values(h), reference({2, 2, 3}, [&](const Coords& c) { return at(labels, {c[0], c[1]}) == c[2] ? 1.0 : 0.0; }));
  const Tensor m = mt::one_hot(mt::empty({2}, meta_options(kInt64)), 3);
  EXPECT_TRUE(m.is_meta());
  expect_geometry(m, {2, 3}, {3, 1}, 0);
  expect_error<RuntimeError>([] { mt::one_hot(longs({0, 2, 1}, {3}), 2); }, "Class values must be smaller than num_classes.");
  expect_error<RuntimeError>([] { mt::one_hot(longs({0, 1}, {2}), 0); }, "Class values must be smaller than num_classes.");
  expect_error<RuntimeError>([] { mt::one_hot(longs({0, 1}, {2}), -2); }, "Class values must be smaller than num_classes.");
  expect_error<RuntimeError>([] { mt::one_hot(longs({0, -2, 1}, {3})); }, "Class values must be non-negative.");
  expect_error<RuntimeError>([] { mt::one_hot(longs({0, -2, 1}, {3}), 4); }, "Class values must be non-negative.");
  expect_error<TypeError>([] { mt::one_hot(mt::tensor({0.f, 1.f})); }, "one_hot is only applicable to index tensor.");
  expect_error<RuntimeError>([] { mt::one_hot(longs({}, {0})); }, "Can not infer total number of classes from empty tensor.");
  expect_error<RuntimeError>([] { mt::one_hot(mt::empty({2}, meta_options(kInt64))); },
                             "Can not infer total number of classes from meta tensor.");
}

}  // namespace
