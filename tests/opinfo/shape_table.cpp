// The rows of the shape ops. Each reference says, from the op's definition, which input element a result
// element is: transpose(0, 2) reads x[k, j, i] at [i, j, k].
#include <algorithm>

#include "opinfo/OpInfo.h"
#include "ops/api/adjoint.h"
#include "ops/api/as_strided.h"
#include "ops/api/broadcast_to.h"
#include "ops/api/chunk.h"
#include "ops/api/clone.h"
#include "ops/api/diagonal.h"
#include "ops/api/empty.h"
#include "ops/api/flatten.h"
#include "ops/api/flip.h"
#include "ops/api/moveaxis.h"
#include "ops/api/movedim.h"
#include "ops/api/narrow.h"
#include "ops/api/narrow_copy.h"
#include "ops/api/pad.h"
#include "ops/api/permute.h"
#include "ops/api/reshape.h"
#include "ops/api/roll.h"
#include "ops/api/rot90.h"
#include "ops/api/select.h"
#include "ops/api/slice.h"
#include "ops/api/split.h"
#include "ops/api/split_with_sizes.h"
#include "ops/api/squeeze.h"
#include "ops/api/swapaxes.h"
#include "ops/api/t.h"
#include "ops/api/tile.h"
#include "ops/api/transpose.h"
#include "ops/api/unbind.h"
#include "ops/api/unflatten.h"
#include "ops/api/unsqueeze.h"

