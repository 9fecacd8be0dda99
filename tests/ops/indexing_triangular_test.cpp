// tril and triu (functional and in-place) against the definition "keep column c of row r when c - r is
// at most (tril) / at least (triu) the diagonal", for every dtype, batches, strided inputs, Meta, errors.
#include "views_test_util.h"
#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/api/tril.h"
#include "ops/api/triu.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

std::vector<double> naive_triangle(const Tensor& x, int64_t diagonal, bool upper) {
  return reference(x.sizes(), [&](const Coords& c) {
    const int64_t r = c[c.size() - 2], col = c[c.size() - 1];
    const bool keep = upper ? col - r >= diagonal : col - r <= diagonal;
    return keep ? at(x, c) : 0.0;
  });
}

TEST(IndexingTriangular, TrilAndTriuMatchHandWorkedExample) {
  const Tensor m = mt::arange(1, 13, 1, TensorOptions(kFloat32)).view({3, 4});
  EXPECT_EQ(values(m.tril()), (std::vector<double>{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0}));
  EXPECT_EQ(values(m.tril(1)), (std::vector<double>{1, 2, 0, 0, 5, 6, 7, 0, 9, 10, 11, 12}));
  EXPECT_EQ(values(mt::tril(m, -1)), (std::vector<double>{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}));
  EXPECT_EQ(values(m.triu(2)), (std::vector<double>{0, 0, 3, 4, 0, 0, 0, 8, 0, 0, 0, 0}));
  EXPECT_EQ(values(mt::triu(m, -5)), values(m));
  EXPECT_EQ(values(m.triu(10)), std::vector<double>(12, 0));
}

TEST(IndexingTriangular, EveryDtypeBatchedAndStrided) {
  for (ScalarType dt : kEveryDtype) {
    const Tensor batch = iota({4, 3, 2}, dt).permute({2, 1, 0});  // (2, 3, 4), non-contiguous
    for (int64_t diagonal : {-4, -1, 0, 1, 3, 100}) {
      for (bool upper : {false, true}) {
        const Tensor r = upper ? batch.triu(diagonal) : batch.tril(diagonal);
        EXPECT_EQ(r.dtype(), dt);
        expect_geometry(r, {2, 3, 4}, {12, 4, 1}, 0);
        EXPECT_FALSE(same_storage(r, batch));
        EXPECT_EQ(values(r), naive_triangle(batch, diagonal, upper));
      }
    }
  }
  expect_geometry(mt::zeros({0, 3}).tril(), {0, 3}, {3, 1}, 0);
  expect_geometry(mt::zeros({2, 0, 3}).triu(), {2, 0, 3}, {3, 3, 1}, 0);
}

TEST(IndexingTriangular, InPlaceFormsKeepSelfsStrides) {
  Tensor base = mt::arange(1, 13, 1, TensorOptions(kFloat32)).view({3, 4});
  const Tensor before = base.clone();
  Tensor self = base.t();  // (4, 3) strides (1, 4)
  Tensor& r = self.tril_();
  EXPECT_TRUE(r.is_same(self));
  expect_geometry(self, {4, 3}, {1, 4}, 0);
  EXPECT_EQ(values(self), naive_triangle(before.t(), 0, false));
  Tensor sq = iota({3, 3}, kInt64);
  const Tensor sq_before = sq.clone();
  sq.triu_(1);
  EXPECT_EQ(values(sq), naive_triangle(sq_before, 1, true));
  const Tensor m = mt::empty({2, 3, 3}, meta_options(kFloat64));
  const Tensor mr = m.triu();
  EXPECT_TRUE(mr.is_meta());
  EXPECT_EQ(mr.dtype(), kFloat64);
  expect_geometry(mr, {2, 3, 3}, {9, 3, 1}, 0);
}

TEST(IndexingTriangular, NeedsAtLeastTwoDims) {
  expect_error<RuntimeError>([] { mt::ones({3}).tril(); }, "tril: input tensor must have at least 2 dimensions");
  expect_error<RuntimeError>([] { mt::tensor(1.f).triu(); }, "triu: input tensor must have at least 2 dimensions");
  Tensor v = mt::ones({3});
  expect_error<RuntimeError>([&] { v.triu_(); }, "triu: input tensor must have at least 2 dimensions");
}

}  // namespace
