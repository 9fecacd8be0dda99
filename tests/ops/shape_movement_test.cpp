// roll, rot90, tile, broadcast_to and swapaxes/swapdims on hand-worked values, their edge cases (whole
// turns and empty inputs still copy) and their errors, in PyTorch's words. Their elements in every dtype,
// layouts, derivatives, vmap, Meta and CUDA are their OpInfo rows' (tests/opinfo/shape_table.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "ops/api/arange.h"
#include "ops/api/broadcast_to.h"
#include "ops/api/empty.h"
#include "ops/api/roll.h"
#include "ops/api/rot90.h"
#include "ops/api/swapaxes.h"
#include "ops/api/swapdims.h"
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

}  // namespace