namespace mt_test {

namespace {

using Index = std::vector<int64_t>;

// The input index holding the element at the same row-major position as `i` in `sizes`: the reference of
// the ops that keep the elements' order (view, reshape, flatten, unflatten).
std::function<Index(const Index&)> same_position(Index sizes, Index input) {
  return [sizes, input](const Index& i) {
    int64_t flat = 0;
    for (size_t d = 0; d < sizes.size(); ++d) flat = flat * sizes[d] + i[d];
    Index in(input.size());
    for (size_t d = input.size(); d-- > 0;) {
      in[d] = flat % input[d];
      flat /= input[d];
    }
    return in;
  };
}

}  // namespace

const std::vector<ShapeOpInfo>& shape_ops() {
  static const std::vector<ShapeOpInfo> rows{
      {.name = "view",
       .sample = "6_4",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return x.view({6, 4});
           },
       .sizes = {6, 4},
       .source = same_position({6, 4}, {2, 3, 4}),
       .viewable_only = true},
      {.name = "view",
       .sample = "inferred",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return x.view({-1}); },
       .sizes = {24},
       .source = same_position({24}, {2, 3, 4}),
       .viewable_only = true},
      {.name = "view_as",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return x.view_as(mt::empty({4, 6}));
           },
       .sizes = {4, 6},
       .source = same_position({4, 6}, {2, 3, 4}),
       .viewable_only = true},
      {.name = "reshape",
       .sample = "4_m1",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::reshape(x, {4, -1});
           },
       .sizes = {4, 6},
       .source = same_position({4, 6}, {2, 3, 4})},
      {.name = "reshape_as",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return x.reshape_as(mt::empty({3, 8}));
           },
       .sizes = {3, 8},
       .source = same_position({3, 8}, {2, 3, 4})},
      {.name = "flatten.using_ints",
       .sample = "1_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::flatten(x, 1, 2); },
       .sizes = {2, 12},
       .source = same_position({2, 12}, {2, 3, 4})},
      {.name = "unflatten.int",
       .sample = "2_2_2",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::unflatten(x, 2, std::vector<int64_t>{2, 2});
           },
       .sizes = {2, 3, 2, 2},
       .source = same_position({2, 3, 2, 2}, {2, 3, 4})},
      {.name = "squeeze",
       .input = {2, 1, 3, 1},
       .op = [](const Tensor& x) { return mt::squeeze(x); },
       .sizes = {2, 3},
       .source =
           [](const Index& i) {
             return Index{i[0], 0, i[1], 0};
           }},
      {.name = "squeeze.dim",
       .sample = "1",
       .input = {2, 1, 3, 1},
       .op = [](const Tensor& x) { return mt::squeeze(x, 1); },
       .sizes = {2, 3, 1},
       .source =
           [](const Index& i) {
             return Index{i[0], 0, i[1], i[2]};
           }},
      {.name = "unsqueeze",
       .sample = "1",
       .input = {2, 3},
       .op = [](const Tensor& x) { return mt::unsqueeze(x, 1); },
       .sizes = {2, 1, 3},
       .source =
           [](const Index& i) {
             return Index{i[0], i[2]};
           }},
      {.name = "unsqueeze",
       .sample = "m1",
       .input = {2, 3},
       .op = [](const Tensor& x) { return mt::unsqueeze(x, -1); },
       .sizes = {2, 3, 1},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1]};
           }},
      {.name = "transpose.int",
       .sample = "0_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::transpose(x, 0, 2); },
       .sizes = {4, 3, 2},
       .source =
           [](const Index& i) {
             return Index{i[2], i[1], i[0]};
           }},
      {.name = "t",
       .input = {3, 4},
       .op = [](const Tensor& x) { return mt::t(x); },
       .sizes = {4, 3},
       .source =
           [](const Index& i) {
             return Index{i[1], i[0]};
           }},
      // Result dim k is input dim dims[k].
      {.name = "permute",
       .sample = "2_0_1",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::permute(x, {2, 0, 1});
           },
       .sizes = {4, 2, 3},
       .source =
           [](const Index& i) {
             return Index{i[1], i[2], i[0]};
           }},
      // Dim 0 goes to position 2; the others keep their order.
      {.name = "movedim.int",
       .sample = "0_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::movedim(x, 0, 2); },
       .sizes = {3, 4, 2},
       .source =
           [](const Index& i) {
             return Index{i[2], i[0], i[1]};
           }},
      {.name = "movedim.intlist",
       .sample = "01_20",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::movedim(x, {0, 1}, {2, 0});
           },
       .sizes = {3, 4, 2},
       .source =
           [](const Index& i) {
             return Index{i[2], i[0], i[1]};
           }},
      {.name = "expand",
       .sample = "2_m1_4",
       .input = {3, 1},
       .op =
           [](const Tensor& x) {
             return x.expand({2, -1, 4});
           },
       .sizes = {2, 3, 4},
       .source =
           [](const Index& i) {
             return Index{i[1], 0};
           }},
      {.name = "expand_as",
       .input = {3, 1},
       .op =
           [](const Tensor& x) {
             return x.expand_as(mt::empty({3, 5}));
           },
       .sizes = {3, 5},
       .source =
           [](const Index& i) {
             return Index{i[0], 0};
           }},
      {.name = "select.int",
       .sample = "1_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::select(x, 1, 2); },
       .sizes = {2, 4},
       .source =
           [](const Index& i) {
             return Index{i[0], 2, i[1]};
           }},
      {.name = "select.int",
       .sample = "m1_m1",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::select(x, -1, -1); },
       .sizes = {2, 3},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1], 3};
           }},
      // Every second element of the last dim from 1: 1 and 3.
      {.name = "slice.Tensor",
       .sample = "2_1_none_2",
       .input = {2, 3, 5},
       .op = [](const Tensor& x) { return mt::slice(x, 2, 1, std::nullopt, 2); },
       .sizes = {2, 3, 2},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1], 1 + 2 * i[2]};
           }},
      // x.mT, x.mH and x.adjoint(): the last two dims swapped (no conjugate for real dtypes).
      {.name = "mT",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return x.mT(); },
       .sizes = {2, 4, 3},
       .source =
           [](const Index& i) {
             return Index{i[0], i[2], i[1]};
           }},
      {.name = "mH",
       .input = {3, 4},
       .op = [](const Tensor& x) { return x.mH(); },
       .sizes = {4, 3},
       .source =
           [](const Index& i) {
             return Index{i[1], i[0]};
           }},
      {.name = "adjoint",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::adjoint(x); },
       .sizes = {2, 4, 3},
       .source =
           [](const Index& i) {
             return Index{i[0], i[2], i[1]};
           }},
      // moveaxis is numpy's name for movedim.
      {.name = "moveaxis.int",
       .sample = "m1_0",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::moveaxis(x, -1, 0); },
       .sizes = {4, 2, 3},
       .source =
           [](const Index& i) {
             return Index{i[1], i[2], i[0]};
           }},
      {.name = "moveaxis.intlist",
       .sample = "02_10",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::moveaxis(x, {0, 2}, {1, 0});
           },
       .sizes = {4, 2, 3},
       .source =
           [](const Index& i) {
             return Index{i[1], i[2], i[0]};
           }},
      // narrow's elements, copied: positions 1 and 2 of the last dim.
      {.name = "narrow_copy",
       .sample = "2_1_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::narrow_copy(x, 2, 1, 2); },
       .sizes = {2, 3, 2},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1], i[2] + 1};
           },
       .view = false},
      {.name = "narrow",
       .sample = "2_1_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::narrow(x, 2, 1, 2); },
       .sizes = {2, 3, 2},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1], i[2] + 1};
           }},
      {.name = "unbind.int",
       .sample = "1_at_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::unbind(x, 1)[2]; },
       .sizes = {2, 4},
       .source =
           [](const Index& i) {
             return Index{i[0], 2, i[1]};
           }},
      // Pieces of 2 along a dim of 5: [0, 2), [2, 4) and the shorter [4, 5).
      {.name = "split.Tensor",
       .sample = "2_2_at_1",
       .input = {2, 3, 5},
       .op = [](const Tensor& x) { return mt::split(x, 2, 2)[1]; },
       .sizes = {2, 3, 2},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1], i[2] + 2};
           }},
      {.name = "split.Tensor",
       .sample = "2_2_at_2",
       .input = {2, 3, 5},
       .op = [](const Tensor& x) { return mt::split(x, 2, 2)[2]; },
       .sizes = {2, 3, 1},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1], 4};
           }},
      {.name = "split_with_sizes",
       .sample = "13_1_at_1",
       .input = {2, 4, 3},
       .op =
           [](const Tensor& x) {
             return mt::split_with_sizes(x, {1, 3}, 1)[1];
           },
       .sizes = {2, 3, 3},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1] + 1, i[2]};
           }},
      // Two chunks of a dim of 5 hold 3 and 2.
      {.name = "chunk",
       .sample = "2_0_at_1",
       .input = {5, 3},
       .op = [](const Tensor& x) { return mt::chunk(x, 2, 0)[1]; },
       .sizes = {2, 3},
       .source =
           [](const Index& i) {
             return Index{i[0] + 3, i[1]};
           }},
      // The diagonal of dims 0 and 2 one above the main one becomes the last dim: [j, k] reads x[k, j, k + 1].
      {.name = "diagonal",
       .sample = "1_0_2",
       .input = {3, 2, 4},
       .op = [](const Tensor& x) { return mt::diagonal(x, 1, 0, 2); },
       .sizes = {2, 3},
       .source =
           [](const Index& i) {
             return Index{i[1], i[0], i[1] + 1};
           }},
      // [i, j] reads the element 2 + i + 3 j after the input's first one, in a contiguous 4 x 4 input.
      {.name = "as_strided",
       .sample = "32_13_2",
       .input = {4, 4},
       .op =
           [](const Tensor& x) {
             return mt::as_strided(x, {3, 2}, {1, 3}, x.storage_offset() + 2);
           },
       .sizes = {3, 2},
       .source =
           [](const Index& i) {
             return Index{(2 + i[0] + 3 * i[1]) / 4, (2 + i[0] + 3 * i[1]) % 4};
           },
       .reads_storage = true},
      {.name = "contiguous",
       .input = {2, 3},
       .op = [](const Tensor& x) { return x.contiguous(); },
       .sizes = {2, 3},
       .source = [](const Index& i) { return i; }},
      {.name = "clone",
       .input = {2, 3},
       .op = [](const Tensor& x) { return mt::clone(x); },
       .sizes = {2, 3},
       .source = [](const Index& i) { return i; },
       .view = false},
      {.name = "broadcast_to",
       .input = {3, 1},
       .op = [](const Tensor& x) { return mt::broadcast_to(x, {2, 3, 4}); },
       .sizes = {2, 3, 4},
       .source = [](const Index& i) { return Index{i[1], 0}; }},
      {.name = "swapaxes",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::swapaxes(x, 0, -1); },
       .sizes = {4, 3, 2},
       .source = [](const Index& i) { return Index{i[2], i[1], i[0]}; }},
      {.name = "swapdims",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return x.swapdims(1, 2); },
       .sizes = {2, 4, 3},
       .source = [](const Index& i) { return Index{i[0], i[2], i[1]}; }},
      // roll: the element `shift` places back, wrapping; without dims, along the flattened tensor.
      {.name = "roll",
       .sample = "flat_2",
       .input = {2, 3},
       .op = [](const Tensor& x) { return mt::roll(x, {2}); },
       .sizes = {2, 3},
       .source =
           [](const Index& i) {
             const int64_t from = (i[0] * 3 + i[1] + 6 - 2) % 6;
             return Index{from / 3, from % 3};
           },
       .view = false},
      {.name = "roll",
       .sample = "1_m1_dims_0_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::roll(x, {1, -1}, {0, 2}); },
       .sizes = {2, 3, 4},
       .source = [](const Index& i) { return Index{(i[0] + 1) % 2, i[1], (i[2] + 1) % 4}; },
       .view = false},
      // rot90 by k quarter turns from dims[0] towards dims[1]: numpy's rot90 of [[a, b, c], [d, e, f]] is
      // [[c, f], [b, e], [a, d]].
      {.name = "rot90",
       .sample = "k1",
       .input = {2, 3},
       .op = [](const Tensor& x) { return mt::rot90(x); },
       .sizes = {3, 2},
       .source = [](const Index& i) { return Index{i[1], 2 - i[0]}; },
       .view = false},
      {.name = "rot90",
       .sample = "k2_dims_1_2",
       .input = {2, 3, 4},
       .op = [](const Tensor& x) { return mt::rot90(x, 2, {1, 2}); },
       .sizes = {2, 3, 4},
       .source = [](const Index& i) { return Index{i[0], 2 - i[1], 3 - i[2]}; },
       .view = false},
      {.name = "rot90",
       .sample = "km1",
       .input = {2, 3},
       .op = [](const Tensor& x) { return mt::rot90(x, -1); },
       .sizes = {3, 2},
       .source = [](const Index& i) { return Index{1 - i[1], i[0]}; },
       .view = false},
      // tile: repeat, with leading 1s where it names fewer repetitions than self has dims.
      {.name = "tile",
       .sample = "2",
       .input = {2, 3},
       .op = [](const Tensor& x) { return mt::tile(x, {2}); },
       .sizes = {2, 6},
       .source = [](const Index& i) { return Index{i[0], i[1] % 3}; },
       .view = false},
      {.name = "tile",
       .sample = "2_1_1",
       .input = {2, 3},
       .op = [](const Tensor& x) { return x.tile({2, 1, 1}); },
       .sizes = {2, 2, 3},
       .source = [](const Index& i) { return Index{i[1], i[2]}; },
       .view = false},
      {.name = "flip",
       .sample = "0_2",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::flip(x, {0, 2});
           },
       .sizes = {2, 3, 4},
       .source =
           [](const Index& i) {
             return Index{1 - i[0], i[1], 3 - i[2]};
           },
       .view = false},
      // The border modes of pad read input elements (constant padding is tests/ops/pad_test.cpp's).
      {.name = "pad",
       .sample = "reflect_2_1",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::pad(x, {2, 1}, "reflect");
           },
       .sizes = {2, 3, 7},
       .source =
           [](const Index& i) {
             const int64_t c = i[2] - 2;  // mirrored at the edges, which are not repeated
             return Index{i[0], i[1], c < 0 ? -c : c > 3 ? 6 - c : c};
           },
       .view = false},
      {.name = "pad",
       .sample = "replicate_1_1_1_2",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::pad(x, {1, 1, 1, 2}, "replicate");
           },
       .sizes = {2, 6, 6},
       .source =
           [](const Index& i) {
             return Index{i[0], std::clamp<int64_t>(i[1] - 1, 0, 2), std::clamp<int64_t>(i[2] - 1, 0, 3)};
           },
       .view = false},
      {.name = "pad",
       .sample = "circular_3_2",
       .input = {2, 3, 4},
       .op =
           [](const Tensor& x) {
             return mt::pad(x, {3, 2}, "circular");
           },
       .sizes = {2, 3, 9},
       .source =
           [](const Index& i) {
             return Index{i[0], i[1], (i[2] - 3 + 4) % 4};
           },
       .view = false},
  };
  return rows;
}

}  // namespace mt_test
