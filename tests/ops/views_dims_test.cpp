// squeeze, unsqueeze, transpose, t, permute, movedim, expand, expand_as, diagonal: storage sharing,
// strides as PyTorch 1.13 gives them (literals), values against a coordinate-mapping reference, Meta
// tensors, every dtype, and every error.
#include "views_test_util.h"
#include "ops/api/diagonal.h"
#include "ops/api/empty.h"
#include "ops/api/movedim.h"
#include "ops/api/permute.h"
#include "ops/api/squeeze.h"
#include "ops/api/t.h"
#include "ops/api/transpose.h"
#include "ops/api/unsqueeze.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

TEST(ViewsDims, SqueezeRemovesSizeOneDims) {
  const Tensor y = mt::zeros({1, 3, 1, 2});
  expect_geometry(y.squeeze(), {3, 2}, {2, 1}, 0);
  expect_geometry(mt::squeeze(y, 2), {1, 3, 2}, {6, 2, 1}, 0);
  expect_geometry(y.squeeze(-2), {1, 3, 2}, {6, 2, 1}, 0);
  expect_geometry(y.squeeze(1), {1, 3, 1, 2}, {6, 2, 2, 1}, 0);  // not size 1: unchanged, still a view
  expect_view_of(y.squeeze(1), y);
  expect_view_of(y.squeeze(), y);
  expect_geometry(mt::zeros({2, 1, 3}).slice(2, 0, std::nullopt, 2).squeeze(), {2, 2}, {3, 2}, 0);
  expect_geometry(mt::zeros({1, 1}).squeeze(0), {1}, {1}, 0);
  const Tensor s = mt::tensor(3.f);
  expect_geometry(s.squeeze(), {}, {}, 0);
  expect_geometry(s.squeeze(0), {}, {}, 0);
  expect_geometry(s.squeeze(-1), {}, {}, 0);
  const Tensor x = iota({1, 3, 1});
  EXPECT_EQ(values(x.squeeze()), values(x));
  expect_error<IndexError>([&] { y.squeeze(4); }, "Dimension out of range (expected to be in range of [-4, 3], but got 4)");
  expect_error<IndexError>([&] { s.squeeze(1); }, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(ViewsDims, UnsqueezeInsertsADimWithPyTorchsStride) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.unsqueeze(3), {2, 3, 4, 1}, {12, 4, 1, 1}, 0);
  expect_geometry(mt::unsqueeze(x, -1), {2, 3, 4, 1}, {12, 4, 1, 1}, 0);
  expect_geometry(x.unsqueeze(0), {1, 2, 3, 4}, {24, 12, 4, 1}, 0);
  expect_geometry(x.transpose(1, 2).unsqueeze(2), {2, 4, 1, 3}, {12, 1, 12, 4}, 0);
  expect_geometry(x.transpose(1, 2).unsqueeze(3), {2, 4, 3, 1}, {12, 1, 4, 1}, 0);
  expect_geometry(x.slice(2, 0, std::nullopt, 2).unsqueeze(3), {2, 3, 2, 1}, {12, 4, 2, 1}, 0);
  expect_geometry(mt::tensor(1.f).unsqueeze(0), {1}, {1}, 0);
  expect_geometry(mt::tensor(1.f).unsqueeze(-1), {1}, {1}, 0);
  expect_geometry(mt::zeros({2, 0, 3}).unsqueeze(2), {2, 0, 1, 3}, {3, 3, 3, 1}, 0);
  expect_geometry(mt::zeros({2, 0, 3}).unsqueeze(1), {2, 1, 0, 3}, {3, 0, 3, 1}, 0);
  expect_view_of(x.unsqueeze(1), x);
  EXPECT_EQ(values(x.unsqueeze(1)), values(x));
  expect_error<IndexError>([&] { x.unsqueeze(4); }, "Dimension out of range (expected to be in range of [-4, 3], but got 4)");
  expect_error<IndexError>([&] { x.unsqueeze(-5); }, "but got -5");
  expect_error<IndexError>([] { mt::tensor(1.f).unsqueeze(1); }, "expected to be in range of [-1, 0], but got 1");
}

