// flip, roll, rot90, tile, pad, narrow_copy, broadcast_tensors and meshgrid as compositions: an index_select per dim (reversed positions; the
// positions a reflected, replicated or circular border reads), a cat of two narrows per rolled dim, flips
// and a transpose, repeat, or a cat with constant blocks, so every layer (CUDA, Meta, autograd, vmap)
// handles them through index_select, cat, narrow and repeat; narrow_copy is narrow's view, copied;
// broadcast_tensors and meshgrid give expanded views.
#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/arange.h"
#include "ops/api/cat.h"
#include "ops/infra/TensorIterator.h"
#include "ops/ReduceOps.h"
#include "ops/Views.h"

namespace mt {
namespace {

Tensor flip_default(const Tensor& self, IntArrayRef dims) {
  // Refuses a dim named twice, as PyTorch does.
  const DimMask mask = make_dim_mask(dims, self.dim(), /*empty_means_all=*/false);
  Tensor out;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!(mask >> d & 1) || self.size(d) < 2) continue;
    const Tensor reversed = arange(self.size(d) - 1, -1, -1, TensorOptions().dtype(kInt64).device(self.device()));
    out = (out.defined() ? out : self).index_select(d, reversed);
  }
  return out.defined() ? out : self.clone();
}

// self rolled by `shift` along dim d (the last `shift` positions first), or self itself for whole turns.
Tensor roll_dim(const Tensor& self, int64_t shift, int64_t d) {
  const int64_t size = self.size(d);
  const int64_t start = ((size - shift) % size + size) % size;
  if (start == 0) return self;
  return mt::cat({self.narrow(d, start, size - start), self.narrow(d, 0, start)}, d);
}

// Without dims, the flattened tensor rolls and keeps self's shape.
Tensor roll_default(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  MT_CHECK(!shifts.empty(), "`shifts` required");
  const bool flat = dims.empty() && shifts.size() == 1;
  MT_CHECK(flat || shifts.size() == dims.size(), "shifts and dimensions must align. shifts: ", shifts.size(),
           ", dims:", dims.size());
  DimVector wrapped;
  for (int64_t d : dims) wrapped.push_back(maybe_wrap_dim(d, self.dim()));
  if (self.numel() == 0) return self.clone();
  if (flat) {
    const Tensor line = self.reshape({self.numel()});
    const Tensor rolled = roll_dim(line, shifts[0], 0);
    return rolled.is_same(line) ? self.clone() : rolled.view(self.sizes());
  }
  Tensor out = self;
  for (size_t i = 0; i < shifts.size(); ++i) out = roll_dim(out, shifts[i], wrapped[i]);
  return out.is_same(self) ? self.clone() : out;
}

// k quarter turns from dims[0] towards dims[1], as PyTorch: flips and a transpose.
Tensor rot90_default(const Tensor& self, int64_t k, IntArrayRef dims) {
  const int64_t total = self.dim();
  MT_CHECK(dims.size() == 2, "expected total rotation dims == 2, but got dims = ", dims.size());
  MT_CHECK(total >= 2, "expected total dims >= 2, but got total dims = ", total);
  MT_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != total,
           "expected rotation dims to be different, but got dim0 = ", dims[0], " and dim1 = ", dims[1]);
  MT_CHECK(dims[0] < total && dims[0] >= -total, "Rotation dim0 out of range, dim0 = ", dims[0]);
  MT_CHECK(dims[1] < total && dims[1] >= -total, "Rotation dim1 out of range, dim1 = ", dims[1]);
  switch ((k % 4 + 4) % 4) {
    case 1: return self.flip({dims[1]}).transpose(dims[0], dims[1]);
    case 2: return self.flip(dims);
    case 3: return self.flip({dims[0]}).transpose(dims[0], dims[1]);
    default: return self.clone();
  }
}

// narrow's elements in a new contiguous tensor.
Tensor narrow_copy_default(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  const Tensor part = self.narrow(dim, start, length);
  return part.is_contiguous() ? part.clone() : part.contiguous();
}

// repeat, with leading 1s when there are fewer repetitions than dims.
Tensor tile_default(const Tensor& self, IntArrayRef dims) {
  const int64_t missing = self.dim() - static_cast<int64_t>(dims.size());
  if (missing <= 0) return self.repeat(dims);
  DimVector reps;
  for (int64_t i = 0; i < missing; ++i) reps.push_back(1);
  for (int64_t r : dims) reps.push_back(r);
  return self.repeat(reps);
}

// The positions of a dim of `size` that a border of `before` and `after` elements reads, in order.
std::vector<int64_t> border_positions(std::string_view mode, int64_t size, int64_t before, int64_t after) {
  std::vector<int64_t> at;
  for (int64_t i = -before; i < size + after; ++i) {
    if (mode == "reflect") {
      at.push_back(i < 0 ? -i : i >= size ? 2 * (size - 1) - i : i);
    } else if (mode == "replicate") {
      at.push_back(std::clamp<int64_t>(i, 0, size - 1));
    } else {  // circular
      at.push_back((i % size + size) % size);
    }
  }
  return at;
}

