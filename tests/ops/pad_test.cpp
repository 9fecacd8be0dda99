// pad in constant mode against hand-worked and naive results (several dims, negative padding that crops,
// a fill value, integer dtypes, a copy even where nothing is padded), the border modes on 4- and 5-D
// inputs, derivatives, vmap, Meta, and the errors. The border modes' elements are their OpInfo rows'
// (tests/opinfo/shape_table.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "autograd/Gradcheck.h"
#include "functorch/vmap_test_helpers.h"
#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/pad.h"
#include "ops/api/randn.h"
#include "reference.h"

namespace {

using mt::Tensor;
using mt::testing::expect_error;
using mt::testing::values;
using Ints = std::vector<int64_t>;

Tensor numbered(Ints sizes, mt::ScalarType dtype = mt::kFloat32) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return mt::arange(n, mt::TensorOptions(dtype)).view(sizes) + 1;
}

TEST(Pad, ConstantPaddingSurroundsTheInputWithTheValue) {
  const Tensor x = numbered({2, 3});
  EXPECT_EQ(values(mt::pad(x, {1, 2})), (std::vector<double>{0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0, 0}));
  EXPECT_EQ(values(mt::pad(x, {0, 0, 1, 0}, "constant", 7.5)),
            (std::vector<double>{7.5, 7.5, 7.5, 1, 2, 3, 4, 5, 6}));
  const Tensor p = mt::pad(x, {1, 1, 1, 1});
  EXPECT_EQ(p.sizes().vec(), (Ints{4, 5}));
  EXPECT_EQ(values(p), (std::vector<double>{0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0}));
  // Negative amounts crop.
  EXPECT_EQ(values(mt::pad(x, {-1, 1})), (std::vector<double>{2, 3, 0, 5, 6, 0}));
  EXPECT_EQ(values(mt::pad(x, {0, -2, -1, 0})), (std::vector<double>{4}));
  const Tensor ints = mt::pad(numbered({3}, mt::kInt64), {2, 0}, "constant", 9);
  EXPECT_EQ(ints.dtype(), mt::kInt64);
  EXPECT_EQ(values(ints), (std::vector<double>{9, 9, 1, 2, 3}));
  // Nothing padded still gives a new tensor.
  const Tensor same = mt::pad(x, {0, 0});
  EXPECT_NE(same.data_ptr(), x.data_ptr());
  EXPECT_EQ(values(same), values(x));
}

TEST(Pad, BorderModesPadTheTrailingDimsOfBatchesOfImagesAndVolumes) {
  const Tensor images = numbered({2, 2, 3, 3});
  const Tensor r = mt::pad(images, {1, 1, 2, 0}, "reflect");
  EXPECT_EQ(r.sizes().vec(), (Ints{2, 2, 5, 5}));
  // Image 0, channel 0 is [[1 2 3] [4 5 6] [7 8 9]]; its reflected row -2 is row 2, row -1 is row 1.
  EXPECT_EQ(values(r.select(0, 0).select(0, 0).select(0, 0)), (std::vector<double>{8, 7, 8, 9, 8}));
  EXPECT_EQ(values(r.select(0, 0).select(0, 0).select(0, 2)), (std::vector<double>{2, 1, 2, 3, 2}));
  const Tensor volume = numbered({1, 2, 2, 2});  // [C, D, H, W] without a batch
  const Tensor c = mt::pad(volume, {1, 0, 0, 0, 0, 1}, "circular");
  EXPECT_EQ(c.sizes().vec(), (Ints{1, 3, 2, 3}));
  EXPECT_EQ(values(c.select(0, 0).select(0, 2).select(0, 0)), (std::vector<double>{2, 1, 2}));  // depth 2 is 0
  EXPECT_EQ(values(mt::pad(numbered({1, 1, 2, 2, 2}), {1, 1, 1, 1, 1, 1}, "replicate")).front(), 1);
}

TEST(Pad, DifferentiatesAndVmapsInEveryMode) {
  const Tensor x = mt::randn({1, 2, 3, 4}, mt::TensorOptions(mt::kFloat64)).requires_grad_();
  for (const char* mode : {"constant", "reflect", "replicate", "circular"}) {
    const auto f = [&](const mt::autograd::variable_list& v) { return mt::pad(v[0], {2, 1, 1, 2}, mode); };
    EXPECT_TRUE(mt::autograd::gradcheck(f, {x})) << mode;
    EXPECT_TRUE(mt::autograd::gradgradcheck(f, {x})) << mode;
    const mt_test::Fn g = [&](const std::vector<Tensor>& v) { return mt::pad(v[0], {1, 2, 2, 1}, mode); };
    mt_test::expect_vmap_matches_loop(g, {mt::randn({4, 2, 3, 4})}, {0});
    mt_test::expect_vmap_matches_loop(g, {mt::randn({2, 3, 4, 4})}, {3});
  }
}

TEST(Pad, MetaAndErrors) {
  const Tensor m = mt::pad(mt::empty({2, 3, 4, 5}, mt::TensorOptions(mt::Device("meta"))), {1, 2, 3, 0}, "reflect");
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes().vec(), (Ints{2, 3, 7, 8}));
  const Tensor x = numbered({1, 2, 3});
  expect_error<mt::RuntimeError>([&] { mt::pad(x, {1}); }, "Padding length must be divisible by 2");
  expect_error<mt::RuntimeError>([&] { mt::pad(x, {1, 1, 1, 1, 1, 1, 1, 1}); },
                                 "Padding length should be less than or equal to two times the input dimension");
  expect_error<mt::RuntimeError>([&] { mt::pad(x, {3, 0}, "reflect"); },
                                 "Padding size should be less than the corresponding input dimension, but got: "
                                 "padding (3, 0) at dimension 2 of input [1, 2, 3]");
  expect_error<mt::RuntimeError>([&] { mt::pad(x, {4, 0}, "circular"); },
                                 "Padding value causes wrapping around more than once.");
  expect_error<mt::RuntimeError>([&] { mt::pad(x, {1, 0}, "reflect", 2.0); },
                                 "Padding mode \"reflect\" doesn't take in value argument");
  expect_error<mt::RuntimeError>([&] { mt::pad(x, {1, 0}, "mirror"); }, "Unrecognised padding mode mirror");
  expect_error<mt::RuntimeError>([&] { mt::pad(x, {-2, -2}); }, "resulted in a negative output size");
  expect_error<mt::NotImplementedError>([&] { mt::pad(numbered({3}), {1, 1}, "replicate"); },
                                        "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
}

}  // namespace
