// The rows of the indexing and joining ops. Each reference names, from the op's definition and the row's
// fixed indices, the input elements a result element sums: gather(x, 1, [[0, 0], [2, 1]]) reads x[1, 2] at
// [1, 0].
#include <optional>

#include "opinfo/OpInfo.h"
#include "ops/api/cat.h"
#include "ops/api/col2im.h"
#include "ops/api/diag.h"
#include "ops/api/diag_embed.h"
#include "ops/api/diagflat.h"
#include "ops/api/gather.h"
#include "ops/api/im2col.h"
#include "ops/api/index_select.h"
#include "ops/api/put.h"
#include "ops/api/scatter.h"
#include "ops/api/scatter_add.h"
#include "ops/api/stack.h"
#include "ops/api/take.h"
#include "ops/api/take_along_dim.h"
#include "ops/api/tril.h"
#include "ops/api/triu.h"

namespace mt_test {

namespace {

using Index = std::vector<int64_t>;
using Sources = std::vector<IndexingOpInfo::Source>;
using Inputs = std::vector<Tensor>;
using mt::autocast::CastPolicy;

// The row's fixed index (int64) on the device of the op's first input: Meta and CUDA rows run unchanged.
Tensor index_like(const Tensor& x, std::initializer_list<int64_t> index) { return mt::tensor(index).to(x.device()); }
Tensor index_like(const Tensor& x, std::initializer_list<std::initializer_list<int64_t>> index) {
  return mt::tensor(index).to(x.device());
}

// scatter's and scatter_add's index along dim 1 of a 2 x 3 self, with src of 2 x 2: row i of src goes to
// columns kScatter[i] of self's row i.
constexpr int64_t kScatter[2][2] = {{0, 2}, {1, 0}};
constexpr int64_t kScatterAdd[2][2] = {{0, 0}, {2, 0}};  // repeated columns sum

// im2col's sliding blocks over images of kHeight x kWidth: a 2 x 2 kernel with dilation (1, 2), padding
// (1, 0) and stride (2, 1) gives 2 x 2 blocks.
constexpr int64_t kHeight = 3, kWidth = 4, kBlocksH = 2, kBlocksW = 2;
constexpr int64_t kKernel[] = {2, 2}, kDilation[] = {1, 2}, kPadding[] = {1, 0}, kStride[] = {2, 1};

// The image element [c, r, x] that column element [row, block] holds, or none in the padding.
std::optional<Index> im2col_source(int64_t row, int64_t block) {
  const int64_t c = row / (kKernel[0] * kKernel[1]), i = row / kKernel[1] % kKernel[0], j = row % kKernel[1];
  const int64_t r = block / kBlocksW * kStride[0] - kPadding[0] + i * kDilation[0];
  const int64_t x = block % kBlocksW * kStride[1] - kPadding[1] + j * kDilation[1];
  if (r < 0 || r >= kHeight || x < 0 || x >= kWidth) return std::nullopt;
  return Index{c, r, x};
}

}  // namespace

const std::vector<IndexingOpInfo>& indexing_ops() {
  static const std::vector<IndexingOpInfo> rows{
      {.name = "cat",
       .sample = "dim0",
       .inputs = {{2, 3}, {1, 3}, {2, 3}},
       .op = [](const Inputs& v) { return mt::cat(v, 0); },
       .sizes = {5, 3},
       .sources =
           [](const Index& i) {
             if (i[0] < 2) return Sources{{0, i}};
             if (i[0] < 3) return Sources{{1, {i[0] - 2, i[1]}}};
             return Sources{{2, {i[0] - 3, i[1]}}};
           },
       .cpu_autocast = CastPolicy::promote,
       .cuda_autocast = CastPolicy::promote},
      {.name = "cat",
       .sample = "dim1",
       .inputs = {{2, 1}, {2, 3}},
       .op = [](const Inputs& v) { return mt::cat(v, 1); },
       .sizes = {2, 4},
       .sources =
           [](const Index& i) {
             return i[1] < 1 ? Sources{{0, i}} : Sources{{1, {i[0], i[1] - 1}}};
           },
       .cpu_autocast = CastPolicy::promote,
       .cuda_autocast = CastPolicy::promote},
      {.name = "stack",
       .sample = "dim1",
       .inputs = {{2, 3}, {2, 3}},
       .op = [](const Inputs& v) { return mt::stack(v, 1); },
       .sizes = {2, 2, 3},
       .sources =
           [](const Index& i) {
             return Sources{{static_cast<size_t>(i[1]), {i[0], i[2]}}};
           },
       .cpu_autocast = CastPolicy::promote,
       .cuda_autocast = CastPolicy::promote},
      {.name = "repeat",
       .sample = "2_1_2",
       .inputs = {{2, 3}},
       .op =
           [](const Inputs& v) {
             return v[0].repeat({2, 1, 2});
           },
       .sizes = {2, 2, 6},
       .sources =
           [](const Index& i) {
             return Sources{{0, {i[1], i[2] % 3}}};
           }},
      {.name = "index_select",
       .sample = "dim1",
       .inputs = {{2, 3}},
       .op =
           [](const Inputs& v) {
             return mt::index_select(v[0], 1, index_like(v[0], {2, 0, 2}));
           },
       .sizes = {2, 3},
       .sources =
           [](const Index& i) {
             constexpr int64_t index[] = {2, 0, 2};
             return Sources{{0, {i[0], index[i[1]]}}};
           }},
      {.name = "gather",
       .sample = "dim1",
       .inputs = {{2, 3}},
       .op =
           [](const Inputs& v) {
             return mt::gather(v[0], 1, index_like(v[0], {{0, 0}, {2, 1}}));
           },
       .sizes = {2, 2},
       .sources =
           [](const Index& i) {
             constexpr int64_t index[2][2] = {{0, 0}, {2, 1}};
             return Sources{{0, {i[0], index[i[0]][i[1]]}}};
           }},
      {.name = "scatter.src",
       .sample = "dim1",
       .inputs = {{2, 3}, {2, 2}},
       .op =
           [](const Inputs& v) {
             return mt::scatter(v[0], 1, index_like(v[0], {{0, 2}, {1, 0}}), v[1]);
           },
       .inplace = [](Tensor& self, const Inputs& v) -> Tensor& {
         return self.scatter_(1, index_like(self, {{0, 2}, {1, 0}}), v[1]);
       },
       .sizes = {2, 3},
       .sources =
           [](const Index& i) {
             for (int64_t j = 0; j < 2; ++j)
               if (kScatter[i[0]][j] == i[1]) return Sources{{1, {i[0], j}}};
             return Sources{{0, i}};
           }},
      {.name = "scatter_add",
       .sample = "dim1",
       .inputs = {{2, 3}, {2, 2}},
       .op =
           [](const Inputs& v) {
             return mt::scatter_add(v[0], 1, index_like(v[0], {{0, 0}, {2, 0}}), v[1]);
           },
       .inplace = [](Tensor& self, const Inputs& v) -> Tensor& {
         return self.scatter_add_(1, index_like(self, {{0, 0}, {2, 0}}), v[1]);
       },
       .sizes = {2, 3},
       .sources =
           [](const Index& i) {
             Sources s{{0, i}};
             for (int64_t j = 0; j < 2; ++j)
               if (kScatterAdd[i[0]][j] == i[1]) s.push_back({1, {i[0], j}});
             return s;
           },
       .cuda_autocast = CastPolicy::promote},
      // take reads self as if flattened: 5 is [1, 2].
      {.name = "take",
       .inputs = {{2, 3}},
       .op =
           [](const Inputs& v) {
             return mt::take(v[0], index_like(v[0], {{0, 5}, {3, 3}}));
           },
       .sizes = {2, 2},
       .sources =
           [](const Index& i) {
             constexpr int64_t index[2][2] = {{0, 5}, {3, 3}};
             const int64_t flat = index[i[0]][i[1]];
             return Sources{{0, {flat / 3, flat % 3}}};
           }},
      // Along dim 1, index [2, 1] broadcasts against x's 2 rows: row r reads x[r][index[0][c]].
      {.name = "take_along_dim",
       .sample = "dim1",
       .inputs = {{2, 3}},
       .op =
           [](const Inputs& v) {
             return mt::take_along_dim(v[0], index_like(v[0], {{2, 1}}), 1);
           },
       .sizes = {2, 2},
       .sources =
           [](const Index& i) {
             constexpr int64_t index[2] = {2, 1};
             return Sources{{0, {i[0], index[i[1]]}}};
           }},
      // Without a dim: the flattened input, at the flattened index (a 1-D result).
      {.name = "take_along_dim",
       .sample = "flat",
       .inputs = {{2, 3}},
       .op =
           [](const Inputs& v) {
             return mt::take_along_dim(v[0], index_like(v[0], {{5, 0}, {3, 3}}));
           },
       .sizes = {4},
       .sources =
           [](const Index& i) {
             constexpr int64_t index[4] = {5, 0, 3, 3};
             return Sources{{0, {index[i[0]] / 3, index[i[0]] % 3}}};
           }},
      // A vector on the diagonal one above the main one of a 4 x 4 matrix; zeros (no source) elsewhere.
      {.name = "diag",
       .sample = "vector_1",
       .inputs = {{3}},
       .op = [](const Inputs& v) { return mt::diag(v[0], 1); },
       .sizes = {4, 4},
       .sources =
           [](const Index& i) {
             return i[1] == i[0] + 1 ? Sources{{0, {i[0]}}} : Sources{};
           }},
      // A matrix's diagonal one below the main one: x[1][0], x[2][1].
      {.name = "diag",
       .sample = "matrix_m1",
       .inputs = {{3, 4}},
       .op = [](const Inputs& v) { return mt::diag(v[0], -1); },
       .sizes = {2},
       .sources =
           [](const Index& i) {
             return Sources{{0, {i[0] + 1, i[0]}}};
           }},
      // Each row of a 2 x 3 input on the diagonal one below the main one of a 4 x 4 plane at dims 0 and 2:
      // result[i][b][j] = x[b][j] where i == j + 1.
      {.name = "diag_embed",
       .sample = "m1_0_2",
       .inputs = {{2, 3}},
       .op = [](const Inputs& v) { return mt::diag_embed(v[0], -1, 0, 2); },
       .sizes = {4, 2, 4},
       .sources =
           [](const Index& i) {
             return i[0] == i[2] + 1 ? Sources{{0, {i[1], i[2]}}} : Sources{};
           }},
      // Every element of a 2 x 2 input, in order, on the main diagonal of a 4 x 4 matrix.
      {.name = "diagflat",
       .inputs = {{2, 2}},
       .op = [](const Inputs& v) { return mt::diagflat(v[0]); },
       .sizes = {4, 4},
       .sources =
           [](const Index& i) {
             return i[0] == i[1] ? Sources{{0, {i[0] / 2, i[0] % 2}}} : Sources{};
           }},
      {.name = "put",
       .sample = "replace",
       .inputs = {{2, 3}, {2}},
       .op =
           [](const Inputs& v) {
             return mt::put(v[0], index_like(v[0], {4, 0}), v[1]);
           },
       .sizes = {2, 3},
       .sources =
           [](const Index& i) {
             const int64_t flat = i[0] * 3 + i[1];
             if (flat == 4) return Sources{{1, {0}}};
             if (flat == 0) return Sources{{1, {1}}};
             return Sources{{0, i}};
           }},
      {.name = "put",
       .sample = "accumulate",
       .inputs = {{2, 3}, {2}},
       .op =
           [](const Inputs& v) {
             return mt::put(v[0], index_like(v[0], {4, 4}), v[1], true);
           },
       .sizes = {2, 3},
       .sources =
           [](const Index& i) {
             return i[0] * 3 + i[1] == 4 ? Sources{{0, i}, {1, {0}}, {1, {1}}} : Sources{{0, i}};
           }},
      // Below or on the diagonal one above the main one; zeros (no source) above it.
      {.name = "tril",
       .sample = "1",
       .inputs = {{3, 4}},
       .op = [](const Inputs& v) { return mt::tril(v[0], 1); },
       .inplace = [](Tensor& self, const Inputs&) -> Tensor& { return self.tril_(1); },
       .sizes = {3, 4},
       .sources =
           [](const Index& i) {
             return i[1] <= i[0] + 1 ? Sources{{0, i}} : Sources{};
           }},
      {.name = "triu",
       .sample = "m1",
       .inputs = {{2, 3, 4}},
       .op = [](const Inputs& v) { return mt::triu(v[0], -1); },
       .inplace = [](Tensor& self, const Inputs&) -> Tensor& { return self.triu_(-1); },
       .sizes = {2, 3, 4},
       .sources =
           [](const Index& i) {
             return i[2] >= i[1] - 1 ? Sources{{0, i}} : Sources{};
           }},
      // 2 images of 2 channels as 8 rows (channel, tap) of 4 blocks.
      {.name = "im2col", .sample = "batch", .inputs = {{2, 2, kHeight, kWidth}},
       .op = [](const Inputs& v) { return mt::im2col(v[0], kKernel, kDilation, kPadding, kStride); },
       .sizes = {2, 8, kBlocksH * kBlocksW},
       .sources =
           [](const Index& i) {
             const std::optional<Index> at = im2col_source(i[1], i[2]);
             if (!at) return Sources{};
             return Sources{{0, {i[0], (*at)[0], (*at)[1], (*at)[2]}}};
           }},
      {.name = "im2col", .sample = "one_image", .inputs = {{2, kHeight, kWidth}},
       .op = [](const Inputs& v) { return mt::im2col(v[0], kKernel, kDilation, kPadding, kStride); },
       .sizes = {8, kBlocksH * kBlocksW},
       .sources =
           [](const Index& i) {
             const std::optional<Index> at = im2col_source(i[0], i[1]);
             return at ? Sources{{0, *at}} : Sources{};
           }},
      // Each image element sums the column elements im2col would copy from it.
      {.name = "col2im", .sample = "batch", .inputs = {{2, 8, kBlocksH * kBlocksW}},
       .op = [](const Inputs& v) {
         return mt::col2im(v[0], {kHeight, kWidth}, kKernel, kDilation, kPadding, kStride);
       },
       .sizes = {2, 2, kHeight, kWidth},
       .sources =
           [](const Index& i) {
             Sources s;
             for (int64_t row = 0; row < 8; ++row)
               for (int64_t block = 0; block < kBlocksH * kBlocksW; ++block)
                 if (im2col_source(row, block) == Index{i[1], i[2], i[3]}) s.push_back({0, {i[0], row, block}});
             return s;
           }},
  };
  return rows;
}

}  // namespace mt_test
