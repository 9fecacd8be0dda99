// select (and a[i]), slice, narrow, unbind, split, split_with_sizes, chunk: views at the right offset
// with PyTorch 1.13's strides (literals), values against a coordinate reference, Python's clamping for
// slice bounds, and every error.
#include "views_test_util.h"
#include "ops/api/chunk.h"
#include "ops/api/clamp.h"
#include "ops/api/empty.h"
#include "ops/api/narrow.h"
#include "ops/api/select.h"
#include "ops/api/slice.h"
#include "ops/api/split.h"
#include "ops/api/split_with_sizes.h"
#include "ops/api/unbind.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

struct Geometry {
  std::vector<int64_t> sizes, strides;
  int64_t offset;
};

void expect_pieces(const std::vector<Tensor>& pieces, const Tensor& base, const std::vector<Geometry>& expected) {
  ASSERT_EQ(pieces.size(), expected.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    SCOPED_TRACE(i);
    expect_view_of(pieces[i], base);
    expect_geometry(pieces[i], expected[i].sizes, expected[i].strides, expected[i].offset);
  }
}

TEST(ViewsSlicing, SelectDropsADimAtAnOffset) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.select(1, -3), {2, 4}, {12, 1}, 0);
  expect_geometry(mt::select(x, 2, 3), {2, 3}, {12, 4}, 3);
  expect_geometry(x.slice(1, 1).slice(2, 0, std::nullopt, 2).select(2, -1), {2, 2}, {12, 4}, 6);
  expect_view_of(x.select(0, 1), x);
  for (ScalarType dt : kEveryDtype) {
    const Tensor y = iota({2, 3, 4}, dt);
    EXPECT_EQ(values(y.select(1, 2)), reference({2, 4}, [&](const Coords& c) { return at(y, {c[0], 2, c[1]}); }));
    EXPECT_EQ(values(y.select(-1, -1)), reference({2, 3}, [&](const Coords& c) { return at(y, {c[0], c[1], 3}); }));
  }
  const Tensor m = mt::empty({2, 3}, meta_options()).select(1, 2);
  EXPECT_TRUE(m.is_meta());
  expect_geometry(m, {2}, {3}, 2);
  expect_error<IndexError>([&] { x.select(0, 5); }, "select(): index 5 out of range for tensor of size [2, 3, 4] at dimension 0");
  expect_error<IndexError>([&] { x.select(1, -4); }, "select(): index -4 out of range for tensor of size [2, 3, 4] at dimension 1");
  expect_error<IndexError>([] { mt::zeros({3}).select(0, 5); }, "select(): index 5 out of range for tensor of size [3] at dimension 0");
  expect_error<IndexError>([&] { x.select(3, 0); }, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  expect_error<IndexError>([] { mt::tensor(1.f).select(0, 0); }, "select() cannot be applied to a 0-dim tensor.");
}

TEST(ViewsSlicing, SubscriptIsSelectAlongTheFirstDim) {
  const Tensor x = iota({2, 3, 4});
  const Tensor row = x[1];
  expect_view_of(row, x);
  expect_geometry(row, {3, 4}, {4, 1}, 12);
  expect_geometry(x[1][2], {4}, {1}, 20);
  EXPECT_EQ(x[-1][0][3].item<float>(), 15.f);
  EXPECT_EQ(values(x[0][1]), (std::vector<double>{4, 5, 6, 7}));
  expect_geometry(iota({3, 4}).t()[1], {3}, {4}, 1);
  expect_error<IndexError>([&] { x[2]; }, "select(): index 2 out of range for tensor of size [2, 3, 4] at dimension 0");
  expect_error<IndexError>([] { mt::tensor(1.f)[0]; }, "select() cannot be applied to a 0-dim tensor.");
}

