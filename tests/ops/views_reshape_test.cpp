// view, reshape, flatten, unflatten, as_strided, contiguous, clone: storage sharing, strides equal to
// the ones PyTorch 1.13 gives for the same calls (written here as literals), values against the source
// read in logical order, copies only where PyTorch copies, and every error.
#include "views_test_util.h"
#include "ops/api/as_strided.h"
#include "ops/api/clone.h"
#include "ops/api/empty.h"
#include "ops/api/flatten.h"
#include "ops/api/mv.h"
#include "ops/api/reshape.h"
#include "ops/api/unflatten.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

TEST(ViewsReshape, ViewSharesStorageAndBumpsNothing) {
  const Tensor x = iota({2, 3, 4});
  const uint32_t version = x._version();
  const Tensor v = x.view({4, -1});
  expect_view_of(v, x);
  expect_geometry(v, {4, 6}, {6, 1}, 0);
  EXPECT_EQ(values(v), values(x));
  EXPECT_EQ(x._version(), version);
  EXPECT_EQ(v._version(), version);
  EXPECT_FALSE(x.view({2, 3, 4}).is_same(x)) << "a view is a new tensor even for the same shape";
  // Writing through the view is seen by the base: they are one storage.
  v.data_ptr<float>()[5] = -1;
  EXPECT_EQ(element(x, 5), -1);
}

TEST(ViewsReshape, ViewStridesMatchPyTorchOnNonContiguousInputs) {
  const Tensor x = iota({2, 3, 4});
  const Tensor xt = x.transpose(1, 2);  // (2, 4, 3) strides (12, 1, 4)
  expect_geometry(xt.view({2, 4, 3, 1}), {2, 4, 3, 1}, {12, 1, 4, 4}, 0);
  const Tensor stepped = x.slice(2, 0, std::nullopt, 2);  // x[:, :, ::2]
  expect_geometry(stepped.view({6, 2}), {6, 2}, {4, 2}, 0);
  expect_geometry(stepped.view({2, 6}), {2, 6}, {12, 2}, 0);
  const Tensor cols = mt::zeros({4, 6}).slice(1, 0, 3);  // [:, :3]
  expect_geometry(cols.view({4, 3, 1}), {4, 3, 1}, {6, 1, 1}, 0);
  expect_geometry(cols.view({2, 2, 3}), {2, 2, 3}, {12, 6, 1}, 0);
  const Tensor rows = mt::zeros({4, 6}).slice(0, 0, std::nullopt, 2);  // [::2]
  expect_geometry(rows.view({2, 2, 3}), {2, 2, 3}, {12, 3, 1}, 0);
  expect_geometry(rows.view({2, 6}), {2, 6}, {12, 1}, 0);
  const Tensor p = mt::zeros({2, 3, 4}).permute({1, 2, 0});  // (3, 4, 2) strides (4, 1, 12)
  expect_geometry(p.view({12, 2}), {12, 2}, {1, 12}, 0);
  expect_geometry(p.view({3, 2, 2, 2}), {3, 2, 2, 2}, {4, 2, 1, 12}, 0);
  const Tensor q = mt::zeros({2, 3, 4}).permute({2, 0, 1});  // (4, 2, 3) strides (1, 12, 4)
  expect_geometry(q.view({4, 6}), {4, 6}, {1, 4}, 0);
  expect_geometry(q.view({2, 2, 2, 3}), {2, 2, 2, 3}, {2, 1, 12, 4}, 0);
  expect_geometry(q.view({2, 2, 6, 1}), {2, 2, 6, 1}, {2, 1, 4, 4}, 0);
  expect_geometry(q.view({1, 2, 1, 2, 6}), {1, 2, 1, 2, 6}, {4, 2, 2, 1, 4}, 0);
  const Tensor t = mt::zeros({2, 3}).t();
  expect_geometry(t.view({3, 1, 2}), {3, 1, 2}, {1, 6, 3}, 0);
  expect_geometry(t.view({1, 3, 2, 1}), {1, 3, 2, 1}, {3, 1, 3, 3}, 0);
  // A size-1 dim with an odd stride never breaks a run.
  const Tensor odd = mt::zeros({4, 1, 3}).as_strided({4, 1, 3}, {3, 100, 1});
  expect_geometry(odd.view({2, 2, 3}), {2, 2, 3}, {6, 3, 1}, 0);
  expect_geometry(odd.view({4, 3, 1}), {4, 3, 1}, {3, 1, 1}, 0);
  expect_geometry(odd.view({12}), {12}, {1}, 0);
  // Values: a view reads the source in its logical row-major order.
  EXPECT_EQ(values(stepped.view({2, 6})), values(stepped));
  EXPECT_EQ(values(xt.view({2, 4, 3, 1})), values(xt));
}