// F.pad: `pad` lists (before, after) pairs from the last dim backwards; a negative amount crops (constant
// mode). The other modes pad the last 1 to 3 dims of an input with one or two more (batch, channels).
Tensor pad_default(const Tensor& self, IntArrayRef pad, std::string_view mode, std::optional<double> value) {
  MT_CHECK(pad.size() % 2 == 0, "Padding length must be divisible by 2");
  const int64_t dims = static_cast<int64_t>(pad.size()) / 2;
  MT_CHECK(dims <= self.dim(), "Padding length should be less than or equal to two times the input dimension but "
           "got padding length ", pad.size(), " and input of dimension ", self.dim());
  const bool constant = mode == "constant";
  MT_CHECK(constant || mode == "reflect" || mode == "replicate" || mode == "circular", "Unrecognised padding mode ",
           mode);
  MT_CHECK(constant || !value || *value == 0, "Padding mode \"", mode,
           "\" doesn't take in value argument");
  if (!constant) {
    MT_CHECK_AS(NotImplementedError, dims <= 3 && self.dim() >= dims + 1 && self.dim() <= dims + 2, "Only 2D, 3D, 4D, "
                "5D padding with non-constant padding are supported for now: ", mode, " pads ", dims,
                " trailing dims of an input with 1 or 2 dims before them, but got an input of size ", self.sizes());
  }
  Tensor out = self;
  bool copied = false;  // the result is a new tensor, never a view of self
  for (int64_t k = 0; k < dims; ++k) {
    const int64_t d = self.dim() - 1 - k, before = pad[2 * k], after = pad[2 * k + 1], size = out.size(d);
    if (constant) {
      // Crop first, then add constant blocks.
      const int64_t start = std::max<int64_t>(-before, 0), stop = size - std::max<int64_t>(-after, 0);
      MT_CHECK(stop >= start, "The input size ", size, ", plus negative padding ", before, " and ", after,
               " resulted in a negative output size, which is invalid. Check dimension ", d, " of your input.");
      if (start > 0 || stop < size) out = out.narrow(d, start, stop - start);
      const auto block = [&](int64_t n) {
        std::vector<int64_t> sizes = out.sizes().vec();
        sizes[d] = n;
        return full(sizes, value.value_or(0.0), out.options());
      };
      if (before > 0 || after > 0) {
        std::vector<Tensor> parts;
        if (before > 0) parts.push_back(block(before));
        parts.push_back(out);
        if (after > 0) parts.push_back(block(after));
        out = mt::cat(parts, d);
        copied = true;
      }
      continue;
    }
    MT_CHECK(before >= 0 && after >= 0, "Negative padding is only supported in constant mode, but got ", before,
             " and ", after, " for dimension ", d);
    if (mode == "reflect") {
      MT_CHECK(before < size && after < size, "Argument #4: Padding size should be less than the corresponding input "
               "dimension, but got: padding (", before, ", ", after, ") at dimension ", d, " of input ", self.sizes());
    } else if (mode == "circular") {
      MT_CHECK(before <= size && after <= size, "Padding value causes wrapping around more than once.");
    } else {
      MT_CHECK(size > 0, "input tensor must have a non-zero size in dimension ", d, " to be padded by replicate");
    }
    const std::vector<int64_t> at = border_positions(mode, size, before, after);
    out = out.index_select(d, mt::tensor(at, TensorOptions(kInt64).device(self.device())));
    copied = true;
  }
  return copied ? out : out.clone();
}

// Every tensor expanded to the shape they all broadcast to.
std::vector<Tensor> broadcast_tensors_default(ArrayRef<Tensor> tensors) {
  SmallVector<int64_t, 5> shape;
  for (const Tensor& t : tensors) shape = infer_size(shape, t.sizes());
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(t.expand(shape));
  return out;
}

// Grids over the tensors' values: with "ij" indexing, grid i holds tensors[i]'s values along dim i (a 0-d
// tensor counts as one value); "xy" swaps the first two dims, as numpy's default.
std::vector<Tensor> meshgrid_indexing(ArrayRef<Tensor> tensors, std::string_view indexing) {
  const size_t n = tensors.size();
  MT_CHECK(n > 0, "meshgrid expects a non-empty TensorList");
  for (size_t i = 0; i + 1 < n; ++i) {
    MT_CHECK(tensors[i].dtype() == tensors[i + 1].dtype(), "meshgrid expects all tensors to have the same dtype");
    MT_CHECK(tensors[i].device() == tensors[i + 1].device(), "meshgrid expects all tensors to have the same device");
  }
  MT_CHECK(indexing == "xy" || indexing == "ij", "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
           "received: ", indexing);
  std::vector<Tensor> inputs(tensors.begin(), tensors.end());
  const bool swap = indexing == "xy" && n >= 2;
  if (swap) std::swap(inputs[0], inputs[1]);
  std::vector<int64_t> shape;
  for (const Tensor& t : inputs) {
    MT_CHECK(t.dim() <= 1, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of size ",
             t.sizes());
    shape.push_back(t.numel());
  }
  std::vector<Tensor> grids;
  std::vector<int64_t> view_shape(n, 1);
  for (size_t i = 0; i < n; ++i) {
    view_shape[i] = -1;
    grids.push_back(inputs[i].view(view_shape).expand(shape));
    view_shape[i] = 1;
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}

std::vector<Tensor> meshgrid_default(ArrayRef<Tensor> tensors) { return meshgrid_indexing(tensors, "ij"); }

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) {
  m.impl("flip", MT_FN(flip_default));
  m.impl("roll", MT_FN(roll_default));
  m.impl("rot90", MT_FN(rot90_default));
  m.impl("tile", MT_FN(tile_default));
  m.impl("pad", MT_FN(pad_default));
  m.impl("narrow_copy", MT_FN(narrow_copy_default));
  m.impl("broadcast_tensors", MT_FN(broadcast_tensors_default));
  m.impl("meshgrid", MT_FN(meshgrid_default));
  m.impl("meshgrid.indexing", MT_FN(meshgrid_indexing));
}

}  // namespace mt