TEST(ViewsSlicing, SliceClampsLikePythonAndSteps) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.slice(2, -100, 100, 3), {2, 3, 2}, {12, 4, 3}, 0);
  expect_geometry(x.slice(2, 3, 1), {2, 3, 0}, {12, 4, 1}, 3);
  expect_geometry(x.slice(2, 5, 10), {2, 3, 0}, {12, 4, 1}, 4);
  expect_geometry(x.slice(2, -1), {2, 3, 1}, {12, 4, 1}, 3);
  expect_geometry(mt::slice(x), {2, 3, 4}, {12, 4, 1}, 0);
  expect_geometry(mt::slice(x, 1, 1, -1), {2, 1, 4}, {12, 4, 1}, 4);
  expect_geometry(x.slice(1, std::nullopt, std::nullopt, 2), {2, 2, 4}, {12, 8, 1}, 0);
  expect_geometry(x.slice(2, 1, 4, 2).slice(2, 1), {2, 3, 1}, {12, 4, 2}, 3);
  expect_view_of(x.slice(0, 1), x);
  for (ScalarType dt : kEveryDtype) {
    const Tensor y = iota({5, 7}, dt);
    for (int64_t step : {1, 2, 3, 8}) {
      for (int64_t start : {-9, -2, 0, 1, 6, 9}) {
        for (int64_t end : {-8, -1, 0, 3, 7, 10}) {
          // Python's range: clamp both bounds into [0, 7] after counting negatives from the end.
          auto clamp = [](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + 7 : v, 0, 7); };
          std::vector<int64_t> cols;
          for (int64_t c = clamp(start); c < clamp(end); c += step) cols.push_back(c);
          const Tensor s = y.slice(1, start, end, step);
          ASSERT_EQ(s.sizes(), IntArrayRef({5, static_cast<int64_t>(cols.size())})) << start << ":" << end << ":" << step;
          EXPECT_EQ(values(s), reference(s.sizes(), [&](const Coords& c) { return at(y, {c[0], cols[c[1]]}); }));
        }
      }
    }
  }
  expect_error<RuntimeError>([&] { x.slice(1, 0, 2, 0); }, "slice step cannot be zero");
  expect_error<RuntimeError>([&] { x.slice(1, 0, 2, -1); }, "slice step must be positive");
  expect_error<IndexError>([&] { x.slice(3); }, "Dimension out of range");
  expect_error<IndexError>([] { mt::tensor(1.f).slice(0, 0, 1); }, "slice() cannot be applied to a 0-dim tensor.");
}

TEST(ViewsSlicing, NarrowTakesALengthFromAStart) {
  const Tensor x = iota({2, 3, 4});
  expect_geometry(x.narrow(2, 1, 3), {2, 3, 3}, {12, 4, 1}, 1);
  expect_geometry(mt::narrow(x, 2, -1, 1), {2, 3, 1}, {12, 4, 1}, 3);
  expect_geometry(x.narrow(2, 4, 0), {2, 3, 0}, {12, 4, 1}, 4);
  expect_geometry(x.narrow(-3, 1, 1), {1, 3, 4}, {12, 4, 1}, 12);
  expect_view_of(x.narrow(1, 1, 2), x);
  EXPECT_EQ(values(x.narrow(1, 1, 2)), reference({2, 2, 4}, [&](const Coords& c) { return at(x, {c[0], c[1] + 1, c[2]}); }));
  expect_error<RuntimeError>([&] { x.narrow(2, 2, 3); }, "start (2) + length (3) exceeds dimension size (4).");
  expect_error<RuntimeError>([&] { x.narrow(2, -1, 2); }, "start (3) + length (2) exceeds dimension size (4).");
  expect_error<RuntimeError>([&] { x.narrow(2, 1, -1); }, "narrow(): length must be non-negative.");
  expect_error<IndexError>([&] { x.narrow(2, 5, 0); }, "start out of range (expected to be in range of [-4, 4], but got 5)");
  expect_error<IndexError>([&] { x.narrow(2, -5, 1); }, "start out of range (expected to be in range of [-4, 4], but got -5)");
  expect_error<IndexError>([&] { x.narrow(3, 0, 1); }, "Dimension out of range");
  expect_error<RuntimeError>([] { mt::tensor(1.f).narrow(0, 0, 1); }, "narrow() cannot be applied to a 0-dim tensor.");
}

TEST(ViewsSlicing, UnbindSelectsEveryIndex) {
  const Tensor x = iota({2, 3, 4});
  expect_pieces(x.unbind(1), x, {{{2, 4}, {12, 1}, 0}, {{2, 4}, {12, 1}, 4}, {{2, 4}, {12, 1}, 8}});
  expect_pieces(mt::unbind(x), x, {{{3, 4}, {4, 1}, 0}, {{3, 4}, {4, 1}, 12}});
  const auto cols = x.unbind(-1);
  ASSERT_EQ(cols.size(), 4u);
  EXPECT_EQ(values(cols[3]), reference({2, 3}, [&](const Coords& c) { return at(x, {c[0], c[1], 3}); }));
  EXPECT_TRUE(mt::zeros({0, 3}).unbind().empty());
  expect_error<IndexError>([] { mt::tensor(1.f).unbind(); }, "but tensor has no dimensions");
  expect_error<IndexError>([&] { x.unbind(3); }, "Dimension out of range");
}