TEST(ViewsReshape, ViewOfZeroDimAndEmptyTensors) {
  const Tensor s = mt::tensor(5.f);
  expect_geometry(s.view({1, 1}), {1, 1}, {1, 1}, 0);
  expect_geometry(s.view({-1}), {1}, {1}, 0);
  expect_geometry(s.view({}), {}, {}, 0);
  EXPECT_EQ(s.view({1, 1}).item<float>(), 5.f);
  expect_geometry(mt::zeros({0, 3}).view({3, 0}), {3, 0}, {1, 1}, 0);
  expect_geometry(mt::zeros({0, 3}).view({-1}), {0}, {1}, 0);
  expect_geometry(mt::zeros({0, 3}).slice(1, 0, std::nullopt, 2).view({2, 0}), {2, 0}, {1, 1}, 0);
  expect_geometry(mt::zeros({3, 0}).t().view({0, 3}), {0, 3}, {1, 1}, 0);  // same shape keeps strides
}

TEST(ViewsReshape, ViewWorksForEveryDtypeAndOnMeta) {
  for (ScalarType dt : kEveryDtype) {
    const Tensor x = iota({3, 4}, dt);
    const Tensor v = x.t().view({4, 3, 1});
    expect_geometry(v, {4, 3, 1}, {1, 4, 4}, 0);
    EXPECT_EQ(v.dtype(), dt);
    EXPECT_EQ(values(v), reference({4, 3, 1}, [&](const Coords& c) { return at(x, {c[1], c[0]}); }));
  }
  const Tensor m = mt::empty({2, 3, 4}, meta_options(kFloat16));
  const Tensor mv = m.transpose(1, 2).view({2, 4, 3, 1});
  EXPECT_TRUE(mv.is_meta());
  EXPECT_EQ(mv.dtype(), kFloat16);
  expect_geometry(mv, {2, 4, 3, 1}, {12, 1, 4, 4}, 0);
  expect_view_of(mv, m);
}

TEST(ViewsReshape, ViewErrors) {
  const Tensor x = iota({2, 3, 4});
  expect_error<RuntimeError>([&] { x.view({-1, -1}); }, "only one dimension can be inferred");
  expect_error<RuntimeError>([&] { x.view({5, -1}); }, "shape '[5, -1]' is invalid for input of size 24");
  expect_error<RuntimeError>([&] { x.view({0, -1}); }, "shape '[0, -1]' is invalid for input of size 24");
  expect_error<RuntimeError>([&] { x.view({7}); }, "shape '[7]' is invalid for input of size 24");
  expect_error<RuntimeError>([&] { x.view({-2, 12}); }, "invalid shape dimension -2");
  expect_error<RuntimeError>([] { mt::zeros({0, 3}).view({-1, 0}); },
                             "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified "
                             "dimension size -1 can be any value and is ambiguous");
  const std::string incompatible =
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
      "contiguous subspaces). Use .reshape(...) instead.";
  expect_error<RuntimeError>([&] { x.transpose(0, 1).view({24}); }, incompatible);
  expect_error<RuntimeError>([&] { x.transpose(1, 2).view({2, 12}); }, incompatible);
  expect_error<RuntimeError>([&] { x.expand({2, 2, 3, 4}).view({4, 12}); }, incompatible);
  expect_error<RuntimeError>([] { mt::zeros({4, 6}).slice(1, 0, 3).view({12}); }, incompatible);
  expect_error<RuntimeError>([] { mt::empty({4, 6}, meta_options()).slice(0, 0, std::nullopt, 2).view({12}); },
                             incompatible);
}

