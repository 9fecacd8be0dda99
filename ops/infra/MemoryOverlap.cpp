#include "ops/infra/MemoryOverlap.h"

#include "ops/Views.h"
#include "tensor/Error.h"

namespace mt {

namespace {

enum class Overlap { None, SameElements, Partial, TooHard };

Overlap overlap_of(const Tensor& out, const Tensor& in) {
  if (out.numel() == 0 || in.numel() == 0 || !shares_storage(out, in)) return Overlap::None;
  if (out.unsafeGetTensorImpl() == in.unsafeGetTensorImpl()) return Overlap::SameElements;
  if (!is_non_overlapping_and_dense(out.sizes(), out.strides()) ||
      !is_non_overlapping_and_dense(in.sizes(), in.strides()))
    return Overlap::TooHard;
  const int64_t out_begin = out.storage_offset() * static_cast<int64_t>(out.element_size());
  const int64_t in_begin = in.storage_offset() * static_cast<int64_t>(in.element_size());
  const int64_t out_end = out_begin + static_cast<int64_t>(out.nbytes());
  const int64_t in_end = in_begin + static_cast<int64_t>(in.nbytes());
  if (out_begin == in_begin && out_end == in_end && out.strides() == in.strides()) return Overlap::SameElements;
  return out_end <= in_begin || in_end <= out_begin ? Overlap::None : Overlap::Partial;
}

[[noreturn]] void throw_input_overlap() {
  detail::throw_error<RuntimeError>(
      "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
      "location. Please clone() the tensor before performing the operation.");
}

}  // namespace

bool shares_storage(const Tensor& a, const Tensor& b) {
  const StorageImpl* storage = a.unsafeGetTensorImpl()->storage().get();
  return storage != nullptr && storage == b.unsafeGetTensorImpl()->storage().get();
}

void check_no_internal_overlap(const Tensor& out) {
  if (out.numel() == 0) return;  // nothing is written
  for (int64_t d = 0; d < out.dim(); ++d) {
    MT_CHECK(out.stride(d) != 0 || out.size(d) <= 1,
             "unsupported operation: more than one element of the written-to tensor refers to a single memory "
             "location. Please clone() the tensor before performing the operation.");
  }
}

void check_no_partial_overlap(const Tensor& out, const Tensor& in) {
  if (overlap_of(out, in) == Overlap::Partial) throw_input_overlap();
}

void check_no_overlap(const Tensor& out, const Tensor& in) {
  const Overlap o = overlap_of(out, in);
  if (o == Overlap::Partial || o == Overlap::SameElements) throw_input_overlap();
}

}  // namespace mt