TEST(ViewsSlicing, SplitCutsEqualPiecesAndAShorterLastOne) {
  const Tensor x = iota({2, 3, 4});
  expect_pieces(x.split(3, 2), x, {{{2, 3, 3}, {12, 4, 1}, 0}, {{2, 3, 1}, {12, 4, 1}, 3}});
  expect_pieces(mt::split(x, 5, 2), x, {{{2, 3, 4}, {12, 4, 1}, 0}});
  expect_pieces(x.split(1, -1), x,
                {{{2, 3, 1}, {12, 4, 1}, 0}, {{2, 3, 1}, {12, 4, 1}, 1}, {{2, 3, 1}, {12, 4, 1}, 2},
                 {{2, 3, 1}, {12, 4, 1}, 3}});
  const Tensor e = mt::zeros({0, 3});
  expect_pieces(e.split(0), e, {{{0, 3}, {3, 1}, 0}});
  expect_pieces(e.split(2), e, {{{0, 3}, {3, 1}, 0}});
  // With a list of sizes (split.sizes and split_with_sizes).
  expect_pieces(x.split({1, 3}, 2), x, {{{2, 3, 1}, {12, 4, 1}, 0}, {{2, 3, 3}, {12, 4, 1}, 1}});
  expect_pieces(mt::split_with_sizes(x, {2, 0, 1}, 1), x,
                {{{2, 2, 4}, {12, 4, 1}, 0}, {{2, 0, 4}, {12, 4, 1}, 8}, {{2, 1, 4}, {12, 4, 1}, 8}});
  EXPECT_TRUE(mt::zeros({0}).split_with_sizes({}).empty());
  const auto parts = x.split({1, 3}, 2);
  EXPECT_EQ(values(parts[1]), reference({2, 3, 3}, [&](const Coords& c) { return at(x, {c[0], c[1], c[2] + 1}); }));
  expect_error<RuntimeError>([&] { x.split(0, 2); }, "split_size can only be 0 if dimension size is 0, but got dimension size of 4");
  expect_error<RuntimeError>([&] { x.split(-1, 2); }, "split expects split_size be non-negative, but got split_size=-1");
  expect_error<RuntimeError>([] { mt::tensor(1.f).split(1); }, "split expects at least a 1-dimensional tensor");
  expect_error<RuntimeError>([] { mt::tensor(1.f).split_with_sizes({1}); }, "split expects at least a 1-dimensional tensor");
  expect_error<IndexError>([&] { x.split(2, 5); }, "Dimension out of range (expected to be in range of [-3, 2], but got 5)");
  expect_error<RuntimeError>([&] { x.split({1, 2}, 2); },
                             "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at dimension "
                             "2), but got split_sizes=[1, 2]");
  expect_error<RuntimeError>([&] { x.split_with_sizes({}, 2); }, "but got split_sizes=[]");
  expect_error<RuntimeError>([&] { x.split_with_sizes({1, -1, 4}, 2); },
                             "split_with_sizes expects split_sizes have only non-negative entries, but got "
                             "split_sizes=[1, -1, 4]");
}

TEST(ViewsSlicing, ChunkSplitsIntoAtMostNPieces) {
  const Tensor x = iota({2, 3, 4});
  expect_pieces(x.chunk(3, 2), x, {{{2, 3, 2}, {12, 4, 1}, 0}, {{2, 3, 2}, {12, 4, 1}, 2}});
  expect_pieces(mt::chunk(x, 5, 2), x,
                {{{2, 3, 1}, {12, 4, 1}, 0}, {{2, 3, 1}, {12, 4, 1}, 1}, {{2, 3, 1}, {12, 4, 1}, 2},
                 {{2, 3, 1}, {12, 4, 1}, 3}});
  expect_pieces(x.chunk(2, 1), x, {{{2, 2, 4}, {12, 4, 1}, 0}, {{2, 1, 4}, {12, 4, 1}, 8}});
  const Tensor five = mt::zeros({5}), six = mt::zeros({6});
  expect_pieces(five.chunk(4), five, {{{2}, {1}, 0}, {{2}, {1}, 2}, {{1}, {1}, 4}});
  expect_pieces(six.chunk(4), six, {{{2}, {1}, 0}, {{2}, {1}, 2}, {{2}, {1}, 4}});
  expect_pieces(six.chunk(5), six, {{{2}, {1}, 0}, {{2}, {1}, 2}, {{2}, {1}, 4}});
  const Tensor e = mt::zeros({0, 3});
  expect_pieces(e.chunk(2), e, {{{0, 3}, {3, 1}, 0}, {{0, 3}, {3, 1}, 0}});
  const Tensor m = mt::empty({7, 2}, meta_options());
  const auto pieces = m.chunk(3);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_TRUE(pieces[2].is_meta());
  expect_geometry(pieces[2], {1, 2}, {2, 1}, 12);
  expect_error<RuntimeError>([&] { x.chunk(0, 2); }, "chunk expects `chunks` to be greater than 0, got: 0");
  expect_error<RuntimeError>([] { mt::tensor(1.f).chunk(1); }, "chunk expects at least a 1-dimensional tensor");
}

}  // namespace