TEST(ViewsReshape, ReshapeCopiesOnlyWhenItMust) {
  const Tensor x = iota({2, 3, 4});
  const Tensor r = x.reshape({6, 4});
  expect_view_of(r, x);
  expect_geometry(r, {6, 4}, {4, 1}, 0);
  const Tensor xt = x.transpose(1, 2);
  const Tensor viewable = mt::reshape(xt, {2, 4, 3, 1});
  expect_view_of(viewable, x);
  expect_geometry(viewable, {2, 4, 3, 1}, {12, 1, 4, 4}, 0);
  const Tensor copied = xt.reshape({2, 12});
  EXPECT_FALSE(same_storage(copied, x));
  expect_geometry(copied, {2, 12}, {12, 1}, 0);
  EXPECT_EQ(values(copied), values(xt));
  expect_geometry(x.reshape({-1}), {24}, {1}, 0);
  expect_geometry(mt::tensor(1.f).reshape({-1}), {1}, {1}, 0);
  expect_geometry(mt::zeros({2, 0}).t().reshape({-1}), {0}, {1}, 0);
  expect_geometry(mt::zeros({2, 0}).t().reshape({2, 0}), {2, 0}, {1, 1}, 0);
  expect_error<RuntimeError>([&] { x.reshape({5, -1}); }, "shape '[5, -1]' is invalid for input of size 24");
  expect_error<RuntimeError>([] { mt::zeros({2, 0}).reshape({0, -1}); }, "can be any value and is ambiguous");
  // On Meta the copy is a shape-only allocation.
  const Tensor m = mt::empty({2, 3, 4}, meta_options()).transpose(1, 2).reshape({2, 12});
  EXPECT_TRUE(m.is_meta());
  expect_geometry(m, {2, 12}, {12, 1}, 0);
  // reshape_as and view_as take the other tensor's shape.
  expect_geometry(x.reshape_as(mt::zeros({4, 6})), {4, 6}, {6, 1}, 0);
  expect_view_of(x.view_as(mt::zeros({24})), x);
}