TEST(ViewsDims, TransposeAndTSwapSizesAndStrides) {
  for (ScalarType dt : kEveryDtype) {
    const Tensor x = iota({2, 3, 4}, dt);
    const Tensor tr = mt::transpose(x, 0, -1);
    expect_view_of(tr, x);
    expect_geometry(tr, {4, 3, 2}, {1, 4, 12}, 0);
    EXPECT_EQ(values(tr), reference({4, 3, 2}, [&](const Coords& c) { return at(x, {c[2], c[1], c[0]}); }));
  }
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.transpose(1, 1), {2, 3, 4}, {12, 4, 1}, 0);
  expect_geometry(mt::tensor(1.f).transpose(0, -1), {}, {}, 0);
  const Tensor m = iota({2, 3});
  expect_geometry(m.t(), {3, 2}, {1, 3}, 0);
  expect_geometry(mt::t(mt::zeros({3})), {3}, {1}, 0);
  expect_geometry(mt::tensor(1.f).t(), {}, {}, 0);
  EXPECT_EQ(values(m.t()), reference({3, 2}, [&](const Coords& c) { return at(m, {c[1], c[0]}); }));
  expect_error<IndexError>([&] { x.transpose(0, 3); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<RuntimeError>([&] { x.t(); }, "t() expects a tensor with <= 2 dimensions, but self is 3D");
}

TEST(ViewsDims, PermuteReordersDims) {
  const Tensor x = iota({2, 3, 4});
  const Tensor p = x.permute({2, 0, 1});
  expect_view_of(p, x);
  expect_geometry(p, {4, 2, 3}, {1, 12, 4}, 0);
  expect_geometry(mt::permute(x, {-1, 0, 1}), {4, 2, 3}, {1, 12, 4}, 0);
  expect_geometry(mt::tensor(1.f).permute({}), {}, {}, 0);
  EXPECT_EQ(values(p), reference({4, 2, 3}, [&](const Coords& c) { return at(x, {c[1], c[2], c[0]}); }));
  expect_error<RuntimeError>([&] { x.permute({2, 0}); },
                             "number of dimensions in the tensor input does not match the length of the desired "
                             "ordering of dimensions i.e. input.dim() = 3 is not equal to len(dims) = 2");
  expect_error<RuntimeError>([&] { x.permute({2, 0, 0}); }, "permute(): duplicate dims are not allowed.");
  expect_error<IndexError>([&] { x.permute({2, 0, 3}); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST(ViewsDims, MovedimMovesDimsAndKeepsTheRestInOrder) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.movedim(0, 2), {3, 4, 2}, {4, 1, 12}, 0);
  expect_geometry(mt::movedim(x, {0, 1}, {2, 0}), {3, 4, 2}, {4, 1, 12}, 0);
  expect_geometry(x.movedim({0, 1, 2}, {2, 0, 1}), {3, 4, 2}, {4, 1, 12}, 0);
  expect_geometry(x.movedim({}, {}), {2, 3, 4}, {12, 4, 1}, 0);
  expect_geometry(x.movedim(-1, 0), {4, 2, 3}, {1, 12, 4}, 0);
  expect_geometry(mt::tensor(1.f).movedim(0, 0), {}, {}, 0);
  expect_view_of(x.movedim(0, 2), x);
  EXPECT_EQ(values(x.movedim(0, 2)), reference({3, 4, 2}, [&](const Coords& c) { return at(x, {c[2], c[0], c[1]}); }));
  expect_error<RuntimeError>([&] { x.movedim({0, 1}, {2}); },
                             "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same "
                             "number of dims as destination ([2] dims)");
  expect_error<RuntimeError>([&] { x.movedim({0, 0}, {2, 1}); }, "movedim: repeated dim in `source` ([0, 0])");
  expect_error<RuntimeError>([&] { x.movedim({0, -3}, {1, 2}); }, "movedim: repeated dim in `source` ([0, -3])");
  expect_error<RuntimeError>([&] { x.movedim({0, 1}, {2, 2}); }, "movedim: repeated dim in `destination` ([2, 2])");
  expect_error<IndexError>([&] { x.movedim(3, 0); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<IndexError>([&] { x.movedim(0, -4); }, "but got -4");
}

TEST(ViewsDims, ExpandBroadcastsWithZeroStrides) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.expand({-1, 3, 4}), {2, 3, 4}, {12, 4, 1}, 0);
  expect_geometry(x.expand({5, -1, 3, 4}), {5, 2, 3, 4}, {0, 12, 4, 1}, 0);
  expect_geometry(x.expand({1, 2, 3, 4}), {1, 2, 3, 4}, {24, 12, 4, 1}, 0);
  expect_geometry(x.expand({1, 1, 2, 3, 4}), {1, 1, 2, 3, 4}, {24, 24, 12, 4, 1}, 0);
  expect_geometry(x.slice(1, 0, 1).expand({1, 2, 3, 4}), {1, 2, 3, 4}, {24, 12, 0, 1}, 0);
  expect_geometry(x.slice(1, 0, 1).expand({2, 0, 4}), {2, 0, 4}, {12, 0, 1}, 0);
  expect_geometry(mt::zeros({1, 3}).as_strided({1, 3}, {7, 1}).expand({1, 2, 3}), {1, 2, 3}, {0, 0, 1}, 0);
  const Tensor s = mt::tensor(5.f);
  expect_geometry(s.expand({1}), {1}, {0}, 0);
  expect_geometry(s.expand({3, 1}), {3, 1}, {0, 0}, 0);
  expect_geometry(s.expand({1, 3}), {1, 3}, {0, 0}, 0);
  expect_geometry(s.expand({}), {}, {}, 0);
  for (ScalarType dt : kEveryDtype) {
    const Tensor col = iota({3, 1}, dt);
    const Tensor e = col.expand({2, 3, 4});
    expect_view_of(e, col);
    EXPECT_EQ(values(e), reference({2, 3, 4}, [&](const Coords& c) { return at(col, {c[1], 0}); }));
  }
  const Tensor m = mt::empty({3, 1}, meta_options()).expand_as(mt::empty({2, 3, 4}, meta_options()));
  EXPECT_TRUE(m.is_meta());
  expect_geometry(m, {2, 3, 4}, {0, 1, 0}, 0);
  expect_error<RuntimeError>([&] { x.expand({3, 4}); },
                             "the number of sizes provided (2) must be greater or equal to the number of dimensions in "
                             "the tensor (3)");
  expect_error<RuntimeError>([&] { x.expand({2, 3, 5}); },
                             "The expanded size of the tensor (5) must match the existing size (4) at non-singleton "
                             "dimension 2.  Target sizes: [2, 3, 5].  Tensor sizes: [2, 3, 4]");
  expect_error<RuntimeError>([&] { x.expand({-1, 2, 3, 4}); },
                             "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
  expect_error<RuntimeError>([&] { x.expand({2, -2, 4}); },
                             "The expanded size of the tensor (-2) must match the existing size (3) at non-singleton "
                             "dimension 1");
  expect_error<RuntimeError>([&] { x.slice(1, 0, 1).expand({2, -2, 4}); },
                             "Trying to create tensor with negative dimension -2: [2, -2, 4]");
  expect_error<RuntimeError>([&] { x.expand_as(mt::zeros({2, 2, 4})); }, "must match the existing size (3)");
}

TEST(ViewsDims, DiagonalViewsADiagonalOfTwoDims) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.diagonal(), {4, 2}, {1, 16}, 0);
  expect_geometry(x.diagonal(1), {4, 2}, {1, 16}, 4);
  expect_geometry(mt::diagonal(x, -1, 1, 2), {2, 2}, {12, 5}, 4);
  expect_geometry(x.diagonal(5, 1, 2), {2, 0}, {12, 5}, 0);
  expect_geometry(x.diagonal(-5, 1, 2), {2, 0}, {12, 5}, 0);
  expect_geometry(x.diagonal(0, 2, 0), {3, 2}, {4, 13}, 0);
  expect_geometry(x.transpose(1, 2).diagonal(1, 1, 2), {2, 2}, {12, 5}, 4);
  expect_view_of(x.diagonal(1, -2, -1), x);
  for (ScalarType dt : kEveryDtype) {
    const Tensor m = iota({3, 4}, dt);
    for (int64_t offset : {-3, -1, 0, 2, 4}) {
      const Tensor d = m.diagonal(offset);
      const int64_t n = std::max<int64_t>(0, offset >= 0 ? std::min<int64_t>(3, 4 - offset) : std::min<int64_t>(3 + offset, 4));
      ASSERT_EQ(d.sizes(), IntArrayRef({n}));
      EXPECT_EQ(values(d), reference({n}, [&](const Coords& c) {
                  return offset >= 0 ? at(m, {c[0], c[0] + offset}) : at(m, {c[0] - offset, c[0]});
                }));
    }
  }
  expect_error<RuntimeError>([&] { x.diagonal(0, 1, 1); }, "diagonal dimensions cannot be identical 1, 1");
  expect_error<RuntimeError>([&] { x.diagonal(0, 1, -2); }, "diagonal dimensions cannot be identical 1, -2");
  expect_error<IndexError>([] { mt::zeros({3}).diagonal(); }, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  expect_error<IndexError>([&] { x.diagonal(0, 3, 0); }, "but got 3");
}

}  // namespace
