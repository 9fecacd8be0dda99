// roll, rot90, tile, broadcast_to, swapaxes/swapdims, the diagonal family, narrow_copy, take_along_dim,
// broadcast_tensors and meshgrid on
// hand-worked values, their edge cases (whole turns and empty inputs still copy) and their errors, in
// PyTorch's words. Their elements in every dtype, layouts, derivatives, vmap, Meta and CUDA are their OpInfo
// rows' (tests/opinfo/shape_table.cpp, indexing_table.cpp).
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "ops/api/arange.h"
#include "ops/api/broadcast_tensors.h"
#include "ops/api/broadcast_to.h"
#include "ops/api/diag.h"
#include "ops/api/diag_embed.h"
#include "ops/api/diagflat.h"
#include "ops/api/empty.h"
#include "ops/api/meshgrid.h"
#include "ops/api/narrow_copy.h"
#include "ops/api/roll.h"
#include "ops/api/rot90.h"
#include "ops/api/swapaxes.h"
#include "ops/api/swapdims.h"
#include "ops/api/take_along_dim.h"
#include "ops/api/tile.h"
#include "reference.h"

namespace {

using mt::Tensor;
using mt::testing::expect_error;
using mt::testing::expect_values_near;

Tensor numbered(std::vector<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return mt::arange(n, mt::TensorOptions(mt::kFloat32)).view(sizes);
}

TEST(ShapeMovement, RollMovesElementsForwardAndWraps) {
  expect_values_near(mt::roll(numbered({5}), {2}), {3, 4, 0, 1, 2}, 0);
  expect_values_near(mt::roll(numbered({5}), {-7}), {2, 3, 4, 0, 1}, 0);
  // [[0, 1, 2], [3, 4, 5]] flattened, rolled by 1, keeps its shape.
  const Tensor flat = mt::roll(numbered({2, 3}), {1});
  EXPECT_EQ(flat.sizes(), mt::IntArrayRef({2, 3}));
  expect_values_near(flat, {5, 0, 1, 2, 3, 4}, 0);
  expect_values_near(mt::roll(numbered({2, 3}), {1, 1}, {0, 1}), {5, 3, 4, 2, 0, 1}, 0);
}

TEST(ShapeMovement, RollByWholeTurnsAndOfEmptyTensorsStillCopies) {
  const Tensor x = numbered({2, 3});
  for (const Tensor& r : {mt::roll(x, {6}), mt::roll(x, {2, 3}, {0, 1}), mt::roll(x, {0}, {1})}) {
    EXPECT_NE(r.data_ptr(), x.data_ptr());
    expect_values_near(r, {0, 1, 2, 3, 4, 5}, 0);
  }
  const Tensor empty = mt::empty({0, 3});
  EXPECT_EQ(mt::roll(empty, {1}, {1}).sizes(), mt::IntArrayRef({0, 3}));
  EXPECT_EQ(mt::roll(empty, {1}).sizes(), mt::IntArrayRef({0, 3}));
}

TEST(ShapeMovement, RollErrors) {
  const Tensor x = numbered({2, 3});
  expect_error<mt::RuntimeError>([&] { mt::roll(x, {}); }, "`shifts` required");
  expect_error<mt::RuntimeError>([&] { mt::roll(x, {1, 2}); }, "shifts and dimensions must align. shifts: 2, dims:0");
  expect_error<mt::RuntimeError>([&] { mt::roll(x, {1, 2}, {0}); },
                                 "shifts and dimensions must align. shifts: 2, dims:1");
  expect_error<mt::IndexError>([&] { mt::roll(x, {1}, {2}); }, "Dimension out of range");
}

TEST(ShapeMovement, Rot90TurnsFromTheFirstDimTowardsTheSecond) {
  // [[0, 1, 2], [3, 4, 5]] turned once is [[2, 5], [1, 4], [0, 3]], as numpy.rot90.
  const Tensor x = numbered({2, 3});
  expect_values_near(mt::rot90(x), {2, 5, 1, 4, 0, 3}, 0);
  expect_values_near(mt::rot90(x, 2), {5, 4, 3, 2, 1, 0}, 0);
  expect_values_near(mt::rot90(x, 3), {3, 0, 4, 1, 5, 2}, 0);
  expect_values_near(mt::rot90(x, 1, {1, 0}), mt::testing::values(mt::rot90(x, -1)), 0);
  const Tensor same = mt::rot90(x, 4);
  EXPECT_NE(same.data_ptr(), x.data_ptr());
  expect_values_near(same, {0, 1, 2, 3, 4, 5}, 0);
}

TEST(ShapeMovement, Rot90Errors) {
  const Tensor x = numbered({2, 3});
  expect_error<mt::RuntimeError>([&] { mt::rot90(x, 1, {0}); }, "expected total rotation dims == 2, but got dims = 1");
  expect_error<mt::RuntimeError>([&] { mt::rot90(numbered({3}), 1, {0, 1}); },
                                 "expected total dims >= 2, but got total dims = 1");
  expect_error<mt::RuntimeError>([&] { mt::rot90(x, 1, {1, 1}); },
                                 "expected rotation dims to be different, but got dim0 = 1 and dim1 = 1");
  expect_error<mt::RuntimeError>([&] { mt::rot90(x, 1, {0, -2}); },
                                 "expected rotation dims to be different, but got dim0 = 0 and dim1 = -2");
  expect_error<mt::RuntimeError>([&] { mt::rot90(x, 1, {3, 0}); }, "Rotation dim0 out of range, dim0 = 3");
  expect_error<mt::RuntimeError>([&] { mt::rot90(x, 1, {0, -3}); }, "Rotation dim1 out of range, dim1 = -3");
}

TEST(ShapeMovement, TilePadsTheRepetitionsWithLeadingOnes) {
  const Tensor x = numbered({2, 2});
  const Tensor wide = mt::tile(x, {2});
  EXPECT_EQ(wide.sizes(), mt::IntArrayRef({2, 4}));
  expect_values_near(wide, {0, 1, 0, 1, 2, 3, 2, 3}, 0);
  EXPECT_EQ(mt::tile(numbered({3}), {2, 2}).sizes(), mt::IntArrayRef({2, 6}));
  const Tensor copy = mt::tile(x, {});
  EXPECT_NE(copy.data_ptr(), x.data_ptr());
  expect_values_near(copy, {0, 1, 2, 3}, 0);
}

TEST(ShapeMovement, BroadcastToAndSwapaxesAreViews) {
  const Tensor x = numbered({3, 1});
  const Tensor b = mt::broadcast_to(x, {2, 3, 4});
  EXPECT_EQ(b.data_ptr(), x.data_ptr());
  EXPECT_EQ(b.strides(), mt::IntArrayRef({0, 1, 0}));
  expect_error<mt::RuntimeError>([&] { mt::broadcast_to(x, {2, 4}); },
                                 "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
                                 "dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 1]");
  const Tensor y = numbered({2, 3, 4});
  const Tensor s = mt::swapaxes(y, 0, 2);
  EXPECT_EQ(s.data_ptr(), y.data_ptr());
  EXPECT_EQ(s.sizes(), mt::IntArrayRef({4, 3, 2}));
  EXPECT_EQ(mt::swapdims(y, -1, 1).sizes(), mt::IntArrayRef({2, 4, 3}));
  expect_error<mt::IndexError>([&] { mt::swapaxes(y, 0, 3); }, "Dimension out of range");
}

TEST(ShapeMovement, DiagonalFamilyPlacesValuesOnTheOffsetDiagonal) {
  // [0, 1] on the diagonal one below the main one: [[0, 0, 0], [0, 0, 0], [0, 1, 0]] with row 1 = x[0].
  expect_values_near(mt::diag(numbered({2}), -1), {0, 0, 0, 0, 0, 0, 0, 1, 0}, 0);
  expect_values_near(mt::diag(numbered({2, 3}), 1), {1, 5}, 0);
  expect_values_near(mt::diag(numbered({2, 3}), 5), {}, 0);  // past the corner: empty
  expect_values_near(mt::diagflat(numbered({2})), {0, 0, 0, 1}, 0);
  const Tensor embedded = mt::diag_embed(numbered({2}), 0, 0, 1);
  expect_values_near(embedded, {0, 0, 0, 1}, 0);
  EXPECT_EQ(mt::diag_embed(numbered({4, 2}), 1).sizes(), mt::IntArrayRef({4, 3, 3}));
  // Infinities and NaN stay on the diagonal: the zeros are not products.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(mt::testing::values(mt::diag(mt::tensor({inf, -inf}))), (std::vector<double>{inf, 0, 0, -inf}));
  EXPECT_EQ(mt::diag(mt::tensor({true, true})).dtype(), mt::kBool);
  const Tensor copied = mt::diag(numbered({2, 2}));
  EXPECT_NE(copied.data_ptr(), numbered({2, 2}).data_ptr());
  expect_error<mt::RuntimeError>([&] { mt::diag(numbered({2, 2, 2})); }, "diag(): Supports 1D or 2D tensors. Got 3D");
  expect_error<mt::RuntimeError>([&] { mt::diag_embed(numbered({2}), 0, 1, -1); },
                                 "diagonal dimensions cannot be identical 1, -1");
  expect_error<mt::IndexError>([&] { mt::diag_embed(numbered({2}), 0, 2, 0); }, "Dimension out of range");
}

TEST(ShapeMovement, NarrowCopyIsANewContiguousTensor) {
  const Tensor x = numbered({3, 4});
  const Tensor rows = mt::narrow_copy(x, 0, 1, 2);
  EXPECT_NE(rows.data_ptr(), x.data_ptr());
  expect_values_near(rows, {4, 5, 6, 7, 8, 9, 10, 11}, 0);
  const Tensor cols = mt::narrow_copy(x.t(), 1, 1, 1);
  EXPECT_TRUE(cols.is_contiguous());
  expect_values_near(cols, {4, 5, 6, 7}, 0);
  expect_error<mt::IndexError>([&] { mt::narrow_copy(x, 2, 0, 1); }, "Dimension out of range");
}

TEST(ShapeMovement, TakeAlongDimBroadcastsAndChecksItsInputs) {
  const Tensor x = numbered({2, 3});
  // The largest element of each row, as x.argmax(1, keepdim) picks it.
  expect_values_near(mt::take_along_dim(x, mt::tensor({{2L}, {2L}}), 1), {2, 5}, 0);
  // An index of one row broadcasts over x's rows; x broadcasts over the index's columns.
  expect_values_near(mt::take_along_dim(x, mt::tensor({{0L, 2L}}), 1), {0, 2, 3, 5}, 0);
  expect_values_near(mt::take_along_dim(numbered({2, 1}), mt::tensor({{0L, 0L, 0L}}), 1), {0, 0, 0, 1, 1, 1}, 0);
  expect_error<mt::RuntimeError>([&] { mt::take_along_dim(x, mt::tensor({0L}), 1); },
                                 "torch.take_along_dim(): input and indices should have the same number of dimensions, "
                                 "but got 2 dimensions for input, and 1 dimensions for indices");
  expect_error<mt::RuntimeError>([&] { mt::take_along_dim(x, mt::tensor({{0L}}).to(mt::kInt32), 1); },
                                 "torch.take_along_dim(): dtype of indices should be Long but got mt.int32");
  expect_error<mt::RuntimeError>([&] { mt::take_along_dim(x, mt::tensor({{0L}, {0L}, {0L}}), 1); },
                                 "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
                                 "dimension 0");
}

TEST(ShapeMovement, BroadcastTensorsExpandsEveryTensorToTheCommonShape) {
  const Tensor a = numbered({3, 1}), b = numbered({4}), c = mt::tensor(7.0f);
  const std::vector<Tensor> out = mt::broadcast_tensors({a, b, c});
  ASSERT_EQ(out.size(), 3u);
  for (const Tensor& t : out) EXPECT_EQ(t.sizes(), mt::IntArrayRef({3, 4}));
  EXPECT_EQ(out[0].data_ptr(), a.data_ptr());  // views
  expect_values_near(out[0], {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, 0);
  expect_values_near(out[1], {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, 0);
  expect_values_near(out[2], std::vector<double>(12, 7), 0);
  EXPECT_TRUE(mt::broadcast_tensors({}).empty());
  expect_error<mt::RuntimeError>([&] { mt::broadcast_tensors({a, b, numbered({2})}); },
                                 "The size of tensor a (4) must match the size of tensor b (2) at non-singleton "
                                 "dimension 1");
}

TEST(ShapeMovement, MeshgridIndexesIjOrXy) {
  const Tensor x = numbered({3}), y = numbered({2}).add(10);
  const std::vector<Tensor> ij = mt::meshgrid({x, y});  // "ij" by default, as torch::meshgrid
  EXPECT_EQ(ij[0].sizes(), mt::IntArrayRef({3, 2}));
  expect_values_near(ij[0], {0, 0, 1, 1, 2, 2}, 0);
  expect_values_near(ij[1], {10, 11, 10, 11, 10, 11}, 0);
  EXPECT_EQ(ij[0].data_ptr(), x.data_ptr());
  const std::vector<Tensor> xy = mt::meshgrid({x, y}, "xy");
  EXPECT_EQ(xy[0].sizes(), mt::IntArrayRef({2, 3}));
  expect_values_near(xy[0], {0, 1, 2, 0, 1, 2}, 0);
  expect_values_near(xy[1], {10, 10, 10, 11, 11, 11}, 0);
  // A 0-d tensor counts as one value; three tensors grid three dims.
  const std::vector<Tensor> three = mt::meshgrid({x, mt::tensor(5.0f), y}, "ij");
  EXPECT_EQ(three[1].sizes(), mt::IntArrayRef({3, 1, 2}));
  expect_error<mt::RuntimeError>([&] { mt::meshgrid({}); }, "meshgrid expects a non-empty TensorList");
  expect_error<mt::RuntimeError>([&] { mt::meshgrid({x, y}, "ji"); },
                                 "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ji");
  expect_error<mt::RuntimeError>([&] { mt::meshgrid({x, numbered({2, 2})}); },
                                 "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of size "
                                 "[2, 2]");
  expect_error<mt::RuntimeError>([&] { mt::meshgrid({x, x.to(mt::kFloat64)}); },
                                 "meshgrid expects all tensors to have the same dtype");
}

TEST(ShapeMovement, MethodsAreTheFunctions) {
  const Tensor x = numbered({3, 4});
  EXPECT_EQ(mt::testing::values(x.diag(1)), mt::testing::values(mt::diag(x, 1)));
  EXPECT_EQ(mt::testing::values(x.diagflat(-1)), mt::testing::values(mt::diagflat(x, -1)));
  EXPECT_EQ(x.diag_embed().sizes(), mt::IntArrayRef({3, 4, 4}));
  EXPECT_EQ(mt::testing::values(x.narrow_copy(1, 1, 2)), mt::testing::values(mt::narrow_copy(x, 1, 1, 2)));
  EXPECT_EQ(mt::testing::values(x.take_along_dim(mt::tensor({{1L}}), 1)), (std::vector<double>{1, 5, 9}));
  EXPECT_EQ(x.moveaxis(0, 1).sizes(), mt::IntArrayRef({4, 3}));
  EXPECT_EQ(x.mT().data_ptr(), x.data_ptr());
  EXPECT_EQ(x.mH().strides(), mt::IntArrayRef({1, 4}));
  EXPECT_EQ(x.adjoint().sizes(), mt::IntArrayRef({4, 3}));
  expect_error<mt::RuntimeError>([&] { numbered({3}).mT(); },
                                 "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
  expect_error<mt::RuntimeError>([&] { numbered({3}).adjoint(); },
                                 "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.");
}

}  // namespace