TEST(ViewsReshape, FlattenMergesDimsAndCopiesOnlyWhenItMust) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.flatten(), {24}, {1}, 0);
  expect_view_of(x.flatten(), x);
  expect_geometry(mt::flatten(x, 1), {2, 12}, {12, 1}, 0);
  EXPECT_TRUE(x.flatten(1, 1).is_same(x)) << "flattening one dim returns self";
  expect_geometry(mt::tensor(1.f).flatten(), {1}, {1}, 0);
  const Tensor xt = x.transpose(0, 1);  // (3, 2, 4) strides (4, 12, 1)
  const Tensor a = xt.flatten(1), b = xt.flatten(0, 1);
  expect_geometry(a, {3, 8}, {8, 1}, 0);
  expect_geometry(b, {6, 4}, {4, 1}, 0);
  EXPECT_FALSE(same_storage(a, x));
  EXPECT_EQ(values(a), values(xt));
  EXPECT_EQ(values(b), values(xt));
  expect_geometry(x.flatten(-2, -1), {2, 12}, {12, 1}, 0);
  expect_error<RuntimeError>([&] { x.flatten(2, 1); }, "flatten() has invalid args: start_dim cannot come after end_dim");
  expect_error<RuntimeError>([&] { x.flatten(-1, -3); }, "start_dim cannot come after end_dim");
  expect_error<IndexError>([&] { x.flatten(0, 3); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<IndexError>([] { mt::tensor(1.f).flatten(1, 0); }, "expected to be in range of [-1, 0], but got 1");
}

TEST(ViewsReshape, UnflattenSplitsOneDim) {
  const Tensor x = iota({2, 3, 4});
  const Tensor u = x.unflatten(2, {2, 2});
  expect_view_of(u, x);
  expect_geometry(u, {2, 3, 2, 2}, {12, 4, 2, 1}, 0);
  expect_geometry(mt::unflatten(x, -1, {-1, 2}), {2, 3, 2, 2}, {12, 4, 2, 1}, 0);
  expect_geometry(x.transpose(1, 2).unflatten(1, {2, 2}), {2, 2, 2, 3}, {12, 2, 1, 4}, 0);
  expect_geometry(mt::zeros({2, 0}).unflatten(1, {0, 5}), {2, 0, 5}, {5, 5, 1}, 0);
  EXPECT_EQ(values(u), values(x));
  expect_error<RuntimeError>([&] { x.unflatten(2, {3, 2}); },
                             "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 2 (4) in the input tensor");
  expect_error<RuntimeError>([&] { x.unflatten(2, {3, -1}); }, "Provided sizes [3, -1] don't multiply up");
  expect_error<RuntimeError>([&] { x.unflatten(2, {0, -1}); }, "Provided sizes [0, -1] don't multiply up");
  expect_error<RuntimeError>([&] { x.unflatten(2, {}); }, "unflatten: sizes must be non-empty");
  expect_error<RuntimeError>([&] { x.unflatten(2, {-1, -1}); }, "only one dimension can be inferred");
  expect_error<RuntimeError>([&] { x.unflatten(2, {-2, 2}); }, "invalid shape dimension -2");
  expect_error<RuntimeError>([] { mt::zeros({2, 0}).unflatten(1, {0, -1}); },
                             "cannot reshape tensor of 0 elements into shape [0, -1]");
  expect_error<IndexError>([&] { x.unflatten(3, {2, 2}); }, "Dimension out of range");
  expect_error<IndexError>([] { mt::tensor(1.f).unflatten(0, {1}); }, "but tensor has no dimensions");
}

TEST(ViewsReshape, AsStridedReadsTheStorageWithTheGivenGeometry) {
  const Tensor x = iota({2, 3, 4});
  const Tensor a = x.as_strided({3}, {2});
  expect_view_of(a, x);
  EXPECT_EQ(values(a), (std::vector<double>{0, 2, 4}));
  const Tensor row = x[1];
  const Tensor b = mt::as_strided(row, {2}, {1});  // the default offset is self's
  expect_geometry(b, {2}, {1}, 12);
  EXPECT_EQ(values(b), (std::vector<double>{12, 13}));
  EXPECT_EQ(values(x.as_strided({2, 2}, {1, 1})), (std::vector<double>{0, 1, 1, 2}));  // overlapping
  EXPECT_EQ(values(x.as_strided({2}, {5}, 3)), (std::vector<double>{3, 8}));
  expect_geometry(x.as_strided({0}, {100}, 30), {0}, {100}, 30);  // an empty view reads nothing
  expect_geometry(x.as_strided({}, {}, 23), {}, {}, 23);
  expect_error<RuntimeError>([&] { x.as_strided({3}, {1, 2}); }, "mismatch in length of strides and shape");
  expect_error<RuntimeError>([&] { x.as_strided({3}, {-1}); },
                             "as_strided: Negative strides are not supported at the moment, got strides: [-1]");
  expect_error<RuntimeError>([&] { x.as_strided({3}, {10}, -1); }, "Tensor: invalid storage offset -1");
  expect_error<RuntimeError>([&] { x.as_strided({-3}, {1}); }, "Trying to create tensor with negative dimension -3");
  expect_error<RuntimeError>([&] { x.as_strided({3}, {10}, 5); },
                             "setStorage: sizes [3], strides [10], storage offset 5, and itemsize 4 requiring a storage "
                             "size of 104 are out of bounds for storage of size 96");
  expect_error<RuntimeError>([&] { x.as_strided({}, {}, 24); }, "out of bounds for storage of size 96");
  // Byte counts past int64 (which would wrap around to small numbers) are out of bounds too.
  expect_error<RuntimeError>([&] { x.as_strided({2}, {int64_t{1} << 61}); },
                             "setStorage: sizes [2], strides [2305843009213693952], storage offset 0, and itemsize 4 "
                             "requiring a storage size of more than 9223372036854775807 are out of bounds for storage "
                             "of size 96");
  expect_error<RuntimeError>([&] { x.as_strided({3, 3}, {int64_t{1} << 62, 1}); }, "out of bounds for storage of size 96");
  expect_error<RuntimeError>([&] { x.as_strided({2, 2}, {INT64_MAX, INT64_MAX}); }, "out of bounds for storage");
  expect_error<RuntimeError>([&] { x.as_strided({1}, {1}, INT64_MAX); }, "out of bounds for storage of size 96");
  expect_geometry(x.as_strided({0, int64_t{1} << 62}, {1, int64_t{1} << 62}), {0, int64_t{1} << 62},
                  {1, int64_t{1} << 62}, 0);
  const Tensor m = mt::empty({2, 3}, meta_options(kFloat64));
  expect_geometry(m.as_strided({3, 2}, {1, 3}), {3, 2}, {1, 3}, 0);
  expect_error<RuntimeError>([&] { m.as_strided({7}, {1}); }, "out of bounds for storage of size 48");
}

TEST(ViewsReshape, ContiguousReturnsSelfOrADenseCopy) {
  const Tensor x = iota({2, 3, 4});
  EXPECT_TRUE(x.contiguous().is_same(x));
  const Tensor xt = x.transpose(1, 2);
  const Tensor c = xt.contiguous();
  EXPECT_FALSE(same_storage(c, x));
  expect_geometry(c, {2, 4, 3}, {12, 3, 1}, 0);
  EXPECT_EQ(values(c), values(xt));
  for (ScalarType dt : kEveryDtype) {
    const Tensor y = iota({3, 2}, dt).t();
    EXPECT_EQ(values(y.contiguous()), values(y));
    EXPECT_EQ(y.contiguous().dtype(), dt);
  }
  const Tensor m = mt::empty({2, 3}, meta_options()).t().contiguous();
  EXPECT_TRUE(m.is_meta());
  expect_geometry(m, {3, 2}, {2, 1}, 0);
}

TEST(ViewsReshape, ClonePreservesDenseLayoutsLikePyTorch) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.transpose(1, 2).clone(), {2, 4, 3}, {12, 1, 4}, 0);
  expect_geometry(x.slice(2, 0, std::nullopt, 2).clone(), {2, 3, 2}, {6, 2, 1}, 0);
  expect_geometry(x.slice(2, 0, std::nullopt, 2).transpose(0, 2).clone(), {2, 3, 2}, {1, 2, 6}, 0);
  expect_geometry(x.slice(1, 0, 1).expand({2, 3, 4}).clone(), {2, 3, 4}, {12, 4, 1}, 0);
  expect_geometry(mt::zeros({3, 1}).as_strided({3, 1}, {1, 7}).clone(), {3, 1}, {1, 7}, 0);
  expect_geometry(mt::zeros({3, 0}).t().clone(), {0, 3}, {1, 1}, 0);
  expect_geometry(mt::zeros({4, 1}).t().clone(), {1, 4}, {1, 1}, 0);
  expect_geometry(mt::zeros({4, 2}).as_strided({4, 2}, {1, 4}).clone(), {4, 2}, {1, 4}, 0);
  expect_geometry(mt::zeros({4, 3, 2}).permute({1, 0, 2}).clone(), {3, 4, 2}, {2, 6, 1}, 0);
  expect_geometry(mt::zeros({4, 1, 2}).as_strided({4, 1, 2}, {2, 5, 1}).clone(), {4, 1, 2}, {2, 5, 1}, 0);
  // Broadcast (stride 0) dims say nothing about order: the other dims keep theirs around them.
  const Tensor storage = mt::zeros({100});
  struct Case {
    std::vector<int64_t> sizes, strides, expected;
  };
  for (const Case& c : std::vector<Case>{{{3, 5, 4}, {1, 0, 3}, {1, 3, 15}},
                                         {{2, 5, 3}, {1, 0, 2}, {1, 2, 10}},
                                         {{4, 2, 3}, {0, 1, 2}, {6, 1, 2}},
                                         {{3, 2, 2}, {2, 0, 1}, {4, 2, 1}},
                                         {{2, 3, 2}, {1, 0, 2}, {1, 2, 6}},
                                         {{2, 2, 2, 2}, {8, 0, 1, 2}, {8, 4, 1, 2}},
                                         {{3, 1, 2}, {1, 0, 3}, {1, 0, 3}},
                                         {{2, 3}, {3, 2}, {3, 1}},
                                         {{2, 2, 3}, {0, 0, 0}, {6, 3, 1}}}) {
    expect_geometry(storage.as_strided(c.sizes, c.strides).clone(), c.sizes, c.expected, 0);
  }
  for (ScalarType dt : kEveryDtype) {
    const Tensor y = iota({3, 4}, dt);
    const Tensor src = y.slice(1, 1, std::nullopt, 2).t();
    const Tensor c = mt::clone(src);
    EXPECT_FALSE(same_storage(c, y));
    EXPECT_EQ(c.dtype(), dt);
    EXPECT_EQ(values(c), values(src));
  }
  // The copy is independent of its source.
  Tensor c = x.clone();
  c.data_ptr<float>()[0] = 100;
  EXPECT_EQ(element(x, 0), 0);
  const Tensor m = mt::empty({2, 3}, meta_options(kBFloat16)).t().clone();
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dtype(), kBFloat16);
  expect_geometry(m, {3, 2}, {1, 3}, 0);
}

}  // namespace
